// overview.mjs: the overview page (index.html).
//
// URL: index.html?repo=R&rev=REV&status=S&dir=D&obj=O&q=TEXT&sort=COL&order=asc|desc
// Missing repo/rev fall back to the first repository and its first ref.
// Every filter or sort change is written back with history.replaceState, so
// the URL in the address bar always reproduces the view; a change of repo or
// ref is a navigation (it loads another commit).

import * as api from './api.mjs';
import { h, replace, fmt, pct, shortCommit, timeEl, pathNodes, setTitle, joined } from './dom.mjs';
import {
  STATUSES, STATUS_LABEL, STATUS_HELP, STATUS_RANK, OBJECT_STATES, OBJECT_LABEL, OBJECT_HELP, TOKEN_CLASSES,
  TOKEN_HELP, UNANALYSED, isAnalysed, total,
} from './model.mjs';
import {
  statusBadge, statusBar, objectBar, legend, showError, renderHeaders, nextSort, cmpStr,
  readParams, writeParams, overviewHref, fileHref, commitHref, snapshotsHref, renderNav,
  wholeRepoNote,
} from './ui.mjs';
import * as scoped from './scopes.mjs';
import { mountTraverse, portSection } from './traverse.mjs';
import { frontier, mountFrontier } from './frontier.mjs';
import { mountDevCall } from './devcall.mjs';
// The modules of what comes after the first screen (the trend chart, the
// directory tree, the panels, the port's profile) are imported then, so
// they are neither fetched nor run before it (issue 26.4).

const $ = (id) => document.getElementById(id);
const PARAMS = ['repo', 'rev', 'status', 'dir', 'obj', 'q', 'sort', 'order', 'measure', 'date', 'window', 'tref', 'open', 'scope'];
const DEFAULT_SORT = { key: 'path', order: 'asc' };
/** What the port has (profile.mjs); object dtype until it is known. */
let profile = { objectDtype: true, measure: '', keepScope: () => true };
/** The page's scope when it leaves object dtype out (exclude_object_paths),
 * else null: its object-dtype figures are all 0, counting nothing. */
let objectScope = null;
/** Whether the tables show object-dtype columns: not for a port without
 * object dtype, nor under a scope that leaves it out (their zeros would
 * read as paths already ported). */
const objectsShown = () => profile.objectDtype && !objectScope;
/** The scope of the page in a list of scopes when it leaves object dtype out. */
const leavesObjectsOut = (list) => list.find((x) => x.name === state.scope && x.exclude_object_paths) ?? null;

/**
 * The table's columns.  get(file) returns the sort value; numeric columns
 * start descending on their first click.
 */
const COLUMNS = [
  { key: 'path', label: 'Path', get: (f) => f.path },
  { key: 'status', label: 'Status', get: (f) => STATUS_RANK[f.status] ?? 99,
    title: 'Sort by status (legacy, bridged, ported, neutral)' },
  { key: 'functions', label: 'Functions', numeric: true, get: (f) => total(f.functions, STATUSES),
    title: 'Sort by number of functions', className: 'col-bar' },
  ...STATUSES.map((s) => ({ key: s, label: STATUS_LABEL[s], numeric: true, get: (f) => f.functions?.[s] ?? 0,
    title: `Sort by ${s} functions`, className: `col-st col-st-${s}` })),
  ...OBJECT_STATES.map((s) => ({ key: s, label: OBJECT_LABEL[s], numeric: true, get: (f) => f.object_paths?.[s] ?? 0,
    title: `Sort by object-dtype paths: ${OBJECT_HELP[s]}`, className: `col-ob col-${s}` })),
  { key: 'universal_ready', label: 'Universal-ready', numeric: true, get: (f) => (f.universal_ready ? 1 : 0),
    title: 'Sort by universal-ready' },
];
const COLUMN = Object.fromEntries(COLUMNS.map((c) => [c.key, c]));
/* The object-dtype states the tables show: none when objectsShown() says
 * no, whose columns of zeros would read as paths already ported. */
const objectStates = () => (objectsShown() ? OBJECT_STATES : []);
const columns = () => COLUMNS.filter((c) => objectsShown() || !OBJECT_STATES.includes(c.key));

const state = readParams(PARAMS);
let allFiles = [];

/** Directories (without trailing "/") containing at least one file, with
 * their counts of files analysed and not analysed ([dir, {files, missing}]). */
function directories(files) {
  const counts = new Map();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      const c = counts.get(d) ?? { files: 0, missing: 0 };
      c[isAnalysed(f) ? 'files' : 'missing'] += 1;
      counts.set(d, c);
    }
  }
  return [...counts.entries()].sort((a, b) => cmpStr(a[0], b[0]));
}

