// frontier.mjs: the "next to port" panel of the overview, from
// GET .../commits/{rev}/frontier.
//
// The frontier: legacy or bridged functions whose callees inside the
// repository are all ported or neutral, so each can be converted on its
// own; ranked by what converting one unblocks (the callers for which it
// is the only callee they wait for), then by how many bridged or ported
// functions call them today (converting one removes the bridges those
// callers cross).

import { h, replace, fmt, pathNodes, joined } from './dom.mjs';
import { fileHref, statusBadge } from './ui.mjs';
import { getJson, seg } from './api.mjs';


/** GET .../frontier?limit=N */
export const frontier = (repo, rev, limit = 25) =>
  getJson(`api/v1/repos/${seg(repo)}/commits/${seg(rev)}/frontier?limit=${limit}`);

function frontierTable(repo, rev, list) {
  return h('table', { class: 'data frontier', id: 'frontier-table' },
    h('caption', { class: 'sr-only' }, 'Functions that can be ported next'),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Function'), h('th', { scope: 'col' }, 'File'), h('th', { scope: 'col' }, 'Status'),
      h('th', { scope: 'col', class: 'num', title: 'callers for which it is the only callee they wait for: they can be ported once it is' }, 'Unblocks'),
      h('th', { scope: 'col', class: 'num', title: 'bridged or ported functions that call it' }, 'Bridged callers'),
      h('th', { scope: 'col', class: 'num', title: 'in-repository callees, all ported or neutral' }, 'Callees ported'))),
    h('tbody', null, list.map((f) => h('tr', { dataset: { name: f.name, path: f.path } },
      h('td', null, h('a', { href: fileHref(repo, rev, f.path, f.start_line) }, h('code', null, f.name))),
      h('td', { class: 'path' }, pathNodes(f.path)),
      h('td', null, statusBadge(f.status)),
      h('td', { class: 'num', dataset: { metric: 'unblocks' } }, fmt(f.unblocks ?? 0)),
      h('td', { class: 'num', dataset: { metric: 'bridged-callers' } }, fmt(f.bridged_callers)),
      h('td', { class: 'num' }, `${fmt(f.callees_ported)} / ${fmt(f.callees_total)}`)))));
}

/**
 * Fills root with the frontier at repo/rev: what the list means, the first
 * `limit` candidates and a button for all of them, and the bridge
 * mechanism left out (npy_get_context: removed, never ported).  answer:
 * a promise of frontier(repo, rev, 100000) already asked (the overview's
 * first screen reads it too), else it is asked here.
 */
export async function mountFrontier(root, { repo, rev, limit = 25, answer = null }) {
  const d = await (answer ?? frontier(repo, rev, 100000));
  const at = d.commit ?? rev;   // links to lines name the commit, not the moving ref
  const body = h('div', { id: 'frontier-body' }, d.functions.length ? frontierTable(repo, at, d.functions.slice(0, limit)) : null);
  const more = d.functions.length > limit
    ? h('button', { type: 'button', class: 'linkish', id: 'frontier-all' }, `show all ${fmt(d.functions.length)}`) : null;
  if (more) more.onclick = () => { replace(body, frontierTable(repo, at, d.functions)); more.remove(); };
  const excluded = d.excluded ?? [];
  root.hidden = false;
  replace(root,
    h('h2', { id: 'frontier-h' }, 'Next to port'),
    h('p', { class: 'small', id: 'frontier-meaning' },
      'What this list means: each function below is still legacy or bridged, every function it calls inside the repository is already ported or neutral, and at least one ported or bridged function calls it. So it can be converted on its own, now, and converting it removes the bridge crossings of its callers. ',
      h('span', { dataset: { metric: 'frontier-candidates' } }, fmt(d.candidates)),
      ` ${d.candidates === 1 ? 'candidate' : 'candidates'}, those that unblock most first (callers for which it is the only callee they still wait for), then most bridged callers.`),
    excluded.length ? h('p', { class: 'small', id: 'frontier-excluded' }, 'Left out: ',
      joined(excluded, (x) => [h('code', null, x.name), ` — ${x.reason}`], '; '), '.') : null,
    d.functions.length ? body
      : h('p', { class: 'muted' }, 'No candidate: no legacy or bridged function with only ported callees is called from ported code.'),
    more);
  return d;
}
