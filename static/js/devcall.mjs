// devcall.mjs: the overview's first screen (issue 23.8): the three
// questions the team asks at its weekly dev call, each answered in one
// card, with a link to where the rest of the page says more.
//
//   How far to universal mode?   files universal-ready, what still blocks
//                                (functions on the C API, object-dtype paths)
//   What changed this week?      the figures over the last 7 days (or, when
//                                nothing landed in them, the 7 days up to the
//                                branch's newest commit), with a link to the
//                                comparison of the two ends
//   What to do next?             the first functions of "Next to port", in
//                                the order the frontier answer gives
//
// #devcall gets data-complete once all three are filled (answered or said
// unavailable), so tests and the page benchmark know the first screen is in.

import * as api from './api.mjs';
import { h, replace, fmt, pct, timeEl, pathNodes } from './dom.mjs';
import { compareHref, fileHref, statusBadge, snapshotsHref, wholeRepoNote } from './ui.mjs';

/* The figures "this week" compares, with the direction that is progress
 * (none for bridged functions: a legacy function bridged adds one, a
 * bridged one ported takes one away, both progress).  prefetch.js and
 * server/srv_first.c ask the same measures' histories, in this order. */
const WEEK_MEASURES = [
  { key: 'universal_ready_files', label: 'universal-ready files', good: 'up' },
  { key: 'functions.ported', label: 'functions ported', good: 'up' },
  { key: 'functions.bridged', label: 'functions bridged (HPy code that still needs CPython)', good: '' },
  { key: 'functions.legacy', label: 'legacy functions (C API or the project\'s legacy API)', good: 'down' },
  { key: 'object_paths.object-legacy', label: 'object-dtype paths on the legacy API', good: 'down' },
];
const DAY = 86400000;
const NEXT_SHOWN = 5;

/* The measure a port without object dtype has none of (profile.mjs). */
const OBJECT_KEY = 'object_paths.object-legacy';

/** Links to the rest of the page as items (app.css .links): the overview
 * hides one whose section never shows, with its separator. */
const moreLinks = (...links) => h('p', { class: 'small dc-more links' },
  links.filter(Boolean).map((a) => h('span', { class: 'link-item' }, a)));

/** The value of summary key path `key` ("functions.ported") in s. */
function valueOf(s, key) {
  return key.split('.').reduce((o, k) => (o == null ? undefined : o[k]), s) ?? 0;
}

/** A signed change, coloured by whether it is progress. */
function delta(d, good) {
  if (!d) return h('span', { class: 'muted dc-delta', dataset: { delta: '0' } }, '±0');
  const better = (d > 0) === (good === 'up');
  return h('span', { class: ['dc-delta', !good ? 'dc-moved' : better ? 'dc-better' : 'dc-worse'], dataset: { delta: String(d) } },
    `${d > 0 ? '+' : '−'}${fmt(Math.abs(d))}`);
}

/** Card 1: how far to universal mode, from the summary answer s. */
function farCard(s) {
  const fn = s.functions ?? {};
  const nfiles = s.files ?? 0;
  const ready = s.universal_ready_files ?? 0;
  const legacy = fn.legacy ?? 0;
  const bridged = fn.bridged ?? 0;
  const obj = s.object_paths?.['object-legacy'] ?? 0;
  return [
    h('h2', { class: 'card-title', id: 'dc-far-h' }, 'How far to universal mode?'),
    h('div', { class: 'big-ratio' },
      h('span', { class: 'metric-value', dataset: { metric: 'dc-ready' } }, fmt(ready)),
      h('span', { class: 'of' }, ' of '), h('span', { class: 'metric-value' }, fmt(nfiles)),
      h('span', { class: 'muted pct' }, ` files universal-ready · ${pct(ready, nfiles)}`)),
    h('div', { class: 'bar bar-big', role: 'img', 'aria-label': `${ready} of ${nfiles} files universal-ready` },
      h('span', { class: 'seg st-ported', style: `width:${nfiles ? ((100 * ready) / nfiles).toFixed(3) : 0}%` })),
    h('ul', { class: 'dc-list' },
      h('li', null, h('strong', { dataset: { metric: 'dc-blocking-files' } }, fmt(nfiles - ready)),
        // Said of the files' own code (doc/analyzer.md): a universal-ready
        // file may still reach CPython through what it calls.
        ` ${nfiles - ready === 1 ? 'file still uses' : 'files still use'} the C API or a bridge outside guards`),
      h('li', null, h('strong', { dataset: { metric: 'dc-legacy' } }, fmt(legacy)), ' legacy functions (C API or the project\'s own legacy API), ',
        h('strong', { dataset: { metric: 'dc-bridged' } }, fmt(bridged)), ' bridged'),
      obj ? h('li', null, h('strong', { dataset: { metric: 'dc-object-legacy' } }, fmt(obj)),
        ' object-dtype paths still on the legacy API (items as ', h('code', null, 'PyObject *'), ')') : null),
    moreLinks(h('a', { href: '#summary' }, 'totals'),
      h('a', { href: '#no-object', id: 'dc-no-object' }, 'without object dtype'),
      h('a', { href: '#files-section' }, 'file by file')),
  ];
}

