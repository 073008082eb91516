// ui.mjs: pieces shared by the overview and the file page: badges, stacked
// status bars, the legend, error boxes, sortable table headers and the
// URL-held page state.  All text goes in through h() (see dom.mjs).

import { h, fmt, replace } from './dom.mjs';
import {
  STATUSES, STATUS_LABEL, STATUS_HELP, OBJECT_STATES, OBJECT_LABEL, OBJECT_HELP,
  TOKEN_CLASSES, TOKEN_HELP, MEASURE, measureGroups, measureValue, deltaSense,
} from './model.mjs';

/** A coloured status badge ("ported", "legacy", ...). */
export function statusBadge(status) {
  return h('span', { class: ['badge', `st-${status}`], title: STATUS_HELP[status] ?? '' },
    STATUS_LABEL[status] ?? String(status));
}

/** Object-state badge; null → a muted dash ("not an object-dtype path"). */
export function objectBadge(state) {
  if (!state) return h('span', { class: 'muted', title: 'not an object-dtype path' }, '—');
  return h('span', { class: ['badge', `ob-${state}`], title: OBJECT_HELP[state] ?? '' },
    `object: ${OBJECT_LABEL[state] ?? state}`);
}

/** Token-class badge (hpy, capi, npy-legacy, bridge). */
export function classBadge(cls) {
  return h('span', { class: ['badge', `tk-${cls}`], title: TOKEN_HELP[cls] ?? '' }, String(cls));
}

/**
 * A horizontal stacked bar of counts with widths proportional to them.
 * keys: the count names in order; cssPrefix: "st" or "ob"; labels: key → text.
 * The whole bar and each segment carry a title with the numbers.
 */
export function stackedBar(counts, keys, cssPrefix, labels, extraClass) {
  const sum = keys.reduce((s, k) => s + (counts?.[k] ?? 0), 0);
  const text = keys.map((k) => `${labels[k] ?? k} ${fmt(counts?.[k] ?? 0)}`).join(', ');
  const bar = h('div', {
    class: ['bar', extraClass, sum === 0 && 'bar-empty'],
    role: 'img',
    'aria-label': sum ? text : 'none',
    title: sum ? text : 'none',
  });
  if (sum) {
    for (const k of keys) {
      const n = counts?.[k] ?? 0;
      if (!n) continue;
      bar.append(h('span', {
        class: ['seg', `${cssPrefix}-${k}`],
        style: `width:${((100 * n) / sum).toFixed(3)}%`,
        title: `${labels[k] ?? k}: ${fmt(n)} of ${fmt(sum)}`,
      }));
    }
  }
  return bar;
}

export const statusBar = (counts, cls) => stackedBar(counts, STATUSES, 'st', STATUS_LABEL, cls);
export const objectBar = (counts, cls) => stackedBar(counts, OBJECT_STATES, 'ob', OBJECT_LABEL, cls);

/** The colour legend for statuses, object states (unless objects is false:
 * a port without object dtype) and (optionally) token classes. */
export function legend({ tokens = false, objects = true } = {}) {
  const item = (cls, label, help) => h('li', { title: help }, h('span', { class: ['sw', cls] }), label);
  return h('div', { class: 'legend', 'aria-label': 'Legend' },
    h('ul', null,
      h('li', { class: 'legend-head' }, 'Functions'),
      STATUSES.map((s) => item(`st-${s}`, STATUS_LABEL[s], STATUS_HELP[s]))),
    objects && h('ul', null,
      h('li', { class: 'legend-head' }, 'Object-dtype paths'),
      OBJECT_STATES.map((s) => item(`ob-${s}`, OBJECT_LABEL[s], OBJECT_HELP[s]))),
    tokens && h('ul', null,
      h('li', { class: 'legend-head' }, 'Findings'),
      TOKEN_CLASSES.map((c) => item(`tk-${c}`, c, TOKEN_HELP[c])),
      h('li', { title: 'inside #ifndef HPY_UNIVERSAL_ABI (or similar): does not block universal mode' },
        h('span', { class: ['sw', 'sw-guarded'] }), 'guarded')));
}

/**
 * Shows an error (an ApiError's problem document or any Error) in box,
 * which should be a role="alert" region.  Appends, so several can stack.
 */
