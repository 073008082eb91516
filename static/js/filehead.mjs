// filehead.mjs: the file page's breadcrumb and head (file.mjs): the path,
// the file's status and figures, its notes, and what the page cannot show.
// A file whose blob the clone lacks and that nothing analysed ("lost",
// isLost) has only its head: the page says once that the blob is missing
// and asks nothing more (no functions, findings, source or panels, whose
// answers would be 404s or empty tables that read as "no functions").

import { h, replace, fmt, shortCommit } from './dom.mjs';
import { STATUSES, STATUS_LABEL, STATUS_HELP, OBJECT_STATES, OBJECT_LABEL, UNANALYSED, total } from './model.mjs';
import { statusBadge, statusBar, overviewHref, revLabel, revIsCommit } from './ui.mjs';

const $ = (id) => document.getElementById(id);

/** Whether the file answer d is of a blob the clone lacks with no analysis
 * stored (another repository's ingest may have analysed the same content). */
export const isLost = (d) => d.status == null && Boolean(d.missing);

/** Directories a breadcrumb shows at most: the first and the last ones,
 *  "…" for those between (its title names them); a URL with thousands of
 *  segments made a header thousands of pixels high (a trial). */
const CRUMB_DIRS = 8;

/** The breadcrumb: the overview, each directory (the overview filtered to it), the file. */
export function renderCrumbs(state) {
  const parts = state.path.split('/');
  const items = [h('li', null, h('a', { href: overviewHref(state.repo, state.rev), id: 'crumb-overview' },
    state.repo, ' @ ', revLabel(state.rev)))];
  const ndirs = parts.length - 1;
  const cut = ndirs > CRUMB_DIRS ? [2, ndirs - (CRUMB_DIRS - 3)] : null;   // dirs [cut[0], cut[1]) left out
  for (let i = 0; i < ndirs; i++) {
    if (cut && i === cut[0]) {
      items.push(h('li', { class: 'crumb-cut', title: parts.slice(cut[0], cut[1]).join('/') }, '…'));
      i = cut[1] - 1;
      continue;
    }
    const dir = parts.slice(0, i + 1).join('/');
    items.push(h('li', null, h('a', { href: overviewHref(state.repo, state.rev, { dir }), title: `Files under ${dir}/` }, parts[i])));
  }
  items.push(h('li', { 'aria-current': 'page' }, parts[parts.length - 1]));
  replace($('crumbs'), items);
}

/** The facts line of an analysed file at rev: status, universal-ready, counts. */
function facts(d, rev) {
  const fns = d.functions ?? [];
  const counts = Object.fromEntries(STATUSES.map((s) => [s, fns.filter((f) => f.status === s).length]));
  const obj = Object.fromEntries(OBJECT_STATES.map((s) => [s, fns.filter((f) => f.object_state === s).length]));
  return [
    h('span', { id: 'file-status' }, statusBadge(d.status)),
    h('span', { id: 'file-universal', class: ['badge', d.universal_ready ? 'ready-yes' : 'ready-no'],
      title: d.universal_ready ? 'nothing unguarded in this file uses the C API or a bridge (what it calls may)' : 'this file still uses the C API or a bridge outside guards' },
    d.universal_ready ? 'universal-ready' : 'not universal-ready'),
    // The commit a ref resolves to; a page at a commit id names it above.
    revIsCommit(rev, d.commit) ? null : h('span', { class: 'muted' }, 'at ', h('code', { class: 'sha', title: d.commit }, shortCommit(d.commit))),
    h('span', { class: 'fact' }, `${fmt(fns.length)} functions`),
    statusBar(counts, 'bar-inline'),
    h('span', { class: 'fact' }, STATUSES.filter((s) => counts[s]).map((s) => `${fmt(counts[s])} ${STATUS_LABEL[s]}`).join(' · ')),
    total(obj, OBJECT_STATES) ? h('span', { class: 'fact' }, 'object paths: ',
      OBJECT_STATES.filter((s) => obj[s]).map((s, i) => [i ? ' · ' : '',
        h('span', { class: ['ob-text', `ob-text-${s}`] }, `${fmt(obj[s])} ${OBJECT_LABEL[s]}`)])) : null,
  ];
}

/** The note on a version the clone lacked (issue 23, point 6): said, not an error. */
function missingNote(d) {
  const since = [' (first missing at ', h('code', { class: 'sha', title: d.missing.since }, shortCommit(d.missing.since)), ')'];
  if (!isLost(d)) {
    return h('div', { class: 'notes', id: 'file-missing' }, h('strong', null, 'Not in the clone: '),
      d.missing.detail, since, '.');
  }
  return h('div', { class: 'notice', id: 'file-missing', role: 'status', title: d.missing.detail },
    h('strong', null, 'Blob missing. '),
    `This version of the file (blob ${d.blob ?? '?'}) is missing from the git repository this was ingested from `,
    '(a partial clone, or a damaged pack), so nothing of it can be shown: it was never analysed, and its text cannot be read',
    since, '. It counts in no figure of the overview; fetch the objects and ingest again to see it.');
}

/** The head of the file answer d at the page's rev (file-functions: functions and counts, no findings). */
export function renderHead(d, rev) {
  const slash = d.path.lastIndexOf('/');
  const lost = isLost(d);
  document.body.dataset.commit = d.commit ?? '';
  replace($('file-head'),
    h('h1', { class: 'file-title', id: 'file-path' },
      h('span', { class: 'dir' }, d.path.slice(0, slash + 1)), h('span', { class: 'base' }, d.path.slice(slash + 1))),
    h('div', { class: 'file-facts' }, lost ? [
      h('span', { id: 'file-status', class: 'badge', title: STATUS_HELP[UNANALYSED] }, STATUS_LABEL[UNANALYSED]),
      revIsCommit(rev, d.commit) ? null
        : h('span', { class: 'muted' }, 'at ', h('code', { class: 'sha', title: d.commit }, shortCommit(d.commit)))] : facts(d, rev)),
    // The panel sits under the source (file.mjs main()): said where it is.
    lost ? null : h('div', { class: 'file-facts' }, h('span', { class: 'sparkline-box', id: 'sparkline' }),
      h('a', { href: '#owners-plan', id: 'file-plan-link', class: 'small' }, 'Owners and porting plan ↓')),
    d.notes ? h('div', { class: 'notes', id: 'file-notes' }, h('strong', null, 'Notes: '), d.notes) : null,
    d.missing ? missingNote(d) : null,
    // The API pages very long lists (a generated file can have 100,000s of findings).
    d.truncated ? h('div', { class: 'notes', id: 'file-truncated' },
      `This file has ${fmt(d.functions_total)} functions and ${fmt(d.findings_total)} findings; ` +
      `this page shows the first ${fmt(d.per_page)} of each (the API pages the rest).`) : null);
}
