// symbols.mjs: what blocks universal mode, by C API symbol, with the HPy
// API that replaces each (GET .../symbols, doc/api.md "Blockers by C API
// symbol").  The overview's panel lists the symbols most used first; a
// symbol without an HPy replacement is what HPy itself must add (or what
// the port must stop needing).  The replacement table is HPy's own, for
// the release the server names (hpy_version).

import { h, replace, fmt, pathNodes, paint } from './dom.mjs';
import { fileHref } from './ui.mjs';
import { getJson, seg } from './api.mjs';

const base = (repo, rev) => `api/v1/repos/${seg(repo)}/commits/${seg(rev)}`;
const scopeQ = (scope) => (scope ? `?scope=${seg(scope)}` : '');

export const symbols = (repo, rev, scope) => getJson(`${base(repo, rev)}/symbols${scopeQ(scope)}`);
export const search = (repo, rev, q, limit = 100) =>
  getJson(`${base(repo, rev)}/search?${new URLSearchParams({ q, limit })}`);

/** Link to the page of one symbol. */
export function symbolHref(repo, rev, name, scope) {
  const q = new URLSearchParams({ repo, rev, symbol: name });
  if (scope) q.set('scope', scope);
  return `symbol.html?${q}`;
}

const SOURCE_TITLE = {
  table: "HPy's porting-guide table",
  handle: 'the object behind an HPy context handle',
  abi: "what HPy's CPython ABI defines this HPy name as",
  wrap: "the CPython function HPy's CPython ABI calls for this HPy function",
  helper: 'an HPy helper function',
  macro: 'an HPy macro or constant',
  type: 'an HPy type',
  name: 'a hand-written HPy function of the same name',
  manual: "what HPy's porting guide, documentation or headers say (tools/hpy_api_manual.tsv)",
};

const KIND_TEXT = {
  generic: 'generic',
  pattern: 'different code',
};

/** The HPy replacement cell: its name, or "none" (what HPy must add); a
 * generic call or a code pattern is said so, with the first HPy version. */
export function hpyCell(s) {
  if (!s.hpy) return h('span', { class: 'hpy-none', title: 'HPy has no equivalent in its table' }, 'none');
  const title = [SOURCE_TITLE[s.hpy_source], s.hpy_since && `since HPy ${s.hpy_since}`].filter(Boolean).join('; ');
  return h('span', null, h('code', { class: 'hpy-name', title: title || null }, s.hpy),
    KIND_TEXT[s.hpy_kind] ? h('span', { class: 'muted hpy-kind', dataset: { kind: s.hpy_kind } }, ` (${KIND_TEXT[s.hpy_kind]})`) : null);
}

function symbolRow(repo, rev, scope, s) {
  return h('tr', { dataset: { symbol: s.symbol } },
    h('td', null, h('a', { href: symbolHref(repo, rev, s.symbol, scope) }, h('code', null, s.symbol))),
    h('td', null, s.class === 'bridge' ? 'bridge' : 'C API'),
    h('td', { class: 'num', dataset: { metric: 'uses' } }, fmt(s.uses)),
    h('td', { class: 'num' }, fmt(s.functions)),
    h('td', { class: 'num' }, fmt(s.files)),
    h('td', { dataset: { metric: 'hpy' } }, hpyCell(s)));
}

/** A table of symbols (the first `shown`, all when shown is null). */
function symbolTable(repo, rev, scope, list, id) {
  return h('table', { class: 'data symbols', id },
    h('caption', { class: 'sr-only' }, 'C API symbols blocking universal mode'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Symbol'), h('th', { scope: 'col' }, 'Kind'),
      h('th', { scope: 'col', class: 'num', title: 'unguarded uses in the scope' }, 'Uses'),
      h('th', { scope: 'col', class: 'num' }, 'Functions'), h('th', { scope: 'col', class: 'num' }, 'Files'),
      h('th', { scope: 'col' }, 'HPy replacement'))),
    h('tbody', null, list.map((s) => symbolRow(repo, rev, scope, s))));
}