/**
 * How many of `rows` (of `all`, when they are a part of it) are files and
 * how many are listed without an analysis: the second never counts as a
 * file, so that the figures here are the summary's (its `files`).
 */
function filesText(rows, all = rows) {
  const n = (list) => list.filter(isAnalysed).length;
  const part = (x, of) => (rows === all ? fmt(x) : `${fmt(x)} of ${fmt(of)}`);
  const files = `${part(n(rows), n(all))} files`;
  const missing = all.length - n(all);
  return missing ? `${files} · ${part(rows.length - n(rows), missing)} more not analysed (blob missing)` : files;
}

/** The note on the files the figures leave out, or null when there are none. */
function missingNote(files, id) {
  const n = files.filter((f) => !isAnalysed(f)).length;
  return n ? h('p', { class: 'muted small', id }, `${fmt(n)} ${n === 1 ? 'file is' : 'files are'} listed but counted in no figure: `,
    `${n === 1 ? 'its blob is' : 'their blobs are'} missing from the clone, so ${n === 1 ? 'it' : 'they'} could not be analysed `,
    '(fetch the objects and ingest again).') : null;
}

function currentSort() {
  return COLUMN[state.sort] ? { key: state.sort, order: state.order === 'desc' ? 'desc' : 'asc' } : DEFAULT_SORT;
}

/** Files passing the filters, sorted: primary column in the chosen order, then path ascending. */
/* Whether file f passes the table's filters but the status one (q: the
 * path's text, lowercase). */
const keptBesidesStatus = (f, q) => (!state.dir || f.path.startsWith(`${state.dir}/`))
  && (!state.obj || (f.object_paths?.[state.obj] ?? 0) > 0)
  && (!q || f.path.toLowerCase().includes(q));

function visibleFiles() {
  const q = state.q.toLowerCase();
  const rows = allFiles.filter((f) => (!state.status || f.status === state.status) && keptBesidesStatus(f, q));
  const sort = currentSort();
  const col = COLUMN[sort.key];
  const dir = sort.order === 'desc' ? -1 : 1;
  return rows.sort((a, b) => {
    const va = col.get(a);
    const vb = col.get(b);
    const c = typeof va === 'string' ? cmpStr(va, vb) : va - vb;
    return c ? dir * c : cmpStr(a.path, b.path);
  });
}

function saveState() {
  const s = currentSort();
  writeParams({ ...state, sort: s.key === DEFAULT_SORT.key && s.order === DEFAULT_SORT.order ? '' : s.key,
    order: s.key === DEFAULT_SORT.key && s.order === DEFAULT_SORT.order ? '' : s.order });
}

/* ---------- header: repository and ref pickers ---------- */

function renderPicker(repos, repo, rev) {
  const repoSel = $('repo-select');
  const revSel = $('rev-select');
  const known = repos.find((r) => r.name === repo);
  replace(repoSel, repos.map((r) => h('option', { value: r.name }, r.name)),
    known ? null : h('option', { value: repo }, `${repo} (unknown)`));
  repoSel.value = repo;
  const refs = known?.refs ?? [];
  replace(revSel, refs.map((r) => h('option', { value: r.name, title: r.commit }, `${r.name} · ${shortCommit(r.commit)}`)),
    refs.some((r) => r.name === rev) ? null : h('option', { value: rev }, rev.length >= 12 ? `${shortCommit(rev)}… (commit)` : rev));
  revSel.value = rev;
  repoSel.disabled = repos.length === 0;
  revSel.disabled = false;
  const keep = { status: state.status, dir: state.dir, obj: state.obj, q: state.q, sort: state.sort, order: state.order,
    scope: state.scope };
  const go = (r, v) => {
    const extra = Object.fromEntries(Object.entries(keep).filter(([, x]) => x));
    location.assign(overviewHref(r, v, extra));
  };
  repoSel.onchange = () => {
    const r = repos.find((x) => x.name === repoSel.value);
    go(repoSel.value, r?.refs?.[0]?.name ?? '');   // '': no data (nodata.mjs)
  };
  revSel.onchange = () => go(repoSel.value, revSel.value);
  // Back to this page (from the back/forward cache, or with the browser's
  // form state put back) shows the choice the user left it by; the page's
  // figures are for `repo` and `rev`, so the pickers say those.
  window.addEventListener('pageshow', () => { repoSel.value = repo; revSel.value = rev; });
}

/* ---------- the commit strip and the totals ---------- */

