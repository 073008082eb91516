// file.mjs: the file page (file.html?repo=R&rev=REV&path=P).
//
// Shows one file at one commit: its status, notes, the functions it defines,
// the findings (API uses) in it and the source with every line that has
// findings highlighted by its worst class.  Line anchors (#L12, #L12-L40) are
// shareable: they select and scroll to those lines.  Extra URL state: class
// (findings filter), unguarded=1, sort/order (functions table), all written
// back with history.replaceState.

import * as api from './api.mjs';
import { h, replace, fmt, nameNodes, setTitle, visible, normalise, paint } from './dom.mjs';
import { STATUS_RANK, OBJECT_STATES, TOKEN_CLASSES } from './model.mjs';
import {
  statusBadge, objectBadge, classBadge, legend, showError, renderHeaders, nextSort, cmpStr,
  readParams, writeParams, renderNav, revLabel, revIsCommit,
} from './ui.mjs';
import { templateGroups, groupSums, groupName, groupWhy, templateName, macroOf, groupKind } from './tmplgroup.mjs';
import { whyFinding, whyLine, whyStatus, whyObject, whyChain } from './why.mjs';
import { renderCrumbs, renderHead, isLost } from './filehead.mjs';
import { dismissCell } from './dismiss.mjs';
import { renderSource, remarkSource, applyHash, colour } from './source.mjs';
// What comes after the first screen (the history chart, the traverse,
// owners and plan panels, the suggested changes) is imported then, so its
// modules are neither fetched nor run before the function table (issue 26.4).

const $ = (id) => document.getElementById(id);
// numpy's templates; in other files a definition with instances is a
// macro of the file used once per function (mexp.h).
const TEMPLATE_FILE = /\.(c|h|inc)\.src$/;
const state = readParams(['repo', 'rev', 'path', 'class', 'unguarded', 'tool', 'level', 'open', 'sort', 'order']);
const LEVELS = ['error', 'warning', 'note', 'none'];
const DEFAULT_SORT = { key: 'lines', order: 'asc' };
let detail = null;
/* Findings per function name: from the first-screen answer's
 * function_findings (GET .../file-functions), so the table shows before the
 * findings list is in. */
let findingCount = new Map();
const openGroups = new Set();
/* The source's lines once the raw answer is in (template names are read
 * from them); null before. */
let sourceLines = null;

const OBJECT_RANK = (s) => (s ? OBJECT_STATES.indexOf(s) : OBJECT_STATES.length);
const FN_COLUMNS = [
  { key: 'name', label: 'Function', get: (f) => f.name ?? '' },
  { key: 'lines', label: 'Lines', get: (f) => f.start_line ?? 0, title: 'Sort by position in the file' },
  { key: 'status', label: 'Status', get: (f) => STATUS_RANK[f.status] ?? 99 },
  { key: 'object', label: 'Object-dtype path', get: (f) => OBJECT_RANK(f.object_state),
    title: 'Sort by object state (legacy API, CPython-only, universal, none)' },
  ...TOKEN_CLASSES.map((c) => ({ key: c, label: c, numeric: true, get: (f) => f.tokens?.[c] ?? 0,
    title: `Sort by ${c} tokens` })),
  { key: 'findings', label: 'Findings', numeric: true, get: (f) => findingCount.get(f.name) ?? 0 },
];
const FN_COLUMN = Object.fromEntries(FN_COLUMNS.map((c) => [c.key, c]));
/* False once the port's profile (profile.mjs) says it has no object dtype
 * and no function of the file is on an object path (kiwi, ultrajson): its
 * column of dashes, its legend and the traverse panel's column go.  Read
 * after the first screen, which it would otherwise wait for. */
let objectCols = true;
/* The port's profile (profile.mjs), asked once the first screen is in;
 * null until then or when it cannot be read. */
let profileIn = Promise.resolve(null);
const fnColumns = () => (objectCols ? FN_COLUMNS : FN_COLUMNS.filter((c) => c.key !== 'object'));