/** The last point with a value of a history answer, or null. */
const lastPoint = (hist) => (hist?.points ?? []).filter((p) => p.value != null).at(-1) ?? null;

/**
 * The point a week is measured from, out of a ?window=port answer up to
 * the week's start: the port's last own commit before it, else its fork
 * base (the port's starting point: upstream commits a rebase put under the
 * port landed on the branch that week too, but are not the port's work;
 * numpy-hpy's `hpy` counted 19 of numpy's commits and +36 legacy functions
 * as its own).  Null when the answer found no port (basis "none").
 */
const portFrom = (hist) => {
  if (!hist || hist.port?.basis === 'none') return null;
  return lastPoint(hist) ?? (hist.port?.base ? { commit: hist.port.base.commit, value: hist.port.base.value } : null);
};

/* The week's histories of each measure: the point before the window
 * (before[i]) and the commits in it (week), the port's own (port true)
 * or, on a branch where no port is found, the whole chain's. */
async function weekHistory(ctx, measures, opts, cutoff) {
  const ask = (o, key, extra) => api.history(ctx.repo, ctx.ref, key, { ...o, ...extra }).catch(() => null);
  let [before, week] = await Promise.all([
    Promise.all(measures.map((m) => ask(opts, m.key, { until: cutoff, points: 3 }))),
    ask(opts, 'functions.ported', { since: cutoff }),
  ]);
  const port = week?.port?.basis !== 'none' && before.some((a) => a?.port && a.port.basis !== 'none');
  if (port) return { before: before.map(portFrom), week, port };
  // No port found on this branch: the whole chain, every commit.
  const all = { ...opts, window: undefined };
  [before, week] = await Promise.all([
    Promise.all(measures.map((m) => ask(all, m.key, { until: cutoff, points: 3 }).then(lastPoint))),
    ask(all, 'functions.ported', { since: cutoff }),
  ]);
  return { before, week, port };
}

/* A measure's row: its value now and the change since `was` (0 when no
 * commit came before: the branch started in the window). */
const weekRow = (m, nowV, was) => h('tr', { dataset: { measure: m.key } },
  h('th', { scope: 'row' }, m.label), h('td', { class: 'num' }, fmt(nowV)), h('td', { class: 'num' }, delta(nowV - was, m.good)));

/**
 * Card 2: what changed on the branch in the last 7 days, by committer date
 * (when commits landed on it: a rebase lands all it moves that day).  A
 * branch with nothing in the last 7 days says so, with the date of its
 * newest commit, and shows the 7 days up to that commit: its last week of
 * activity.  Figures: the tip's against the port's last commit before the
 * window (its fork base when there is none), counting the port's own
 * commits (doc/history.md); a branch with no port found (no upstream, no
 * HPy token) against the last commit before the window, counting all.
 */
