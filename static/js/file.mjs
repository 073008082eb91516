// file.mjs: the file page (file.html?repo=R&rev=REV&path=P).
//
// Shows one file at one commit: its status, notes, the functions it defines,
// the findings (API uses) in it and the source with every line that has
// findings highlighted by its worst class.  Line anchors (#L12, #L12-L40) are
// shareable: they select and scroll to those lines.  Extra URL state: class
// (findings filter), unguarded=1, sort/order (functions table), all written
// back with history.replaceState.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit } from './dom.mjs';
import {
  STATUSES, STATUS_LABEL, STATUS_RANK, OBJECT_STATES, OBJECT_LABEL, TOKEN_CLASSES, worstFinding, total,
} from './model.mjs';
import {
  statusBadge, objectBadge, classBadge, statusBar, legend, showError, renderHeaders, nextSort, cmpStr,
  readParams, writeParams, overviewHref, renderNav,
} from './ui.mjs';
import { mountSparkline } from './trend.mjs';
import { mountTraverse, portSection } from './traverse.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'rev', 'path', 'class', 'unguarded', 'sort', 'order']);
const DEFAULT_SORT = { key: 'lines', order: 'asc' };
let detail = null;
let findingsByFunction = new Map();

const OBJECT_RANK = (s) => (s ? OBJECT_STATES.indexOf(s) : OBJECT_STATES.length);
const FN_COLUMNS = [
  { key: 'name', label: 'Function', get: (f) => f.name ?? '' },
  { key: 'lines', label: 'Lines', get: (f) => f.start_line ?? 0, title: 'Sort by position in the file' },
  { key: 'status', label: 'Status', get: (f) => STATUS_RANK[f.status] ?? 99 },
  { key: 'object', label: 'Object-dtype path', get: (f) => OBJECT_RANK(f.object_state),
    title: 'Sort by object state (legacy API, CPython-only, universal, none)' },
  ...TOKEN_CLASSES.map((c) => ({ key: c, label: c, numeric: true, get: (f) => f.tokens?.[c] ?? 0,
    title: `Sort by ${c} tokens` })),
  { key: 'findings', label: 'Findings', numeric: true, get: (f) => findingsByFunction.get(f.name)?.length ?? 0 },
];
const FN_COLUMN = Object.fromEntries(FN_COLUMNS.map((c) => [c.key, c]));

function save() {
  const s = fnSort();
  const def = s.key === DEFAULT_SORT.key && s.order === DEFAULT_SORT.order;
  writeParams({ ...state, sort: def ? '' : s.key, order: def ? '' : s.order });
}

function fnSort() {
  return FN_COLUMN[state.sort] ? { key: state.sort, order: state.order === 'desc' ? 'desc' : 'asc' } : DEFAULT_SORT;
}

/* ---------- breadcrumb and head ---------- */

function renderCrumbs() {
  const parts = state.path.split('/');
  const items = [h('li', null, h('a', { href: overviewHref(state.repo, state.rev), id: 'crumb-overview' },
    state.repo, ' @ ', state.rev))];
  for (let i = 0; i < parts.length - 1; i++) {
    const dir = parts.slice(0, i + 1).join('/');
    items.push(h('li', null, h('a', { href: overviewHref(state.repo, state.rev, { dir }), title: `Files under ${dir}/` }, parts[i])));
  }
  items.push(h('li', { 'aria-current': 'page' }, parts[parts.length - 1]));
  replace($('crumbs'), items);
}