/**
 * The overview panel: the blocking symbols at repo/rev under scope (the
 * page's scope, else no-object-dtype), the first `top` shown, a button for
 * the rest.
 */
export async function mountSymbols(root, { repo, rev, scope, top = 15 }) {
  const d = await symbols(repo, rev, scope || undefined);
  const list = d.symbols;
  const body = h('div', { id: 'symbols-body' }, symbolTable(repo, rev, d.scope, list.slice(0, top), 'symbols-table'));
  const more = list.length > top
    ? h('button', { type: 'button', class: 'linkish', id: 'symbols-all' }, `show all ${fmt(list.length)}`) : null;
  if (more) {
    more.onclick = () => {
      replace(body, symbolTable(repo, rev, d.scope, list, 'symbols-table'));
      more.remove();
    };
  }
  if (!d.total) {
    // Nothing to list (kiwi): said once, not a table of none.
    replace(root, h('h2', { id: 'symbols-h', class: 'card-title' }, 'What blocks universal mode, by C API symbol'),
      h('p', { class: 'small', id: 'symbols-none' }, 'No C API or bridge name is used without a guard',
        scope ? [' in scope ', h('code', { id: 'symbols-scope' }, d.scope)] : null,
        ': none blocks universal mode.'));
    root.hidden = false;
    return d;
  }
  replace(root,
    h('h2', { id: 'symbols-h', class: 'card-title' }, 'What blocks universal mode, by C API symbol'),
    h('p', { class: 'small' },
      'Each CPython C API function, macro, type or object, and each bridge name (HPy_AsPyObject, a legacy slot: the half-port\'s crossings), still used without a guard in scope ',
      h('code', { id: 'symbols-scope' }, d.scope), ` (${fmt(d.uses_total)} uses of `,
      h('span', { dataset: { metric: 'symbols-total' } }, fmt(d.total)), ' symbols), with the HPy API that replaces it, from HPy ',
      h('span', { id: 'symbols-hpy-version' }, d.hpy_version), '\'s own table. ',
      h('strong', null, h('span', { dataset: { metric: 'symbols-without-hpy' } }, fmt(d.without_hpy)), ' have none'),
      // The C API names are the hpy-needs page's count; a bridge name is
      // HPy's own legacy API, which the port must stop needing.
      d.without_hpy_bridge == null ? ': what HPy must add, or what the port must stop needing.'
        : [': ', h('span', { dataset: { metric: 'symbols-hpy-must-add' } }, fmt(d.without_hpy - d.without_hpy_bridge)),
          ' C API names HPy must add (the “What HPy must add” page) and ',
          h('span', { dataset: { metric: 'symbols-bridge-without-hpy' } }, fmt(d.without_hpy_bridge)),
          ` bridge ${d.without_hpy_bridge === 1 ? 'name' : 'names'} the port must stop needing.`]),
    body, more);
  root.hidden = false;
  return d;
}

/* The sites the page lists before "show all": PyObject has 7,056 on
 * numpy-hpy, and drawing them all held the heading back 1.5 s and made the
 * page 200,000 px tall (the findings table keeps 200 too). */
const SITES_SHOWN = 200;

/* The URL of name's answer at rev with extra query parameters. */
function symbolUrl(repo, rev, name, scope, extra) {
  return `${base(repo, rev)}/symbols/${seg(name)}?${new URLSearchParams({
    ...(scope ? { scope } : {}), ...extra })}`;
}

/** Every site of a symbol at commit (the one its first answer named).  The
 * API pages the sites (1,000 a page unless asked, at most 10,000): the most
 * are asked, and when the first page holds fewer than all, the rest (PyObject's
 * 7,056 sites on numpy-hpy were once shown as the first 1,000 without a word). */