async function weekCard(ctx, s) {
  const title = h('h2', { class: 'card-title', id: 'dc-week-h' }, 'What changed this week?');
  if (!ctx.ref) {
    return [title, h('p', { class: 'muted', id: 'dc-week-none' }, 'Pick a branch (not a commit) to see its week.')];
  }
  const tipMs = Date.parse(s.committer_date ?? s.author_date ?? '');
  if (Number.isNaN(tipMs)) return [title, h('p', { class: 'muted' }, 'The commit has no date.')];
  // prefetch.js asked the same answers with its own now (the cutoff is to
  // the second), once it had the summary and the repository list: taken
  // here, not asked again.
  await globalThis.__pdWeekAsked;
  const now = ctx.now ?? globalThis.__pdWeekNow ?? Date.now();
  const stale = now - tipMs > 7 * DAY;
  const endMs = stale ? tipMs : now;
  const iso = (ms) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
  const cutoff = iso(endMs - 7 * DAY);
  // Under a scope, its figures; the port's own commits (prefetch.js asks
  // the same URLs).
  const opts = { date: 'committer', window: 'port', scope: ctx.scope };
  // A port without object dtype has no object-dtype paths to count, and a
  // scope that leaves object dtype out counts none: the card says so
  // rather than show a 0 and ±0 that read as work done.  A summary with
  // object-dtype paths shows the row at once: the profile (profile.mjs:
  // the repository's answer, then the file list) took the first screen
  // from 190 to 270 ms on numpy-hpy (doc/benchmarks.md).  A commit without
  // any waits for it, so that no 0 ±0 is ever drawn.
  const seen = Object.values(s.object_paths ?? {}).some((n) => n > 0);
  const [objectDtype, objectScope] = await Promise.all([
    seen || Promise.resolve(ctx.objectDtype).then((x) => x !== false), ctx.objectScope ?? null]);
  const objectRow = objectDtype && !objectScope;
  const measures = WEEK_MEASURES.filter((m) => objectRow || m.key !== OBJECT_KEY);
  const { before, week, port } = await weekHistory(ctx, measures, opts, cutoff);
  const commits = week?.points?.length ?? 0;
  const base = before.find((p) => p)?.commit ?? null;
  // Commits that landed in the window but were written before it (a
  // rebase, a merge of older work): said, so that a rebased port's whole
  // history does not read as one week's work.
  const older = (week?.points ?? []).map((p) => Date.parse(p.author_date ?? ''))
    .filter((t) => t < endMs - 7 * DAY).sort((a, b) => a - b);
  const table = h('table', { class: 'dc-week', id: 'dc-week' },
    h('tbody', null, measures.map((m, i) => weekRow(m, valueOf(s, m.key), before[i]?.value ?? 0))));
  if (seen) {
    // A profile that says "no object dtype" against the summary's paths:
    // the page follows the profile, and so does the card.
    Promise.resolve(ctx.objectDtype).then((v) => {
      if (v === false) table.querySelector(`tr[data-measure="${OBJECT_KEY}"]`)?.remove();
    }, () => {});
  }
  return [
    title,
    stale ? h('p', { class: 'small', id: 'dc-week-stale' }, 'No commit in the last 7 days; the newest was committed ',
      timeEl(s.committer_date), '. Its last week of activity:') : null,
    h('p', { class: 'small', id: 'dc-week-when' },
      h('strong', { dataset: { metric: 'dc-week-commits' } }, fmt(commits)),
      ` ${commits === 1 ? 'commit' : 'commits'}${port ? ' of the port' : ''} committed in the 7 days from ${cutoff.slice(0, 10)} to ${iso(endMs).slice(0, 10)}`),
    older.length ? h('p', { class: 'small', id: 'dc-week-older' },
      h('strong', { dataset: { metric: 'dc-week-older' } }, fmt(older.length)),
      ` of them written before (authored from ${iso(older[0]).slice(0, 10)} to ` +
      `${iso(older[older.length - 1]).slice(0, 10)}): older work that landed in these days, ` +
      'as a rebase or a merge lands it.') : null,
    table,
    objectDtype ? null : h('p', { class: 'small muted', id: 'dc-week-no-object' },
      'This port has no object-dtype code: no object-dtype paths to count.'),
    objectDtype && objectScope ? h('p', { class: 'small muted', id: 'dc-week-object-left-out' },
      'The scope ', h('code', null, objectScope), ' leaves object dtype out: its object-dtype paths are not counted here.') : null,
    moreLinks(base && base !== s.commit ? h('a', { href: compareHref(ctx.repo, base, s.commit), id: 'dc-week-compare' },
      'what moved, function by function') : null,
    h('a', { href: '#trend' }, 'trend'), h('a', { href: snapshotsHref(ctx.repo, ctx.ref) }, 'weekly reports')),
  ];
}

