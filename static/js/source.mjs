// source.mjs: the file page's source view (file.mjs): every line with its
// number, the lines with findings marked by their worst finding and the
// findings' messages under them, the C colours once the worker has them
// (highlight.mjs), and the line anchors (#L12, #L12-L40, #fn=NAME).
//
// A dismissed finding stays in the view, muted: its message struck through
// with the dismissal's reason, its token underlined in grey.  A line whose
// findings are all dismissed is not coloured (tr.hl-dismissed, a hollow
// grey dot): the triage said it needs no work.  After a dismissal or its
// undo remarkSource() marks again the lines whose findings changed.

import { h, append, replace, fmt, hasBidi, visible, textNodes, normalise, yieldTask } from './dom.mjs';
import { worstFinding, findingSeverity } from './model.mjs';

// highlight.mjs (and Prism's loader, vendor.mjs) once colour() is called:
// it sets these two before the source is coloured.
let styled = null;
let appendStyled = null;
/* What the second pass of renderSource left, for remarkSource: the rows,
 * the lines' texts, the colours (null: plain) and the findings by line. */
let view = null;
/* The findings a dismissal changed before that pass was done: it marks
 * them once it is. */
let pending = null;

const $ = (id) => document.getElementById(id);

/**
 * One source line as nodes: its text coloured by segs (highlight.mjs, null
 * for plain) with <mark>s for its findings.  A finding is marked where its
 * text really is: at its (1-based) column if the text is there, else at the
 * first occurrence in the line; otherwise unmarked.  Of findings on the same
 * token the most severe paints it (an open one before a dismissed one).
 */
function lineContent(text, findings, segs) {
  if (!findings?.length) return styled(text, segs);
  const spans = [];
  // Several findings on one token (HPyField_Load is hpy by name and a bridge
  // with an HPy_NULL owner): the most severe one paints it, never green.
  for (const f of [...findings].sort((a, b) => a.column - b.column
                                     || findingSeverity(b) - findingSeverity(a))) {
    if (!f.text) continue;
    let at = (f.column ?? 0) - 1;
    if (at < 0 || !text.startsWith(f.text, at)) at = text.indexOf(f.text);
    if (at < 0) continue;
    const end = at + f.text.length;
    if (spans.some((s) => at < s.end && end > s.at)) continue;
    spans.push({ at, end, f });
  }
  spans.sort((a, b) => a.at - b.at);
  const out = [];
  let pos = 0;
  for (const s of spans) {
    out.push(styled(text, segs, pos, s.at));
    out.push(h('mark', { class: ['tk', `tk-${s.f.class}`, s.f.guarded && 'guarded', s.f.dismissed && 'dismissed'],
      title: `${s.f.class}${s.f.guarded ? ' (guarded)' : ''}: ${s.f.rule ?? ''}${dismissedNote(s.f)}` },
    styled(text, segs, s.at, s.end)));
    pos = s.end;
  }
  out.push(styled(text, segs, pos));
  return out;
}

/* " (dismissed: REASON)" for a dismissed finding, else "". */
function dismissedNote(f) {
  return f.dismissed ? ` (dismissed: ${f.dismissed.reason ?? ''})` : '';
}

/* The marker's title: every finding of the line, one a line. */
function findingTitle(list) {
  return list.map((f) => `${f.line}${f.column != null ? `:${f.column}` : ''} ${f.class}${f.guarded ? ' (guarded)' : ''} ${f.text ?? ''} — ${f.rule ?? ''}${dismissedNote(f)}`).join('\n');
}

/* A source row without its content: cloned for each line, cheaper than
 * building the four elements one by one (issue 26.4). */
let ROW = null;

/**
 * One source line's row: number and the line's text uncoloured
 * (bidirectional controls as marks).  Returns the row; markRow gives it
 * its findings, its last cell (td.lc) takes the coloured text
 * (sourceText).
 */