export function showError(box, err, context) {
  const p = err?.problem ?? { title: err?.name || 'Error', detail: String(err?.message ?? err) };
  box.hidden = false;
  box.append(h('div', { class: 'problem' },
    h('strong', { class: 'problem-title' },
      context ? `${context}: ` : '', p.title || 'Error', p.status ? ` (HTTP ${p.status})` : ''),
    p.detail ? h('div', { class: 'problem-detail' }, p.detail) : null,
    p.type && p.type !== 'about:blank' ? h('div', { class: 'problem-type muted' }, p.type) : null));
}

/**
 * Builds a sortable <th>: a button inside, aria-sort on the th.
 * col: {key, label, title?, numeric?, className?}; sort: {key, order};
 * onSort(key) is called on click.
 */
export function sortHeader(col, sort, onSort) {
  const active = sort.key === col.key;
  const ariaSort = active ? (sort.order === 'asc' ? 'ascending' : 'descending') : 'none';
  return h('th', {
    scope: 'col',
    class: [col.numeric && 'num', col.className, active && 'sorted'],
    'aria-sort': ariaSort,
    dataset: { key: col.key },
  },
  h('button', { type: 'button', class: 'sort', title: col.title ?? `Sort by ${col.label}`, onclick: () => onSort(col.key) },
    col.label,
    h('span', { class: 'sort-ind', 'aria-hidden': 'true' }, active ? (sort.order === 'asc' ? '▲' : '▼') : '')));
}

/** Re-renders sortable headers into a <tr>. */
export function renderHeaders(tr, cols, sort, onSort) {
  replace(tr, cols.map((c) => (c.sortable === false
    ? h('th', { scope: 'col', class: [c.numeric && 'num', c.className] }, c.label)
    : sortHeader(c, sort, onSort))));
}

/**
 * Next sort state after a click on column key: the same column flips order,
 * a new column starts ascending for text and descending for numbers.
 */
export function nextSort(sort, key, numeric) {
  if (sort.key === key) return { key, order: sort.order === 'asc' ? 'desc' : 'asc' };
  return { key, order: numeric ? 'desc' : 'asc' };
}

/** Plain code-point string comparison (stable across browsers and the tests). */
export function cmpStr(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Reads the page's query string into an object of strings (missing → ''). */
export function readParams(names) {
  const q = new URLSearchParams(location.search);
  return Object.fromEntries(names.map((n) => [n, q.get(n) ?? '']));
}

/**
 * Writes state into the URL with history.replaceState; empty values and
 * values equal to defaults[name] are left out.  Keeps the hash.
 */
export function writeParams(state, defaults = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(state)) {
    if (v == null || v === '' || v === defaults[k]) continue;
    q.set(k, v);
  }
  const s = q.toString();
  history.replaceState(null, '', `${location.pathname}${s ? `?${s}` : ''}${location.hash}`);
}

/**
 * Under scope `scope` (nothing without one), the note a panel whose
 * answer takes no scope puts under its heading: that it counts the whole
 * repository (found in a browser walk: the multiarray overview showed the
 * whole repository's blockers and next functions beside the scope's
 * totals without a word).
 */
export function wholeRepoNote(scope) {
  return scope ? h('p', { class: 'muted small', dataset: { wholeRepo: '' } }, 'The whole repository: the scope ',
    h('code', null, scope), ' does not apply here.') : null;
}

/** Link to the overview page for repo/rev with extra params. */
export function overviewHref(repo, rev, extra = {}) {
  const q = new URLSearchParams({ repo, rev, ...extra });
  return `index.html?${q}`;
}

/** Link to the file page; line: optional line number for the #L anchor. */
export function fileHref(repo, rev, path, line) {
  return `file.html?${new URLSearchParams({ repo, rev, path })}${line ? `#L${line}` : ''}`;
}

/** Link to the commit page. */
export function commitHref(repo, rev) {
  return `commit.html?${new URLSearchParams({ repo, rev })}`;
}

/** Link to the compare page (base and head may be empty: the page then picks). */
export function compareHref(repo, base, head) {
  const q = new URLSearchParams({ repo });
  if (base) q.set('base', base);
  if (head) q.set('head', head);
  return `compare.html?${q}`;
}

/** Link to the snapshots page: of ref `rev`'s snapshots when given (the page says when it names none). */
export function snapshotsHref(repo, rev = '') {
  return `snapshots.html?${new URLSearchParams(rev ? { repo, rev } : { repo })}`;
}

/**
 * Fills the page's <nav id="nav"> with links between the pages, keeping the
 * repository (and rev where it makes sense).  current: 'overview',
 * 'compare', 'snapshots' or '' (commit and file pages).
 */