function renderCommit(s, repo, rev) {
  const isRef = rev !== s.commit && !s.commit.startsWith(rev);
  const message = s.message ?? '';
  const nl = message.indexOf('\n');
  const subject = nl < 0 ? message : message.slice(0, nl);
  const body = nl < 0 ? '' : message.slice(nl + 1).trim();
  replace($('commit'),
    h('div', { class: 'commit-line' },
      h('span', { class: 'repo-name' }, repo),
      isRef ? h('span', { class: 'ref-name', title: 'ref' }, rev) : null,
      h('a', { href: commitHref(repo, s.commit), id: 'commit-link', title: 'What this commit changed' },
        h('code', { class: 'sha', title: s.commit, id: 'commit-id' }, shortCommit(s.commit))),
      h('span', { class: 'commit-msg', id: 'commit-message' }, subject),
      h('span', { class: 'head-links' },
        h('a', { href: commitHref(repo, s.commit), id: 'commit-changes' }, 'changes in this commit'),
        h('a', { href: snapshotsHref(repo, isRef ? rev : ''), id: 'snapshots-link' }, 'weekly snapshots'))),
    body ? h('details', { class: 'commit-body' }, h('summary', null, 'full message'), h('pre', null, body)) : null,
    h('div', { class: 'commit-meta muted' },
      h('span', { id: 'commit-author', title: s.author_email ?? null }, s.author ?? ''),
      ' authored ', timeEl(s.author_date),
      s.committer_date && s.committer_date !== s.author_date ? [' · committed ', timeEl(s.committer_date)] : null));
}

/** One labelled figure; data-metric names it for tests and styling. */
function metric(name, value, label, opts = {}) {
  return h('div', { class: ['metric', opts.cls], title: opts.title },
    h('span', { class: 'metric-value', dataset: { metric: name } }, fmt(value)),
    h('span', { class: 'metric-label' }, opts.swatch ? h('span', { class: ['sw', opts.swatch] }) : null, label));
}

/**
 * The object-dtype card under a scope that leaves object dtype out
 * (exclude_object_paths): its zeros count nothing, so it must not read as
 * done (a green 0); it says the scope leaves them out and links to the
 * whole repository, where they are counted (issue 11.10).
 */
function objectLeftOut(scope, repo, rev) {
  return h('section', { class: ['card', 'hero', 'hero-out'], id: 'object-left-out', 'aria-labelledby': 'hero-h' },
    h('h2', { id: 'hero-h', class: 'card-title' }, 'Object-dtype paths'),
    h('div', { class: 'hero-row' },
      h('span', { class: 'hero-value', dataset: { metric: 'object-legacy' }, title: 'not counted under this scope' }, '—'),
      h('p', { class: 'hero-text' }, 'The scope ', h('code', null, scope.name),
        ' leaves object dtype out: its object-dtype functions are not counted here, so nothing on this page says how far they are. ',
        h('a', { href: overviewHref(repo, rev), id: 'object-whole' },
          'Object-dtype paths in the whole repository'))));
}