function sourceRow(n, line) {
  // Text nodes in the prototype, their data set: cheaper than a new node each.
  ROW ??= h('tr', null, h('td', { class: 'ln' }, h('a', null, '')), h('td', { class: 'mk' }), h('td', { class: 'lc' }, ''));
  const tr = ROW.cloneNode(true);
  const num = String(n);
  tr.id = `L${num}`;
  const a = tr.firstChild.firstChild;
  a.setAttribute('href', `#L${num}`);
  a.setAttribute('data-line', num);
  a.firstChild.data = num;
  const lc = tr.lastChild;
  if (!hasBidi(line)) lc.firstChild.data = line;
  else lc.replaceChildren(...textNodes(line));
  return tr;
}

/**
 * The colour and marker of source row tr, whose line has the findings fs:
 * its worst finding's class (data-worst), or none when every finding is
 * dismissed (tr.hl-dismissed, data-dismissed: how many are).
 */
function markRow(tr, fs) {
  const worst = worstFinding(fs);
  const nd = fs.filter((f) => f.dismissed).length;
  tr.className = worst.dismissed ? 'hl hl-dismissed'
    : worst.guarded ? `hl hl-${worst.class} hl-guarded` : `hl hl-${worst.class}`;
  tr.dataset.worst = worst.class;
  tr.dataset.guarded = String(!!worst.guarded);
  if (nd) tr.dataset.dismissed = String(nd);
  const mk = tr.children[1];
  mk.setAttribute('title', visible(findingTitle(fs)));
  mk.append(h('span', { class: 'dot', role: 'img',
    'aria-label': `${fs.length} finding(s)${nd ? `, ${nd} dismissed` : ''}` }));
}

/* Row tr as sourceRow made it, before markRow and sourceText. */
function unmarkRow(tr, line) {
  tr.className = tr.classList.contains('selected') ? 'selected' : '';
  delete tr.dataset.worst;
  delete tr.dataset.guarded;
  delete tr.dataset.dismissed;
  const mk = tr.children[1];
  mk.removeAttribute('title');
  mk.textContent = '';
  tr.lastChild.replaceChildren(...(hasBidi(line) ? textNodes(line) : [line]));
}

/**
 * The line's text in its cell lc again, coloured by segs, its findings (fs)
 * marked and their messages under it.  Nothing to do for a line with
 * neither: sourceRow wrote it so.
 */
function sourceText(lc, line, segs, fs) {
  if (!segs && !fs) return;
  lc.textContent = '';
  if (fs) {
    append(lc, lineContent(line, fs, segs));
    // The finding messages under the line, not only in a tooltip.
    lc.append(h('span', { class: 'fmsg' }, sameFindings(fs).map(([f, n]) => findingMessage(f, n))));
  } else if (hasBidi(line)) append(lc, styled(line, segs));
  else appendStyled(lc, line, segs);
}

/* The findings of a line as [finding, how many say the same]: a line of a
 * numpy template has one finding per instance (14 on `@TYPE@_getitem`'s),
 * and the same message 14 times under it hid the line's other ones. */
function sameFindings(fs) {
  const seen = new Map();
  for (const f of fs) {
    const key = `${f.class}\0${!!f.guarded}\0${f.text ?? ''}\0${f.rule ?? ''}\0${f.dismissed?.reason ?? ''}`;
    const e = seen.get(key);
    if (e) e[1]++;
    else seen.set(key, [f, 1]);
  }
  return [...seen.values()];
}

/* Cloned for each finding's message: the SARIF upload puts 5,000 of them
 * on arraytypes.c.src. */
let FMSG = null;

/**
 * Finding f's message under its line: "CLASS: TEXT — RULE", " ×n" when n
 * findings of the line say it; a dismissed one struck through, with its
 * reason.  Also the function diffs' (fndiff.mjs).
 */
