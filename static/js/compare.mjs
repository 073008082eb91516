// compare.mjs: two revisions side by side (compare.html?repo=R&base=B&head=H).
// B and H are ref names or commit ids, picked in the form (refs offered in a
// datalist); the URL is the shareable state.  Regressions come first and
// apart; then every function move (from → to), the totals of both sides with
// the change, and the files whose status or universal-readiness changed.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit, pathNodes, setTitle, joined } from './dom.mjs';
import {
  showError, readParams, renderNav, commitHref, fileHref, figuresTable, headlineChips, statusBadge, cmpStr, revIsCommit,
} from './ui.mjs';
import { functionChanges } from './changes.mjs';
import { attachFunctionDiffs } from './fndiff.mjs';
import { STATUS_RANK } from './model.mjs';
import { renderGate } from './gateview.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['repo', 'base', 'head']);

function setupForm(repos) {
  const repoSel = $('c-repo');
  replace(repoSel, repos.map((r) => h('option', { value: r.name }, r.name)),
    repos.some((r) => r.name === state.repo) ? null : h('option', { value: state.repo }, `${state.repo} (unknown)`));
  repoSel.value = state.repo;
  const fillRefs = () => {
    const refs = repos.find((r) => r.name === repoSel.value)?.refs ?? [];
    replace($('c-refs'), refs.map((r) => h('option', { value: r.name }, `${r.name} · ${shortCommit(r.commit)}`)));
  };
  fillRefs();
  repoSel.addEventListener('change', fillRefs);
  $('c-base').value = state.base;
  $('c-head').value = state.head;
  $('c-swap').addEventListener('click', () => {
    const b = $('c-base').value;
    $('c-base').value = $('c-head').value;
    $('c-head').value = b;
  });
  $('compare-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const q = new URLSearchParams({ repo: repoSel.value, base: $('c-base').value.trim(), head: $('c-head').value.trim() });
    location.assign(`compare.html?${q}`);
  });
  $('c-copy').addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(location.href);
      $('c-copy').textContent = 'Copied';
    } catch {
      $('c-copy').textContent = 'Copy the address bar';
    }
  });
}

/** The head's stored fork ({upstream, base}), once the refs are read. */
let headFork = null;

/** One side of the heading: a ref name and the commit it resolves to; a side
 * given by commit id is that commit, shown once; the head's fork base says so. */
function sideLabel(name, oid) {
  const link = h('a', { href: commitHref(state.repo, oid), title: oid }, h('code', { class: 'sha' }, shortCommit(oid)));
  if (headFork?.base && oid === headFork.base) {
    return [h('span', { class: 'side-label', id: 'fork-base' }, `${state.head}'s fork base from ${headFork.upstream}`), ' ', link];
  }
  return revIsCommit(name, oid) ? link : [h('span', { class: 'side-label' }, name), ' ', link];
}

/** A side as the title names it: its ref name, or its commit's short id. */
const sideTitle = (name, oid) => (revIsCommit(name, oid) ? shortCommit(oid) : name);

function fileSide(s, key) {
  if (!s) return h('span', { class: 'muted' }, '—');
  if (key === 'status') return statusBadge(s.status);
  return s.universal_ready ? h('span', { class: 'yes' }, 'yes') : h('span', { class: 'no' }, 'no');
}

function renderFiles(c, at) {
  const files = [...(c.files ?? [])].sort((a, b) => {
    // Files that became universal-ready first, then status moves by rank, then path.
    const ua = (a.to?.universal_ready ? 1 : 0) - (a.from?.universal_ready ? 1 : 0);
    const ub = (b.to?.universal_ready ? 1 : 0) - (b.from?.universal_ready ? 1 : 0);
    return (ub - ua) || cmpStr(a.path, b.path);
  });
  replace($('file-moves').tBodies[0], files.length ? files.map((f) => {
    const worse = (f.from && f.to && ((f.from.universal_ready && !f.to.universal_ready)
      || (STATUS_RANK[f.to.status] ?? 9) < (STATUS_RANK[f.from.status] ?? 9) && f.to.status !== 'neutral' && f.from.status !== 'neutral'));
    return h('tr', { dataset: { path: f.path }, class: [worse && 'row-worse'] },
      h('th', { scope: 'row', class: 'path' }, h('a', { href: fileHref(state.repo, f.to ? at.to : at.from, f.path) }, pathNodes(f.path))),
      h('td', { class: 'st-from' }, fileSide(f.from, 'status')), h('td', { class: 'muted' }, '→'),
      h('td', { class: 'st-to' }, fileSide(f.to, 'status')),
      h('td', { class: 'ur-from' }, fileSide(f.from, 'ready')), h('td', { class: 'muted' }, '→'),
      h('td', { class: 'ur-to' }, fileSide(f.to, 'ready')));
  }) : h('tr', { class: 'empty' }, h('td', { colspan: 7 }, 'No file changed status or universal-readiness.')));
  // The API keeps the first 5,000 of each list of a very large compare.
  $('filemoves-count').textContent = c.truncated
    ? `showing ${fmt(files.length)} of ${fmt(c.files_total)} files; ` +
      `${fmt(c.functions_total)} function moves, ${fmt(c.regressions_total)} regressions in all`
    : `${fmt(files.length)} ${files.length === 1 ? 'file' : 'files'}`;
}

