// The "suggested change" rows of the file page (issue 25, doc/fixes.md): the
// checked HPy rewrites of GET .../commits/{rev}/fixes for this file, each
// shown under the line it changes with its unified diff and a Copy button
// (the diff is what `git apply` takes).
import * as api from './api.mjs';
import { h } from './dom.mjs';

/* Copies text; falls back to selecting the <pre> when the clipboard is refused. */
async function copy(text, pre, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = 'Copied';
  } catch {
    const range = document.createRange();
    range.selectNodeContents(pre);
    const sel = getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
    button.textContent = 'Selected: press Ctrl+C';
  }
  setTimeout(() => { button.textContent = 'Copy'; }, 2000);
}

function suggestion(fix) {
  const pre = h('pre', { class: 'suggest-diff' }, fix.diff ?? '');
  const button = h('button', { type: 'button', class: 'linkish suggest-copy' }, 'Copy');
  button.addEventListener('click', () => copy(fix.diff ?? '', pre, button));
  return h('tr', { class: 'suggest', dataset: { line: fix.line } },
    h('td', { class: 'ln' }), h('td', { class: 'mk' }),
    h('td', { class: 'lc' },
      h('div', { class: 'suggest-head' },
        h('strong', null, 'suggested change'), ' ',
        h('code', null, fix.from), ' → ', h('code', null, fix.replacement),
        ` (rule ${fix.rule}, HPy ${fix.hpy_since}, checked by re-analysis) `, button),
      pre));
}

/**
 * Put each checked rewrite of `path` under its line of the source table
 * (#source-table, rows #L<n>).  Returns the number shown; a failing request
 * shows nothing (the page works without suggestions).
 */
export async function mountSuggestions(repo, rev, path) {
  let d;
  try {
    d = await api.getJson(`${api.commitBase(repo, rev)}/fixes?path=${encodeURIComponent(path)}&per_page=1000`);
  } catch {
    return 0;
  }
  let n = 0;
  for (const fix of d.fixes ?? []) {
    if (fix.path !== path) continue;
    const tr = document.getElementById(`L${fix.line}`);
    if (!tr) continue;
    let after = tr;
    while (after.nextElementSibling?.classList.contains('suggest')) after = after.nextElementSibling;
    after.after(suggestion(fix));
    n++;
  }
  return n;
}
