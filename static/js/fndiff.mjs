// fndiff.mjs: the code of each changed function on the commit and compare
// pages.  A "code" button on every function change opens, under its row,
// the line diff of that function between the two revisions (jsdiff, the
// npm package "diff", pinned, served as window.Diff from /vendor/diff/),
// with the findings of the new side under their lines.  The function's
// lines come from the file API (start and end line at each revision) and
// its text from the raw API; nothing is fetched until a button is pressed.

import * as api from './api.mjs';
import { h, replace } from './dom.mjs';
import { findingMessage, findingsByLine } from './source.mjs';

const cache = new Map();

/** {detail, lines} of path at rev, fetched once. */
function fileAt(repo, rev, path) {
  const key = `${rev}\u0000${path}`;
  if (!cache.has(key)) {
    cache.set(key, Promise.all([api.file(repo, rev, path), api.raw(repo, rev, path)])
      .then(([detail, raw]) => ({ detail, lines: raw.split(/\r\n|\n|\r/) })));
  }
  return cache.get(key);
}

/** The function's lines at rev: {start, text, findings}, or null if absent. */
async function fnAt(repo, rev, path, name) {
  if (!rev) return null;
  let f;
  try { f = await fileAt(repo, rev, path); } catch (e) { if (e.status === 404) return null; throw e; }
  const fn = (f.detail.functions ?? []).find((x) => x.name === name);
  if (!fn) return null;
  return {
    start: fn.start_line,
    text: `${f.lines.slice(fn.start_line - 1, fn.end_line).join('\n')}\n`,
    findings: (f.detail.findings ?? []).filter((x) => x.line >= fn.start_line && x.line <= fn.end_line),
  };
}

/** The diff of one function as a table: old line, new line, sign, code. */
export function diffTable(before, after) {
  const parts = window.Diff.diffLines(before?.text ?? '', after?.text ?? '');
  const byLine = findingsByLine(after?.findings ?? []);
  let a = before?.start ?? 1;
  let b = after?.start ?? 1;
  const rows = [];
  for (const p of parts) {
    const lines = p.value.replace(/\n$/, '').split('\n');
    for (const line of lines) {
      const kind = p.added ? 'add' : p.removed ? 'del' : 'ctx';
      const fs = kind !== 'del' ? byLine.get(b) : null;
      rows.push(h('tr', { class: `d-${kind}` },
        h('td', { class: 'ln' }, kind === 'add' ? '' : String(a)),
        h('td', { class: 'ln' }, kind === 'del' ? '' : String(b)),
        h('td', { class: 'sign', 'aria-label': kind === 'add' ? 'added' : kind === 'del' ? 'removed' : null }, kind === 'add' ? '+' : kind === 'del' ? '−' : ' '),
        h('td', { class: 'lc' }, line,
          fs ? h('span', { class: 'fmsg' }, fs.map((f) => findingMessage(f))) : null)));
      if (kind !== 'add') a++;
      if (kind !== 'del') b++;
    }
  }
  return h('table', { class: 'code fn-diff' }, h('caption', { class: 'sr-only' }, 'Line diff of the function'), h('tbody', null, rows));
}

/**
 * Adds a "code" button to every function change under root; revs: {repo,
 * from, to} as given to functionChanges.
 */
export function attachFunctionDiffs(root, revs) {
  for (const tr of root.querySelectorAll('tr.fn-change')) {
    const { path, name } = tr.dataset;
    const btn = h('button', { type: 'button', class: 'linkish fn-diff-btn', 'aria-expanded': 'false' }, 'code');
    let row = null;
    btn.onclick = async () => {
      if (row) {
        row.hidden = !row.hidden;
        btn.setAttribute('aria-expanded', String(!row.hidden));
        return;
      }
      const cell = h('td', { colspan: String(tr.cells.length) }, h('span', { class: 'muted' }, 'Loading…'));
      row = h('tr', { class: 'fn-diff-row', dataset: { path, name } }, cell);
      tr.after(row);
      btn.setAttribute('aria-expanded', 'true');
      try {
        const [before, after] = await Promise.all([fnAt(revs.repo, revs.from, path, name), fnAt(revs.repo, revs.to, path, name)]);
        replace(cell, window.Diff ? diffTable(before, after) : h('span', { class: 'muted' }, 'diff library not loaded'));
        row.dataset.loaded = 'true';
      } catch (e) {
        replace(cell, h('span', { class: 'muted' }, `code unavailable: ${e.message}`));
        row.dataset.loaded = 'error';
      }
    };
    tr.querySelector('.fn-name')?.append(' ', btn);
  }
}
