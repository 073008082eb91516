// tmplgroup.mjs: numpy template instances (.c.src / .h.src), and the uses
// of a macro of the file that makes functions, as one row per definition.
// The analyzer expands a template loop into one function per instance
// (BOOL_getitem, BYTE_getitem, ...), and a macro's uses into one function
// each (to_int8, to_int16, ...), each with the lines of its definition;
// instances of one definition share start and end line.
// A definition with more than one instance is shown as one row, its counts
// summed over the instances, expandable to them.

/** The name pattern of a group: the common prefix and suffix around '@…@'. */
export function groupName(names) {
  if (names.length < 2) return names[0] ?? '';
  let pre = names[0];
  let suf = names[0];
  for (const n of names) {
    while (!n.startsWith(pre)) pre = pre.slice(0, -1);
    while (!n.endsWith(suf)) suf = suf.slice(1);
  }
  if (pre.length + suf.length > Math.min(...names.map((n) => n.length))) suf = '';
  return `${pre}@…@${suf}`;
}

/* A name with @…@ placeholders as written in a template line, followed by
 * its parameter list's '(' or, inside a naming macro, the macro's ')' (so a
 * return or parameter type such as `@type@` is not it). */
const TEMPLATE_WORD = /([A-Za-z0-9_]*(?:@[A-Za-z0-9_]+@[A-Za-z0-9_]*)+)\s*[()]/g;

/* A name pasted by a macro of the file (`to_##intw`, `make_ ## kind`),
 * followed by its parameter list's '(' (mexp.h: the functions a macro
 * makes). */
const MACRO_WORD = /([A-Za-z_][A-Za-z0-9_]*(?:\s*##\s*[A-Za-z0-9_]+)+)\s*\(/g;

/**
 * The name of a template definition as its source writes it, placeholders
 * and all (`@FROMTYPE@_to_@TOTYPE@`), or null when the definition's lines
 * hold none.  lines: the file's source lines (0-based array); from, to: the
 * definition's first and last line (1-based); names: its instances' names.
 * The first such word before the definition's first '{' whose pattern
 * (each placeholder standing for any identifier part) matches every
 * instance name is the one.
 */
export function templateName(lines, from, to, names) {
  if (!lines || !names.length) return null;
  const last = Math.min(to, from + 40, lines.length);
  for (let n = from; n <= last; n++) {
    const line = lines[n - 1] ?? '';
    const brace = line.indexOf('{');
    const head = brace < 0 ? line : line.slice(0, brace);
    for (const [, word] of head.matchAll(TEMPLATE_WORD)) {
      const re = new RegExp(`^${word.split(/@[A-Za-z0-9_]+@/).join('[A-Za-z0-9_]*')}$`);
      if (names.every((x) => re.test(x))) return word;
    }
    // A macro's pieces are its text or a parameter, which the page cannot
    // tell apart: each piece stands for itself or for any identifier part.
    for (const [, word] of head.matchAll(MACRO_WORD)) {
      const pieces = word.split(/\s*##\s*/);
      const re = new RegExp(`^${pieces.map((x) => `(?:${x}|[A-Za-z0-9_]*)`).join('')}$`);
      if (names.every((x) => re.test(x))) return pieces.join('##');
    }
    if (brace >= 0) break;
  }
  return null;
}

/**
 * The macro whose uses make a definition's functions: the name of the
 * `#define NAME(` whose continued lines (each ending in '\\') reach line
 * `from` (1-based), or null.  lines: the file's source lines.
 */
export function macroOf(lines, from) {
  if (!lines) return null;
  for (let n = from; n >= 1 && n > from - 200; n--) {
    const line = lines[n - 1] ?? '';
    const m = /^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*)\(/.exec(line);
    if (m) return m[1];
    if (n < from && !/\\\s*$/.test(line)) return null;    // not a continued line
  }
  return null;
}

/** What a definition's row says it is: "template, 4 instances" or, in a
 * file that is no template, "macro NAME, 4 uses" (its macro when known). */
export function groupKind(isTemplate, n, macro, fmt) {
  return isTemplate ? ` · template, ${fmt(n)} instances`
    : ` · macro${macro ? ` ${macro}` : ''}, ${fmt(n)} uses`;
}

/**
 * Groups functions by definition (start_line and end_line): returns a Map
 * key → instances, where key is `${start}-${end}`, only for definitions
 * with two or more instances.
 */
export function templateGroups(fns) {
  const by = new Map();
  for (const f of fns) {
    const k = `${f.start_line}-${f.end_line}`;
    if (!by.has(k)) by.set(k, []);
    by.get(k).push(f);
  }
  for (const [k, v] of by) if (v.length < 2) by.delete(k);
  return by;
}

/** Sums of the instances: tokens per class, statuses and object states counted. */
export function groupSums(instances, classes, findingsOf) {
  const tokens = Object.fromEntries(classes.map((c) => [c, 0]));
  const statuses = {};
  const objects = {};
  let findings = 0;
  for (const f of instances) {
    for (const c of classes) tokens[c] += f.tokens?.[c] ?? 0;
    statuses[f.status] = (statuses[f.status] ?? 0) + 1;
    if (f.object_state) objects[f.object_state] = (objects[f.object_state] ?? 0) + 1;
    findings += findingsOf(f);
  }
  return { tokens, statuses, objects, findings };
}

/**
 * The why of a definition's row from its instances' why sites (the API's
 * why.status or why.object: {rule, text, line}; null where an instance has
 * none): when every site has the same rule and line, one text in the file
 * page's words, the tokens counted where the instances differ
 * ("capi-names-cpython `PyLong_FromLong` ×6, `PyLong_FromUnsignedLong` ×2
 * at line 203") and "(k of n instances)" when not every instance has one.
 * Null when none has one.  Where their rules or lines differ, the
 * reasons by instance, most frequent first, at most three ("differs by
 * instance: capi-names-cpython at line 1841 ×8; npy-legacy-prefix-PyArray
 * at line 1837 ×4"): a badge without a reason read as a verdict without
 * one (a trial, on arraytypes.c.src).  → {site, text}, site the first of
 * the most frequent (its line is linked).
 */
export function groupWhy(sites) {
  const have = sites.filter(Boolean);
  if (!have.length) return null;
  const { rule, line } = have[0];
  if (have.some((w) => w.rule !== rule || w.line !== line)) return whyByInstance(have);
  const counts = new Map();
  for (const w of have) counts.set(w.text, (counts.get(w.text) ?? 0) + 1);
  const tokens = [...counts].map(([t, n]) => (counts.size > 1 ? `\`${t}\` ×${n}` : `\`${t}\``));
  const part = have.length < sites.length ? ` (${have.length} of ${sites.length} instances)` : '';
  return { site: have[0], text: `${rule} ${tokens.join(', ')} at line ${line}${part}` };
}

/** groupWhy's text where the instances' rules or lines differ. */
function whyByInstance(have) {
  const groups = new Map();
  for (const w of have) {
    const k = `${w.rule} at line ${w.line}`;
    if (!groups.has(k)) groups.set(k, { site: w, n: 0 });
    groups.get(k).n++;
  }
  const top = [...groups].sort((a, b) => b[1].n - a[1].n);
  const shown = top.slice(0, 3).map(([k, g]) => `${k} ×${g.n}`).join('; ');
  return { site: top[0][1].site, text: `differs by instance: ${shown}${top.length > 3 ? `; ${top.length - 3} more` : ''}` };
}
