// dom.mjs: the one way the dashboard builds DOM.
//
// Everything that comes from a repository (paths, commit messages, function
// names, source lines) is attacker-controlled.  h() only ever creates elements
// with document.createElement and inserts strings as text nodes, so such text
// can never become markup.  There is no innerHTML anywhere in static/.

/**
 * Creates an element.  attrs: "class" (string or array, falsy parts dropped),
 * "dataset" (object), "on<event>" (function listener), "text" (text content),
 * anything else set with setAttribute (null/undefined/false skipped, true → "").
 * children: nodes, strings (inserted as text) or nested arrays; null skipped.
 */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v == null || v === false) continue;
    if (k === 'class') {
      el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : v;
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2), v);
    } else if (k === 'text') {
      el.replaceChildren(...textNodes(String(v)));
    } else if (k === 'title' || k === 'aria-label') {
      el.setAttribute(k, visible(String(v)));
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

// Bidirectional controls (U+202A-U+202E, U+2066-U+2069) reorder the text
// around them, so a path or source line can read other than it is ("Trojan
// Source", CVE-2021-42574).  They are shown as visible marks instead, as
// GitHub does.
const BIDI = /[\u202A-\u202E\u2066-\u2069]/;

/** Whether s has a bidirectional control (then it needs textNodes(), not one text node). */
export const hasBidi = (s) => BIDI.test(s);

/** The text with every line break as "\n" (the source view splits lines the same way). */
export const normalise = (text) => text.replace(/\r\n?/g, '\n');

/** A string as text nodes, each bidirectional control as a visible mark. */
export function textNodes(s) {
  if (!BIDI.test(s)) return [s];
  const out = [];
  let last = 0;
  for (const m of s.matchAll(new RegExp(BIDI.source, 'g'))) {
    const code = `U+${m[0].codePointAt(0).toString(16).toUpperCase()}`;
    const mark = document.createElement('span');
    mark.className = 'bidi';
    mark.title = `bidirectional control character ${code}`;
    mark.textContent = `<${code}>`;
    out.push(s.slice(last, m.index), mark);
    last = m.index + 1;
  }
  out.push(s.slice(last));
  return out;
}

// What a tooltip or the page title shows as <U+XXXX>, as the server's
// pd_escape.h does in the report, the PR comment and CSV: controls (line
// breaks but LF, which a tooltip shows as a break), the bidirectional and
// zero-width format characters, U+2028/U+2029, U+FEFF (issue 27: U+202E
// stayed live in titles and tooltips, where no mark can be drawn).
const HIDDEN = /[\u0000-\u0009\u000B-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** s with every HIDDEN character shown as <U+XXXX>; lf false: LF too. */
export function visible(s, lf = true) {
  const code = (c) => `<U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}>`;
  const out = String(s ?? '').replace(HIDDEN, code);
  return lf ? out : out.replace(/\n/g, code);
}

/** Sets the page title: repository text in it with controls visible. */
export function setTitle(s) {
  document.title = visible(s, false);
}

/* One child or nested array of them into el.  Walked in place, not
 * flattened into a new array first: the file page of arraytypes.c.src
 * builds 50,000 nodes, and this was a third of its time (issue 26.4). */
function addChild(el, c) {
  if (c == null || c === false) return;
  if (Array.isArray(c)) {
    for (const x of c) addChild(el, x);
  } else if (c instanceof Node) {
    el.appendChild(c);
  } else {
    const s = String(c);
    if (BIDI.test(s)) el.append(...textNodes(s));
    else el.appendChild(document.createTextNode(s));
  }
}

/** Appends children (nodes, strings as text, nested arrays; null skipped). */
export function append(el, children) {
  addChild(el, children);
  return el;
}

/** The nodes render(item) gives for each item, `sep` between them (a list
 * in running text: "a, b, c"), as children for h() or append(). */
export function joined(items, render, sep = ', ') {
  return items.map((x, i) => [i ? sep : null, render(x)]);
}

/** Replaces all children of el. */
export function replace(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Resolves once the browser has painted what is in the page. */
export const paint = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res)));

/** Resolves once the browser has run other tasks (input, answers that came
 * in), without waiting for a frame: a frame per slice of a long job cost a
 * layout and paint of the page each time. */
export const yieldTask = () => (globalThis.scheduler?.yield ? globalThis.scheduler.yield()
  : new Promise((res) => setTimeout(res)));

// Intl.NumberFormat is made only for what the plain path below does not
// cover: its first construction loads ICU's locale data, 45-150 ms of the
// main thread in a fresh renderer at load 8 (20-40 ms quiet), ahead of
// the first screen of every page (issue 26.4).
let numberFormat = null;

/** Formats an integer with thousands separators ("12,345"), as Intl's en-US does; null → "–". */
export function fmt(n) {
  if (n == null) return '–';
  if (typeof n === 'number' && Number.isSafeInteger(n) && !Object.is(n, -0)) {
    const s = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
    return n < 0 ? `-${s}` : s;
  }
  numberFormat ??= new Intl.NumberFormat('en-US');
  return numberFormat.format(n);
}

/** Percentage of part in whole, rounded, as "42%" ("–" if whole is 0). */
export function pct(part, whole) {
  if (!whole) return '–';
  const r = Math.round((100 * part) / whole);
  if (r === 0 && part > 0) return '<1%';
  if (r === 100 && part < whole) return '>99%';
  return `${r}%`;
}

/**
 * A file path as nodes: the directory part muted, the base name plain, with
 * <wbr> break opportunities after each "/" so long paths wrap at separators.
 */
export function pathNodes(path) {
  const slash = path.lastIndexOf('/');
  const dir = path.slice(0, slash + 1);
  const parts = [];
  for (const piece of dir.split('/').slice(0, -1)) parts.push(`${piece}/`, h('wbr'));
  return [h('span', { class: 'path-dir' }, parts), h('span', { class: 'path-base' }, path.slice(slash + 1))];
}

/**
 * A C name as nodes with <wbr> after each "_", so a long function name
 * wraps between its words, never inside one.
 */
export function nameNodes(name) {
  const parts = String(name).split(/(?<=_)/);
  return parts.flatMap((p, i) => (i ? [h('wbr'), p] : [p]));
}

/** Short form of a commit id. */
export function shortCommit(id) {
  return typeof id === 'string' ? id.slice(0, 10) : '';
}

/** <time> element for an ISO-8601 date with offset, shown as "YYYY-MM-DD HH:MM ±hh:mm". */
export function timeEl(iso) {
  if (!iso) return h('span', { class: 'muted' }, 'unknown date');
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.exec(iso);
  const shown = m ? `${m[1]} ${m[2]}${m[3] ? ` ${m[3] === 'Z' ? 'UTC' : m[3]}` : ''}` : iso;
  return h('time', { datetime: iso, title: iso }, shown);
}