function save() {
  const s = fnSort();
  const def = s.key === DEFAULT_SORT.key && s.order === DEFAULT_SORT.order;
  writeParams({ ...state, sort: def ? '' : s.key, order: def ? '' : s.order });
}

function fnSort() {
  return FN_COLUMN[state.sort] && (objectCols || state.sort !== 'object') ? { key: state.sort, order: state.order === 'desc' ? 'desc' : 'asc' } : DEFAULT_SORT;
}

/** The file's history up to the page's rev: along the ref, or along the
 * chain up to the commit a page at a commit id shows, so that it ends at
 * the figures of the head above it. */
async function sparkline() {
  const box = $('sparkline');
  if (!box) return;
  try {
    // Files with object-dtype paths: how many still use the legacy API; others: ported functions.
    const hasObject = (detail?.functions ?? []).some((f) => f.object_state);
    const [{ mountSparkline }, profile] = await Promise.all([import('./trend.mjs'), profileIn]);
    await mountSparkline(box, { repo: state.repo, ref: state.rev, path: state.path,
      atCommit: revIsCommit(state.rev, detail?.commit), measure: hasObject ? 'object_paths.object-legacy' : 'functions.ported',
      objects: hasObject || profile?.objectDtype !== false });
  } catch (e) {
    box.textContent = `no history: ${e.problem?.title ?? e.message}`;
  }
}

/* ---------- functions ---------- */

/* The rows the first frame of the function table gets: the first screen
 * (800 px) shows about 15; the others follow later.  Its first layout and
 * paint was of all 121 rows of arraytypes.c.src (2,400 elements, 6,500
 * px): the largest task before the table showed (issue 26.4).  Meanwhile
 * the section keeps about their height (FN_ROW_PX each, a row of
 * arraytypes.c.src is 40-60 px), so that what is below it (the source:
 * content-visibility) stays below the first screen and is not laid out. */
const FN_FIRST_ROWS = 20;
const FN_ROW_PX = 40;
let fnGen = 0;

const fnLineLink = (n) => h('a', { href: `#L${n}` }, String(n));
const fnFindings = (f) => findingCount.get(f.name) ?? 0;

/* The file's functions in the table's order (sort: its column and order;
 * ties by first line). */
function fnSorted(sort) {
  const col = FN_COLUMN[sort.key];
  const dir = sort.order === 'desc' ? -1 : 1;
  return [...(detail.functions ?? [])].sort((a, b) => {
    const va = col.get(a);
    const vb = col.get(b);
    const c = typeof va === 'string' ? cmpStr(va, vb) : va - vb;
    return c ? dir * c : (a.start_line ?? 0) - (b.start_line ?? 0);
  });
}

/* A function's row; group: the template definition it is an instance of
 * (hidden while the group is closed), or none. */
function fnRow(f, group) {
  return h('tr', { dataset: { name: f.name ?? '', group: group ?? null }, class: group ? 'tmpl-instance' : null,
    hidden: group ? !openGroups.has(group) : null },
  h('th', { scope: 'row', class: 'fn-name' },
    h('a', { href: `#L${f.start_line}-L${f.end_line}`, title: 'Show in source' }, h('code', null, nameNodes(f.name ?? '?')))),
  h('td', { class: 'lines' }, fnLineLink(f.start_line), '–', fnLineLink(f.end_line)),
  h('td', { class: 'fn-status', dataset: { status: f.status ?? '', why: whyStatus(f) },
    title: whyStatus(f) || null }, statusBadge(f.status), whyLine(f.why?.status, whyFinding(f.why?.status))),
  objectCols ? h('td', { class: 'fn-object', dataset: { object: f.object_state ?? '', why: whyObject(f) },
    title: whyObject(f) || null }, objectBadge(f.object_state),
  f.object_state ? (f.why?.object?.chain ? whyChain(f, state)
    : whyLine(f.why?.object, whyObject(f).slice(f.object_state.length + 2))) : null) : null,
  TOKEN_CLASSES.map((c) => h('td', { class: ['num', !(f.tokens?.[c]) && 'zero'] }, fmt(f.tokens?.[c] ?? 0))),
  h('td', { class: ['num', !fnFindings(f) && 'zero'] }, fmt(fnFindings(f))));
}

