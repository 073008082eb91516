// search.mjs: the search page (search.html?repo=R&rev=REV&q=TEXT[&mode=file]).
// Functions and C API names by name at a revision (GET .../search): name,
// file:line, status, object state; C API names with their HPy replacement.
// mode=file is the file finder (the `t` key): paths of the revision that
// contain the text.  Results follow the text as it is typed.

import * as api from './api.mjs';
import { h, replace, fmt, pathNodes } from './dom.mjs';
import {
  showError, readParams, renderNav, overviewHref, fileHref, statusBadge, objectBadge, revLabel, writeParams,
} from './ui.mjs';
import { search, symbolHref, hpyCell } from './symbols.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'rev', 'q', 'mode']);
let files = null;
let seq = 0;

function functionsTable(d) {
  return h('table', { class: 'data', id: 'search-functions' },
    h('caption', null, `Functions (${fmt(d.functions_total)}${d.functions_total > d.functions.length ? `, first ${fmt(d.functions.length)}` : ''})`),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Function'), h('th', { scope: 'col' }, 'File'),
      h('th', { scope: 'col' }, 'Status'), h('th', { scope: 'col' }, 'Object state'))),
    h('tbody', null, d.functions.map((f) => h('tr', { dataset: { name: f.name } },
      h('td', null, h('a', { href: fileHref(state.repo, d.commit, f.path, f.start_line) }, h('code', null, f.name))),
      h('td', { class: 'path' }, pathNodes(f.path), h('span', { class: 'muted' }, `:${f.start_line}`)),
      h('td', null, statusBadge(f.status)),
      h('td', null, f.object_state ? objectBadge(f.object_state) : h('span', { class: 'muted' }, '—'))))));
}

function symbolsTable(d) {
  return h('table', { class: 'data', id: 'search-symbols' },
    h('caption', null, `C API names used here or in HPy's table (${fmt(d.symbols.length)})`),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'CPython'),
      h('th', { scope: 'col', class: 'num', title: 'uses at this revision, guarded or not, object-dtype paths included' }, 'Uses'),
      h('th', { scope: 'col' }, 'HPy replacement'))),
    h('tbody', null, d.symbols.map((s) => h('tr', { dataset: { symbol: s.name } },
      h('td', null, h('a', { href: symbolHref(state.repo, d.commit, s.name) }, h('code', null, s.name))),
      h('td', { class: 'num' }, s.uses ? fmt(s.uses) : h('span', { class: 'muted' }, '—')),
      h('td', null, hpyCell(s))))));
}

async function runSearch() {
  const my = ++seq;
  const q = state.q.trim();
  writeParams(state);
  if (!q) { replace($('search-results')); replace($('search-count'), ''); return; }
  if (state.mode === 'file') {
    files ??= (await api.files(state.repo, state.rev)).files ?? [];
    const low = q.toLowerCase();
    const hits = files.filter((f) => f.path.toLowerCase().includes(low)).slice(0, 200);
    if (my !== seq) return;
    replace($('search-count'), `${fmt(hits.length)} files`);
    replace($('search-results'), h('ul', { class: 'file-hits', id: 'search-files' },
      hits.map((f) => h('li', null, h('a', { href: fileHref(state.repo, state.rev, f.path) }, pathNodes(f.path)),
        ' ', f.status ? statusBadge(f.status) : null))));
    return;
  }
  const d = await search(state.repo, state.rev, q);
  if (my !== seq) return;
  document.body.dataset.commit = d.commit;
  const n = (k, one, many) => `${fmt(k)} ${k === 1 ? one : many}`;
  replace($('search-count'), `${n(d.functions_total, 'function', 'functions')}, ${n(d.symbols.length, 'C API name', 'C API names')}`);
  replace($('search-results'), functionsTable(d), symbolsTable(d));
}

async function main() {
  renderNav($('nav'), '', state.repo, state.rev);
  replace($('crumbs'),
    h('li', null, h('a', { href: overviewHref(state.repo, state.rev) }, `${state.repo} @ ${revLabel(state.rev)}`)),
    h('li', { 'aria-current': 'page' }, 'search'));
  $('search-q').value = state.q;
  $('search-mode').value = state.mode === 'file' ? 'file' : '';
  $('search-form').onsubmit = (e) => { e.preventDefault(); };
  let timer = 0;
  $('search-q').oninput = () => {
    clearTimeout(timer);
    state.q = $('search-q').value;
    timer = setTimeout(() => runSearch().catch((e) => showError($('errors'), e, 'Search')), 150);
  };
  $('search-mode').onchange = () => { state.mode = $('search-mode').value; runSearch().catch((e) => showError($('errors'), e, 'Search')); };
  $('search-q').focus();
  await runSearch();
}

main()
  .catch((e) => showError($('errors'), e, 'Search'))
  .finally(() => { document.body.dataset.ready = 'true'; });
