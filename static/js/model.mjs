// model.mjs: the vocabulary of the porting domain, shared by every page, so
// that a status or object state has one label and one colour everywhere.
// Colours themselves live in app.css under the class names built here.

import { measures as measuresApi } from './api.mjs';

/** Function/file statuses, in the order bars and legends show them. */
export const STATUSES = ['ported', 'bridged', 'legacy', 'neutral'];

export const STATUS_LABEL = {
  ported: 'ported',
  bridged: 'bridged',
  legacy: 'legacy',
  neutral: 'neutral',
};

export const STATUS_HELP = {
  ported: 'HPy only: no CPython API, no bridges',
  bridged: 'HPy, but still crossing to CPython through bridges',
  legacy: 'CPython C API or numpy\'s legacy API, no HPy',
  neutral: 'uses neither API',
};

/**
 * The status the files answer gives a file without an analysis.  An ingest
 * leaves one only where the clone lacks the file's blob (doc/guide.md,
 * partial clones): nothing of it can be read, so it is listed but counted
 * in no figure, as the summary's `files` leaves it out.
 */
export const UNANALYSED = 'unanalysed';
export const isAnalysed = (f) => f.status !== UNANALYSED;
STATUS_LABEL[UNANALYSED] = 'blob missing';
STATUS_HELP[UNANALYSED] = 'not analysed: its blob is missing from the clone, so it counts in no figure';

/**
 * Sort rank of a status: porting work remaining first (legacy < bridged <
 * ported < neutral).  Unknown statuses sort last.
 */
export const STATUS_RANK = { legacy: 0, bridged: 1, ported: 2, neutral: 3 };

/** Object-dtype path states, worst first. */
export const OBJECT_STATES = ['object-legacy', 'object-cpython-only', 'object-universal'];

export const OBJECT_LABEL = {
  'object-legacy': 'legacy API',
  'object-cpython-only': 'CPython-only',
  'object-universal': 'universal',
};

export const OBJECT_HELP = {
  'object-legacy': 'object items still read/written as PyObject * (blocks the HPyField item representation)',
  'object-cpython-only': 'object items as HPyField, but only valid on CPython (owner HPy_NULL, bridges)',
  'object-universal': 'object items as HPyField with real owners: works in universal mode',
};

/** Token classes, in display order. */
export const TOKEN_CLASSES = ['hpy', 'capi', 'npy-legacy', 'bridge'];

export const TOKEN_HELP = {
  hpy: 'HPy API',
  capi: 'CPython C API (blocks universal mode)',
  'npy-legacy': "the project's own PyObject*-based API",
  bridge: 'crossings between HPy and CPython',
};

/**
 * Severity of a finding for source highlighting: open findings outrank
 * dismissed ones (the triage said they need no work), unguarded ones
 * guarded ones (a guarded finding sits in an #ifndef HPY_UNIVERSAL_ABI block
 * and does not block universal mode); among them capi > npy-legacy > bridge >
 * hpy.
 */
export const CLASS_SEVERITY = { hpy: 1, bridge: 2, 'npy-legacy': 3, capi: 4 };

export function findingSeverity(f) {
  return (f.dismissed ? 0 : 100) + (f.guarded ? 0 : 10) + (CLASS_SEVERITY[f.class] ?? 0);
}

/** The finding that decides a line's highlight colour (max severity; first wins ties). */
export function worstFinding(findings) {
  let worst = null;
  for (const f of findings) {
    if (!worst || findingSeverity(f) > findingSeverity(worst)) worst = f;
  }
  return worst;
}

/** Sum of the values of an object of counts (missing → 0). */
export function total(counts, keys) {
  return keys.reduce((s, k) => s + (counts?.[k] ?? 0), 0);
}

/** Groups of measures for tables of figures, worst-news group first.  A
 * group takes its keys, then any other measure of the server under its
 * prefix (see measureGroups). */
