// traverse.mjs: traverse coverage of the HPy types, from
// GET .../commits/{rev}/traverse, on the overview and on file pages.
//
// A moving GC (PyPy) must be told of every HPyField of an object: the
// type's tp_traverse has to HPy_VISIT each one (DOMAIN.md).  Each type is a
// row: its spec and struct, the traverse function, whether it visits the
// object items of the array buffer, and every HPyField member with the
// commit where it appeared and the one where its visit appeared.  An
// unvisited member is shown in red.  Repository text goes in as text only
// (dom.mjs).

import { getJson, commitBase } from './api.mjs';
import { h, replace, fmt, pathNodes, shortCommit } from './dom.mjs';
import { fileHref, commitHref } from './ui.mjs';

/** GET .../traverse */
export const traverse = (repo, rev) => getJson(`${commitBase(repo, rev)}/traverse`);

/**
 * The section with id `id`, made (hidden, class "card") and inserted before
 * `at` the first time (after it when `where` is 'after').  Lets the panels
 * live in their own modules.
 */
export function portSection(id, at, label, where = 'before') {
  let sec = document.getElementById(id);
  if (!sec) {
    sec = h('section', { id, class: ['card', 'port-panel'], 'aria-label': label, hidden: true });
    if (where === 'after') at.after(sec);
    else at.before(sec);
  }
  return sec;
}

/** A commit id as a link to its commit page, or a muted dash. */
function commitLink(repo, id, what) {
  if (!id) return h('span', { class: 'muted', title: `no ${what}` }, '—');
  return h('a', { href: commitHref(repo, id), class: 'commit-id', title: id }, h('code', null, shortCommit(id)));
}

/** One member: a badge (green visited, red not visited) and its two commits. */
function fieldRow(repo, f) {
  return h('li', { class: ['tv-field', f.visited ? 'tv-visited' : 'tv-unvisited'], dataset: { field: f.name, visited: String(f.visited) } },
    h('span', { class: ['badge', f.visited ? 'st-ported' : 'st-legacy'],
      title: f.visited ? 'visited by tp_traverse' : 'NOT visited by tp_traverse: a moving GC (PyPy) does not see it' },
    h('code', null, f.name), f.visited ? ' visited' : ' not visited'),
    ' · member since ', commitLink(repo, f.introduced_in, 'commit'),
    ' · visited since ', commitLink(repo, f.visited_since, 'visit'));
}

/** Whether the traverse visits object items: yes, no, or — without traverse. */
function itemsCell(v) {
  if (v == null) return h('span', { class: 'muted', title: 'no tp_traverse' }, '—');
  return h('span', { class: ['badge', v ? 'st-ported' : 'st-neutral'] }, v ? 'yes' : 'no');
}

/** One type as a table row; items: whether the object-items column shows. */
function typeRow(repo, rev, t, items) {
  const unvisited = t.fields.filter((f) => !f.visited).length;
  return h('tr', { class: [unvisited && 'tv-bad'], dataset: { spec: t.spec, unvisited: String(unvisited) } },
    h('td', null, h('strong', null, t.name ?? t.spec), h('br'),
      h('a', { href: fileHref(repo, rev, t.path, t.line), class: 'small' }, h('code', null, t.spec))),
    h('td', null, t.struct ? h('code', null, t.struct) : h('span', { class: 'muted' }, '—'),
      t.struct_path ? [h('br'), h('a', { href: fileHref(repo, rev, t.struct_path), class: 'small path' }, pathNodes(t.struct_path))] : null),
    h('td', null, t.traverse
      ? h('a', { href: fileHref(repo, rev, t.traverse_path) }, h('code', null, t.traverse))
      : h('span', { class: ['badge', t.fields.length ? 'st-legacy' : 'st-neutral'] }, 'no tp_traverse')),
    items ? h('td', null, itemsCell(t.items_visited)) : null,
    h('td', null, t.fields.length
      ? h('ul', { class: 'tv-fields' }, t.fields.map((f) => fieldRow(repo, f)))
      : noFields(t)));
}

/**
 * The members cell of a type without HPyField members found.  The analysis
 * records only structs that have such members, so a struct not found is
 * either one without them or one the ingest did not read (a header outside
 * its path filter, or outside the repository): say both, not "none".
 */
function noFields(t) {
  if (t.struct_path) return h('span', { class: 'muted' }, 'no HPyField members');
  return h('span', { class: 'muted tv-unknown', title: 'the analysis records only structs with HPyField members' },
    t.struct ? ['no HPyField members found: ', h('code', null, t.struct), ' has none in the analysed files, or lies outside them (path filter)']
      : 'struct unknown: no .basicsize = sizeof(...) or HPyType_HELPERS names it');
}

/**
 * Fills root with the traverse coverage at repo/rev; with `path`, only the
 * types whose spec, struct or traverse is in that file (hidden when none).
 * objectDtype false (a port without object dtype, profile.mjs): no column
 * of object items visited, whose "no" in every row would read as work to do.
 */
export async function mountTraverse(root, { repo, rev, path, objectDtype }) {
  const d = await traverse(repo, rev);
  const types = path
    ? d.types.filter((t) => t.path === path || t.struct_path === path || t.traverse_path === path)
    : d.types;
  root.hidden = types.length === 0 && Boolean(path);
  const fields = types.reduce((n, t) => n + t.fields.length, 0);
  const unvisited = types.reduce((n, t) => n + t.fields.filter((f) => !f.visited).length, 0);
  replace(root,
    h('h2', { id: 'traverse-h' }, 'Traverse coverage'),
    h('p', { class: 'small', id: 'traverse-summary' },
      h('span', { dataset: { metric: 'traverse-types' } }, fmt(types.length)), ` HPy ${types.length === 1 ? 'type' : 'types'}, `,
      h('span', { dataset: { metric: 'traverse-fields' } }, fmt(fields)), ' HPyField members, ',
      h('span', { class: [unvisited && 'problem-title'], dataset: { metric: 'traverse-unvisited' } }, fmt(unvisited)),
      ' not visited by their tp_traverse. A member that is not visited is invisible to a moving GC such as PyPy\'s.'),
    types.length
      ? h('table', { class: 'data traverse', id: 'traverse-table' },
        h('thead', null, h('tr', null, h('th', null, 'Type'), h('th', null, 'Struct'), h('th', null, 'tp_traverse'),
          objectDtype === false ? null : h('th', { title: 'does the traverse visit the object items of the array buffer?' }, 'Object items visited'),
          h('th', null, 'HPyField members'))),
        h('tbody', null, types.map((t) => typeRow(repo, d.commit ?? rev, t, objectDtype !== false))))
      : h('p', { class: 'muted' }, 'No HPyType_Spec at this commit.'));
  return d;
}
