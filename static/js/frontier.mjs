// frontier.mjs: the "next to port" panel of the overview, from
// GET .../commits/{rev}/frontier.
//
// The frontier: legacy or bridged functions whose callees inside the
// repository are all ported or neutral, so each can be converted on its
// own; ranked by how many bridged or ported functions call them today
// (converting one removes the bridges those callers cross).

import { h, replace, fmt, pathNodes } from './dom.mjs';
import { fileHref, statusBadge } from './ui.mjs';
import { getJson } from './traverse.mjs';

const seg = (s) => encodeURIComponent(String(s));

/** GET .../frontier?limit=N */
export const frontier = (repo, rev, limit = 25) =>
  getJson(`api/v1/repos/${seg(repo)}/commits/${seg(rev)}/frontier?limit=${limit}`);

/** Fills root with the top of the frontier at repo/rev. */
export async function mountFrontier(root, { repo, rev, limit = 25 }) {
  const d = await frontier(repo, rev, limit);
  root.hidden = false;
  replace(root,
    h('h2', { id: 'frontier-h' }, 'Next to port'),
    h('p', { class: 'small' },
      h('span', { dataset: { metric: 'frontier-candidates' } }, fmt(d.candidates)),
      ` legacy or bridged ${d.candidates === 1 ? 'function has' : 'functions have'} only ported or neutral callees in the repository and at least one bridged or ported caller: each can be converted on its own. `,
      'Most callers first: converting those removes the most bridges.',
      d.candidates > d.functions.length ? ` The first ${fmt(d.functions.length)} are listed.` : ''),
    d.functions.length
      ? h('table', { class: 'data frontier', id: 'frontier-table' },
        h('thead', null, h('tr', null, h('th', null, 'Function'), h('th', null, 'File'), h('th', null, 'Status'),
          h('th', { class: 'num', title: 'bridged or ported functions that call it' }, 'Bridged callers'),
          h('th', { class: 'num', title: 'in-repository callees, all ported or neutral' }, 'Callees ported'))),
        h('tbody', null, d.functions.map((f) => h('tr', { dataset: { name: f.name, path: f.path } },
          h('td', null, h('a', { href: fileHref(repo, rev, f.path, f.start_line) }, h('code', null, f.name))),
          h('td', { class: 'path' }, pathNodes(f.path)),
          h('td', null, statusBadge(f.status)),
          h('td', { class: 'num', dataset: { metric: 'bridged-callers' } }, fmt(f.bridged_callers)),
          h('td', { class: 'num' }, `${fmt(f.callees_ported)} / ${fmt(f.callees_total)}`)))))
      : h('p', { class: 'muted' }, 'No candidate: no legacy or bridged function with only ported callees is called from ported code.'));
  return d;
}
