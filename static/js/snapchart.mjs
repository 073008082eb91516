// snapchart.mjs: the weekly figures of one ref as a chart on the snapshots
// page (Chart.js, window.Chart, from /vendor/chart.js/).  One ref at a time
// (a select, the first ref by default); the x axis has every ISO week from
// the ref's first snapshot to its last, so a week without a snapshot is a
// gap in the lines (a long run of them takes one place: chartAxis), and
// the gaps are also listed in words.

import { h, replace, fmt } from './dom.mjs';
import { MEASURE } from './model.mjs';

/** The Monday (UTC) of ISO week "YYYY-Www". */
export function weekMonday(week) {
  const m = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!m) return null;
  const jan4 = new Date(Date.UTC(+m[1], 0, 4));
  const monday1 = jan4.getTime() - ((jan4.getUTCDay() + 6) % 7) * 86400000;
  return new Date(monday1 + (+m[2] - 1) * 7 * 86400000);
}

/** The ISO week "YYYY-Www" of a date: the week of its Thursday. */
export function isoWeek(d) {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  t.setUTCDate(t.getUTCDate() + 4 - (t.getUTCDay() || 7));
  const y = t.getUTCFullYear();
  const n = Math.ceil(((t - Date.UTC(y, 0, 1)) / 86400000 + 1) / 7);
  return `${y}-W${String(n).padStart(2, '0')}`;
}

/** Every ISO week from `first` to `last`, inclusive. */
export function weeksBetween(first, last) {
  const out = [];
  const end = weekMonday(last);
  for (let d = weekMonday(first); d && end && d <= end; d = new Date(d.getTime() + 7 * 86400000)) out.push(isoWeek(d));
  return out;
}

/** The longest run of weeks without a snapshot drawn week by week. */
export const GAP_FOLD = 8;

/**
 * The chart's x axis over the weeks `all`: each week, but a run of more
 * than GAP_FOLD weeks without a snapshot (has(week) false) is one place,
 * labelled "… N weeks …" (the list under the chart names the weeks; the
 * tooltip too).  A backfill of 2021 followed by a live
 * snapshot in 2026 put 250 empty weeks between them, and the weeks with
 * figures were a few pixels at either end.  → [{label, week}], week null
 * for a folded run, which has its first and last week.
 */
export function chartAxis(all, has) {
  const out = [];
  for (let i = 0; i < all.length;) {
    let j = i;
    while (j < all.length && !has(all[j])) j++;
    if (j - i > GAP_FOLD) out.push({ label: `… ${j - i} weeks …`, first: all[i], last: all[j - 1], week: null });
    else for (let k = i; k < j; k++) out.push({ label: all[k], week: all[k] });
    if (j < all.length) out.push({ label: all[j], week: all[j] });
    i = j + 1;
  }
  return out;
}

export const CHART_FIGURES = ['object_paths.object-legacy', 'object_paths.object-cpython-only',
  'object_paths.object-universal', 'universal_ready_files', 'functions.ported'];
const COLOURS = ['#cf222e', '#bf8700', '#1a7f37', '#0969da', '#8250df'];

/**
 * Fills root with a ref select, the chart of that ref's figures and the
 * list of its gaps.  figs: Map "week\0ref" → {measure: value}.
 */
export function mountSnapshotChart(root, refs, figs, { ref = refs[0], objectDtype = true } = {}) {
  // a port without object dtype: not its object figures (profile.mjs)
  const shown = CHART_FIGURES.map((k, i) => [k, COLOURS[i]])
    .filter(([k]) => objectDtype || !k.startsWith('object_paths.'));
  const sel = h('select', { id: 'snapchart-ref', 'aria-label': 'Ref of the chart' }, refs.map((r) => h('option', { value: r }, r)));
  sel.value = ref;
  const canvas = h('canvas', { id: 'snapchart-canvas', role: 'img', height: 90 });
  const gapsEl = h('p', { class: 'small', id: 'snapchart-gaps' });
  let chart = null;
  const draw = () => {
    const r = sel.value;
    const weeks = [...figs.keys()].filter((k) => k.endsWith(`\u0000${r}`)).map((k) => k.split('\u0000')[0]).sort();
    const all = weeks.length ? weeksBetween(weeks[0], weeks[weeks.length - 1]) : [];
    const missing = all.filter((w) => !figs.has(`${w}\u0000${r}`));
    canvas.dataset.weeks = String(all.length);
    canvas.dataset.gaps = String(missing.length);
    canvas.setAttribute('aria-label', `Weekly snapshots of ${r}: ${shown.map(([k]) => MEASURE[k]?.label ?? k).join(', ')}, ${all.length} weeks, ${missing.length} without a snapshot`);
    replace(gapsEl, missing.length
      ? [`${fmt(missing.length)} ${missing.length === 1 ? 'week has' : 'weeks have'} no snapshot (gaps in the lines): `, ranges(missing, all).join(', '), '.']
      : `A snapshot every week from ${weeks[0] ?? '–'} to ${weeks[weeks.length - 1] ?? '–'}.`);
    if (!window.Chart) return;
    const axis = chartAxis(all, (w) => figs.has(`${w}\u0000${r}`));
    const datasets = shown.map(([k, colour]) => ({
      label: MEASURE[k]?.label ?? k, borderColor: colour, backgroundColor: colour, spanGaps: false, pointRadius: 2,
      data: axis.map((a) => (a.week ? figs.get(`${a.week}\u0000${r}`)?.[k] ?? null : null)),
    }));
    chart?.destroy();
    chart = new window.Chart(canvas, { type: 'line', data: { labels: axis.map((a) => a.label), datasets },
      options: { animation: false, responsive: true, interaction: { mode: 'index', intersect: false },
        scales: { y: { beginAtZero: true } },
        plugins: { tooltip: { callbacks: { title: (items) => {
          const a = axis[items[0]?.dataIndex];
          return a && !a.week ? `${a.first} – ${a.last}: no snapshot` : a?.label;
        } } } } } });
  };
  sel.addEventListener('change', draw);
  replace(root, h('div', { class: 'section-head' }, h('h2', { id: 'snapchart-h' }, 'Weekly figures'),
    h('label', { class: 'small' }, 'Ref ', sel)), canvas, gapsEl);
  root.hidden = false;
  draw();
  return { redraw: draw };
}

/** Consecutive missing weeks as "A–B" ranges. */
function ranges(missing, all) {
  const idx = new Map(all.map((w, i) => [w, i]));
  const out = [];
  let start = null;
  let prev = null;
  for (const w of missing) {
    if (start !== null && idx.get(w) === idx.get(prev) + 1) { prev = w; continue; }
    if (start !== null) out.push(start === prev ? start : `${start}–${prev}`);
    start = w; prev = w;
  }
  if (start !== null) out.push(start === prev ? start : `${start}–${prev}`);
  return out;
}
