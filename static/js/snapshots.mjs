// snapshots.mjs: the weekly snapshots of a repository
// (snapshots.html?repo=R[&rev=REF][&week=W&ref=REF]).  A table of every
// snapshot, or of ref REF's (the ref filter, kept in the URL as rev as the
// other pages keep theirs), (week, ref, commit, when and how it was taken) with links to its Markdown
// report, rendered in the page (markdown.mjs: marked, then DOMPurify, as
// the report quotes commit messages and paths), the raw report, and the
// CSV exports.  The chosen report is kept in the URL.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit, timeEl, setTitle, joined } from './dom.mjs';
import { showError, readParams, writeParams, renderNav, commitHref, cmpStr, deltaEl } from './ui.mjs';
import { MEASURE } from './model.mjs';
import { renderMarkdown } from './markdown.mjs';
import { mountSnapshotChart } from './snapchart.mjs';
import { loadProfile } from './profile.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'rev', 'week', 'ref', 'show']);
// The figures shown per snapshot (from snapshots.csv), with the change since the ref's previous snapshot.
const ALL_FIGURES = ['object_paths.object-legacy', 'object_paths.object-cpython-only', 'object_paths.object-universal', 'functions.ported', 'universal_ready_files'];
/* The figures shown: without the object-dtype ones for a port without
 * object dtype (its profile, profile.mjs): their zeros would read as work
 * done, as on the overview (a trial, on ultrajson-hpy). */
let FIGURES = ALL_FIGURES;

/** RFC 4180 CSV → array of records (arrays of strings). */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; } else if (c === '"') quoted = false; else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(field); field = ''; } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += c;
  }
  if (field || row.length) { row.push(field); rows.push(row); }
  return rows;
}

/** Map "week\u0000ref" → {measure: number} from snapshots.csv (empty map on failure). */
async function figuresByWeek() {
  const out = new Map();
  try {
    const [head, ...rows] = parseCsv(await api.snapshotsCsv(state.repo));
    const col = (n) => head.indexOf(n);
    for (const r of rows) {
      if (r.length < head.length) continue;
      out.set(`${r[col('week')]}\u0000${r[col('ref')]}`, Object.fromEntries(FIGURES.filter((k) => col(k) >= 0).map((k) => [k, Number(r[col(k)])])));
    }
  } catch { /* figures are an extra */ }
  return out;
}

async function showReport(s) {
  state.week = s.week;
  state.ref = s.ref;
  writeParams(state);
  for (const tr of document.querySelectorAll('#snapshots-table tbody tr')) {
    const current = tr.dataset.week === s.week && tr.dataset.ref === s.ref;
    tr.classList.toggle('current', current);
    if (current) {
      const box = tr.closest('.table-wrap');
      if (box && (tr.offsetTop < box.scrollTop || tr.offsetTop > box.scrollTop + box.clientHeight - tr.offsetHeight)) {
        box.scrollTop = tr.offsetTop - box.clientHeight / 3;
      }
    }
  }
  const url = api.reportUrl(state.repo, s.week, s.ref);
  $('report-heading').textContent = `Report for ${s.week} · ${s.ref}`;
  replace($('report-links'),
    h('a', { href: url, id: 'report-raw', target: '_blank', rel: 'noopener' }, 'raw Markdown'),
    h('a', { href: api.filesCsvUrl(state.repo, s.commit), download: true, id: 'report-files-csv' }, 'file table (CSV)'),
    h('a', { href: commitHref(state.repo, s.commit) }, 'commit'));
  const pre = $('report');
  pre.textContent = 'Loading…';
  $('report-section').hidden = false;
  try {
    replace(pre, renderMarkdown(await api.report(state.repo, s.week, s.ref)));
    pre.dataset.week = s.week;
  } catch (e) {
    pre.textContent = '';
    showError($('errors'), e, `Report ${s.week}`);
  }
}

/* The figure cells of snapshot s, each with its change since the
 * snapshot before it of the same ref (prev). */
