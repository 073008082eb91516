// scopes.mjs: named scopes on the overview (doc/guide.md, "Scopes").
//
// A scope (GET /api/v1/scopes) keeps some paths and, with
// exclude_object_paths, leaves out every function that is an object-dtype
// path.  The overview's scope picker writes ?scope=NAME into the URL; the
// totals, the file table and the trend then show that scope's figures.
// Whatever the picker says, the panel "Without object dtype" answers the
// team's plan: object arrays stay on the CPython API and raise an error in
// universal mode, so how far is the rest from universal mode, and what
// still blocks it?  Its figures come from the same endpoints as the file
// pages' (files?scope=, blockers), so they agree with them.

import { getJson, seg, commitBase } from './api.mjs';
import { h, replace, fmt, pct, pathNodes } from './dom.mjs';
import { fileHref, overviewHref } from './ui.mjs';
import { groupName } from './tmplgroup.mjs';
import { STATUSES, total } from './model.mjs';

export const NO_OBJECT = 'no-object-dtype';

const scopeQuery = (scope) => (scope ? `?scope=${seg(scope)}` : '');

/** [{name, title, include, exclude, exclude_object_paths}] */
export const listScopes = () => getJson('api/v1/scopes');

/** The summary at rev, under scope when one is given. */
export const summary = (repo, rev, scope) => getJson(`${commitBase(repo, rev)}/summary${scopeQuery(scope)}`);

/** The file table at rev, under scope when one is given. */
export const files = (repo, rev, scope) => getJson(`${commitBase(repo, rev)}/files${scopeQuery(scope)}`);

/** The universal blockers at rev under scope (default no-object-dtype). */
export const blockers = (repo, rev, scope = NO_OBJECT) => getJson(`${commitBase(repo, rev)}/blockers${scopeQuery(scope)}`);

/**
 * Fills the scope picker (a <select>) and the banner saying which scope the
 * page shows (all: every scope, when `scopes` are only those offered).  Choosing a scope reloads the overview with ?scope=NAME
 * (keeping the other parameters): every figure on the page changes.
 */
export function mountScopePicker(select, banner, scopes, current, all = scopes) {
  // all: every scope of the server; scopes: those the picker offers (a
  // scope that selects nothing new in this port, such as no-object-dtype
  // in one without object dtype, is not offered but still known)
  const known = all.find((s) => s.name === current);
  const offered = scopes.some((s) => s.name === current);
  replace(select, h('option', { value: '' }, 'whole repository'),
    scopes.map((s) => h('option', { value: s.name, title: s.title || null }, s.name)),
    current && !offered ? h('option', { value: current },
      known ? `${current} (nothing it leaves out here)` : `${current} (unknown)`) : null);
  select.value = current || '';
  select.disabled = false;
  select.onchange = () => {
    const q = new URLSearchParams(location.search);
    if (select.value) q.set('scope', select.value); else q.delete('scope');
    location.assign(`${location.pathname}?${q}`);
  };
  if (!banner) return;
  banner.hidden = !current;
  if (!current) return;
  const what = known ? [known.include.length ? `paths ${known.include.join(', ')}` : 'every path',
    known.exclude.length ? `except ${known.exclude.join(', ')}` : null,
    known.exclude_object_paths ? 'without object-dtype functions' : null].filter(Boolean).join(' ') : '';
  replace(banner, h('strong', null, 'Scope ', h('code', { id: 'scope-name' }, current)),
    known?.title ? ` · ${known.title}` : '', what ? h('span', { class: 'muted' }, ` (${what})`) : null,
    ' · ', h('a', { href: `${location.pathname}?${withoutScope()}`, id: 'scope-clear' }, 'whole repository'));
}

function withoutScope() {
  const q = new URLSearchParams(location.search);
  q.delete('scope');
  return q.toString();
}

/** A labelled figure; data-metric names it for tests. */
function figure(name, value, label, title) {
  return h('div', { class: 'metric', title: title ?? null },
    h('span', { class: 'metric-value', dataset: { metric: name } }, fmt(value)),
    h('span', { class: 'metric-label' }, label));
}

// Functions by status only: the summary's "functions" also holds measures
// that are not statuses (capi-guarded), which a plain sum would count twice.
const sum = (o) => total(o, STATUSES);

/** One blocking function: a link to its line, its counts. */
function blockerFn(repo, rev, path, x) {
  return h('li', null,
    h('a', { href: fileHref(repo, rev, path, x.start_line) }, h('code', null, x.name)),
    h('span', { class: 'muted' }, ` line ${x.start_line} · ${fmt(x.capi)} C API${x.bridge ? `, ${fmt(x.bridge)} bridge` : ''}`));
}

/** Functions grouped by definition: template instances share their start line. */
function blockerDefinitions(fns) {
  const by = new Map();
  for (const x of fns) by.set(x.start_line, [...(by.get(x.start_line) ?? []), x]);
  return [...by.values()];
}

/* numpy-hpy has 172 blocker files: the first ones, the rest on demand, so
 * the panels below stay within reach. */
const BLOCKERS_SHOWN = 20;

function blockerList(repo, rev, list) {
  const box = h('div', { id: 'blockers', class: 'blockers' }, list.slice(0, BLOCKERS_SHOWN).map((f) => blockerFile(repo, rev, f)));
  if (list.length <= BLOCKERS_SHOWN) return box;
  const more = h('button', { type: 'button', class: 'linkish', id: 'blockers-all' }, `show all ${fmt(list.length)} files`);
  more.onclick = () => { box.append(...list.slice(BLOCKERS_SHOWN).map((f) => blockerFile(repo, rev, f))); more.remove(); };
  return [box, more];
}