function renderHead(d) {
  const fns = d.functions ?? [];
  const counts = Object.fromEntries(STATUSES.map((s) => [s, fns.filter((f) => f.status === s).length]));
  const obj = Object.fromEntries(OBJECT_STATES.map((s) => [s, fns.filter((f) => f.object_state === s).length]));
  const slash = d.path.lastIndexOf('/');
  replace($('file-head'),
    h('h1', { class: 'file-title', id: 'file-path' },
      h('span', { class: 'dir' }, d.path.slice(0, slash + 1)), h('span', { class: 'base' }, d.path.slice(slash + 1))),
    h('div', { class: 'file-facts' },
      h('span', { id: 'file-status' }, statusBadge(d.status)),
      h('span', { id: 'file-universal', class: ['badge', d.universal_ready ? 'ready-yes' : 'ready-no'],
        title: d.universal_ready ? 'nothing in this file needs CPython' : 'this file still needs CPython' },
      d.universal_ready ? 'universal-ready' : 'not universal-ready'),
      h('span', { class: 'muted' }, 'at ', h('code', { class: 'sha', title: d.commit }, shortCommit(d.commit))),
      h('span', { class: 'fact' }, `${fmt(fns.length)} functions`),
      statusBar(counts, 'bar-inline'),
      h('span', { class: 'fact' }, STATUSES.filter((s) => counts[s]).map((s) => `${fmt(counts[s])} ${STATUS_LABEL[s]}`).join(' · ')),
      total(obj, OBJECT_STATES) ? h('span', { class: 'fact' }, 'object paths: ',
        OBJECT_STATES.filter((s) => obj[s]).map((s, i) => [i ? ' · ' : '',
          h('span', { class: ['ob-text', `ob-text-${s}`] }, `${fmt(obj[s])} ${OBJECT_LABEL[s]}`)])) : null),
    h('div', { class: 'file-facts' }, h('span', { class: 'sparkline-box', id: 'sparkline' })),
    d.notes ? h('div', { class: 'notes', id: 'file-notes' }, h('strong', null, 'Notes: '), d.notes) : null,
    // The API pages very long lists (a generated file can have 100,000s of findings).
    d.truncated ? h('div', { class: 'notes', id: 'file-truncated' },
      `This file has ${fmt(d.functions_total)} functions and ${fmt(d.findings_total)} findings; ` +
      `this page shows the first ${fmt(d.per_page)} of each (the API pages the rest).`) : null);
}

/** The file's history along the page's ref (or the repository's first ref when rev is a commit id). */
async function sparkline() {
  const box = $('sparkline');
  if (!box) return;
  try {
    const repos = await api.repos();
    const refs = repos.find((r) => r.name === state.repo)?.refs ?? [];
    const ref = refs.find((r) => r.name === state.rev)?.name ?? refs[0]?.name;
    if (!ref) return;
    // Files with object-dtype paths: how many still use the legacy API; others: ported functions.
    const hasObject = (detail?.functions ?? []).some((f) => f.object_state);
    await mountSparkline(box, { repo: state.repo, ref, path: state.path,
      measure: hasObject ? 'object_paths.object-legacy' : 'functions.ported' });
  } catch (e) {
    box.textContent = `no history: ${e.problem?.title ?? e.message}`;
  }
}

/* ---------- functions ---------- */

function renderFunctions() {
  const sort = fnSort();
  const onSort = (key) => {
    const s = nextSort(sort, key, FN_COLUMN[key].numeric);
    state.sort = s.key;
    state.order = s.order;
    save();
    renderFunctions();
  };
  renderHeaders($('functions-table').tHead.rows[0], FN_COLUMNS, sort, onSort);
  const col = FN_COLUMN[sort.key];
  const dir = sort.order === 'desc' ? -1 : 1;
  const fns = [...(detail.functions ?? [])].sort((a, b) => {
    const va = col.get(a);
    const vb = col.get(b);
    const c = typeof va === 'string' ? cmpStr(va, vb) : va - vb;
    return c ? dir * c : (a.start_line ?? 0) - (b.start_line ?? 0);
  });
  const lineLink = (n) => h('a', { href: `#L${n}` }, String(n));
  replace($('functions-table').tBodies[0], fns.length ? fns.map((f) => h('tr', { dataset: { name: f.name ?? '' } },
    h('th', { scope: 'row', class: 'fn-name' },
      h('a', { href: `#L${f.start_line}-L${f.end_line}`, title: 'Show in source' }, h('code', null, f.name ?? '?'))),
    h('td', { class: 'lines' }, lineLink(f.start_line), '–', lineLink(f.end_line)),
    h('td', { class: 'fn-status', dataset: { status: f.status ?? '' } }, statusBadge(f.status)),
    h('td', { class: 'fn-object', dataset: { object: f.object_state ?? '' } }, objectBadge(f.object_state)),
    TOKEN_CLASSES.map((c) => h('td', { class: ['num', !(f.tokens?.[c]) && 'zero'] }, fmt(f.tokens?.[c] ?? 0))),
    h('td', { class: ['num', !findingsByFunction.get(f.name)?.length && 'zero'] },
      fmt(findingsByFunction.get(f.name)?.length ?? 0))))
    : h('tr', { class: 'empty' }, h('td', { colspan: FN_COLUMNS.length }, 'No functions in this file.')));
  $('functions-count').textContent = `${fmt(fns.length)} functions`;
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
  const apply = () => {
    state.class = sel.value;
    state.unguarded = unguarded.checked ? '1' : '';
    save();
    renderFindings();
  };
  sel.addEventListener('change', apply);
  unguarded.addEventListener('change', apply);
}

