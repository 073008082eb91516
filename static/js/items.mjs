// items.mjs: the "mixed item representation" warning at the top of the
// overview, from GET .../commits/{rev}/object-items.
//
// Object-array items live in the array's data buffer: either every place
// treats it as PyObject ** or every place as HPyField * (DOMAIN.md, "Why
// object dtype is special").  When a commit has both, the overview says so
// and lists every remaining PyObject * item site (file, function, line,
// each linking to the file page at that line): the list that must reach
// zero before the test suite can run in universal mode.

import { getJson, commitBase } from './api.mjs';
import { h, replace, fmt, pathNodes } from './dom.mjs';
import { fileHref } from './ui.mjs';

/** GET .../object-items; failures throw ApiError. */
export const objectItems = (repo, rev) => getJson(`${commitBase(repo, rev)}/object-items`);

/** Fills root with the warning and the site list when the commit is mixed; hides it otherwise. */
export async function mountObjectItems(root, { repo, rev }) {
  const d = await objectItems(repo, rev);
  // Sites are lines at one commit: their links name it (they would drift with the ref).
  const at = d.commit ?? rev;
  root.hidden = !d.mixed;
  if (!d.mixed) { replace(root); return d; }
  const n = d.legacy_site_count;
  replace(root,
    h('p', { class: 'warn', id: 'mixed-warning' },
      h('strong', null, 'Mixed item representation: '),
      h('span', { dataset: { metric: 'items-legacy' } }, fmt(n)),
      ` ${n === 1 ? 'place still reads or writes' : 'places still read or write'} object-array items as `,
      h('code', null, 'PyObject *'), ' while ',
      h('span', { dataset: { metric: 'items-field' } }, fmt(d.field_site_count)),
      ` ${d.field_site_count === 1 ? 'uses' : 'use'} `, h('code', null, 'HPyField'),
      '. In universal mode the data buffer must be read one way everywhere: every site below must move to HPyField before the test suite can run in universal mode.'),
    h('details', { class: 'items-details', open: n <= 12 },
      h('summary', null, `The ${fmt(n)} remaining PyObject * item ${n === 1 ? 'site' : 'sites'}`),
      h('table', { class: 'data items', id: 'items-table' },
        h('thead', null, h('tr', null, h('th', null, 'File'), h('th', null, 'Function'), h('th', { class: 'num' }, 'Line'),
          h('th', null, 'Access'))),
        h('tbody', null, d.legacy_sites.map((s) => h('tr', { dataset: { path: s.path, line: s.line } },
          h('td', { class: 'path' }, h('a', { href: fileHref(repo, at, s.path) }, pathNodes(s.path))),
          h('td', null, s.function ? h('code', null, s.function) : h('span', { class: 'muted' }, 'file scope')),
          h('td', { class: 'num' }, h('a', { href: fileHref(repo, at, s.path, s.line), class: 'line-link' }, String(s.line))),
          h('td', null, h('code', null, s.text ?? ''))))))));
  return d;
}