function snapshotFigs(s, prev, figs) {
  const now = figs.get(`${s.week}\u0000${s.ref}`);
  const before = prev.get(s) ? figs.get(`${prev.get(s).week}\u0000${prev.get(s).ref}`) : null;
  return FIGURES.map((k) => h('td', { class: ['num', 'fig', `fig-${k.replace(/[^a-z-]/g, '-')}`] },
    now ? [fmt(now[k]), before && now[k] !== before[k] ? [' ', deltaEl(k, now[k] - before[k])] : null] : '–'));
}

/* Snapshot s's row; figs null when no snapshot has figures. */
function snapshotRow(s, prev, figs) {
  const p = prev.get(s);
  const same = p && p.commit === s.commit;
  return h('tr', { dataset: { week: s.week, ref: s.ref }, class: [same && 'unchanged'],
    title: same ? 'same commit as the previous snapshot of this ref' : null },
  h('th', { scope: 'row', class: 'week' }, s.week),
  h('td', { class: 'ref' }, h('code', null, s.ref)),
  h('td', { class: 'commit' }, h('a', { href: commitHref(state.repo, s.commit), title: s.commit }, h('code', { class: 'sha' }, shortCommit(s.commit)))),
  figs ? snapshotFigs(s, prev, figs) : null,
  h('td', { class: 'taken' }, timeEl(s.taken_at)),
  h('td', { class: 'method' }, h('span', { class: 'method' }, s.method ?? '')),
  h('td', { class: 'links' }, h('span', { class: 'head-links' },
    h('button', { type: 'button', class: 'linkish show-report', onclick: () => showReport(s) }, 'show'),
    h('a', { href: api.reportUrl(state.repo, s.week, s.ref), class: 'raw-report' }, 'report.md'),
    h('a', { href: api.filesCsvUrl(state.repo, s.commit), download: true, class: 'files-csv', title: 'the file table of this commit as CSV' }, 'files CSV'))));
}

