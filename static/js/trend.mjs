// trend.mjs: history charts drawn with Chart.js (window.Chart, loaded from
// /vendor/chart.js/chart.umd.js by vendor.mjs when a chart is first mounted).
//
// The trend panel on the overview: one measure along a ref's first-parent
// history, one point per commit, oldest first.  The x axis is linear, in
// milliseconds since the epoch of the chosen date (author or committer: on a
// rebased branch every commit has the same committer date, so author date is
// the default), ticks formatted here (no date adapter).  By default only the
// port's own commits are drawn (?window=port: the commits after the fork
// from upstream, doc/history.md), at their own dates in branch order, the
// upstream history folded away; "full history" adds it, in grey.  Rewrites of
// the ref (rebases, force-pushes) and the port start are drawn as vertical
// lines by a small plugin.  Clicking a point opens its commit page.
// The chart asks the server for about as many points as it has pixels
// (?points=N, reduced there by LTTB, keeping the port start), not the whole
// series: numpy's 15,000 commits are 2.3 MB in full, 150 KB for 1,000
// points.  For what still arrives: no animation, parsing: false, normalized
// data, no point dots above a few hundred points, and the decimation plugin.

import * as api from './api.mjs';
import { h, replace, fmt, shortCommit, timeEl } from './dom.mjs';
import { MEASURE, MEASURES } from './model.mjs';
import { commitHref, showError } from './ui.mjs';
import { loadChart } from './vendor.mjs';

// How a rewrite's commits were linked: by git patch id, or (when the rebase
// changed the patch) by the same author, author date and subject.
function linkMethods(links) {
  const byPatch = links.filter((l) => l.by !== 'author-date-subject').length;
  const byMeta = links.length - byPatch;
  return [byPatch ? `${byPatch} by patch id` : null,
    byMeta ? `${byMeta} by author, date and subject` : null].filter(Boolean).join(', ');
}

const DAY = 86400e3;
const COLORS = { good: '#1a7f37', bad: '#cf222e', neutral: '#8a5a00', none: '#0969da' };
const LATE = '#bc4c00';   // commits dated before an earlier one on the branch
const UPSTREAM = '#8c959f';   // upstream history under the port, when shown

/**
 * The point count to ask the history API for, for a chart `px` device
 * pixels wide: rounded up to a step of 500 (the server warms those,
 * server/srv_warm.h), at most 2000.
 */
export const chartPoints = (px) => Math.min(2000, Math.max(1, Math.ceil((px || 0) / 500)) * 500);

/** Date of a point for the chosen axis, as ms since the epoch (NaN if missing). */
export const pointTime = (p, date) => Date.parse(date === 'committer' ? p.committer_date : p.author_date);

/**
 * The x of each point of a ref's history, oldest first (issue 11.11): on a
 * rebased branch a commit can be dated before its parent, and a line with
 * x = date would run back in time.  x is the effective date: the latest date
 * so far along the branch (the server's effective_date, which also counts
 * the commits sampling left out; computed here when absent).  Such a commit
 * is drawn at that date and marked out of order; its own date is kept for
 * the tooltip.  The port's own commits (p.own) start again: they are
 * dated among themselves.  Returns [{x, own, late}].
 */
export function effectiveTimes(points, date) {
  let max = -Infinity;
  let ownSeen = false;
  return points.map((p) => {
    const own = pointTime(p, date);
    const server = p.effective_date ? Date.parse(p.effective_date) : NaN;
    // The port's own commits are dated among themselves (issue 23.1): the
    // upstream commit a rebase put under them does not carry them to its date.
    // So is each part of it after another ref's tip (p.part_start).
    if ((p.own === true && !ownSeen) || p.part_start === true) { ownSeen = true; max = -Infinity; }
    const late = p.out_of_order === true || (Number.isFinite(own) && own < max);
    if (Number.isFinite(own)) max = Math.max(max, own);
    const x = Number.isFinite(server) ? server : Number.isFinite(max) ? max : own;
    return { x, own, late };
  });
}

function pad(n) { return String(n).padStart(2, '0'); }

// Calendar steps for the x axis, finest first: [unit, count].  Weeks start
// on Mondays; months and years on their first day (UTC).
const STEPS = [['hour', 1], ['hour', 3], ['hour', 6], ['hour', 12], ['day', 1], ['day', 2],
  ['week', 1], ['week', 2], ['month', 1], ['month', 2], ['month', 3], ['month', 6],
  ['year', 1], ['year', 2], ['year', 5], ['year', 10], ['year', 25], ['year', 50]];