function renderSummary(s, repo, rev, scope, files) {
  const fn = s.functions ?? {};
  const ob = s.object_paths ?? {};
  const tk = s.tokens ?? {};
  const fnTotal = total(fn, STATUSES);
  const obTotal = total(ob, OBJECT_STATES);
  const legacyObj = ob['object-legacy'] ?? 0;
  const filesLink = (obj) => overviewHref(repo, rev, { obj, sort: obj, order: 'desc' });

  const hero = !profile.objectDtype ? null : scope?.exclude_object_paths ? objectLeftOut(scope, repo, rev)
    : h('section', { class: ['card', 'hero', legacyObj ? 'hero-bad' : 'hero-good'], 'aria-labelledby': 'hero-h' },
    h('h2', { id: 'hero-h', class: 'card-title' }, 'Object-dtype paths on the legacy API'),
    h('div', { class: 'hero-row' },
      h('a', { class: 'hero-value', href: filesLink('object-legacy'), dataset: { metric: 'object-legacy' },
        title: 'Show the files with object-dtype paths still on the legacy API' }, fmt(legacyObj)),
      h('p', { class: 'hero-text' },
        legacyObj === 1 ? 'function still reads or writes' : 'functions still read or write',
        ' object-array items as ', h('code', null, 'PyObject *'),
        legacyObj ? '. Each must move to HPyField before universal mode.' : '.')),
    h('div', { class: 'hero-sub' },
      metric('object-cpython-only', ob['object-cpython-only'] ?? 0, 'HPyField, CPython-only',
        { swatch: 'ob-object-cpython-only', title: OBJECT_HELP['object-cpython-only'] }),
      metric('object-universal', ob['object-universal'] ?? 0, 'HPyField, universal',
        { swatch: 'ob-object-universal', title: OBJECT_HELP['object-universal'] }),
      metric('object-total', obTotal, 'object paths in all')),
    objectBar(ob, 'bar-big'));

  const funcs = h('section', { class: 'card', 'aria-labelledby': 'fn-h' },
    h('h2', { id: 'fn-h', class: 'card-title' }, 'Functions ', h('span', { class: 'muted', dataset: { metric: 'functions-total' } }, fmt(fnTotal))),
    statusBar(fn, 'bar-big'),
    h('div', { class: 'metric-grid' },
      STATUSES.map((st) => metric(`functions-${st}`, fn[st] ?? 0, `${STATUS_LABEL[st]} · ${pct(fn[st] ?? 0, fnTotal)}`,
        { swatch: `st-${st}` }))));

  const ready = s.universal_ready_files ?? 0;
  const nfiles = s.files ?? 0;
  const uni = h('section', { class: 'card', 'aria-labelledby': 'uni-h' },
    h('h2', { id: 'uni-h', class: 'card-title' }, 'Universal-ready files'),
    h('div', { class: 'big-ratio', id: 'universal-ready' },
      h('span', { class: 'metric-value', dataset: { metric: 'universal-ready' } }, fmt(ready)),
      h('span', { class: 'of' }, ' of '),
      h('span', { class: 'metric-value', dataset: { metric: 'files' } }, fmt(nfiles)),
      h('span', { class: 'muted pct' }, ` ${pct(ready, nfiles)}`)),
    h('div', { class: 'bar bar-big', role: 'img', 'aria-label': `${ready} of ${nfiles} files universal-ready`,
      title: `${ready} of ${nfiles} files need no CPython` },
    h('span', { class: 'seg st-ported', style: `width:${nfiles ? ((100 * ready) / nfiles).toFixed(3) : 0}%` })),
    h('p', { class: 'muted small' }, 'A file is universal-ready when nothing unguarded in it uses the C API or a bridge; a function in it may still reach CPython through what it calls',
      // (a port without object-dtype paths has no such state to point to)
      Object.values(s.object_paths ?? {}).some((n) => n > 0) ? ' (its object-dtype state says so).' : '.'),
    missingNote(files ?? [], 'ready-missing'));

  const tokens = h('section', { class: 'card', 'aria-labelledby': 'tk-h' },
    h('h2', { id: 'tk-h', class: 'card-title' }, 'Tokens'),
    h('div', { class: 'metric-grid' },
      TOKEN_CLASSES.map((c) => metric(`tokens-${c}`, tk[c] ?? 0, c, { swatch: `tk-${c}`, title: TOKEN_HELP[c] }))));

  replace($('summary'), hero, h('div', { class: 'cards' }, funcs, uni, tokens));
}

/* ---------- the files table ---------- */

function renderHead() {
  const thead = $('files-table').tHead;
  const sort = currentSort();
  const onSort = (key) => {
    const s = nextSort(sort, key, COLUMN[key].numeric);
    state.sort = s.key;
    state.order = s.order;
    saveState();
    renderTable();
  };
  const groups = h('tr', { class: 'group-row' },
    h('td', { colspan: 2 }),
    h('th', { scope: 'colgroup', colspan: 1 + STATUSES.length, class: 'group' }, 'Functions'),
    objectStates().length ? h('th', { scope: 'colgroup', colspan: objectStates().length, class: 'group' }, 'Object-dtype paths') : null,
    h('td'));
  const cols = h('tr');
  renderHeaders(cols, columns(), sort, onSort);
  replace(thead, groups, cols);
}

function fileRow(f) {
  const fn = f.functions ?? {};
  const ob = f.object_paths ?? {};
  const num = (n, cls) => h('td', { class: ['num', cls, !n && 'zero'] }, fmt(n ?? 0));
  return h('tr', { class: `row-${f.status}`, dataset: { status: f.status ?? '' } },
    h('th', { scope: 'row', class: 'path' }, h('a', { href: fileHref(state.repo, state.rev, f.path) }, pathNodes(f.path))),
    h('td', null, statusBadge(f.status)),
    h('td', { class: 'col-bar' }, statusBar(fn)),
    STATUSES.map((s) => num(fn[s], `col-st col-st-${s}`)),
    objectStates().map((s) => num(ob[s], `col-ob col-${s}`)),
    h('td', { class: 'num' }, !isAnalysed(f) ? h('span', { class: 'muted', title: STATUS_HELP[UNANALYSED] }, '—')
      // a legacy file can be ready: the project's own legacy API (numpy's
      // npy-legacy) does not block universal mode, only C API and bridge uses do
      // (underlined as a hint that it says why: a newcomer read "legacy" and
      // "yes" side by side as a contradiction)
      : f.universal_ready ? h('span', { class: ['yes', f.status === 'legacy' && 'has-why'], title: f.status === 'legacy'
        ? 'universal-ready: no unguarded C API or bridge use; its legacy code is the project\'s own legacy API, which universal mode does not need to drop'
        : 'universal-ready: no unguarded C API or bridge use' }, 'yes')
        : h('span', { class: 'no', title: 'needs CPython: unguarded C API or bridge uses' }, 'no')));
}