/* The row of a template definition (key: its lines) whose instances are
 * inst, f the first of them in the table's order: their sums, and a
 * toggle that shows them. */
function fnGroupRow(f, key, inst) {
  const sums = groupSums(inst, TOKEN_CLASSES, fnFindings);
  const open = openGroups.has(key);
  // The instances' why when they agree on rule and line (a chain of calls
  // is not folded: the instances show it).
  const stWhy = groupWhy(inst.map((x) => x.why?.status ?? null));
  const obWhy = inst.some((x) => x.object_state && x.why?.object?.chain) ? null
    : groupWhy(inst.map((x) => (x.object_state ? x.why?.object ?? null : null)));
  // The definition's name as the template writes it (issue 23.7); the
  // instances' common prefix and suffix until the source is in.
  const names = inst.map((x) => x.name);
  const tname = templateName(sourceLines, f.start_line, f.end_line, names);
  const label = tname ?? groupName(names);
  const toggle = h('button', { type: 'button', class: 'toggle linkish', 'aria-expanded': String(open),
    'aria-label': `${open ? 'Collapse' : 'Expand'} the ${inst.length} instances of ${label}` }, open ? '▾' : '▸');
  toggle.onclick = () => { if (openGroups.has(key)) openGroups.delete(key); else openGroups.add(key); renderFunctions(); };
  return h('tr', { class: 'tmpl-group', dataset: { group: key, instances: String(inst.length) } },
    h('th', { scope: 'row', class: 'fn-name' }, toggle, ' ',
      h('a', { href: `#L${f.start_line}-L${f.end_line}`, title: 'Show in source' },
        h('code', { class: 'tmpl-name', dataset: { template: tname ? 'source' : 'common' } }, nameNodes(label))),
      h('span', { class: 'muted small tmpl-kind' },
        groupKind(TEMPLATE_FILE.test(state.path), inst.length, macroOf(sourceLines, f.start_line), fmt))),
    h('td', { class: 'lines' }, fnLineLink(f.start_line), '–', fnLineLink(f.end_line)),
    h('td', { class: 'fn-status' }, Object.entries(sums.statuses).map(([st, n]) => [statusBadge(st), n > 1 && Object.keys(sums.statuses).length > 1 ? ` ${n} ` : ' ']),
      whyLine(stWhy?.site, stWhy?.text)),
    objectCols ? h('td', { class: 'fn-object' }, Object.keys(sums.objects).length ? Object.keys(sums.objects).map((o) => objectBadge(o)) : objectBadge(null),
      whyLine(obWhy?.site, obWhy?.text)) : null,
    TOKEN_CLASSES.map((c) => h('td', { class: ['num', !sums.tokens[c] && 'zero'], dataset: { sum: c } }, fmt(sums.tokens[c]))),
    h('td', { class: ['num', !sums.findings && 'zero'] }, fmt(sums.findings)));
}

/* The table's rows in order, each a function's or a template
 * definition's (tmplgroup.mjs, groups: where its first instance sorts,
 * its instances in fns's order).  A definition's row shows its instances'
 * sums, so in a count column (sort) it sorts by them. */
function fnUnits(fns, groups, sort) {
  const units = [];
  const seen = new Set();
  for (const f of fns) {
    const key = `${f.start_line}-${f.end_line}`;
    const inst = groups.get(key);
    if (!inst) { units.push({ f }); continue; }
    if (seen.has(key)) continue;
    seen.add(key);
    units.push({ f, key, inst });
  }
  const col = FN_COLUMN[sort.key];
  if (!col.numeric) return units;
  const dir = sort.order === 'desc' ? -1 : 1;
  for (const u of units) u.v = u.inst ? u.inst.reduce((a, x) => a + col.get(x), 0) : col.get(u.f);
  return units.sort((a, b) => dir * (a.v - b.v) || (a.f.start_line ?? 0) - (b.f.start_line ?? 0));
}

/* Makers of the table's rows, in order, so that only the rows that go in
 * now are built now: a definition's row, then its instances when its
 * group is open. */
