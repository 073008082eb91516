// changes.mjs: function changes (commit and compare pages), grouped so that
// the team reads the bad news first: regressions (red), then object-dtype
// paths converted, introduced or dropped (a removed object path included,
// so the group tells every object-dtype move), functions progressed,
// functions added or removed, anything else.  Each function links to its
// file page at the rev where it exists, at its first line.

import { h, fmt, pathNodes } from './dom.mjs';
import { CHANGE_LABEL, CHANGE_HELP, BAD_CHANGES } from './model.mjs';
import { statusBadge, objectBadge, fileHref, cmpStr } from './ui.mjs';

export const GROUPS = [
  { id: 'regressions', title: 'Regressions', tone: 'bad', help: 'status or object state moved back towards the CPython C API',
    test: (t) => t.some((x) => BAD_CHANGES.includes(x)) },
  { id: 'object', title: 'Object-dtype paths converted, introduced or dropped', tone: 'object',
    help: 'item access moved between PyObject * and HPyField, or a function became (or stopped being) an object path, added or removed with it',
    test: (t) => t.some((x) => ['converted', 'introduced', 'object-dropped'].includes(x)) },
  { id: 'progressed', title: 'Functions progressed', tone: 'good', help: 'status moved towards HPy',
    test: (t) => t.includes('progressed') },
  { id: 'added-removed', title: 'Functions added or removed', tone: 'plain', help: '',
    test: (t) => t.includes('added') || t.includes('removed') },
  { id: 'other', title: 'Other changes', tone: 'plain', help: '', test: () => true },
];

/** The group id a function change belongs to (its first matching group). */
export function groupOf(f) {
  const tags = f.changes ?? [];
  return GROUPS.find((g) => g.test(tags)).id;
}

function side(s) {
  if (!s) return h('span', { class: 'muted' }, '—');
  return [statusBadge(s.status), s.object_state ? [' ', objectBadge(s.object_state)] : null];
}

/**
 * Renders the grouped function changes.  revs: {repo, to, from}: the rev
 * where "to" sides live (links) and where removed functions still exist.
 * Returns a DocumentFragment-like array of sections; empty groups are left out.
 */
export function functionChanges(functions, revs, { emptyText = 'No function changed status or object state.' } = {}) {
  const byGroup = new Map(GROUPS.map((g) => [g.id, []]));
  for (const f of functions ?? []) byGroup.get(groupOf(f)).push(f);
  const sections = [];
  for (const g of GROUPS) {
    const list = byGroup.get(g.id).sort((a, b) => cmpStr(a.path, b.path) || cmpStr(a.name, b.name));
    if (!list.length) continue;
    sections.push(h('section', { class: ['fn-group', `tone-${g.tone}`], id: `group-${g.id}`, dataset: { group: g.id } },
      h('h3', { class: 'fn-group-title', title: g.help || null }, g.title, ' ', h('span', { class: 'count' }, fmt(list.length))),
      h('div', { class: 'table-wrap' }, h('table', { class: 'data changes' },
        h('thead', null, h('tr', null,
          h('th', { scope: 'col' }, 'Function'), h('th', { scope: 'col' }, 'File'),
          h('th', { scope: 'col' }, 'Before'), h('th', { scope: 'col', class: 'arrow', 'aria-label': 'to' }, '→'),
          h('th', { scope: 'col' }, 'After'), h('th', { scope: 'col' }, 'Changes'))),
        h('tbody', null, list.map((f) => changeRow(f, revs)))))));
  }
  if (!sections.length) sections.push(h('p', { class: 'muted empty-note', id: 'no-function-changes' }, emptyText));
  return sections;
}

function changeRow(f, revs) {
  const where = f.to ? fileHref(revs.repo, revs.to, f.path, f.to.start_line) : revs.from ? fileHref(revs.repo, revs.from, f.path) : null;
  const tags = f.changes ?? [];
  return h('tr', { class: 'fn-change', dataset: { path: f.path, name: f.name, changes: tags.join(' ') } },
    h('th', { scope: 'row', class: 'fn-name' },
      where ? h('a', { href: where, title: f.to ? `${f.path} line ${f.to.start_line}` : `${f.path} before the change` }, h('code', null, f.name))
        : h('code', null, f.name)),
    h('td', { class: 'path' }, pathNodes(f.path)),
    h('td', { class: 'from' }, side(f.from)),
    h('td', { class: 'arrow', 'aria-hidden': 'true' }, '→'),
    h('td', { class: 'to' }, side(f.to)),
    h('td', { class: 'tags' }, tags.map((t) => h('span', {
      class: ['tag', `tag-${t}`, BAD_CHANGES.includes(t) && 'tag-bad'], title: CHANGE_HELP[t] ?? null,
    }, CHANGE_LABEL[t] ?? t)),
    // The file is the same on both sides: what moved it is a function it
    // calls, elsewhere (the summaries count it, so the list does too).
    f.call_graph ? h('span', { class: 'tag tag-call-graph', title: CHANGE_HELP['call-graph'] }, CHANGE_LABEL['call-graph']) : null));
}

/** Count line for a list of function changes: "3 regressions · 2 object paths · ..." */
export function groupCounts(functions) {
  const n = Object.fromEntries(GROUPS.map((g) => [g.id, 0]));
  for (const f of functions ?? []) n[groupOf(f)]++;
  return n;
}