/** Card 3: the first functions of the frontier answer d, in its order. */
function nextCard(ctx, d) {
  const title = h('h2', { class: 'card-title', id: 'dc-next-h' }, 'What to port next?');
  const list = d?.functions ?? [];
  const whole = wholeRepoNote(ctx.scope);    // the frontier takes no scope
  if (!list.length) {
    return [title, whole, h('p', { class: 'muted', id: 'dc-next-none' },
      // The frontier lists only functions some ported or bridged code
      // calls (api frontier without all=1): functions nobody calls may be
      // portable on their own, so "none can be" would be wrong.
      d ? 'None that ported or bridged code calls: no legacy or bridged function whose callees are all ported is called from ported code yet (see "Next to port").'
        : 'Not available.')];
  }
  const at = d.commit ?? ctx.rev;
  return [
    title,
    whole,
    h('ol', { class: 'dc-next', id: 'dc-next' }, list.slice(0, NEXT_SHOWN).map((f) => h('li', { dataset: { name: f.name, path: f.path } },
      h('a', { href: fileHref(ctx.repo, at, f.path, f.start_line) }, h('code', null, f.name)), ' ', statusBadge(f.status),
      h('span', { class: 'muted small dc-path', title: f.path }, ' ', pathNodes(f.path.split('/').pop()))))),
    moreLinks(h('a', { href: '#frontier', id: 'dc-next-all' }, `all ${fmt(d.candidates ?? list.length)} candidates and why`)),
  ];
}

/**
 * Fills root (#devcall) with the three cards.  ctx: {repo, rev, ref (a ref
 * name or '' when rev is a commit), scope (the page's, '' for none),
 * objectDtype (a promise: false when the port has none, profile.mjs),
 * objectScope (null, or a promise of the scope's name when it leaves object
 * dtype out, else null)}; summary: a promise of the summary
 * answer; frontier: a promise of the frontier answer (or of an error).
 * Each card fills as its answer arrives; resolves when all are in.
 */
export async function mountDevCall(root, ctx, summary, frontier) {
  const far = h('section', { class: 'card dc-card', id: 'dc-far', 'aria-labelledby': 'dc-far-h' }, h('span', { class: 'muted' }, 'Loading…'));
  const week = h('section', { class: 'card dc-card', id: 'dc-week-card', 'aria-labelledby': 'dc-week-h' }, h('span', { class: 'muted' }, 'Loading…'));
  const next = h('section', { class: 'card dc-card', id: 'dc-next-card', 'aria-labelledby': 'dc-next-h' }, h('span', { class: 'muted' }, 'Loading…'));
  replace(root, far, week, next);
  root.hidden = false;
  const fail = (el, what) => (e) => replace(el, h('p', { class: 'muted' }, `${what}: ${e?.problem?.title ?? e?.message ?? 'not available'}`));
  await Promise.allSettled([
    summary.then(async (s) => {
      replace(far, farCard(s));
      replace(week, await weekCard(ctx, s));
    }).catch((e) => {
      // An unknown revision: the page says so once; cards would repeat it.
      if (e?.status === 404) {
        root.hidden = true;
        return;
      }
      fail(far, 'Summary')(e);
      fail(week, 'This week')(e);
    }),
    frontier.then((d) => replace(next, nextCard(ctx, d instanceof Error ? null : d))).catch(fail(next, 'Next to port')),
  ]);
  root.dataset.complete = 'true';
}