export function renderNav(nav, current, repo, rev) {
  if (!nav) return;
  const link = (key, label, href) => h('a', { href, id: `nav-${key}`, 'aria-current': current === key ? 'page' : null }, label);
  replace(nav,
    link('overview', 'Overview', repo ? overviewHref(repo, rev || '') : './'),
    link('compare', 'Compare', repo ? compareHref(repo, '', rev || '') : 'compare.html'),
    link('snapshots', 'Snapshots', repo ? snapshotsHref(repo, rev || '') : 'snapshots.html'),
    link('hpy-needs', 'HPy needs', 'hpy-needs.html'));
}

/**
 * A change of a measure: "▲ +3" / "▼ −2" / "±0", coloured by whether that
 * direction is progress (green), a regression (red) or neither (grey).
 */
export function deltaEl(key, d) {
  const sense = deltaSense(key, d);
  const text = d == null ? '–' : d > 0 ? `▲ +${fmt(d)}` : d < 0 ? `▼ −${fmt(-d)}` : '±0';
  const help = { good: 'progress', bad: 'regression', neutral: 'change', flat: 'no change' }[sense];
  return h('span', { class: ['delta', `delta-${sense}`], dataset: { delta: d ?? '' }, title: help }, text);
}

/**
 * Every summary figure: from (optional), to, and the change, as one small
 * table per group (object paths first) laid out side by side.  Rows carry
 * data-measure; cells .f-from, .f-to, .f-delta.  cols: {from, to} headings.
 */
export function figuresTable(toStats, delta, cols) {
  const fromStats = cols.from ? (key) => {
    const t = measureValue(toStats, key);
    const d = measureValue(delta, key);
    return t == null || d == null ? null : t - d;
  } : null;
  return h('div', { class: 'figures-grid' }, measureGroups().map((g) => h('table', { class: 'data figures' },
    h('caption', null, g.title),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Measure')),
      fromStats ? h('th', { scope: 'col', class: 'num' }, cols.from) : null,
      h('th', { scope: 'col', class: 'num' }, cols.to), h('th', { scope: 'col', class: 'num' }, 'Change'))),
    h('tbody', null, g.keys.map((key) => {
      const d = measureValue(delta, key);
      return h('tr', { dataset: { measure: key }, class: [d && `row-${deltaSense(key, d)}`] },
        h('th', { scope: 'row' }, MEASURE[key]?.short ?? key),
        fromStats ? h('td', { class: 'num f-from' }, fmt(fromStats(key))) : null,
        h('td', { class: 'num f-to' }, fmt(measureValue(toStats, key))),
        h('td', { class: 'num f-delta' }, deltaEl(key, d)));
    })))));
}

/**
 * The changes worth saying out loud, as chips: every measure that moved,
 * regressions first, then progress, then the rest.  Empty → "no change".
 */
export function headlineChips(delta) {
  const moved = Object.keys(MEASURE).map((key) => ({ key, d: measureValue(delta, key) })).filter((x) => x.d);
  const rank = { bad: 0, good: 1, neutral: 2 };
  moved.sort((a, b) => rank[deltaSense(a.key, a.d)] - rank[deltaSense(b.key, b.d)]);
  if (!moved.length) return h('p', { class: 'headline muted', id: 'headline' }, 'No change in any summary figure.');
  return h('ul', { class: 'headline', id: 'headline' }, moved.map(({ key, d }) => h('li', {
    class: ['chip', `chip-${deltaSense(key, d)}`], dataset: { measure: key },
  }, deltaEl(key, d), ' ', MEASURE[key]?.label ?? key)));
}

/** A rev as people read it: a commit id shortened, a ref name as it is. */
export function revLabel(rev) {
  return /^[0-9a-f]{40}$/.test(rev ?? '') ? rev.slice(0, 10) : (rev ?? '');
}

/**
 * Whether a rev as given (a URL's base, head or rev) is the id of commit
 * oid, full or abbreviated, in any case: then the rev and the commit it
 * resolves to are one thing, to be shown once.
 */
export function revIsCommit(rev, oid) {
  return typeof rev === 'string' && typeof oid === 'string' && /^[0-9a-f]{4,40}$/i.test(rev)
    && oid.toLowerCase().startsWith(rev.toLowerCase());
}

/** Link to the search page (mode 'file': the file finder). */
export function searchHref(repo, rev, q = '', mode = '') {
  const p = new URLSearchParams({ repo, rev });
  if (q) p.set('q', q);
  if (mode) p.set('mode', mode);
  return `search.html?${p}`;
}
