// site.mjs: what every page has, as people know it from GitHub: a skip
// link to the main content, a search box in the top bar, keyboard keys
// (`/` search, `t` find a file, `y` turn the URL into a commit permalink)
// and a "copy permalink" button.
//
// Links built from a ref name (rev=hpy) move when the branch moves; a
// permalink names the commit id instead (rev=<40 hex>).  Pages put the
// commit they show in body[data-commit] once they know it; until then `y`
// and the button have nothing to pin and say so.  The compare page has two
// sides: head is body[data-commit], base body[data-base], and both are pinned.

import { h } from './dom.mjs';
import { searchHref } from './ui.mjs';

const params = () => new URLSearchParams(location.search);

/**
 * The URL of this page with rev (or head) replaced by the commit id, and
 * base by baseCommit when given (the compare page).
 */
export function permalink(commit, baseCommit) {
  const q = params();
  const key = q.has('rev') ? 'rev' : q.has('head') ? 'head' : 'rev';
  q.set(key, commit);
  if (baseCommit && q.has('base')) q.set('base', baseCommit);
  return `${location.pathname}?${q}${location.hash}`;
}

function say(text) {
  let box = document.getElementById('site-status');
  if (!box) {
    box = h('div', { id: 'site-status', class: 'site-status', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  box.textContent = text;
}

function pin() {
  const c = document.body.dataset.commit;
  if (!c) { say('This page has no commit to pin yet.'); return null; }
  const base = document.body.dataset.base;
  history.replaceState(null, '', permalink(c, base));
  say(base ? `The URL now names commits ${base.slice(0, 10)} and ${c.slice(0, 10)}.` : `The URL now names commit ${c.slice(0, 10)}.`);
  return location.href;
}

function mountSkipLink() {
  const main = document.getElementById('main');
  if (!main) return;
  main.tabIndex = -1;
  document.body.prepend(h('a', { class: 'skip-link', href: '#main', id: 'skip-link' }, 'Skip to content'));
}

function mountSearch(bar, repo, rev) {
  const input = h('input', { id: 'site-q', name: 'q', type: 'search', placeholder: 'Search ( / )', autocomplete: 'off', spellcheck: 'false' });
  const form = h('form', { class: 'site-search', role: 'search', id: 'site-search' },
    h('label', { class: 'sr-only', for: 'site-q' }, 'Search functions and C API names'), input);
  form.onsubmit = (e) => {
    e.preventDefault();
    location.assign(searchHref(repo, document.body.dataset.commit || rev, input.value));
  };
  bar.append(form);
}

function mountPermalink(bar) {
  const button = h('button', { type: 'button', class: 'linkish permalink-btn', id: 'copy-permalink',
    title: 'Copy a link to this page at the commit it shows (key y pins the URL)' }, 'Copy permalink');
  button.onclick = async () => {
    const url = pin();
    if (!url) return;
    try { await navigator.clipboard.writeText(url); say('Permalink copied.'); } catch { /* the URL bar has it */ }
  };
  bar.append(button);
}

/* The top bar's search box (not on the search page, which has its own)
 * and, on pages at a revision, the permalink button. */
function mountTopbar() {
  const bar = document.querySelector('.topbar');
  const q = params();
  const repo = q.get('repo');
  if (!bar || !repo) return;
  if (!document.body.classList.contains('page-search')) mountSearch(bar, repo, q.get('rev') || q.get('head') || '');
  if (q.has('rev') || q.has('head') || document.body.classList.contains('page-compare')) mountPermalink(bar);
}

function typing(el) {
  return el && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
  const q = params();
  const repo = q.get('repo');
  if (e.key === '/') {
    const box = document.getElementById('site-q') || document.getElementById('search-q');
    if (box) { e.preventDefault(); box.focus(); }
  } else if (e.key === 't' && repo) {
    e.preventDefault();
    location.assign(searchHref(repo, document.body.dataset.commit || q.get('rev') || q.get('head') || '', '', 'file'));
  } else if (e.key === 'y') {
    pin();
  }
}

mountSkipLink();
mountTopbar();
document.addEventListener('keydown', onKey);
