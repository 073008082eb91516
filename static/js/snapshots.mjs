// snapshots.mjs: the weekly snapshots of a repository
// (snapshots.html?repo=R[&week=W&ref=REF]).  A table of every snapshot
// (week, ref, commit, when and how it was taken) with links to its Markdown
// report, shown in the page as plain preformatted text (textContent: the
// report quotes commit messages and paths), the raw report, and the CSV
// exports.  The chosen report is kept in the URL.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit, timeEl } from './dom.mjs';
import { showError, readParams, writeParams, renderNav, commitHref, cmpStr } from './ui.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'week', 'ref']);

async function showReport(s) {
  state.week = s.week;
  state.ref = s.ref;
  writeParams(state);
  for (const tr of document.querySelectorAll('#snapshots-table tbody tr')) {
    tr.classList.toggle('current', tr.dataset.week === s.week && tr.dataset.ref === s.ref);
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
    pre.textContent = await api.report(state.repo, s.week, s.ref);
    pre.dataset.week = s.week;
  } catch (e) {
    pre.textContent = '';
    showError($('errors'), e, `Report ${s.week}`);
  }
}

function render(list) {
  const rows = [...list].sort((a, b) => cmpStr(b.week, a.week) || cmpStr(a.ref, b.ref));
  $('snapshots-count').textContent = `${fmt(rows.length)} ${rows.length === 1 ? 'snapshot' : 'snapshots'}`;
  if (!rows.length) {
    replace($('snapshots'), h('div', { class: 'notice', id: 'snapshots-empty', role: 'status' },
      h('strong', null, 'No snapshots yet. '),
      'Record one with ', h('code', null, `portdash snapshot --db FILE --repo ${state.repo}`),
      ' (weekly, from a timer or CI), or reconstruct past weeks with ', h('code', null, 'portdash snapshot --backfill --since DATE'), '.'));
    return;
  }
  replace($('snapshots'), h('div', { class: 'table-wrap' }, h('table', { class: 'data snapshots', id: 'snapshots-table' },
    h('caption', { class: 'sr-only' }, 'Weekly snapshots'),
    h('thead', null, h('tr', null, ['Week', 'Ref', 'Commit', 'Taken at', 'Method', 'Report'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', null, rows.map((s) => h('tr', { dataset: { week: s.week, ref: s.ref } },
      h('th', { scope: 'row', class: 'week' }, s.week),
      h('td', { class: 'ref' }, h('code', null, s.ref)),
      h('td', { class: 'commit' }, h('a', { href: commitHref(state.repo, s.commit), title: s.commit }, h('code', { class: 'sha' }, shortCommit(s.commit)))),
      h('td', { class: 'taken' }, timeEl(s.taken_at)),
      h('td', { class: 'method' }, h('span', { class: 'method' }, s.method ?? '')),
      h('td', { class: 'links' }, h('span', { class: 'head-links' },
        h('button', { type: 'button', class: 'linkish show-report', onclick: () => showReport(s) }, 'show report'),
        h('a', { href: api.reportUrl(state.repo, s.week, s.ref), class: 'raw-report' }, 'report.md'),
        h('a', { href: api.filesCsvUrl(state.repo, s.commit), download: true, class: 'files-csv' }, 'files.csv')))))))));
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
  renderNav($('nav'), 'snapshots', state.repo, '');
  if (!state.repo) {
    replace($('snapshots'), h('span', { class: 'muted' }, 'No repositories have been ingested yet.'));
    return;
  }
  writeParams(state);
  document.title = `snapshots · ${state.repo} · portdash`;
  $('snapshots-csv').href = api.snapshotsCsvUrl(state.repo);
  let list;
  try {
    list = await api.snapshots(state.repo);
  } catch (e) {
    showError($('errors'), e, 'Snapshots');
    replace($('snapshots'), h('span', { class: 'muted' }, 'Nothing to show.'));
    return;
  }
  await render(Array.isArray(list) ? list : []);
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