function fnRowMakers(fns, groups, sort) {
  const rows = [];
  for (const { f, key, inst } of fnUnits(fns, groups, sort)) {
    if (!inst) { rows.push(() => fnRow(f)); continue; }
    rows.push(() => fnGroupRow(f, key, inst));
    // Instances are built only when their group is open: arraytypes.c.src
    // has 884 functions in 121 definitions (issue 26.4).
    if (openGroups.has(key)) for (const x of inst) rows.push(() => fnRow(x, key));
  }
  return rows;
}

/**
 * Draws the function table.  first: how many rows go in now; the others
 * are built and put in by the function returned (null when none are
 * left), which does nothing once the table was drawn again (a sort, a
 * group opened).
 */
function renderFunctions(first = Infinity) {
  const gen = ++fnGen;
  const sort = fnSort();
  const onSort = (key) => {
    const s = nextSort(sort, key, FN_COLUMN[key].numeric);
    state.sort = s.key;
    state.order = s.order;
    save();
    renderFunctions();
  };
  renderHeaders($('functions-table').tHead.rows[0], fnColumns(), sort, onSort);
  const fns = fnSorted(sort);
  const groups = templateGroups(fns);
  const rows = fnRowMakers(fns, groups, sort);
  const body = $('functions-table').tBodies[0];
  const build = (from, to) => rows.slice(from, to).map((make) => make());
  replace(body, fns.length ? build(0, first)
    : h('tr', { class: 'empty' }, h('td', { colspan: fnColumns().length }, 'No functions in this file.')));
  $('functions-count').textContent = `${fmt(fns.length)} functions` +
    (groups.size ? ` (${fmt(fns.length - [...groups.values()].reduce((a, v) => a + v.length - 1, 0))} definitions)` : '');
  const section = $('functions-section');
  section.style.paddingBottom = '';
  if (rows.length <= first) return null;
  section.style.paddingBottom = `${(rows.length - first) * FN_ROW_PX}px`;
  return () => {
    if (gen !== fnGen) return;
    body.append(...build(first, rows.length));
    section.style.paddingBottom = '';
  };
}

/**
 * Names the template rows from the source once it is in, in place: what
 * renderFunctions() would draw again (the toggle's label, the name and
 * data-template), without building the table anew.
 */
function nameTemplateRows() {
  const groups = templateGroups(detail.functions ?? []);
  for (const tr of $('functions-table').tBodies[0].querySelectorAll('tr.tmpl-group')) {
    const inst = groups.get(tr.dataset.group);
    if (!inst) continue;
    const [from, to] = tr.dataset.group.split('-').map(Number);
    tr.querySelector('.tmpl-kind').textContent =
      groupKind(TEMPLATE_FILE.test(state.path), inst.length, macroOf(sourceLines, from), fmt);
    const tname = templateName(sourceLines, from, to, inst.map((x) => x.name));
    if (!tname) continue;
    const toggle = tr.querySelector('button.toggle');
    const open = toggle.getAttribute('aria-expanded') === 'true';
    toggle.setAttribute('aria-label', visible(`${open ? 'Collapse' : 'Expand'} the ${inst.length} instances of ${tname}`));
    const code = tr.querySelector('code.tmpl-name');
    code.dataset.template = 'source';
    replace(code, nameNodes(tname));
  }
}

/* ---------- findings ---------- */