async function main() {
  let repos = [];
  try {
    repos = await api.repos();
  } catch (e) {
    showError($('errors'), e, 'Could not list repositories');
  }
  if (!state.repo) state.repo = repos[0]?.name ?? '';
  const refs = repos.find((r) => r.name === state.repo)?.refs ?? [];
  // Defaults: the first two refs. A head given alone is compared with its
  // fork base (what the port has done since it left its upstream), not
  // with another ref, which may be ahead of it (a branch stacked on it);
  // a ref without a stored fork, or a base given alone, with the first other ref.
  headFork = refs.find((r) => r.name === state.head)?.fork ?? null;
  const forkBase = headFork?.base;
  if (!state.base) state.base = state.head && forkBase ? forkBase
    : (state.head ? refs.find((r) => r.name !== state.head) : refs[0])?.name ?? refs[0]?.name ?? '';
  if (!state.head) state.head = refs.find((r) => r.name !== state.base)?.name ?? refs[0]?.name ?? '';
  if (state.repo) history.replaceState(null, '', `compare.html?${new URLSearchParams(state)}`);
  renderNav($('nav'), 'compare', state.repo, state.head);
  setupForm(repos);
  if (!state.repo || !state.base || !state.head) {
    replace($('compare-head'), h('p', { class: 'muted' }, 'Choose a base and a head to compare.'));
    return;
  }
  setTitle(`${state.base}...${state.head} · ${state.repo} · portdash`);
  let c;
  // The gate's verdict is asked beside the comparison (issue 11.12); its
  // failure is shown as "verdict unknown", never as a pass.
  const gateAnswer = api.gate(state.repo, state.base, state.head).catch((e) => e);
  try {
    c = await api.compare(state.repo, state.base, state.head);
  } catch (e) {
    showError($('errors'), e, 'Compare');
    replace($('compare-head'), h('span', { class: 'muted' }, 'Nothing to show.'));
    return;
  }
  // The commits compared: the permalink pins both (site.mjs), and links to
  // what the comparison shows (files, function lines) name them, so they
  // do not drift when a branch moves.
  document.body.dataset.commit = c.head ?? '';
  document.body.dataset.base = c.base ?? '';
  setTitle(`${sideTitle(state.base, c.base)}...${sideTitle(state.head, c.head)} · ${state.repo} · portdash`);
  const at = { repo: state.repo, to: c.head ?? state.head, from: c.base ?? state.base };
  replace($('compare-head'),
    h('h1', { class: 'compare-title', id: 'compare-title' }, sideLabel(state.base, c.base), h('span', { class: 'muted' }, ' → '),
      sideLabel(state.head, c.head)),
    h('p', { class: 'muted small' }, 'What moved from base to head. Progress is green, regressions red and listed first.'),
    // A repository with one ref pairs it with itself: say so, or "no
    // change" and a passing gate read as a verdict on real work.
    c.base && c.base === c.head ? h('p', { class: 'warn', id: 'same-commit' },
      `Base and head are the same commit (${shortCommit(c.head)}): nothing can have moved. Choose another base.`) : null);
  replace($('headline-slot'), headlineChips(c.delta));
  const regs = c.regressions ?? [];
  const lost = (c.files ?? []).filter((f) => f.from?.universal_ready && !f.to?.universal_ready);
  const g = await gateAnswer;
  renderGate($('gate-section'), g, lost, { repo: state.repo, base: at.from, head: at.to });
  const gateCounts = new Set(g instanceof Error ? [] : g.files_no_longer_universal_ready ?? []);
  const excused = lost.filter((f) => !gateCounts.has(f.path)).length;
  replace($('regressions'), regs.length
    ? functionChanges(regs, at)
    : h('p', { class: 'regressions-none', id: 'no-regressions' }, '✓ No regressions: no function moved back towards the CPython C API.',
      // a function can break a gate rule while its status moves forward
      !(g instanceof Error) && g.regressions?.length ? [' ', h('a', { href: '#gate-functions' },
        `The gate counts ${fmt(g.regressions.length)} ${g.regressions.length === 1 ? 'function' : 'functions'} for its own rules: which`)] : null),
  lost.length ? h('p', { class: 'warn', id: 'lost-ready' }, h('strong', null, `${fmt(lost.length)} ${lost.length === 1 ? 'file is' : 'files are'} no longer universal-ready: `),
    joined(lost, (f) => h('a', { href: fileHref(state.repo, at.to, f.path) }, f.path)),
    '.', excused && !(g instanceof Error) ? [' ', h('a', { href: '#gate-excused' },
      excused === lost.length ? `The gate does not count ${lost.length === 1 ? 'it' : 'them'}: why` : `The gate counts ${fmt(lost.length - excused)} of them: why`)] : null) : null);
  // The regressions are shown above; the moves list shows everything else.
  const regKeys = new Set(regs.map((f) => `${f.path}\u0000${f.name}`));
  const rest = (c.functions ?? []).filter((f) => !regKeys.has(`${f.path}\u0000${f.name}`));
  $('moves-heading').textContent = regs.length ? 'Other function moves' : 'Function moves';
  replace($('moves'), functionChanges(rest, at,
    { emptyText: 'No other function changed status or object state.' }));
  for (const id of ['regressions', 'moves']) attachFunctionDiffs($(id), at);
  replace($('figures'), figuresTable(c.head_stats, c.delta, { from: 'Base', to: 'Head' }));
  renderFiles(c, at);
  $('result').hidden = false;
}

main()
  .catch((e) => showError($('errors'), e, 'Unexpected error'))
  .finally(() => { document.body.dataset.ready = 'true'; });