function footRow(rows) {
  const sum = (get) => rows.reduce((s, f) => s + (get(f) ?? 0), 0);
  const fn = Object.fromEntries(STATUSES.map((s) => [s, sum((f) => f.functions?.[s])]));
  const counted = rows.filter(isAnalysed);
  const ready = counted.filter((f) => f.universal_ready).length;
  return h('tr', null,
    h('th', { scope: 'row', colspan: 2 }, `Total of ${fmt(counted.length)} files`,
      counted.length < rows.length ? ` (+${fmt(rows.length - counted.length)} not analysed)` : ''),
    h('td', { class: 'col-bar' }, statusBar(fn)),
    STATUSES.map((s) => h('td', { class: 'num' }, fmt(fn[s]))),
    objectStates().map((s) => h('td', { class: 'num' }, fmt(sum((f) => f.object_paths?.[s])))),
    h('td', { class: 'num' }, `${fmt(ready)} of ${fmt(counted.length)}`));
}

/* numpy-hpy's 301 files made a table 14,000 px tall under the first screen
 * (issue 23.8): the first rows show, all of them one click away; a filter
 * or sort acts on all and shows the first rows of its result. */
const FILES_SHOWN = 30;
let filesAll = false;

/* The status filter's options count the files the other filters keep
 * (under a directory, its files), so that a choice says what it will show. */
function statusCounts() {
  const q = state.q.toLowerCase();
  const kept = allFiles.filter((f) => keptBesidesStatus(f, q));
  for (const opt of $('f-status').options) {
    if (opt.value) opt.textContent = `${STATUS_LABEL[opt.value] ?? opt.value} (${fmt(kept.filter((f) => f.status === opt.value).length)})`;
  }
}

function renderTable() {
  renderHead();
  statusCounts();
  const table = $('files-table');
  const rows = visibleFiles();
  const shown = filesAll ? rows : rows.slice(0, FILES_SHOWN);
  replace(table.tBodies[0], rows.length ? shown.map(fileRow)
    : h('tr', { class: 'empty' }, h('td', { colspan: columns().length }, 'No files match these filters.')));
  const more = $('files-all');
  more.hidden = shown.length >= rows.length;
  more.textContent = `show all ${fmt(rows.length)} files (${fmt(shown.length)} shown, ${currentSort().key === 'path' ? 'by path' : 'in this order'})`;
  more.onclick = () => { filesAll = true; renderTable(); };
  replace(table.tFoot, footRow(rows));
  const out = $('row-count');
  out.dataset.shown = rows.length;
  out.dataset.total = allFiles.length;
  out.textContent = rows.length === allFiles.length ? filesText(allFiles) : `showing ${filesText(rows, allFiles)}`;
}

function setupFilters() {
  const dirSel = $('f-dir');
  const dirs = directories(allFiles);
  replace(dirSel, h('option', { value: '' }, 'all'),
    dirs.map(([d, n]) => h('option', { value: d },
      `${d}/ (${fmt(n.files)}${n.missing ? ` + ${fmt(n.missing)} not analysed` : ''})`)),
    state.dir && !dirs.some(([d]) => d === state.dir) ? h('option', { value: state.dir }, `${state.dir}/ (0)`) : null);
  // Statuses beyond the four (e.g. "unanalysed") get options too.
  const statusSel = $('f-status');
  const extra = [...new Set(allFiles.map((f) => f.status))].filter((st) => !STATUSES.includes(st)).sort(cmpStr);
  statusSel.append(...extra.map((st) => h('option', { value: st }, st)));
  const fields = { status: statusSel, dir: dirSel, obj: $('f-obj'), q: $('f-q') };
  for (const [name, el] of Object.entries(fields)) {
    el.value = state[name];
    if (el.value !== state[name]) el.value = '';
    el.addEventListener(el.tagName === 'INPUT' ? 'input' : 'change', () => {
      state[name] = el.value;
      saveState();
      renderTable();
    });
  }
  $('f-reset').addEventListener('click', () => {
    for (const [name, el] of Object.entries(fields)) { el.value = ''; state[name] = ''; }
    state.sort = '';
    state.order = '';
    saveState();
    renderTable();
  });
  $('filters').addEventListener('submit', (e) => e.preventDefault());
}