function setupFindingsFilter(findings) {
  const sel = $('f-class');
  replace(sel, h('option', { value: '' }, `all (${fmt(findings.length)})`),
    TOKEN_CLASSES.map((c) => h('option', { value: c }, `${c} (${fmt(findings.filter((f) => f.class === c).length)})`)));
  sel.value = state.class;
  if (sel.value !== state.class) { sel.value = ''; state.class = ''; }
  const unguarded = $('f-unguarded');
  unguarded.checked = state.unguarded === '1';
  const open = $('f-open');
  open.checked = state.open === '1';
  // per-tool and per-level filters (the API's ?tool= and ?level=, done here)
  const tools = [...new Set(findings.map((f) => f.tool ?? 'portdash'))].sort();
  const tool = $('f-tool');
  replace(tool, h('option', { value: '' }, 'all'),
    tools.map((t) => h('option', { value: t }, `${t} (${fmt(findings.filter((f) => (f.tool ?? 'portdash') === t).length)})`)));
  tool.value = tools.includes(state.tool) ? state.tool : '';
  const level = $('f-level');
  replace(level, h('option', { value: '' }, 'all'),
    LEVELS.map((l) => h('option', { value: l }, `${l} (${fmt(findings.filter((f) => f.level === l).length)})`)));
  level.value = LEVELS.includes(state.level) ? state.level : '';
  const apply = () => {
    state.class = sel.value;
    state.unguarded = unguarded.checked ? '1' : '';
    state.tool = tool.value;
    state.level = level.value;
    state.open = open.checked ? '1' : '';
    save();
    renderFindings();
  };
  for (const el of [sel, unguarded, tool, level, open]) el.addEventListener('change', apply);
}

/** Reloads the file's findings after a dismissal changed them. */
async function refreshFindings() {
  const d = await api.file(state.repo, state.rev, state.path);
  detail.findings = d.findings;
  detail.dismissed_count = d.dismissed_count;
  remarkSource(detail.findings);
  renderFindings();
}

/* Bumped by every renderFindings call, so an older call still appending
 * its chunks (a filter changed meanwhile) stops. */
let findingsGen = 0;
/* arraytypes.c.src with a SARIF upload has 5,000 findings on the page: a
 * table 200,000 px tall put the source out of reach.  The first rows show,
 * the rest after "show all" (kept for the page's life). */
const FINDINGS_SHOWN = 200;
let findingsAll = false;

function findingRow(f) {
  return h('tr', { class: [f.guarded && 'guarded', f.dismissed && 'dismissed'], dataset: { fingerprint: f.fingerprint ?? '' } },
    h('td', { class: 'num' }, h('a', { href: `#L${f.line}` }, String(f.line))),
    h('td', { class: 'num' }, String(f.column ?? '')),
    h('td', null, classBadge(f.class)),
    h('td', { class: 'rule' }, f.rule ?? ''),
    h('td', null, h('code', null, f.text ?? '')),
    h('td', null, f.function ? h('code', null, f.function) : h('span', { class: 'muted' }, '—')),
    h('td', null, f.guarded ? h('span', { class: 'badge guarded-badge', title: 'CPython-only on purpose (guarded block): does not block universal mode' }, 'guarded') : ''),
    h('td', null, f.tool ?? 'portdash'),
    dismissCell(f, state, refreshFindings));
}

/**
 * The findings table.  The first rows go in at once, the rest in chunks
 * after a paint each (arraytypes.c.src with a SARIF upload has 7,500), so
 * the source below shows without waiting for them.  Resolves when all rows
 * are in (or a newer call took over).
 */
async function renderFindings() {
  const gen = ++findingsGen;
  const all = detail.findings ?? [];
  const rows = all.filter((f) => (!state.class || f.class === state.class) && (state.unguarded !== '1' || !f.guarded) &&
    (!state.tool || (f.tool ?? 'portdash') === state.tool) && (!state.level || f.level === state.level) &&
    (state.open !== '1' || !f.dismissed))
    .sort((a, b) => (a.line - b.line) || ((a.column ?? 0) - (b.column ?? 0)));
  const out = $('findings-count');
  out.dataset.shown = rows.length;
  const dismissed = all.filter((f) => f.dismissed).length;
  out.dataset.dismissed = dismissed;
  out.textContent = (rows.length === all.length ? `${fmt(all.length)} findings` : `showing ${fmt(rows.length)} of ${fmt(all.length)} findings`) +
    (dismissed ? ` · ${fmt(dismissed)} dismissed` : '');
  const body = $('findings-table').tBodies[0];
  const FIRST = 100;
  const CHUNK = 1500;
  const upto = findingsAll ? rows.length : Math.min(rows.length, FINDINGS_SHOWN);
  replace(body, rows.length ? rows.slice(0, Math.min(FIRST, upto)).map(findingRow)
    : h('tr', { class: 'empty' }, h('td', { colspan: 9 }, all.length ? 'No findings match this filter.' : 'No findings in this file.')));
  const more = $('findings-more');
  more.hidden = upto >= rows.length;
  more.textContent = `show all ${fmt(rows.length)} findings (${fmt(upto)} shown)`;
  more.onclick = () => { findingsAll = true; renderFindings(); };
  for (let at = FIRST; at < upto; at += CHUNK) {
    await paint();
    if (gen !== findingsGen) return;
    body.append(...rows.slice(at, Math.min(at + CHUNK, upto)).map(findingRow));
  }
}