function renderFindings() {
  const all = detail.findings ?? [];
  const rows = all.filter((f) => (!state.class || f.class === state.class) && (state.unguarded !== '1' || !f.guarded))
    .sort((a, b) => (a.line - b.line) || (a.column - b.column));
  replace($('findings-table').tBodies[0], rows.length ? rows.map((f) => h('tr', { class: [f.guarded && 'guarded'] },
    h('td', { class: 'num' }, h('a', { href: `#L${f.line}` }, String(f.line))),
    h('td', { class: 'num' }, String(f.column ?? '')),
    h('td', null, classBadge(f.class)),
    h('td', { class: 'rule' }, f.rule ?? ''),
    h('td', null, h('code', null, f.text ?? '')),
    h('td', null, f.function ? h('code', null, f.function) : h('span', { class: 'muted' }, '—')),
    h('td', null, f.guarded ? h('span', { class: 'badge guarded-badge', title: 'CPython-only on purpose (guarded block): does not block universal mode' }, 'guarded') : '')))
    : h('tr', { class: 'empty' }, h('td', { colspan: 7 }, all.length ? 'No findings match this filter.' : 'No findings in this file.')));
  const out = $('findings-count');
  out.dataset.shown = rows.length;
  out.textContent = rows.length === all.length ? `${fmt(all.length)} findings` : `showing ${fmt(rows.length)} of ${fmt(all.length)} findings`;
}

/* ---------- source ---------- */

/**
 * Splits one source line into text and <mark> nodes for its findings.  A
 * finding is marked where its text really is: at its (1-based) column if the
 * text is there, else at the first occurrence in the line; otherwise unmarked.
 */
function lineContent(text, findings) {
  if (!findings?.length) return text;
  const spans = [];
  for (const f of [...findings].sort((a, b) => a.column - b.column)) {
    if (!f.text) continue;
    let at = (f.column ?? 0) - 1;
    if (at < 0 || !text.startsWith(f.text, at)) at = text.indexOf(f.text);
    if (at < 0) continue;
    const end = at + f.text.length;
    if (spans.some((s) => at < s.end && end > s.at)) continue;
    spans.push({ at, end, f });
  }
  spans.sort((a, b) => a.at - b.at);
  const out = [];
  let pos = 0;
  for (const s of spans) {
    if (s.at > pos) out.push(text.slice(pos, s.at));
    out.push(h('mark', { class: ['tk', `tk-${s.f.class}`, s.f.guarded && 'guarded'],
      title: `${s.f.class}${s.f.guarded ? ' (guarded)' : ''}: ${s.f.rule ?? ''}` }, text.slice(s.at, s.end)));
    pos = s.end;
  }
  if (pos < text.length) out.push(text.slice(pos));
  return out;
}

function findingTitle(list) {
  return list.map((f) => `${f.line}:${f.column} ${f.class}${f.guarded ? ' (guarded)' : ''} ${f.text ?? ''} — ${f.rule ?? ''}`).join('\n');
}

function renderSource(text) {
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const byLine = new Map();
  for (const f of detail.findings ?? []) {
    if (!byLine.has(f.line)) byLine.set(f.line, []);
    byLine.get(f.line).push(f);
  }
  const body = h('tbody');
  const frag = document.createDocumentFragment();
  lines.forEach((line, i) => {
    const n = i + 1;
    const fs = byLine.get(n);
    const worst = fs ? worstFinding(fs) : null;
    frag.append(h('tr', {
      id: `L${n}`,
      class: worst && ['hl', `hl-${worst.class}`, worst.guarded && 'hl-guarded'],
      dataset: worst ? { worst: worst.class, guarded: String(!!worst.guarded) } : null,
    },
    h('td', { class: 'ln' }, h('a', { href: `#L${n}`, dataset: { line: n } }, String(n))),
    h('td', { class: 'mk', title: fs ? findingTitle(fs) : null }, fs ? h('span', { class: 'dot', 'aria-label': `${fs.length} finding(s)` }) : null),
    h('td', { class: 'lc' }, lineContent(line, fs))));
  });
  body.append(frag);
  const table = h('table', { class: 'code', id: 'source-table' },
    h('caption', { class: 'sr-only' }, `Source of ${state.path}`), body);
  body.addEventListener('click', onLineClick);
  replace($('source'), h('div', { class: 'code-wrap' }, table));
  const size = detail.size != null ? ` · ${fmt(detail.size)} bytes` : '';
  $('source-info').textContent = `${fmt(lines.length)} lines${size} · ${fmt(byLine.size)} with findings`;
}