// The first boundary of `unit` × n at or after ms (UTC).
function calendarStart(ms, unit, n) {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  let t;
  if (unit === 'year') t = Date.UTC(Math.ceil(y / n) * n, 0, 1);
  else if (unit === 'month') {
    const m = Math.ceil((y * 12 + d.getUTCMonth()) / n) * n;
    t = Date.UTC(Math.floor(m / 12), m % 12, 1);
  } else if (unit === 'week') {
    // 1970-01-05 was a Monday: weeks counted from there.
    const monday = Date.UTC(1970, 0, 5);
    t = monday + Math.ceil((ms - monday) / (7 * n * DAY)) * 7 * n * DAY;
  } else {
    const len = unit === 'day' ? n * DAY : n * 3600e3;
    t = Math.ceil(ms / len) * len;
  }
  return t < ms ? calendarNext(t, unit, n) : t;
}

// The boundary after t, n units on.
function calendarNext(t, unit, n) {
  const d = new Date(t);
  if (unit === 'year') return Date.UTC(d.getUTCFullYear() + n, 0, 1);
  if (unit === 'month') return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1);
  return t + n * (unit === 'week' ? 7 * DAY : unit === 'day' ? DAY : 3600e3);
}

/**
 * Ticks for a date axis from min to max (ms since the epoch): calendar
 * boundaries (hours, days, Monday weeks, first of months, first of years)
 * at the finest equal step that gives at most maxCount of them, so that
 * ticks labelled by month are a month, or the same few months, apart.
 * Returns {unit, values}; unit is what tickText labels by.
 */
export function calendarTicks(min, max, maxCount) {
  const want = Math.max(2, Math.floor(maxCount) || 2);
  for (const [unit, n] of STEPS) {
    const values = [];
    for (let t = calendarStart(min, unit, n); t <= max && values.length <= want; t = calendarNext(t, unit, n))
      values.push(t);
    if (values.length <= want) return { unit, values };
  }
  return { unit: 'year', values: [] };
}

/** A tick's label for a calendarTicks unit (UTC). */
export function tickText(ms, unit) {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return '';
  const ymd = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  if (unit === 'year') return String(d.getUTCFullYear());
  if (unit === 'month') return ymd.slice(0, 7);
  if (unit === 'hour') return `${ymd} ${pad(d.getUTCHours())}:00`;
  return ymd;
}