/** The source once its text is in (raw: the settled answer), or why it is not there. */
async function showSource(raw, colours, findings, afterText) {
  if (raw.status === 'fulfilled') {
    if (!sourceLines) {
      // Template rows take their names from the source (tmplgroup.mjs).
      sourceLines = normalise(raw.value).split('\n');
      nameTemplateRows();
    }
    await renderSource(raw.value, colours, findings, afterText, { path: state.path, size: detail.size });
    return;
  }
  const p = raw.reason?.problem ?? {};
  replace($('source'), h('div', { class: 'notice', id: 'source-unavailable', role: 'status' },
    h('strong', null, 'Source not available. '),
    'The analysis above is stored, but the file\'s text could not be read',
    p.detail ? `: ${p.detail}` : p.title ? `: ${p.title}` : '', '.'));
}

/** The file's findings (its full answer's), kept in detail; [] after saying why not. */
function loadFindings() {
  return api.file(state.repo, state.rev, state.path).then((full) => full.findings ?? [], (e) => {
    showError($('errors'), e, 'Findings');
    return [];
  }).then((list) => { detail.findings = list; return list; });
}

/** Owners and the porting plan of this file (plan.mjs, issue 24), under the source. */
function mountPlanPanel() {
  return Promise.all([import('./traverse.mjs'), import('./plan.mjs')])
    .then(([{ portSection }, { mountPlan }]) => mountPlan(portSection('owners-plan', $('source-section'), 'Owners and porting plan', 'after'),
      { repo: state.repo, rev: state.rev, path: state.path, functions: detail?.functions }))
    .catch((e) => showError($('errors'), e, 'Owners and porting plan'));
}

/* What the port has (profile.mjs), asked once the first screen is in;
 * without object dtype the object columns go.  Then the traverse coverage
 * of this file's HPy types (traverse.mjs), under the functions: the
 * promise returned. */
function startPortPanels(errors) {
  // A function of this file on an object path says the port has object
  // dtype: its profile (the repository, its summary and file list) is
  // asked only for a file without one.
  profileIn = (detail.functions ?? []).some((f) => f.object_state) ? Promise.resolve({ objectDtype: true })
    : import('./profile.mjs').then(({ loadProfile }) => loadProfile(state.repo, state.rev)).catch(() => null);
  profileIn.then((p) => {
    if (p?.objectDtype === false && !(detail.functions ?? []).some((f) => f.object_state)) {
      objectCols = false;
      replace($('legend-slot'), legend({ tokens: true, objects: false }));
      renderFunctions();
    }
    $('functions-table').dataset.objectColumns = String(objectCols);   /* decided */
  });
  // Traverse coverage of the HPy types in this file (traverse.mjs); hidden when none.
  return Promise.all([import('./traverse.mjs'), profileIn]).then(([{ mountTraverse, portSection }, p]) => mountTraverse(
    portSection('traverse', $('functions-section'), 'Traverse coverage'),
    { repo: state.repo, rev: state.rev, path: state.path, objectDtype: p?.objectDtype }))
    .catch((e) => showError(errors, e, 'Traverse coverage'));
}

/* ---------- start ---------- */

/* The page's frame: legend, navigation, crumbs and title; false (said
 * in errors) when the URL does not name a file. */