export const MEASURE_GROUPS = [
  { title: 'Object-dtype paths', prefix: 'object_paths.', keys: OBJECT_STATES.map((s) => `object_paths.${s}`) },
  { title: 'Functions', prefix: 'functions.', keys: STATUSES.map((s) => `functions.${s}`) },
  { title: 'Files', keys: ['universal_ready_files', 'files'] },
  { title: 'Tokens', prefix: 'tokens.', keys: TOKEN_CLASSES.map((c) => `tokens.${c}`) },
];

/**
 * The summary figures, as key paths of the summary/stats object (the same
 * names the history API takes as ?measure=), with label, short label and
 * good: which direction is progress ('up', 'down' or null when neither is
 * clearly better: bridged functions and CPython-only object paths are
 * half-way states).  They come from GET /api/v1/measures, the server's one
 * table of measures (common/pd_measures.def), in MEASURE_GROUPS order and
 * then any measure no group names; empty when the server cannot say.
 */
async function loadMeasures() {
  try {
    const list = await measuresApi();
    const byKey = new Map(list.map((m) => [m.key, m]));
    const grouped = MEASURE_GROUPS.flatMap((g) => g.keys).filter((k) => byKey.has(k));
    const rest = list.map((m) => m.key).filter((k) => !grouped.includes(k));
    return [...grouped, ...rest].map((k) => byKey.get(k));
  } catch {
    return [];
  }
}
export const MEASURES = await loadMeasures();
export const MEASURE = Object.fromEntries(MEASURES.map((m) => [m.key, m]));

/**
 * MEASURE_GROUPS with every measure of the server placed: a measure no
 * group names joins the group of its key's prefix ("functions.x" the
 * functions), else a group "Other", so a measure added to the server's
 * table shows in every table of figures without a change here.
 */
export function measureGroups() {
  const named = new Set(MEASURE_GROUPS.flatMap((g) => g.keys));
  const extra = MEASURES.map((m) => m.key).filter((k) => !named.has(k));
  const home = (k) => MEASURE_GROUPS.find((g) => g.prefix && k.startsWith(g.prefix));
  const groups = MEASURE_GROUPS.map((g) => ({ title: g.title, keys: [...g.keys, ...extra.filter((k) => home(k) === g)] }));
  const other = extra.filter((k) => !home(k));
  return other.length ? [...groups, { title: 'Other', keys: other }] : groups;
}

/** Value at a dotted key path ("functions.ported") of a stats object; missing → null. */
export function measureValue(stats, key) {
  let v = stats;
  for (const k of String(key).split('.')) v = v == null ? undefined : v[k];
  return typeof v === 'number' ? v : null;
}

/** 'good', 'bad' or 'flat' for a change d of measure key. */
export function deltaSense(key, d) {
  if (!d) return 'flat';
  const good = MEASURE[key]?.good;
  if (!good) return 'neutral';
  return (d > 0) === (good === 'up') ? 'good' : 'bad';
}

/** Function change tags of the commit/compare APIs. */
export const CHANGE_LABEL = {
  added: 'added',
  removed: 'removed',
  progressed: 'progressed',
  regressed: 'regressed',
  converted: 'object path converted',
  'object-regressed': 'object path regressed',
  introduced: 'object path introduced',
  'object-dropped': 'no longer an object path',
  'call-graph': 'through a callee',
};
export const CHANGE_HELP = {
  added: 'function is new',
  removed: 'function is gone',
  progressed: 'status moved towards HPy (legacy → bridged → ported)',
  regressed: 'status moved back towards the CPython C API',
  converted: 'object-dtype item access moved towards HPyField (legacy → CPython-only → universal)',
  'object-regressed': 'object-dtype item access moved back towards PyObject *',
  introduced: 'function became an object-dtype path',
  'object-dropped': 'function is no longer an object-dtype path (or is removed, and was one)',
  'call-graph': 'the file did not change: a function it calls, in another file, moved its object state',
};
export const BAD_CHANGES = ['regressed', 'object-regressed'];
