// model.mjs: the vocabulary of the porting domain, shared by every page, so
// that a status or object state has one label and one colour everywhere.
// Colours themselves live in app.css under the class names built here.

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
  legacy: 'CPython C API, no HPy',
  neutral: 'uses neither API',
};

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
 * Severity of a finding for source highlighting: unguarded findings outrank
 * guarded ones (a guarded finding sits in an #ifndef HPY_UNIVERSAL_ABI block
 * and does not block universal mode); among them capi > npy-legacy > bridge >
 * hpy.
 */
export const CLASS_SEVERITY = { hpy: 1, bridge: 2, 'npy-legacy': 3, capi: 4 };

export function findingSeverity(f) {
  return (f.guarded ? 0 : 10) + (CLASS_SEVERITY[f.class] ?? 0);
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