function startPage(errors) {
  $('legend-slot').append(legend({ tokens: true }));
  if (!state.repo || !state.rev || !state.path) {
    showError(errors, { problem: { title: 'Missing parameters', detail: 'file.html needs ?repo=…&rev=…&path=…' } });
    replace($('file-head'), h('a', { href: './' }, 'Back to the overview'));
    return false;
  }
  renderNav($('nav'), '', state.repo, state.rev);
  renderCrumbs(state);
  setTitle(`${state.path} · ${state.repo} @ ${revLabel(state.rev)} · portdash`);
  return true;
}

async function main() {
  const errors = $('errors');
  if (!startPage(errors)) return;
  // Both asked at once; the head and the functions show as soon as the
  // analysis is in, without waiting for the text (issue 26.4).  The text,
  // smaller, is mostly in first: then the template rows are named by it
  // from the start (tmplgroup.mjs), not drawn again once it is.
  let rawNow = null;
  // (through a promise: a path the API refuses before any request, a
  // "." or ".." segment, is then the file answer's error below, not the page's)
  const rawIn = Promise.resolve().then(() => api.raw(state.repo, state.rev, state.path))
    .then((value) => ({ status: 'fulfilled', value }), (reason) => ({ status: 'rejected', reason }))
    .then((r) => { rawNow = r; return r; });
  // The head and the function table from the first-screen answer
  // (file-functions: the findings counted, not listed, a sixth of the
  // bytes); the findings list, the rest of the 1.5 MB of arraytypes.c.src,
  // is parsed after they show (issue 26.4).
  try {
    detail = await api.fileFunctions(state.repo, state.rev, state.path);
  } catch (e) {
    showError(errors, e, 'File');
    replace($('file-head'), h('span', { class: 'muted' }, 'Nothing to show.'));
    replace($('legend-slot'));    // no table or source for it to explain
    return;
  }
  findingCount = new Map(Object.entries(detail.function_findings ?? {}));
  if (rawNow?.status === 'fulfilled') sourceLines = normalise(rawNow.value).split('\n');
  renderHead(detail, state.rev);
  if (isLost(detail)) {
    // Nothing analysed, no text: the head says so once (filehead.mjs).
    replace($('legend-slot'));
    return;
  }
  $('functions-section').hidden = false;
  const restOfFunctions = renderFunctions(FN_FIRST_ROWS);
  await paint();         // the head and the functions' first screen show before the rest
  const colours = colour(rawIn);
  // Asked only now: its parse would hold the table back.  The source's
  // text goes in meanwhile; the findings table and the findings in the
  // source when it is in.
  const findings = loadFindings();
  const findingsIn = findings.then(() => {
    setupFindingsFilter(detail.findings);
    $('findings-section').hidden = false;
    return renderFindings();
  });
  const types = startPortPanels(errors);
  $('source-section').hidden = false;
  const raw = await rawIn;
  // The function table's other rows once every line's text is in: their
  // layout (0.15 s of CPU for the 100 rows of arraytypes.c.src) held the
  // text back; the table's box shows its first 15 meanwhile.  After the
  // text's frame, so that it is not laid out with it.
  let rest = restOfFunctions;
  const putRest = () => { rest?.(); rest = null; };
  await showSource(raw, colours, findings, () => paint().then(putRest));
  putRest();             // the text did not come: the rows still do
  // The owners and plan panel, the history chart and the suggested changes
  // come after every line: the plan of arraytypes.c.src is 400 list items,
  // and the sparkline's library (Chart.js) is the largest script here.
  const spark = sparkline();
  // Owners and the porting plan of this file (plan.mjs, issue 24), under
  // the source: the plan of arraytypes.c.src is 11,700 px tall, and above
  // the findings it put the source 20,000 px down the page.  The file's
  // head links to it.
  const planned = mountPlanPanel();
  if (raw.status === 'fulfilled') {
    const { mountSuggestions } = await import('./fixes.mjs');
    await mountSuggestions(state.repo, state.rev, state.path);
    // Once the panels above the source are in, so the line scrolled to stays put.
    await Promise.all([types, planned]);
    applyHash(detail.functions);
    window.addEventListener('hashchange', () => applyHash(detail.functions));
  }
  await findingsIn;
  await spark;
  await types;
  await planned;
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