export function findingMessage(f, n = 1) {
  const kind = `${f.class}${f.guarded ? ' (guarded)' : ''}: `;
  const text = f.text ?? '';
  const rule = ` — ${f.rule ?? ''}${n > 1 ? ` ×${n}` : ''}`;
  const cls = `fmsg-one fmsg-${f.class}${f.guarded ? ' guarded' : ''}`;
  if (f.dismissed) {
    // Rare: built, not cloned; the reason is not struck through.
    return h('span', { class: `${cls} dismissed` }, h('s', null, kind, h('code', null, text), rule),
      h('span', { class: 'fmsg-why' }, ` dismissed: ${f.dismissed.reason ?? ''}`));
  }
  if (hasBidi(kind + text + rule)) return h('span', { class: cls }, kind, h('code', null, text), rule);
  FMSG ??= h('span', null, '', h('code', null, ''), '');
  const one = FMSG.cloneNode(true);
  one.className = cls;
  one.firstChild.data = kind;
  one.childNodes[1].firstChild.data = text;
  one.lastChild.data = rule;
  return one;
}

/* The source table, built apart from the page and put in once: arraytypes.c.src
 * (5,000 lines, 90,000 nodes) was appended in chunks, a frame each, and
 * every chunk restyled and laid out what was already there.  In two passes
 * (issue 26.4): every line's number and plain text first, without waiting
 * for the findings list (1.5 MB there), so that the whole text is in the
 * page (find-in-page reaches it) with a few nodes a line; then, once the
 * findings and the worker's colours are in, each line coloured, the rows
 * with findings marked, the findings in the text marked and their
 * messages under it (table[data-coloured] when done).  In slices with a
 * yield between them, so the page keeps answering.  colours: a promise of
 * highlighter()'s answer for the same text (the whole text: a comment or
 * macro can span lines); findings: a promise of the file's findings;
 * afterText: called once every line's text is in; file: {path, size} for
 * the caption and the line count.  Resolves when all lines are coloured. */
export async function renderSource(raw, colours, findings, afterText, file) {
  const text = normalise(raw);
  const lines = text.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  // A row group per slice: the second pass takes each out of the page,
  // changes it and puts it back in the same task (no frame sees it out),
  // so its new nodes (colours, marks, messages) go into a tree apart from
  // the page.
  const SLICE = 800;
  const bodies = [];
  const rows = new Array(lines.length);
  for (let at = 0; at < lines.length; at += SLICE) {
    await yieldTask();
    const body = h('tbody');
    for (let i = at; i < Math.min(at + SLICE, lines.length); i++) rows[i] = body.appendChild(sourceRow(i + 1, lines[i]));
    bodies.push(body);
  }
  // The columns' widths from <col>: a fixed layout takes them from the first
  // row otherwise, and with the caption and the bodies laid out only near the
  // viewport Chromium gave the three columns a third each.
  const table = h('table', { class: 'code', id: 'source-table' },
    h('caption', { class: 'sr-only' }, `Source of ${file.path}`),
    h('colgroup', null, h('col', { class: 'ln' }), h('col', { class: 'mk' }), h('col', { class: 'lc' })), bodies);
  table.addEventListener('click', onLineClick);
  replace($('source'), h('div', { class: 'code-wrap' }, table));
  const info = $('source-info');
  info.textContent = `${fmt(lines.length)} lines${file.size != null ? ` · ${fmt(file.size)} bytes` : ''}`;
  afterText?.();
  const byLine = findingsByLine(await findings);
  info.append(` · ${fmt(byLine.size)} with findings`);
  const segsOf = await colours;
  for (const [b, body] of bodies.entries()) {
    await yieldTask();
    const next = body.nextSibling;
    body.remove();
    for (let i = b * SLICE; i < Math.min((b + 1) * SLICE, lines.length); i++) {
      const fs = byLine.get(i + 1);
      if (fs) markRow(rows[i], fs);
      sourceText(rows[i].lastChild, lines[i], segsOf?.(i, lines[i]), fs);
    }
    table.insertBefore(body, next);
  }
  view = { rows, lines, segsOf, byLine };
  if (pending) remarkSource(pending);
  pending = null;
  table.dataset.coloured = 'true';
}

/** The findings of list by line number (a Map of arrays, in list's order). */
export function findingsByLine(list) {
  const byLine = new Map();
  for (const f of list) {
    if (!byLine.has(f.line)) byLine.set(f.line, []);
    byLine.get(f.line).push(f);
  }
  return byLine;
}

