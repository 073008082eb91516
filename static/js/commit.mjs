// commit.mjs: one commit (commit.html?repo=R&rev=REV): message, author and
// both dates, parents, commits with the same patch (a rebased copy), the
// summary figures with their change against the first parent, the function
// changes grouped (regressions first) and the changed files.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit, timeEl, pathNodes, setTitle } from './dom.mjs';
import {
  showError, readParams, renderNav, overviewHref, commitHref, compareHref, fileHref, figuresTable, headlineChips,
} from './ui.mjs';
import { functionChanges } from './changes.mjs';
import { attachFunctionDiffs } from './fndiff.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'rev']);

function renderCrumbs(c) {
  replace($('crumbs'),
    h('li', null, h('a', { href: overviewHref(state.repo, state.rev), id: 'crumb-overview' }, state.repo)),
    h('li', { 'aria-current': 'page' }, 'commit ', shortCommit(c?.commit ?? state.rev)));
}

function renderHead(c) {
  const message = c.message ?? '';
  const nl = message.indexOf('\n');
  const subject = nl < 0 ? message : message.slice(0, nl);
  const body = nl < 0 ? '' : message.slice(nl + 1).trim();
  const parents = c.parents ?? [];
  const same = c.same_patch_as ?? [];
  document.body.dataset.commit = c.commit ?? '';
  const commitLink = (id, extra = {}) => h('a', { href: commitHref(state.repo, id), title: id, ...extra }, h('code', { class: 'sha' }, shortCommit(id)));
  replace($('commit-head'),
    h('h1', { class: 'commit-subject', id: 'commit-message' }, subject || '(no message)'),
    body ? h('pre', { class: 'commit-body-text', id: 'commit-body' }, body) : null,
    h('dl', { class: 'facts' },
      h('dt', null, 'Commit'), h('dd', null, h('code', { class: 'sha', id: 'commit-id', title: c.commit }, c.commit),
        ' ', h('a', { href: overviewHref(state.repo, c.commit), id: 'commit-overview' }, 'overview at this commit')),
      h('dt', null, 'Author'), h('dd', { id: 'commit-author' }, c.author ?? '',
        c.author_email ? h('span', { class: 'muted' }, ` <${c.author_email}>`) : null),
      h('dt', null, 'Authored'), h('dd', { id: 'author-date' }, timeEl(c.author_date)),
      h('dt', null, 'Committed'), h('dd', { id: 'committer-date' }, timeEl(c.committer_date),
        c.committer_date && c.author_date && c.committer_date.slice(0, 10) !== c.author_date.slice(0, 10)
          ? h('span', { class: 'muted small' }, ' (rebased or applied later than authored)') : null),
      h('dt', null, parents.length > 1 ? 'Parents' : 'Parent'),
      h('dd', { id: 'parents' }, parents.length ? parents.map((p, i) => [i ? ' ' : '', commitLink(p, { class: 'parent-link' }),
        i === 0 ? [' ', h('a', { href: compareHref(state.repo, p, c.commit), class: 'small', id: 'compare-parent' }, 'compare')] : null])
        : h('span', { class: 'muted' }, 'none (root commit)')),
      same.length ? [h('dt', null, 'Same patch as'),
        h('dd', { id: 'same-patch' }, h('ul', { class: 'plain' }, same.map((s) => h('li', null,
          commitLink(s.commit, { class: 'same-patch-link' }), ' ', h('span', { class: 'muted' }, (s.message ?? '').split('\n')[0])))),
        h('span', { class: 'muted small' }, 'the same change before a rebase (git patch-id)'))] : null));
}

function renderFiles(c) {
  const files = c.files ?? [];
  const parent = c.parents?.[0];
  const rows = files.map((f) => {
    const at = f.change === 'deleted' ? parent : c.commit;
    return h('tr', { dataset: { change: f.change, path: f.path } },
      h('td', null, h('span', { class: ['badge', 'chg', `chg-${f.change}`] }, f.change)),
      h('th', { scope: 'row', class: 'path' }, at ? h('a', { href: fileHref(state.repo, at, f.path) }, pathNodes(f.path)) : pathNodes(f.path)),
      h('td', { class: 'path old-path' }, f.old_path
        ? (parent ? h('a', { href: fileHref(state.repo, parent, f.old_path) }, pathNodes(f.old_path)) : pathNodes(f.old_path)) : ''));
  });
  replace($('changed-files').tBodies[0], rows.length ? rows
    : h('tr', { class: 'empty' }, h('td', { colspan: 3 }, 'No file in scope changed.')));
  // The API pages commits that change very many files; say how many there are.
  $('files-count').textContent = c.truncated
    ? `showing ${fmt(files.length)} of ${fmt(c.files_total)} files`
    : `${fmt(files.length)} ${files.length === 1 ? 'file' : 'files'}`;
}

async function main() {
  renderNav($('nav'), '', state.repo, state.rev);
  if (!state.repo || !state.rev) {
    showError($('errors'), { problem: { title: 'Missing parameters', detail: 'commit.html needs ?repo=…&rev=…' } });
    replace($('commit-head'), h('a', { href: './' }, 'Back to the overview'));
    return;
  }
  renderCrumbs(null);
  let c;
  try {
    c = await api.commit(state.repo, state.rev);
  } catch (e) {
    showError($('errors'), e, 'Commit');
    replace($('commit-head'), h('span', { class: 'muted' }, 'Nothing to show.'));
    return;
  }
  setTitle(`${shortCommit(c.commit)} ${(c.message ?? '').split('\n')[0]} · ${state.repo} · portdash`);
  renderCrumbs(c);
  renderHead(c);
  if (c.stats) {
    replace($('headline-slot'), headlineChips(c.delta));
    replace($('figures'), figuresTable(c.stats, c.delta, { from: c.parents?.length ? 'Parent' : 'Before', to: 'This commit' }));
    replace($('functions-changes'), h('h3', { class: 'sub-title' }, 'Function changes'),
      functionChanges(c.functions, { repo: state.repo, to: c.commit, from: c.parents?.[0] },
        { emptyText: 'No function changed status or object state in this commit.' }));
    attachFunctionDiffs($('functions-changes'), { repo: state.repo, to: c.commit, from: c.parents?.[0] });
    $('figures-section').hidden = false;
  } else {
    showError($('errors'), { problem: { title: 'No change data', detail: 'The server did not send the figures of this commit (stats, delta, functions): is it older than the commit API?' } });
  }
  if (c.files) {
    renderFiles(c);
    $('files-section').hidden = false;
  }
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