async function symbolAllSites(repo, commit, name, scope, uses) {
  const first = await getJson(symbolUrl(repo, commit, name, scope, { per_page: 10000 }));
  const sites = first.sites;
  const per = sites.length;
  if (per > 0 && per < uses) {
    const rest = await Promise.all(Array.from({ length: Math.ceil(uses / per) - 1 },
      (_, i) => getJson(symbolUrl(repo, commit, name, scope, { per_page: per, page: i + 2 }))));
    for (const r of rest) sites.push(...r.sites);
  }
  return sites;
}

/* The rows of sites (sorted by path, then line, as the API gives them):
 * the path on the first row of each file; prev is the path of the row
 * before them. */
function siteRows(repo, commit, sites, prev = null) {
  return sites.map((s, i) => h('tr', { dataset: { path: s.path } },
    h('td', { class: 'path' }, s.path !== (i ? sites[i - 1].path : prev) ? pathNodes(s.path) : ''),
    h('td', { class: 'num' }, h('a', { href: fileHref(repo, commit, s.path, s.line) }, String(s.line))),
    h('td', null, s.function ? h('code', null, s.function) : h('span', { class: 'muted' }, 'outside any function'))));
}

/* "show all" under the sites table: reads every site at the commit the page
 * shows and puts the rows not yet there, in slices with a paint between
 * them so that the page keeps answering. */
function moreSites(body, d, { repo, name, scope }) {
  const label = `show all ${fmt(d.uses)} sites (${fmt(d.sites.length)} shown)`;
  const btn = h('button', { type: 'button', class: 'linkish', id: 'symbol-more' }, label);
  const msg = h('span', { class: 'form-error', role: 'alert', id: 'symbol-more-error' });
  btn.onclick = async () => {
    btn.disabled = true;
    btn.textContent = 'reading every site…';
    msg.textContent = '';
    let all;
    try {
      all = await symbolAllSites(repo, d.commit, name, scope, d.uses);
    } catch (e) {
      // A busy server answers 503: said, and the button is there again.
      btn.disabled = false;
      btn.textContent = label;
      msg.textContent = ` The sites could not be read: ${e.message}. Try again.`;
      return;
    }
    const SLICE = 1500;
    for (let at = d.sites.length; at < all.length; at += SLICE) {
      body.append(...siteRows(repo, d.commit, all.slice(at, at + SLICE), all[at - 1]?.path));
      await paint();
    }
    btn.parentNode.remove();
  };
  return h('p', null, btn, msg);
}

/** The symbol page: its replacement, its figures, and its blocking sites by
 * file (the first SITES_SHOWN at once, every one after "show all"). */
export async function renderSymbolPage(root, { repo, rev, name, scope }) {
  const d = await getJson(symbolUrl(repo, rev, name, scope || undefined, { per_page: SITES_SHOWN }));
  const body = d.sites.length ? h('tbody', null, siteRows(repo, d.commit, d.sites)) : null;
  replace(root,
    h('h1', null, h('code', { id: 'symbol-name' }, d.symbol)),
    h('dl', { class: 'facts' },
      h('dt', null, 'HPy replacement'), h('dd', { id: 'symbol-hpy' }, hpyCell(d),
        h('span', { class: 'muted' }, ` · HPy ${d.hpy_version}`)),
      h('dt', null, 'Scope'), h('dd', null, h('code', null, d.scope)),
      h('dt', null, 'Blocking uses'), h('dd', { id: 'symbol-uses' },
        `${fmt(d.uses)} in ${fmt(d.functions)} ${d.functions === 1 ? 'function' : 'functions'} of ${fmt(d.files)} ${d.files === 1 ? 'file' : 'files'}`)),
    body
      ? h('table', { class: 'data sites', id: 'symbol-sites' },
        h('caption', { class: 'sr-only' }, 'Where the symbol is used'),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'File'), h('th', { scope: 'col', class: 'num' }, 'Line'),
          h('th', { scope: 'col' }, 'Function'))),
        body)
      : h('p', { class: 'muted', id: 'symbol-sites' }, 'No blocking use at this commit in this scope.'),
    body && d.sites.length < d.uses ? moreSites(body, d, { repo, name, scope: scope || undefined }) : null);
  return d;
}