/** The directory tree and the file table of the file list `files`. */
async function showFiles(files) {
  allFiles = files;
  await setupTree();
  setupFilters();
  replace($('files-note'), missingNote(allFiles, 'files-missing'));
  $('files-section').hidden = false;
  renderTable();
}

/* ---------- directory roll-ups ---------- */

async function setupTree() {
  const { renderTree } = await import('./tree.mjs');
  const open = state.open ? new Set(state.open.split(',').filter(Boolean)) : null;
  const t = renderTree($('tree'), allFiles, {
    repo: state.repo, rev: state.rev, open, objectDtype: objectsShown(),
    onOpen: (set) => { state.open = [...set].sort(cmpStr).join(','); saveState(); },
  });
  $('tree-expand').addEventListener('click', t.expandAll);
  $('tree-collapse').addEventListener('click', t.collapseAll);
  $('tree-section').hidden = false;
}

/**
 * The first screen first (devcall.mjs): the commit strip and the dev
 * call's three answers, asked before anything below them; the frontier
 * answer is shared with its panel, built after them.  The rest of the page (the trend chart,
 * the panels, the file table: a second of script and layout on numpy-hpy)
 * is built once this resolves (issue 26.4), with the answers it asked.
 */
/**
 * The error handler of a panel titled `title`: its error is shown unless
 * the summary found no such commit (404: an unknown revision), which the
 * summary's own error says once for every panel that asked about it.
 */
const panelError = (sumIn, title) => (e) => sumIn.then(
  () => showError($('errors'), e, title),
  (r) => { if (r?.status !== 404) showError($('errors'), e, title); });

async function firstScreen(refNames) {
  const profileIn = import('./profile.mjs').then(({ loadProfile }) => loadProfile(state.repo, state.rev));
  const sumIn = scoped.summary(state.repo, state.rev, state.scope);
  const listIn = scoped.files(state.repo, state.rev, state.scope);
  listIn.catch(() => {});   // reported below, once awaited; not as unhandled meanwhile
  sumIn.then((s) => {
    document.body.dataset.commit = s.commit ?? '';
    renderCommit(s, state.repo, state.rev);
  }, () => {});
  // The "Next to port" panel (25 table rows) is built after the first
  // screen, from the answer its third card read (issue 26.4); its place
  // among the panels is taken now.
  const frontierSec = portSection('frontier', $('trend'), 'Next to port');
  const frontierAnswer = frontier(state.repo, state.rev, 100000);
  // Under a scope, the scopes (asked here for the page below as well): one
  // that leaves object dtype out takes the week card's object-dtype row.
  // An unscoped page, the measured first screen, asks nothing more.
  const scopesIn = state.scope ? scoped.listScopes() : null;
  scopesIn?.catch(() => {});   // said once, where the page reads the list
  const devcall = mountDevCall($('devcall'), { repo: state.repo, rev: state.rev, ref: refNames.includes(state.rev) ? state.rev : '', scope: state.scope,
    objectDtype: profileIn.then((p) => p.objectDtype),
    objectScope: scopesIn?.then((l) => leavesObjectsOut(l)?.name ?? null, () => null) ?? null }, sumIn, frontierAnswer.catch((e) => e));
  $('more-nav').hidden = false;
  await devcall;
  const frontierIn = mountFrontier(frontierSec, { repo: state.repo, rev: state.rev, answer: frontierAnswer })
    .then((d) => { wholeRepository(frontierSec); return d; })
    .catch((e) => { panelError(sumIn, 'Next to port')(e); return e; });
  return { sumIn, listIn, frontierIn, profileIn, scopesIn };
}

/** The trend panel (trend.mjs), along the page's ref or the first one.
 * Resolves once the panel is shown (mountTrend shows it before its first
 * wait), not when its chart is drawn: the links to it are judged after. */
function mountTrendPanel(refNames) {
  const tref = refNames.includes(state.tref) ? state.tref : refNames.includes(state.rev) ? state.rev : refNames[0];
  const opts = {
    repo: state.repo, ref: tref, refs: refNames, date: state.date,
    measure: objectsShown() || !(state.measure || profile.measure).startsWith('object_paths.')
      ? state.measure || profile.measure : 'functions.ported',
    objectDtype: objectsShown(),
    window: state.window,
    scope: state.scope,
    onState: (st) => {
      Object.assign(state, st, { tref: st.tref === (refNames.includes(state.rev) ? state.rev : refNames[0]) ? '' : st.tref });
      saveState();
    },
  };
  const failed = (e) => showError($('errors'), e, 'Trend');
  return import('./trend.mjs').then(({ mountTrend }) => { mountTrend($('trend'), opts).catch(failed); }, failed);
}