/** One blocker file as a <details> row: path, counts, then its functions
 * (a numpy template definition once, expandable to its instances).  rev:
 * the blockers' commit id (the links name lines, which drift with a ref). */
function blockerFile(repo, rev, f) {
  const capi = f.functions.reduce((a, x) => a + x.capi, 0) + f.file_scope.capi;
  const bridge = f.functions.reduce((a, x) => a + x.bridge, 0) + f.file_scope.bridge;
  return h('details', { class: 'blocker-file', dataset: { path: f.path, capi, bridge, functions: f.functions.length } },
    h('summary', null,
      h('span', { class: 'path' }, pathNodes(f.path)),
      h('span', { class: 'muted' }, ` · ${fmt(f.functions.length)} ${f.functions.length === 1 ? 'function' : 'functions'}`,
        ` · ${fmt(capi)} C API`, bridge ? ` · ${fmt(bridge)} bridge` : '', ' uses')),
    h('p', { class: 'blocker-open small' }, h('a', { href: fileHref(repo, rev, f.path), class: 'blocker-file-link' }, 'open the file page')),
    h('ul', { class: 'blocker-fns' },
      blockerDefinitions(f.functions).map((g) => (g.length === 1 ? blockerFn(repo, rev, f.path, g[0])
        : h('li', { class: 'tmpl-group', dataset: { instances: String(g.length) } },
          h('details', null, h('summary', null,
            h('code', null, groupName(g.map((x) => x.name))),
            h('span', { class: 'muted' }, ` line ${g[0].start_line} · ${fmt(g.length)} template instances · ${fmt(g.reduce((a, x) => a + x.capi, 0))} C API${
              g.some((x) => x.bridge) ? `, ${fmt(g.reduce((a, x) => a + x.bridge, 0))} bridge` : ''}`)),
          h('ul', null, g.map((x) => blockerFn(repo, rev, f.path, x))))))),
      f.file_scope.capi || f.file_scope.bridge
        ? h('li', { class: 'file-scope' }, 'outside any function (declarations, macros, structs): ',
          `${fmt(f.file_scope.capi)} C API${f.file_scope.bridge ? `, ${fmt(f.file_scope.bridge)} bridge` : ''}`)
        : null));
}

/**
 * The "Without object dtype" panel: the scoped figures, what they mean,
 * and the universal blockers by file (most C API uses first).  root is
 * hidden when the server has no no-object-dtype scope.
 */
export async function mountNoObjectPanel(root, { repo, rev, scopes }) {
  if (!scopes.some((s) => s.name === NO_OBJECT)) { root.hidden = true; return; }
  const [full, sc, bl] = await Promise.all([summary(repo, rev), summary(repo, rev, NO_OBJECT), blockers(repo, rev, NO_OBJECT)]);
  const left = sum(full.functions) - sum(sc.functions);
  const fnTotal = sum(sc.functions);
  const ready = sc.universal_ready_files ?? 0;
  const nfiles = sc.files ?? 0;
  const list = [...bl.files].sort((a, b) => {
    const w = (f) => f.functions.reduce((x, y) => x + y.capi + y.bridge, 0) + f.file_scope.capi + f.file_scope.bridge;
    return w(b) - w(a) || (a.path < b.path ? -1 : 1);
  });
  replace(root,
    h('h2', { id: 'noobj-h', class: 'card-title' }, 'Without object dtype: how far is universal mode?'),
    h('p', { class: 'noobj-text' },
      'The plan from the team\'s discussion: arrays of ', h('code', null, 'dtype=object'),
      ' stay on the CPython C API for now. In universal mode, creating an object array raises an error, so the code that handles object items is never called there and may keep ',
      h('code', null, 'PyObject *'), '. This view leaves out the ',
      h('span', { dataset: { metric: 'noobj-left-out' } }, fmt(left)),
      ` ${left === 1 ? 'function that is' : 'functions that are'} object-dtype paths and counts the rest; `,
      'what the rest still needs from CPython (unguarded C API or bridge uses) are the universal blockers below.'),
    h('div', { class: 'metric-grid' },
      figure('noobj-universal-ready', ready, `of ${fmt(nfiles)} files universal-ready · ${pct(ready, nfiles)}`),
      figure('noobj-blocker-files', bl.total, 'files still blocking universal mode'),
      figure('noobj-blocker-functions', bl.functions_total, 'functions with C API or bridge uses'),
      ['ported', 'bridged', 'legacy', 'neutral'].map((st) => figure(`noobj-functions-${st}`, sc.functions[st] ?? 0,
        `${st} · ${pct(sc.functions[st] ?? 0, fnTotal)}`)),
      figure('noobj-tokens-capi', sc.tokens.capi, 'C API uses'),
      figure('noobj-tokens-bridge', sc.tokens.bridge, 'bridge uses')),
    h('p', { class: 'small' },
      h('a', { href: overviewHref(repo, rev, { scope: NO_OBJECT }), id: 'noobj-scope-link' },
        'show the whole overview (totals, files, trend) without object dtype'),
      ' · numbers per file are on each file page: its functions without an object state, and its unguarded findings.'),
    h('h3', { class: 'blockers-h' }, 'Universal blockers ', h('span', { class: 'muted' }, `(${fmt(bl.total)} files)`)),
    list.length ? blockerList(repo, bl.commit ?? rev, list)
      : h('p', { id: 'blockers', class: 'good' }, 'None: without object dtype, every file is universal-ready.'));
  root.hidden = false;
}
