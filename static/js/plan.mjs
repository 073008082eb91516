// plan.mjs: on the file page, who ported this file's functions and who
// changed them lately (API owners), and the porting plan that makes the
// file universal-ready (API plan: steps callees first, in batches by
// level, file and owner, each saying what it unblocks).  Issue 24.

import { h, replace, fmt, nameNodes, joined } from './dom.mjs';
import { getJson, commitBase } from './api.mjs';
import { commitHref, fileHref, statusBadge } from './ui.mjs';

const pathSegs = (p) => String(p).split('/').map(encodeURIComponent).join('/');

/** A person: "@login" or the name, linking to the commit that counts. */
function person(repo, p) {
  const label = p.handle ?? p.name;
  const n = p.commits ?? p.functions;
  return h('a', { href: commitHref(repo, p.commit), class: 'owner', title: `${p.name}${p.email ? ` <${p.email}>` : ''}, ${p.date?.slice(0, 10) ?? ''}` },
    label, n > 1 ? h('span', { class: 'muted small' }, ` ×${fmt(n)}`) : null);
}

const people = (repo, list) => (list?.length ? joined(list, (p) => person(repo, p)) : h('span', { class: 'muted' }, '—'));

function ownersPanel(repo, o) {
  const rows = (o.functions ?? []).filter((f) => f.ported_by.length || f.changed_by.length);
  return h('div', { id: 'owners', class: 'owners' },
    h('h3', null, 'Owners'),
    h('p', { class: 'small' }, 'Ported by: ', people(repo, o.ported_by), ' · changed lately: ', people(repo, o.changed_by),
      h('span', { class: 'muted' }, ` (from ${fmt(o.versions_read)} versions of the file${o.history_cut ? ', history cut' : ''}; renames followed, .mailmap applied)`)),
    h('details', null, h('summary', null, `Per function (${fmt(rows.length)})`),
      h('table', { class: 'data owners-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Function'), h('th', { scope: 'col' }, 'Ported by'), h('th', { scope: 'col' }, 'Changed lately by'))),
        h('tbody', null, rows.map((f) => h('tr', { dataset: { name: f.name } },
          h('th', { scope: 'row' }, h('a', { href: `#L${f.start_line}` }, h('code', null, nameNodes(f.name)))),
          h('td', null, people(repo, f.ported_by)), h('td', null, people(repo, f.changed_by))))))));
}

// "1 blocking use lies", "2 blocking uses lie".
const outsideUses = (n) => `${fmt(n)} blocking use${n === 1 ? '' : 's'} ${n === 1 ? 'lies' : 'lie'} outside functions (structs, tables)`;

// The plan answers for a scope (default no-object-dtype: object-dtype
// paths stay on the legacy API and are left out), which the text names,
// or a file whose functions are all object paths reads as blocking nothing.
const scopeNote = (p) => (p.scope ? `Under scope ${p.scope} (its functions only; object-dtype paths stay on the legacy API): ` : '');

const sentence = (lead, rest) => (lead ? lead + rest : rest[0].toUpperCase() + rest.slice(1));

function planPanel(repo, rev, p) {
  if (!p.steps_total) {
    return h('div', { id: 'plan', class: 'plan' }, h('h3', null, 'Porting plan'),
      h('p', { class: 'small' }, sentence(scopeNote(p), p.uses_outside_functions
        ? `no function blocks; ${outsideUses(p.uses_outside_functions)}: they are what keeps this file from universal mode.`
        : 'no function of this file needs CPython.')));
  }
  const fn = (s) => h('span', null, h('code', null, nameNodes(s.name)),
    s.path !== p.path ? h('span', { class: 'muted small' }, ' in ', h('a', { href: fileHref(repo, rev, s.path) }, s.path)) : null);
  const stepsOf = (b) => p.steps.filter((s) => s.batch === b.batch);
  return h('div', { id: 'plan', class: 'plan' },
    h('h3', null, 'Porting plan'),
    h('p', { class: 'small' }, scopeNote(p), `${fmt(p.blocking_in_target)} functions here need CPython; ${fmt(p.blocking_beyond_target)} more in other files are called by them and come first `,
      '(a ported function calling a legacy one needs a bridge). ',
      `${fmt(p.steps_total)} steps in ${fmt(p.levels)} levels, batches of at most ${fmt(p.batch_size)} by level, file and owner.`,
      p.uses_outside_functions ? ` ${outsideUses(p.uses_outside_functions)} and remain after the plan.` : ''),
    h('ol', { class: 'plan-batches' }, p.batches.map((b) => h('li', { dataset: { batch: b.batch, level: b.level } },
      h('strong', null, `Batch ${b.batch}`), h('span', { class: 'muted small' }, ` · level ${b.level} · `),
      h('a', { href: fileHref(repo, rev, b.path) }, b.path), b.owner ? [' · ask ', h('span', { class: 'owner' }, b.owner)] : null,
      h('ul', null, stepsOf(b).map((s) => h('li', { dataset: { step: s.step, name: s.name } },
        statusBadge(s.status), ' ', fn(s), s.cycle ? h('span', { class: 'muted small' }, ' (call cycle: with its partners)') : null,
        s.unblocks.length ? h('span', { class: 'small' }, ' → unblocks ', joined(s.unblocks, (u) => h('code', null, nameNodes(u.name)))) : null,
        s.universal_ready_after.length ? h('span', { class: 'small plan-ready' }, ' → universal-ready: ', s.universal_ready_after.join(', ')) : null)))))));
}

/** Fills `sec` (a port panel) with the owners and the plan of one file. */
export async function mountPlan(sec, { repo, rev, path }) {
  const base = commitBase(repo, rev);
  const [o, p] = await Promise.all([
    getJson(`${base}/owners/${pathSegs(path)}`),
    getJson(`${base}/plan?path=${encodeURIComponent(path)}&limit=500`),
  ]);
  replace(sec, h('h2', null, 'Owners and porting plan'), ownersPanel(repo, o), planPanel(repo, rev, p));
  sec.hidden = false;
  return { owners: o, plan: p };
}
