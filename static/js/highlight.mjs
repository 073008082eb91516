// highlight.mjs: C syntax colouring for the source view (file page).
//
// Prism (npm "prismjs", pinned in package.json, served from
// /vendor/prismjs/, loaded by vendor.mjs when the source is first drawn)
// tokenises the text with its C grammar.  Only Prism.tokenize is used: it
// returns a token tree of plain strings, never HTML, and the pieces go into
// the page as text nodes (dom.mjs's h(), or appendStyled here), so
// repository text cannot become markup here either.  Without Prism (the
// script did not load) the source is shown uncoloured.  The file page has
// the text tokenised by a worker (hlworker.mjs, highlighter): on
// arraytypes.c.src that was as long as building its 5,000 rows, on the
// page's main thread (issue 26.4).

import { h, normalise } from './dom.mjs';
import { loadPrism } from './vendor.mjs';

export { normalise };

/* Prism token types -> the few colour classes of app.css (.sx-*).  Types
 * not listed (punctuation, operators) stay uncoloured; a nested token that
 * is unlisted keeps its parent's colour (plain text inside a macro). */
const SX = {
  comment: 'c', string: 's', char: 's', keyword: 'k', directive: 'k', function: 'f', number: 'n',
  constant: 'n', 'class-name': 't', macro: 'm', 'directive-hash': 'm', 'macro-name': 'm',
};

/**
 * The text's lines as colour segments: an array with one entry per line
 * (split at "\n"), each an array of [piece, cls] where cls is a key of the
 * .sx-* classes or '' for uncoloured text; the pieces of a line join to the
 * line.  text: already normalised.  Returns null when Prism is not loaded.
 */
export function highlightLines(text) {
  const P = globalThis.Prism;
  if (!P?.tokenize || !P.languages?.c) return null;
  const lines = [[]];
  const emit = (s, cls) => {
    const parts = s.split('\n');
    parts.forEach((p, i) => {
      if (i) lines.push([]);
      if (!p) return;
      const line = lines[lines.length - 1];
      const last = line[line.length - 1];
      const c = /\S/.test(p) ? cls : (last?.[1] ?? cls);
      if (last && last[1] === c) last[0] += p;
      else line.push([p, c]);
    });
  };
  const walk = (tokens, cls) => {
    for (const t of tokens) {
      if (typeof t === 'string') { emit(t, cls); continue; }
      const c = SX[t.type] ?? SX[Array.isArray(t.alias) ? t.alias[0] : t.alias] ?? cls;
      if (typeof t.content === 'string') emit(t.content, c);
      else walk(Array.isArray(t.content) ? t.content : [t.content], c);
    }
  };
  walk(P.tokenize(text, P.languages.c), '');
  return lines;
}

/* The colour classes by index, for packed segments ('' uncoloured). */
const CLASSES = ['', ...new Set(Object.values(SX))];
const CLASS_INDEX = new Map(CLASSES.map((c, i) => [c, i]));

/**
 * highlightLines' answer packed in two typed arrays a worker can transfer:
 * runs holds (piece length, index in CLASSES) pairs, line after line;
 * line i's pairs are runs[2 * starts[i]] up to runs[2 * starts[i + 1]].
 */
export function packLines(lines) {
  const starts = new Int32Array(lines.length + 1);
  let n = 0;
  for (let i = 0; i < lines.length; i++) { starts[i] = n; n += lines[i].length; }
  starts[lines.length] = n;
  const runs = new Int32Array(2 * n);
  let k = 0;
  for (const line of lines) {
    for (const [piece, cls] of line) { runs[k++] = piece.length; runs[k++] = CLASS_INDEX.get(cls) ?? 0; }
  }
  return { runs, starts };
}

/** Line i's segments (as highlightLines gives them) from packLines' arrays and the line's text. */
export function unpackLine({ runs, starts }, i, line) {
  const out = [];
  let pos = 0;
  for (let k = 2 * starts[i]; k < 2 * starts[i + 1]; k += 2) {
    out.push([line.slice(pos, pos + runs[k]), CLASSES[runs[k + 1]] ?? '']);
    pos += runs[k];
  }
  return out;
}

/* Colours worked out here, Prism loaded by vendor.mjs: where no worker runs. */
async function onMainThread(text) {
  const lines = (await loadPrism()) ? highlightLines(text) : null;
  return lines && ((i) => lines[i]);
}

/**
 * A worker that works out the colours of one text off the page's main
 * thread (hlworker.mjs), started now so that it has loaded Prism by the
 * time the text is in.  Returns colour(text): text normalised; resolves to
 * a function (i, line) giving line i's segments as highlightLines does, or
 * null when Prism cannot be had.  Where no worker starts (or it fails),
 * Prism runs on the main thread instead.  One text per worker, and a
 * worker only for a text in hand: one stopped while its script loads
 * leaves that request pending for the page's life (the file page of a
 * blob the clone lacks did).
 */
export function highlighter() {
  let worker = null;
  let pending = null;
  try {
    worker = new Worker(new URL('./hlworker.mjs', import.meta.url), { type: 'module' });
  } catch {
    return onMainThread;
  }
  let failed = false;
  worker.onmessage = (e) => {
    worker.terminate();
    const packed = e.data;
    pending?.resolve(packed?.runs ? (i, line) => unpackLine(packed, i, line) : null);
  };
  worker.onerror = (e) => {
    e.preventDefault();
    worker.terminate();
    failed = true;
    pending?.resolve(onMainThread(pending.text));
  };
  return (text) => new Promise((resolve) => {
    if (failed) { resolve(onMainThread(text)); return; }
    pending = { resolve, text };
    worker.postMessage(text);
  });
}

/** highlighter()(text): the colours of text, worked out by a worker of its own. */
export const highlightAsync = (text) => highlighter()(text);

/**
 * Nodes for text[from, to) coloured by segs (one line's segments from
 * highlightLines, or null for plain text).  Strings become text nodes.
 */
export function styled(text, segs, from = 0, to = text.length) {
  if (!segs) return from < to ? [text.slice(from, to)] : [];
  const out = [];
  let pos = 0;
  for (const [s, cls] of segs) {
    const a = pos;
    const b = pos + s.length;
    pos = b;
    if (b <= from) continue;
    if (a >= to) break;
    const piece = a >= from && b <= to ? s : text.slice(Math.max(a, from), Math.min(b, to));
    out.push(cls ? h('span', { class: `sx-${cls}` }, piece) : piece);
  }
  return out;
}

/* One span per colour class, cloned for each piece: cheaper than creating
 * and classing a new element (arraytypes.c.src: 40,000 pieces). */
const SPANS = new Map();

/**
 * Appends the whole line `text` coloured by segs (its segments from
 * highlightLines, or null for plain) to el: uncoloured pieces as text nodes,
 * coloured ones in spans, the same nodes styled() gives.  The fast path of
 * the source view: text must have no bidirectional control (dom.mjs
 * hasBidi), which needs the marks of dom.mjs's textNodes().
 */
export function appendStyled(el, text, segs) {
  if (!segs) {
    if (text) el.append(text);
    return el;
  }
  const parts = [];
  for (const [s, cls] of segs) {
    if (!cls) { parts.push(s); continue; }
    let proto = SPANS.get(cls);
    if (!proto) {
      proto = document.createElement('span');
      proto.className = `sx-${cls}`;
      SPANS.set(cls, proto);
    }
    const span = proto.cloneNode(false);
    span.textContent = s;
    parts.push(span);
  }
  el.append(...parts);
  return el;
}