function render(list, figs) {
  const rows = [...list].sort((a, b) => cmpStr(b.week, a.week) || cmpStr(a.ref, b.ref));
  $('snapshots-count').textContent = `${fmt(rows.length)} ${rows.length === 1 ? 'snapshot' : 'snapshots'}`;
  if (!rows.length) {
    replace($('snapshots'), h('div', { class: 'notice', id: 'snapshots-empty', role: 'status' },
      h('strong', null, 'No snapshots yet. '),
      'Record one with ', h('code', null, `portdash snapshot --db FILE --name ${state.repo}`),
      ' (weekly, from a timer or CI), or reconstruct past weeks with ', h('code', null, 'portdash snapshot --backfill --since DATE'), '.'));
    return null;
  }
  // The previous snapshot of the same ref (rows are newest first).
  const prev = new Map();
  const lastOfRef = new Map();
  for (const s of [...rows].reverse()) {
    prev.set(s, lastOfRef.get(s.ref) ?? null);
    lastOfRef.set(s.ref, s);
  }
  const refs = [...new Set(rows.map((s) => s.ref))].sort(cmpStr);
  const refSel = h('select', { id: 'snap-ref', 'aria-label': 'Ref' }, h('option', { value: '' }, 'all refs'),
    refs.map((r) => h('option', { value: r }, r)));
  const changedBox = h('input', { type: 'checkbox', id: 'snap-changed' });
  const hasFigs = figs.size > 0;
  const tbody = h('tbody', null, rows.map((s) => snapshotRow(s, prev, hasFigs ? figs : null)));
  // A rev that names no ref with snapshots (a commit id, a ref never
  // snapshotted) shows every ref's, and says so.
  const revNote = h('p', { class: 'notice small', id: 'snapshots-rev', role: 'status', hidden: true });
  const applyFilter = (byUser) => {
    if (byUser === true || refSel.value) state.rev = refSel.value;
    state.show = changedBox.checked ? 'changed' : '';
    writeParams(state);
    revNote.hidden = !state.rev || refs.includes(state.rev);
    if (!revNote.hidden) {
      replace(revNote, 'No snapshot is of ', h('code', null, state.rev), ': snapshots are taken of refs (',
        joined(refs, (r) => h('code', null, r)), '); the table shows every ref\'s.');
    }
    let n = 0;
    for (const tr of tbody.rows) {
      const hide = (refSel.value && tr.dataset.ref !== refSel.value) || (changedBox.checked && tr.classList.contains('unchanged'));
      tr.hidden = !!hide;
      if (!hide) n++;
    }
    $('snapshots-count').textContent = (n === rows.length ? `${fmt(rows.length)} snapshots` : `showing ${fmt(n)} of ${fmt(rows.length)} snapshots`)
      + (refSel.value ? ` · ref ${refSel.value}` : ' · every ref');
  };
  const show = state.show.split(',');
  // The ref: ?rev= as on the other pages (older links: show=ref:REF).
  const want = state.rev || (show.find((x) => x.startsWith('ref:'))?.slice(4) ?? '');
  refSel.value = refs.includes(want) ? want : '';
  if (!state.rev) state.rev = refSel.value;
  changedBox.checked = show.includes('changed');
  refSel.addEventListener('change', () => applyFilter(true));
  changedBox.addEventListener('change', () => applyFilter(false));
  replace($('snapshots'),
    h('form', { class: 'filters', 'aria-label': 'Filter snapshots', onsubmit: (e) => e.preventDefault() },
      h('label', null, 'Ref ', refSel), h('label', null, changedBox, ' only weeks with a new commit')),
    revNote,
    h('div', { class: 'table-wrap scroll-y tall' }, h('table', { class: 'data snapshots', id: 'snapshots-table' },
      h('caption', { class: 'sr-only' }, 'Weekly snapshots'),
      h('thead', null, h('tr', null, ['Week', 'Ref', 'Commit'].map((t) => h('th', { scope: 'col' }, t)),
        hasFigs ? FIGURES.map((k) => h('th', { scope: 'col', class: 'num', title: `${MEASURE[k].label}, and the change since the previous snapshot of the ref` }, MEASURE[k].short)) : null,
        ['Taken at', 'Method', 'Report'].map((t) => h('th', { scope: 'col' }, t)))),
      tbody)));
  applyFilter(false);
  if (hasFigs) mountSnapshotChart($('snapchart'), refs, figs, { ref: refSel.value || refs[0], objectDtype: FIGURES === ALL_FIGURES });
  const chosen = rows.find((s) => s.week === state.week && (!state.ref || s.ref === state.ref));
  return chosen ? showReport(chosen) : null;
}

async function main() {
  if (!state.repo) {
    try {
      state.repo = (await api.repos())[0]?.name ?? '';
    } catch (e) {
      showError($('errors'), e, 'Could not list repositories');
    }
  }
  renderNav($('nav'), 'snapshots', state.repo, state.rev);
  if (!state.repo) {
    replace($('snapshots'), h('span', { class: 'muted' }, 'No repositories have been ingested yet.'));
    return;
  }
  writeParams(state);
  setTitle(`snapshots · ${state.repo} · portdash`);
  $('snapshots-csv').href = api.snapshotsCsvUrl(state.repo);
  let list;
  try {
    list = await api.snapshots(state.repo);
  } catch (e) {
    showError($('errors'), e, 'Snapshots');
    replace($('snapshots'), h('span', { class: 'muted' }, 'Nothing to show.'));
    return;
  }
  if (Array.isArray(list) && list.length) {
    const latest = list.reduce((a, b) => (b.week > a.week ? b : a));
    if (!(await loadProfile(state.repo, latest.ref)).objectDtype) {
      FIGURES = ALL_FIGURES.filter((k) => !k.startsWith('object_paths.'));
    }
  }
  await render(Array.isArray(list) ? list : [], Array.isArray(list) && list.length ? await figuresByWeek() : new Map());
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