/** The known repositories, as links to their overviews. */
function knownReposNote(repos) {
  if (!repos.length) return h('span', { class: 'muted' }, 'Nothing to show.');
  return h('p', { class: 'muted', id: 'unknown-repo' }, 'Known repositories: ',
    joined(repos, (r) => h('a', { href: `index.html?${new URLSearchParams({ repo: r.name })}` }, r.name)), '.');
}

/** What an unknown revision's page shows (the API's problem is above it):
 * the refs it may have meant, or the repositories when the repository is
 * unknown too. */
function unknownRevNote(known, repos, repo, rev) {
  if (!known) return knownReposNote(repos);
  const refs = known.refs ?? [];
  if (!refs.length) return h('span', { class: 'muted', id: 'unknown-rev' }, 'Nothing to show.');
  // A stored ref whose commit has no summary under the rules the database
  // answers under (another rules file ingested since, the ref's tip not in
  // that run's git directory): it exists, it needs an ingest.
  if (refs.some((r) => r.name === rev)) {
    return h('p', { class: 'muted', id: 'unknown-rev' },
      `${repo}'s ref "${rev}" has no summary under the rules this database answers under: `,
      h('code', {}, `portdash ingest --name ${repo} --ref ${rev}`), ' from a git directory that has it makes one. Its other refs: ',
      joined(refs.filter((r) => r.name !== rev), (r) => h('a', { href: overviewHref(repo, r.name) }, r.name)), '.');
  }
  return h('p', { class: 'muted', id: 'unknown-rev' },
    `No commit of ${repo} is named "${rev}". Its refs: `,
    joined(refs, (r) => h('a', { href: overviewHref(repo, r.name) }, r.name)), '.');
}

/**
 * Hides the first screen's links to a section of the page that dead(id,
 * element) says will not show, each with its separator (app.css .links): a
 * port without object dtype has no "Without object dtype" panel, and a
 * panel whose answer failed or found nothing stays hidden.
 */
function hideLinks(dead) {
  for (const a of document.querySelectorAll('#more-nav a[href^="#"], #devcall a[href^="#"]')) {
    const id = a.getAttribute('href').slice(1);
    if (dead(id, document.getElementById(id))) (a.closest('.link-item') ?? a).hidden = true;
  }
}

/** What the port's profile leaves out (profile.mjs): without object dtype,
 * its panel and the links to it. */
function applyProfile() {
  document.body.dataset.objectDtype = profile.objectDtype ? 'yes' : 'no';
  if (profile.objectDtype) return;
  $('no-object').remove();
  hideLinks((id) => id === 'no-object');
}

/** Without object-dtype columns (objectsShown), no object legend nor
 * filter: an object filter from the URL would hide rows by counts the
 * table no longer shows. */
function applyObjectsShown() {
  document.body.dataset.objectColumns = objectsShown() ? 'yes' : 'no';
  if (objectsShown()) return;
  replace($('legend-slot'), legend({ objects: false }));
  $('f-obj').closest('label').hidden = true;
  if (state.obj) {
    state.obj = '';
    saveState();
  }
}

/** Under a scope, a panel whose answer takes no scope says so under its
 * heading (ui.mjs, wholeRepoNote).  `own`: the scope the panel is itself
 * (its figures are then the page's). */
function wholeRepository(root, own = null) {
  if (!state.scope || state.scope === own || !root || root.hidden) return;
  root.querySelector('[data-whole-repo]')?.remove();
  const note = wholeRepoNote(state.scope);
  const head = root.querySelector('h2, h3');
  if (head) head.after(note); else root.prepend(note);
}

/** The panels below the totals; resolves once each has answered (or failed,
 * said by panelError). */
function mountPanels(sumIn, frontierIn, scopeList) {
  const at = { repo: state.repo, rev: state.rev };
  return Promise.allSettled([
    // Under a scope that leaves object dtype out, object arrays stay on the
    // legacy API: "every site must move to HPyField before universal mode"
    // would contradict the scope's banner right under it.
    objectsShown() ? import('./items.mjs').then(({ mountObjectItems }) => mountObjectItems($('object-items'), at))
      .then(() => wholeRepository($('object-items'))).catch(panelError(sumIn, 'Object items')) : null,
    profile.objectDtype ? scoped.mountNoObjectPanel($('no-object'), { ...at, scopes: scopeList })
      .then(() => wholeRepository($('no-object'), scoped.NO_OBJECT))
      .catch(panelError(sumIn, 'Without object dtype')) : null,
    // Blockers by C API symbol with the HPy replacement (symbols.mjs).
    import('./symbols.mjs').then(({ mountSymbols }) => mountSymbols($('symbols'), { ...at, scope: state.scope }))
      .catch(panelError(sumIn, 'Blockers by symbol')),
    // Traverse coverage and what to port next (traverse.mjs, frontier.mjs).
    mountTraverse(portSection('traverse', $('trend'), 'Traverse coverage'), { ...at, objectDtype: profile.objectDtype })
      .catch(panelError(sumIn, 'Traverse coverage')),
    frontierIn,
  ]);
}