/* What decides a line's marks: its findings and their dismissals. */
const lineKey = (fs) => (fs ?? []).map((f) => `${f.fingerprint ?? ''}:${f.dismissed?.id ?? ''}`).join(' ');

/**
 * Marks again, after a dismissal or its undo, the source lines whose
 * findings (findings: the file's whole list, as the API gives it) changed;
 * the others are left as they are.  Before renderSource has marked every
 * line, it does so once it has.
 */
export function remarkSource(findings) {
  if (!view) {
    pending = findings;
    return;
  }
  const byLine = findingsByLine(findings);
  const { rows, lines, segsOf } = view;
  for (const n of new Set([...view.byLine.keys(), ...byLine.keys()])) {
    const fs = byLine.get(n);
    if (n < 1 || n > rows.length || lineKey(fs) === lineKey(view.byLine.get(n))) continue;
    unmarkRow(rows[n - 1], lines[n - 1]);
    if (fs) markRow(rows[n - 1], fs);
    sourceText(rows[n - 1].lastChild, lines[n - 1], segsOf?.(n - 1, lines[n - 1]), fs);
  }
  view.byLine = byLine;
}

let anchor = 0;

/** Shift-click on a line number extends the selection from the last clicked line. */
function onLineClick(e) {
  const a = e.target.closest('a[data-line]');
  if (!a) return;
  const n = Number(a.dataset.line);
  if (e.shiftKey && anchor) {
    e.preventDefault();
    location.hash = `#L${Math.min(anchor, n)}-L${Math.max(anchor, n)}`;
  } else {
    anchor = n;
  }
}

/**
 * Applies #L12 / #L12-L40 from the URL: marks those lines and scrolls to
 * them.  #fn=NAME names one of functions (the file's, as the API gives
 * them): its lines.
 */
export function applyHash(functions, scroll = true) {
  for (const tr of document.querySelectorAll('#source-table tr.selected')) tr.classList.remove('selected');
  const m = /^#L(\d+)(?:-L?(\d+))?$/.exec(location.hash);
  const fn = /^#fn=(.+)$/.exec(location.hash);
  if (fn && functions) {
    // A function by name (a link from a chain of calls): its lines.
    let name = '';
    try { name = decodeURIComponent(fn[1]); } catch { /* a malformed hash names nothing */ }
    const f = functions.find((x) => x.name === name);
    if (f) {
      history.replaceState(null, '', `#L${f.start_line}-L${f.end_line}`);
      applyHash(functions, scroll);
      return;
    }
  }
  if (!m) {
    // A panel's id (#owners-plan): the panel came after the browser
    // looked for it.
    let id = '';
    try { id = decodeURIComponent(location.hash.slice(1)); } catch { /* a malformed hash names nothing */ }
    if (scroll && id) document.getElementById(id)?.scrollIntoView();
    return;
  }
  const from = Number(m[1]);
  const to = Math.max(from, Number(m[2] ?? m[1]));
  anchor = from;
  let first = null;
  for (let n = from; n <= to; n++) {
    const tr = document.getElementById(`L${n}`);
    if (!tr) break;
    tr.classList.add('selected');
    first ??= tr;
  }
  if (first && scroll) first.scrollIntoView({ block: to - from > 20 ? 'start' : 'center' });
}


/**
 * The text's colours (a promise of highlighter()'s answer, null without
 * text), from rawIn (the settled raw answer).  Worked out by a worker
 * (highlight.mjs) started only now, highlight.mjs itself imported only
 * now: the modules, the worker's start, its seven scripts and Prism's load
 * took CPU and requests from the first screen on two cores (issue 26.4);
 * the colours go in after every line's text and the findings list anyway.
 * Only for a text that came: a worker stopped while its script loads
 * leaves that request pending for the page's life.
 */
export function colour(rawIn) {
  return rawIn.then((r) => (r.status !== 'fulfilled' ? null : import('./highlight.mjs').then((m) => {
    ({ styled, appendStyled } = m);
    return m.highlighter()(normalise(r.value));
  })));
}

