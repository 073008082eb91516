// hpyneeds.mjs: what HPy must add (hpy-needs.html[?kind=K][&refs=R:REF,...]):
// the C API names without an HPy replacement across every port in the
// database at its chosen ref, ranked by the functions they keep from
// universal mode (API hpy-needs), with CSV and Markdown exports to paste
// into an HPy issue.  Issue 24, point 1.

import { h, replace, fmt, setTitle, joined } from './dom.mjs';
import { getJson } from './api.mjs';
import { showError, readParams, writeParams, renderNav, overviewHref } from './ui.mjs';

const $ = (id) => document.getElementById(id);
const state = readParams(['kind', 'refs', 'scope']);

function query(extra) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({ kind: state.kind, refs: state.refs, scope: state.scope, ...extra })) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

function render(d) {
  const ports = d.ports;
  replace($('needs-about'), `${fmt(d.total)} ${d.total === 1 ? 'name' : 'names'} across ${fmt(ports.length)} ${ports.length === 1 ? 'port' : 'ports'}: `,
    joined(ports, (p) => [h('a', { href: overviewHref(p.name, p.commit) }, p.name), ` at ${p.ref}`]),
    `. Scope ${d.scope}; HPy symbol table ${d.hpy_version}. Functions: that use it (kept from universal mode until HPy has it or the code changes); `,
    'sole: for which it is the only missing name. Per port: functions / files.');
  replace($('needs-export'),
    h('a', { href: `api/v1/hpy-needs${query({ format: 'csv', limit: 100000 })}`, download: 'hpy-needs.csv' }, 'CSV'), ' · ',
    h('a', { href: `api/v1/hpy-needs${query({ format: 'markdown', limit: 30 })}`, download: 'hpy-needs.md' }, 'Markdown (top 30)'));
  replace($('needs-table').tHead.rows[0],
    ['#', 'Symbol', 'Kind', 'Functions', 'Files', 'Uses', 'Sole', 'Ports'].map((c, i) => h('th', { scope: 'col', class: i > 2 ? 'num' : null }, c)),
    ports.map((p) => h('th', { scope: 'col', class: 'num' }, p.name)));
  replace($('needs-table').tBodies[0], d.symbols.length ? d.symbols.map((s, i) => h('tr', { dataset: { symbol: s.symbol } },
    h('td', { class: 'num' }, fmt(i + 1)),
    h('th', { scope: 'row' }, h('code', null, s.symbol)),
    h('td', null, s.c_kind ?? ''),
    ['functions', 'files', 'uses', 'sole', 'ports'].map((k) => h('td', { class: 'num' }, fmt(s.total[k]))),
    ports.map((p) => {
      const c = s.ports[p.name];
      return h('td', { class: ['num', !c && 'zero'] }, c ? `${fmt(c.functions)} / ${fmt(c.files)}` : '');
    })))
    : h('tr', { class: 'empty' }, h('td', { colspan: 8 + ports.length }, 'Nothing: every C API name in use has an HPy replacement.')));
}

/**
 * The kind filter as the answer applied it (`kind`: "all" or singular
 * names, whatever the URL said: `?kind=macros` is "macro"), an option of
 * its own for a list the dropdown does not offer, written back to the URL.
 */
function showKind(kind) {
  const sel = $('n-kind');
  const v = !kind || kind === 'all' ? '' : kind;
  if (![...sel.options].some((o) => o.value === v)) sel.append(h('option', { value: v }, v.split(',').join(', ')));
  sel.value = v;
  state.kind = v;
  writeParams(state);
}

async function load() {
  const d = await getJson(`api/v1/hpy-needs${query({ limit: 500 })}`);
  showKind(d.kind);
  render(d);
}

async function main() {
  renderNav($('nav'), 'hpy-needs');
  setTitle('What HPy must add · portdash');
  $('n-kind').value = state.kind ?? '';
  $('n-kind').onchange = () => { state.kind = $('n-kind').value; writeParams(state); load().catch((e) => showError($('errors'), e, 'What HPy must add')); };
  await load();
}

main()
  .catch((e) => {
    showError($('errors'), e, 'What HPy must add');
    replace($('needs-table').tBodies[0], h('tr', { class: 'empty' }, h('td', { class: 'muted' }, 'Nothing to show.')));
  })
  .finally(() => { document.body.dataset.ready = 'true'; });