const fullDate = (ms) => {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? '?' : `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
};

/**
 * Vertical marker lines: options.plugins.pdMarks.lines = [{x, label, color,
 * dash}], x in data units.  Drawn after the datasets, labels at the top.
 */
export const marksPlugin = {
  id: 'pdMarks',
  afterDatasetsDraw(chart, _args, opts) {
    const lines = opts?.lines ?? [];
    if (!lines.length) return;
    const { ctx, chartArea: a, scales: { x } } = chart;
    ctx.save();
    ctx.font = '11px system-ui, sans-serif';
    let labelRow = 0;
    for (const m of lines) {
      const px = x.getPixelForValue(m.x);
      if (!(px >= a.left - 0.5 && px <= a.right + 0.5)) continue;
      ctx.strokeStyle = m.color ?? '#8250df';
      ctx.lineWidth = 1.5;
      ctx.setLineDash(m.dash ?? [5, 4]);
      ctx.beginPath();
      ctx.moveTo(px, a.top);
      ctx.lineTo(px, a.bottom);
      ctx.stroke();
      if (m.label) {
        ctx.setLineDash([]);
        ctx.fillStyle = m.color ?? '#8250df';
        const w = ctx.measureText(m.label).width;
        const lx = px + 4 + w > a.right ? px - 4 - w : px + 4;
        ctx.fillText(m.label, lx, a.top + 11 + 13 * (labelRow++ % 3));
      }
    }
    ctx.restore();
  },
};

/** Loads Chart.js; true when it is there, otherwise puts a notice in box. */
export async function chartAvailable(box) {
  if (await loadChart()) return true;
  replace(box, h('div', { class: 'notice', role: 'status' }, 'Charts are unavailable: the Chart.js library (/vendor/chart.js/chart.umd.js) did not load.'));
  return false;
}

/* The trend panel's state: the choices (st), its elements, and the
 * history answer drawn (data, rewrites, chart; loadSeq counts the loads so
 * that a late answer is dropped). */
function trendState(root, opts) {
  const st = {
    measure: MEASURE[opts.measure] ? opts.measure : 'object_paths.object-legacy',
    date: opts.date === 'committer' ? 'committer' : 'author',
    window: opts.window === 'full' ? 'full' : 'port',
    ref: opts.ref,
  };
  const t = {
    root, opts, st, data: null, rewrites: [], chart: null, loadSeq: 0,
    measures: MEASURES.map((m) => m.key)
      .filter((k) => opts.objectDtype !== false || !k.startsWith('object_paths.')),
    errors: h('div', { class: 'errors', role: 'alert', hidden: true }),
    measureSel: h('select', { id: 'trend-measure', 'aria-label': 'Measure' }),
    refSel: h('select', { id: 'trend-ref', 'aria-label': 'Ref' },
      (opts.refs ?? [st.ref]).map((r) => h('option', { value: r }, r))),
    dateBtns: ['author', 'committer'].map((d) => h('button', {
      type: 'button', dataset: { date: d }, 'aria-pressed': String(st.date === d),
      title: d === 'author' ? 'when each change was written' : 'when each commit was (re)applied: a rebase sets it for every commit',
    }, `${d} date`)),
    windowBox: h('input', { type: 'checkbox', id: 'trend-full' }),
    canvas: h('canvas', { id: 'trend-canvas', role: 'img', 'aria-label': 'Trend chart' }),
    caption: h('div', { class: 'trend-caption', id: 'trend-caption', 'aria-live': 'polite' }),
    rewritesList: h('ul', { class: 'rewrites', id: 'trend-rewrites' }),
    forecastLine: h('p', { class: 'trend-forecast muted', id: 'trend-forecast', hidden: true }),
  };
  t.refSel.value = st.ref;
  t.windowBox.checked = st.window === 'full';
  return t;
}

/* The panel's heading, controls, chart box and lines below, into root. */
function trendLayout(t) {
  const { opts, st } = t;
  replace(t.root,
    h('div', { class: 'section-head' },
      h('h2', { id: 'trend-heading' }, 'Trend'),
      h('div', { class: 'trend-controls' },
        h('label', null, 'Measure ', t.measureSel),
        (opts.refs ?? []).length > 1 ? h('label', null, 'along ', t.refSel) : h('span', null, 'along ', h('code', null, st.ref)),
        h('span', { class: 'seg-toggle', role: 'group', 'aria-label': 'Time axis', id: 'trend-date' }, t.dateBtns),
        h('label', { title: "By default the chart shows the port's own commits; this adds the upstream history under them" }, t.windowBox, ' full history'))),
    t.errors,
    h('div', { class: 'chart-box' }, t.canvas),
    t.caption, t.forecastLine, t.rewritesList);
}

/* Ask for the history of the chosen measure and the ref's rewrites, then
 * draw them and the forecast. */
async function trendLoad(t) {
  const { root, opts, st, errors, canvas } = t;
  const seq = ++t.loadSeq;
  errors.hidden = true;
  errors.replaceChildren();
  root.dataset.loading = 'true';
  const ask = (win) => api.history(opts.repo, st.ref, st.measure, {
    scope: opts.scope,
    window: win,
    // The box the chart fills: the canvas keeps its default 300 px until drawn.
    points: chartPoints((canvas.parentElement?.clientWidth || canvas.clientWidth) * (window.devicePixelRatio || 1)),
  });
  // The port's own commits only, unless upstream history is asked for; a
  // ref without a port (no upstream, no HPy token: a branch rewritten to
  // unrelated code) has an empty port window, so its whole chain is drawn.
  const [hist, rw] = await Promise.allSettled([
    ask(st.window === 'full' ? 'full' : 'port').then((d) => (st.window !== 'full' && d?.port?.basis === 'none'
      && !d.points?.length ? ask('full') : d)),
    api.rewrites(opts.repo, st.ref),
  ]);
  if (seq !== t.loadSeq) return;
  delete root.dataset.loading;
  if (hist.status === 'rejected') {
    showError(errors, hist.reason, 'Trend');
    t.data = null;
    t.chart?.destroy();
    t.chart = null;
    t.caption.replaceChildren();
    return;
  }
  t.data = hist.value;
  t.rewrites = rw.status === 'fulfilled' && Array.isArray(rw.value) ? rw.value : [];
  trendDraw(t);
  trendForecast(t, seq);
}

/* The range (issue 23.2): P50 / P85 dates from today, from the port's
 * weekly throughput minus inflow, or "not at this rate". */
function rangeText(rg) {
  if (!rg) return null;
  const r1 = (x) => fmt(Math.round(x * 10) / 10);
  const why = ` (the port's last ${fmt(rg.window_weeks)} weeks: ${r1(rg.throughput_per_week)} removed and ${r1(rg.inflow_per_week)} added a week; ${fmt(rg.remaining)} left)`;
  return h('span', { id: 'trend-range', dataset: { p50: rg.p50 ?? '', p85: rg.p85 ?? '' } }, '. ',
    h('strong', null, 'Range: '), rg.remaining === 0 ? 'already at zero'
      : rg.p50 ? `P50 ${rg.p50}, P85 ${rg.p85 ?? 'not at this rate'}${why}`
        : `${rg.note}${why}`);
}

/* The forecast from the weekly snapshots, for the measures of remaining
 * work it covers; the server says plainly when it cannot project. */
async function trendForecast(t, seq) {
  const { opts, st, forecastLine } = t;
  const covered = { 'object_paths.object-legacy': true, 'tokens.capi': true };
  forecastLine.hidden = true;
  if (!covered[st.measure] || opts.scope) return;
  let fc;
  try {
    fc = await api.forecast(opts.repo, st.ref, st.measure);
  } catch { return; }
  if (seq !== t.loadSeq) return;
  const p = fc.projection;
  // Calendar time (issue 11.9): a gap between snapshots is said, and a
  // standstill is "no progress for N weeks", never a date.
  const gap = fc.largest_gap_weeks > 1
    ? `; the snapshots have a gap of ${fmt(fc.largest_gap_weeks)} weeks, fitted over real dates` : '';
  forecastLine.replaceChildren(h('strong', null, `Forecast${fc.as_of ? ` as of ${fc.as_of}` : ''}: `), fc.weeks === 0
    ? 'no weekly snapshots of this ref yet (portdash snapshot)'
    : p ? `at ${fmt(Math.round(-fc.slope_per_week * 10) / 10)} a week since ${fc.window_start}, zero around ${p.zero_on} (between ${p.earliest} and ${p.latest}), from ${fmt(fc.weeks)} weekly snapshots${gap}`
      : `no projection: ${fc.note}`, rangeText(fc.range));
  forecastLine.dataset.projection = p ? p.zero_on : '';
  forecastLine.dataset.noProgressWeeks = !p && /^no progress/.test(fc.note ?? '') ? String(fc.no_progress_weeks) : '';
  forecastLine.hidden = false;
}

/** Index of the first point of the port window (0 if none); only for an
 * answer without `port` (a scoped history), which the server did not fold. */
function trendWindowStart(t) {
  const { data, st } = t;
  if (st.window === 'full' || !data?.port_start || data.port) return 0;
  const i = data.points.findIndex((p) => p.commit === data.port_start.commit);
  return i < 0 ? 0 : i;
}

const commitsWord = (n) => `${fmt(n)} ${n === 1 ? 'commit' : 'commits'}`;

/* What the chart counts (issue 23.1): the port's own commits, from the
 * server's count (not the points drawn, which sampling may thin), and the
 * upstream history folded away with a button to show it. */
function trendCountLine(t, port, drawn, from, total) {
  const { data, st, opts, windowBox } = t;
  const sampled = data.sampled_from > drawn ? `${fmt(drawn)} points drawn · ` : '';
  if (!port) {
    return h('span', { class: 'muted', id: 'trend-count' }, sampled,
      commitsWord(data.sampled_from || drawn),
      st.window === 'port' && from > 0 ? ` since the first HPy token (${fmt(data.sampled_from ?? total)} in the full history)` : ' (full history)');
  }
  const own = port.own_commits;
  const base = port.base;
  const onTop = port.basis === 'upstream'
    ? [` on top of ${port.upstream}`, base ? [' at ', h('a', { href: commitHref(opts.repo, base.commit), title: base.commit },
      h('code', null, shortCommit(base.commit))), ` (${(base.committer_date ?? '').slice(0, 10)})`] : null]
    : [' from the first HPy token (no upstream branch known: ', h('code', null, 'ingest --upstream'), ')'];
  const toggle = h('button', { type: 'button', class: 'linkish', id: 'trend-fold' },
    st.window === 'full' ? 'fold it away' : 'show it');
  toggle.addEventListener('click', () => { windowBox.checked = st.window !== 'full'; windowBox.dispatchEvent(new Event('change')); });
  const parts = (port.parts ?? []).length > 1
    ? ` (${port.parts.map((q) => (q.after ? `${fmt(q.own_commits)} after ${q.after}` : fmt(q.own_commits))).join(', ')}, each part at its own dates)` : '';
  return h('span', { class: 'muted', id: 'trend-count', dataset: { own: String(own), upstream: String(port.upstream_commits) } },
    sampled, h('strong', null, `${fmt(own)} ${own === 1 ? 'commit' : 'commits'} of the port`), parts, ...onTop,
    `, at their ${st.date} dates in branch order; `,
    st.window === 'full' ? `with ${fmt(port.upstream_commits)} upstream commits before them (grey): `
      : `${fmt(port.upstream_commits)} upstream commits folded away: `, toggle);
}

/* What the chart draws of the answer t.data: the points shown (series,
 * from the port window's start `from`), the x range, the first and last
 * values and the trend's colour, the vertical marks (lines). */
function trendSeries(t) {
  const { data, st, rewrites } = t;
  const pts = data.points ?? [];
  const from = trendWindowStart(t);
  const shown = pts.slice(from);
  // The server's effective date is along the date it was asked for (data.date).
  const times = effectiveTimes(pts.map((p) => (data.date === st.date ? p
    : { ...p, effective_date: undefined, out_of_order: undefined })), st.date).slice(from);
  const series = shown.map((p, i) => ({ x: times[i].x, own: times[i].own, late: times[i].late,
    y: p.value, commit: p.commit, i: from + i, port: p.own === true, part: p.part_start === true }));
  const port = data.port && data.port.basis !== 'none' ? data.port : null;
  // With upstream history shown, it is grey; the port's own commits keep
  // the measure's colour, and no line joins the two parts.
  const upstreamShown = !!port && series.some((p) => !p.port);
  // No line joins two parts (upstream, the port, a branch stacked on
  // another ref): each starts again at its own first date.
  const parted = upstreamShown || series.some((p, i) => i > 0 && p.part);
  const xs = series.map((p) => p.x).filter((x) => Number.isFinite(x));
  let min = Math.min(...xs);
  let max = Math.max(...xs);
  if (!xs.length) { min = 0; max = 1; }
  if (max - min < DAY) { min -= DAY / 2; max += DAY / 2; }   // one day (a rebase): widen so it can be read
  const good = MEASURE[st.measure]?.good;
  // From the state the port started from (its upstream base) when folded.
  const ownPts = port ? shown.filter((p) => p.own === true) : shown;
  const first = port && port.base ? port.base.value : ownPts[0]?.value ?? shown[0]?.value;
  const last = (ownPts.length ? ownPts : shown)[(ownPts.length ? ownPts : shown).length - 1]?.value;
  const trend = first == null || last === first ? 'none'
    : !good ? 'neutral' : (last > first) === (good === 'up') ? 'good' : 'bad';
  const lines = [];
  if (data.port_start && st.window === 'full') {
    const ps = pts.find((p) => p.commit === data.port_start.commit);
    const x = ps ? pointTime(ps, st.date) : Date.parse(st.date === 'committer' ? data.port_start.committer_date : data.port_start.author_date);
    if (Number.isFinite(x)) lines.push({ x, label: 'first HPy token', color: '#1a7f37', dash: [2, 3] });
  }
  for (const r of rewrites) {
    const p = pts.find((q) => q.commit === r.new_commit);
    if (p) lines.push({ x: pointTime(p, st.date), label: `rewrite ${(r.detected_at ?? '').slice(0, 10)}`, color: '#8250df' });
  }
  return { pts, from, series, port, upstreamShown, parted, min, max, first, last, trend,
    color: COLORS[trend], lines, many: series.length > 400 };
}

/* The chart's one dataset: the series s.series in the trend's colour, an
 * out-of-order commit a hollow triangle, upstream history grey. */
function trendDataset(t, s) {
  const { series, color, many, upstreamShown, parted } = s;
  return {
    label: MEASURE[t.st.measure]?.label ?? t.st.measure,
    data: series,
    borderColor: color,
    backgroundColor: color,
    borderWidth: 1.75,
    // Commits dated before an earlier one: hollow orange triangles, always drawn.
    pointRadius: series.map((p) => (p.late ? 4.5 : many && !(upstreamShown && p.port) ? 0 : 2.5)),
    pointStyle: series.map((p) => (p.late ? 'triangle' : 'circle')),
    pointBorderColor: series.map((p) => (p.late ? LATE : upstreamShown && !p.port ? UPSTREAM : color)),
    pointBackgroundColor: series.map((p) => (p.late ? '#fff' : upstreamShown && !p.port ? UPSTREAM : color)),
    segment: parted ? {
      borderColor: (c) => (series[c.p1DataIndex]?.part ? 'rgba(0,0,0,0)'
        : upstreamShown && !series[c.p1DataIndex]?.port ? UPSTREAM : undefined),
    } : undefined,
    pointHoverRadius: 4,
    pointHitRadius: many ? 3 : 6,
    tension: 0,
    spanGaps: true,
  };
}

/* The chart's axes: calendar ticks on x (calTicks is where they are kept
 * between building and labelling them), the measure on y. */
function trendScales(t, s, calTicks) {
  const { st } = t;
  return {
    x: {
      type: 'linear', min: s.min, max: s.max,
      // Calendar ticks (calendarTicks), about one per 110 px: the
      // linear scale's own are round milliseconds, months apart
      // unevenly once labelled.
      afterBuildTicks: (axis) => {
        Object.assign(calTicks, calendarTicks(axis.min, axis.max, (axis.chart.width || 800) / 110));
        axis.ticks = calTicks.values.map((value) => ({ value }));
      },
      ticks: { maxRotation: 0, autoSkip: false, callback: (v) => tickText(v, calTicks.unit) },
      title: { display: true, color: '#59636e', text: s.series.some((p) => p.late)
        ? `${st.date} date (UTC), the latest so far along the branch${s.parted ? ' (each part apart)' : ''}` : `${st.date} date (UTC)` },
      grid: { color: '#eaeef2' },
    },
    y: {
      beginAtZero: true,
      ticks: { precision: 0, callback: (v) => fmt(v) },
      title: { display: true, text: MEASURE[st.measure]?.label ?? st.measure, color: '#59636e' },
      grid: { color: '#eaeef2' },
    },
  };
}

/* The Chart.js configuration of what trendSeries gave. */
function trendConfig(t, s) {
  const { st, opts } = t;
  return {
    type: 'line',
    data: { datasets: [trendDataset(t, s)] },
    options: {
      animation: false,
      parsing: false,
      normalized: true,
      responsive: true,
      maintainAspectRatio: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: trendScales(t, s, { unit: 'day', values: [] }),
      plugins: {
        legend: { display: false },
        decimation: { enabled: true, algorithm: 'lttb', samples: 1200, threshold: 1500 },
        tooltip: {
          callbacks: {
            title: (items) => {
              const p = items[0]?.raw;
              return p ? `${shortCommit(p.commit)} · ${fullDate(p.own)}` : '';
            },
            afterTitle: (items) => {
              const p = items[0]?.raw;
              return p?.late ? `dated before an earlier commit of the branch: drawn at ${fullDate(p.x)}` : '';
            },
            label: (item) => ` ${MEASURE[st.measure]?.label ?? st.measure}: ${fmt(item.raw.y)}`,
            footer: () => 'click to open the commit',
          },
        },
        pdMarks: { lines: s.lines },
      },
      onClick: (evt, _els, ch) => {
        const els = ch.getElementsAtEventForMode(evt, 'nearest', { intersect: false }, true);
        const p = els.length ? ch.data.datasets[els[0].datasetIndex].data[els[0].index] : null;
        if (p?.commit) location.assign(commitHref(opts.repo, p.commit));
      },
      onHover: (evt, els) => { evt.native.target.style.cursor = els.length ? 'pointer' : 'default'; },
    },
    plugins: [marksPlugin],
  };
}

/* The caption under the chart (from → to, what is counted, the dates,
 * out-of-order commits) and the list of the ref's rewrites. */
function trendCaption(t, s) {
  const { st, data, opts } = t;
  const { series, first, last, trend, port, from, pts, upstreamShown } = s;
  const label = MEASURE[st.measure]?.label ?? st.measure;
  const backwards = series.filter((p) => p.late).length;
  const owns = (upstreamShown ? series.filter((p) => p.port) : series).map((p) => p.own).filter((x) => Number.isFinite(x));
  const dateRange = owns.length ? `${tickText(Math.min(...owns), 'day')} – ${tickText(Math.max(...owns), 'day')}` : '';
  replace(t.caption,
    h('span', null, h('span', { class: ['big', `delta-${trend === 'none' ? 'flat' : trend}`], id: 'trend-from-to' },
      `${fmt(first)} → ${fmt(last)}`), ` ${label}`),
    trendCountLine(t, port, series.length, from, pts.length),
    // With upstream history shown, the dates are still the port's own.
    h('span', { class: 'muted', id: 'trend-dates' }, `${upstreamShown ? "the port's " : ''}${st.date} dates ${dateRange}`),
    !data.port_start ? h('span', { class: 'muted' }, 'no HPy token on this ref yet') : null,
    backwards ? h('span', { class: 'trend-late', id: 'trend-backwards', dataset: { late: String(backwards) } },
      h('span', { class: 'late-mark', 'aria-hidden': 'true' }, '△'), ' ',
      `${fmt(backwards)} ${backwards === 1 ? 'commit is' : 'commits are'} dated before an earlier commit of the branch (rebased or reordered): `,
      `the line follows the branch's order, oldest first; such a commit is drawn at the latest ${st.date} date before it and marked △, its own date in its tooltip`) : null);
  replace(t.rewritesList, t.rewrites.map((r) => h('li', null, `Rewrite (rebase or force-push) of ${r.ref ?? st.ref} detected `, timeEl(r.detected_at), ': ',
    h('a', { href: commitHref(opts.repo, r.old_commit), title: r.old_commit }, h('code', null, shortCommit(r.old_commit))), ' → ',
    h('a', { href: commitHref(opts.repo, r.new_commit), title: r.new_commit }, h('code', null, shortCommit(r.new_commit))),
    r.links?.length ? ` · ${fmt(r.links.length)} ${r.links.length === 1 ? 'commit' : 'commits'} linked to ${r.links.length === 1 ? 'its' : 'their'} rebased copy (${linkMethods(r.links)})` : '')));
}

/* Draw the answer t.data: the chart, its canvas's data attributes and
 * label, the caption. */
function trendDraw(t) {
  const { st, canvas } = t;
  const s = trendSeries(t);
  t.chart?.destroy();
  t.chart = new window.Chart(canvas, trendConfig(t, s));
  canvas.dataset.points = String(s.series.length);
  canvas.dataset.measure = st.measure;
  canvas.dataset.date = st.date;
  canvas.dataset.window = st.window;
  canvas.setAttribute('aria-label', `${MEASURE[st.measure]?.label ?? st.measure} along ${st.ref}: `
    + `${fmt(s.first)} to ${fmt(s.last)} over ${fmt(s.series.length)} commits`);
  trendCaption(t, s);
  t.windowBox.disabled = !t.data.port_start;
}

/* The controls: each change is kept in the page's URL (opts.onState) and
 * asks again, or draws again when the answer already holds it. */
function trendWire(t) {
  const { st, opts, measureSel, refSel, dateBtns, windowBox } = t;
  const changed = (partial) => opts.onState?.({
    measure: st.measure, date: st.date === 'author' ? '' : st.date, window: st.window === 'full' ? 'full' : '', tref: st.ref, ...partial,
  });
  measureSel.addEventListener('change', () => { st.measure = measureSel.value; changed(); trendLoad(t); });
  refSel.addEventListener('change', () => { st.ref = refSel.value; changed(); trendLoad(t); });
  for (const b of dateBtns) {
    b.addEventListener('click', () => {
      st.date = b.dataset.date;
      for (const x of dateBtns) x.setAttribute('aria-pressed', String(x === b));
      changed();
      if (t.data) trendDraw(t);
    });
  }
  windowBox.addEventListener('change', () => {
    st.window = windowBox.checked ? 'full' : 'port';
    changed();
    // The server folds upstream history away (?window=port): ask again.
    if (t.data?.port) trendLoad(t);
    else if (t.data) trendDraw(t);
  });
}

/**
 * The trend panel.  root: an empty <section>; opts: {repo, ref, refs,
 * measure, date, window ('full' or ''), objectDtype (false: the port has
 * none, so no object-dtype measure is offered: its flat 0 would read as
 * done), onState(partial)} — onState is called with the changed choices so
 * the page can keep them in its URL.
 */
export async function mountTrend(root, opts) {
  loadChart();   // asked for at once, fetched beside the work below
  const t = trendState(root, opts);
  trendLayout(t);
  root.hidden = false;
  if (!(await chartAvailable(root.querySelector('.chart-box')))) return;

  replace(t.measureSel, t.measures.map((k) => h('option', { value: k, title: k }, MEASURE[k]?.label ?? k)));
  if (!t.measures.includes(t.st.measure)) t.st.measure = t.measures[0];
  t.measureSel.value = t.st.measure;
  trendWire(t);
  await trendLoad(t);
}

/**
 * A sparkline of one file's history on the file page: root gets a small
 * canvas and a measure picker.  Points are where the file changed, and for
 * object paths also where the call graph alone moved them.  ref: a ref
 * name, or a commit id (atCommit: the chain up to that commit).  objects:
 * false for a port without object dtype (no object-dtype measures offered).
 */
export async function mountSparkline(root, { repo, ref, path, atCommit = false, measure = 'functions.ported', objects = true }) {
  if (!(await loadChart())) {
    replace(root, h('span', { class: 'muted' }, 'history chart unavailable'));
    return;
  }
  // objects false: a port without object dtype (profile.mjs), no such measures
  const sel = h('select', { id: 'spark-measure', 'aria-label': 'Measure of the file history' },
    ['functions.ported', 'functions.legacy', 'object_paths.object-legacy', 'object_paths.object-universal', 'tokens.capi']
      .filter((k) => objects || !k.startsWith('object_paths.'))
      .map((k) => h('option', { value: k }, MEASURE[k]?.label ?? k)));
  sel.value = measure;
  const canvas = h('canvas', { id: 'spark-canvas', width: 220, height: 36, role: 'img', 'aria-label': `File history chart on ${ref}` });
  const note = h('span', { id: 'spark-note' });
  // At a commit id the page's breadcrumb names the commit: not named again.
  replace(root, h('span', null, atCommit ? 'history up to this commit' : ['history on ', h('code', null, ref)]),
    canvas, sel, note);
  let chart = null;
  async function load() {
    let d;
    try {
      d = await api.fileHistory(repo, ref, path, sel.value);
    } catch (e) {
      chart?.destroy();
      chart = null;
      note.textContent = `no history (${e.problem?.title ?? e.message})`;
      return;
    }
    const pts = d.points ?? [];
    const series = pts.map((p) => ({ x: pointTime(p, 'author'), y: p.value, commit: p.commit, graph: !!p.call_graph }));
    chart?.destroy();
    chart = new window.Chart(canvas, {
      type: 'line',
      data: { datasets: [{ data: series, borderColor: '#0969da', backgroundColor: '#0969da', borderWidth: 1.5,
        pointRadius: series.length > 60 ? 0 : 2, pointHitRadius: 5, stepped: 'before' }] },
      options: {
        animation: false, parsing: false, normalized: true, responsive: false, layout: { padding: 4 },
        scales: { x: { type: 'linear', display: false }, y: { display: false, beginAtZero: true } },
        plugins: { legend: { display: false },
          tooltip: { callbacks: { title: (it) => `${shortCommit(it[0]?.raw?.commit)} · ${fullDate(it[0]?.raw?.x)}`, label: (it) => ` ${fmt(it.raw.y)}${it.raw.graph ? ' (file unchanged: through a callee)' : ''}` } } },
        onClick: (evt, _e, ch) => {
          const els = ch.getElementsAtEventForMode(evt, 'nearest', { intersect: false }, true);
          const p = els.length ? ch.data.datasets[0].data[els[0].index] : null;
          if (p?.commit) location.assign(commitHref(repo, p.commit));
        },
      },
    });
    canvas.dataset.points = String(series.length);
    canvas.dataset.measure = sel.value;
    const first = pts[0]?.value;
    const last = pts[pts.length - 1]?.value;
    // Object paths also move where only a callee in another file changed.
    const viaCalls = pts.filter((p) => p.call_graph).length;
    note.textContent = pts.length ? `${fmt(first)} → ${fmt(last)} over ${fmt(pts.length)} ${pts.length === 1 ? 'change' : 'changes'}`
      + (viaCalls ? ` (${fmt(viaCalls)} through callees)` : '') : 'no changes recorded';
  }
  sel.addEventListener('change', load);
  await load();
}