/* ---------- start ---------- */

/* The summary and the file table once both answers are in; an error
 * they share is said once. */
async function showSummaryAndFiles(errors, sumIn, listIn, scopeList) {
  const [sum, list] = await Promise.allSettled([sumIn, listIn]);
  if (sum.status === 'fulfilled') {
    renderSummary(sum.value, state.repo, state.rev, scopeList.find((x) => x.name === state.scope),
      list.value?.files);
  } else {
    showError(errors, sum.reason, 'Summary');
    replace($('commit'), h('span', { class: 'muted' }, 'Nothing to show.'));
  }
  if (list.status === 'fulfilled') {
    await showFiles(list.value.files ?? []);
  } else if (sum.status === 'fulfilled' || list.reason?.status !== sum.reason?.status) {
    showError(errors, list.reason, 'File list');
  }
}

async function main() {
  const errors = $('errors');
  $('legend-slot').append(legend());
  let repos = [];
  try {
    repos = await api.repos();
  } catch (e) {
    showError(errors, e, 'Could not list repositories');
  }
  if (!state.repo) {
    if (!repos.length) {
      replace($('commit'), h('span', { class: 'muted' }, 'No repositories have been ingested yet.'));
      return;
    }
    state.repo = repos[0].name;
  }
  const known = repos.find((r) => r.name === state.repo);
  if (!state.rev) {
    if (!known) {
      showError(errors, { problem: { title: 'Unknown repository',
        detail: `No repository named "${state.repo}" has been ingested.` } });
      replace($('commit'), knownReposNote(repos));
      renderPicker(repos, state.repo, '');
      return;
    }
    if (!known.refs?.length) {
      renderPicker(repos, state.repo, '');
      await (await import('./nodata.mjs')).showNoData($('commit'), state.repo);
      return;
    }
    state.rev = known.refs[0].name;
  }
  saveState();
  renderPicker(repos, state.repo, state.rev);
  renderNav($('nav'), 'overview', state.repo, state.rev);
  $('files-csv').href = api.filesCsvUrl(state.repo, state.rev, state.scope);
  $('files-csv').title = state.scope ? `The file table of this commit under scope ${state.scope}, as CSV`
    : 'The file table of this commit as CSV';
  const refNames = (known?.refs ?? []).map((r) => r.name);
  setTitle(`${state.repo} @ ${state.rev} · portdash`);
  const { sumIn, listIn, frontierIn, profileIn, scopesIn } = await firstScreen(refNames);
  profile = await profileIn;
  applyProfile();
  // An unknown revision (the summary's 404) gets no trend: the first
  // ref's, drawn under its error, read as its own.
  const sumErr = await sumIn.then(() => null, (e) => e);
  if (sumErr?.status === 404) {
    // Said once, with where to go; the panels would each ask the server
    // about the same missing commit and say nothing more.
    $('more-nav').hidden = true;
    showError(errors, sumErr, 'Summary');
    replace($('commit'), unknownRevNote(known, repos, state.repo, state.rev));
    return;
  }
  // Scopes (scopes.mjs) and the mixed item representation (items.mjs);
  // the trend waits for them only under a scope (objectsShown).
  const allScopes = (scopesIn ?? scoped.listScopes()).catch((e) => { showError(errors, e, 'Scopes'); return []; });
  objectScope = state.scope ? leavesObjectsOut(await allScopes) : null;
  applyObjectsShown();
  const trendIn = refNames.length ? mountTrendPanel(refNames) : null;
  const scopeList = (await allScopes).filter(profile.keepScope);
  scoped.mountScopePicker($('scope-select'), $('scope-banner'), scopeList, state.scope, await allScopes);
  const extras = mountPanels(sumIn, frontierIn, scopeList);
  await showSummaryAndFiles(errors, sumIn, listIn, scopeList);
  await extras;
  // The trend's module may arrive after every answer (a cached page): its
  // panel is shown first, or the link to it would be taken for dead.
  await trendIn;
  // Every panel has answered: a link to one that stayed hidden leads nowhere.
  hideLinks((id, el) => !el || el.hidden);
}

// data-ready tells tests (and anyone waiting) that loading has finished.
main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