let anchor = 0;

/** Shift-click on a line number extends the selection from the last clicked line. */
function onLineClick(e) {
  const a = e.target.closest('a[data-line]');
  if (!a) return;
  const n = Number(a.dataset.line);
  if (e.shiftKey && anchor) {
    e.preventDefault();
    location.hash = `#L${Math.min(anchor, n)}-L${Math.max(anchor, n)}`;
  } else {
    anchor = n;
  }
}

/** Applies #L12 / #L12-L40 from the URL: marks those lines and scrolls to them. */
function applyHash(scroll = true) {
  for (const tr of document.querySelectorAll('#source-table tr.selected')) tr.classList.remove('selected');
  const m = /^#L(\d+)(?:-L?(\d+))?$/.exec(location.hash);
  if (!m) return;
  const from = Number(m[1]);
  const to = Math.max(from, Number(m[2] ?? m[1]));
  anchor = from;
  let first = null;
  for (let n = from; n <= to; n++) {
    const tr = document.getElementById(`L${n}`);
    if (!tr) break;
    tr.classList.add('selected');
    first ??= tr;
  }
  if (first && scroll) first.scrollIntoView({ block: to - from > 20 ? 'start' : 'center' });
}

/* ---------- start ---------- */

async function main() {
  const errors = $('errors');
  $('legend-slot').append(legend({ tokens: true }));
  if (!state.repo || !state.rev || !state.path) {
    showError(errors, { problem: { title: 'Missing parameters', detail: 'file.html needs ?repo=…&rev=…&path=…' } });
    replace($('file-head'), h('a', { href: './' }, 'Back to the overview'));
    return;
  }
  renderNav($('nav'), '', state.repo, state.rev);
  renderCrumbs();
  document.title = `${state.path} · ${state.repo} @ ${state.rev} · portdash`;
  const [d, raw] = await Promise.allSettled([
    api.file(state.repo, state.rev, state.path),
    api.raw(state.repo, state.rev, state.path),
  ]);
  if (d.status === 'rejected') {
    showError(errors, d.reason, 'File');
    replace($('file-head'), h('span', { class: 'muted' }, 'Nothing to show.'));
    return;
  }
  detail = d.value;
  findingsByFunction = new Map();
  for (const f of detail.findings ?? []) {
    if (!f.function) continue;
    if (!findingsByFunction.has(f.function)) findingsByFunction.set(f.function, []);
    findingsByFunction.get(f.function).push(f);
  }
  renderHead(detail);
  const spark = sparkline();
  // Traverse coverage of the HPy types in this file (traverse.mjs); hidden when none.
  const types = mountTraverse(portSection('traverse', $('functions-section'), 'Traverse coverage'),
    { repo: state.repo, rev: state.rev, path: state.path }).catch((e) => showError(errors, e, 'Traverse coverage'));
  $('functions-section').hidden = false;
  renderFunctions();
  setupFindingsFilter(detail.findings ?? []);
  $('findings-section').hidden = false;
  renderFindings();
  $('source-section').hidden = false;
  if (raw.status === 'fulfilled') {
    renderSource(raw.value);
    applyHash();
    window.addEventListener('hashchange', () => applyHash());
  } else {
    const p = raw.reason?.problem ?? {};
    replace($('source'), h('div', { class: 'notice', id: 'source-unavailable', role: 'status' },
      h('strong', null, 'Source not available. '),
      'The analysis above is stored, but the file\'s text could not be read',
      p.detail ? `: ${p.detail}` : p.title ? `: ${p.title}` : '', '.'));
  }
  await spark;
  await types;
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
