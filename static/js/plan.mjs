// plan.mjs: on the file page, who ported this file's functions and who
// changed them lately (API owners), and the porting plan that makes the
// file universal-ready (API plan: steps callees first, in batches by
// level, file and owner, each saying what it unblocks).  Issue 24.

import { h, replace, fmt, nameNodes, joined } from './dom.mjs';
import { getJson, commitBase, pathSegs } from './api.mjs';
import { commitHref, fileHref, statusBadge } from './ui.mjs';

/** A person: "@login" or the name, linking to the commit that counts. */
function person(repo, p) {
  const label = p.handle ?? p.name;
  const n = p.commits ?? p.functions;
  return h('a', { href: commitHref(repo, p.commit), class: 'owner', title: `${p.name}${p.email ? ` <${p.email}>` : ''}, ${p.date?.slice(0, 10) ?? ''}` },
    label, n > 1 ? h('span', { class: 'muted small' }, ` ×${fmt(n)}`) : null);
}

const people = (repo, list) => (list?.length ? joined(list, (p) => person(repo, p)) : h('span', { class: 'muted' }, '—'));

/**
 * The file's porters by what their functions are now.  The API's
 * ported_by is whoever added a function's HPy code, whether the function
 * is now ported (HPy only) or bridged (HPy that still needs CPython):
 * with the page's statuses (statusOf(f), from the file page's function
 * list) the file's line says "ported by" and "bridged by" apart, each
 * person with the functions they hold (the newest commit linked);
 * without them, the API's list as "ported or bridged by".
 */
function porterGroups(o, statusOf) {
  if (!statusOf) return [['Ported or bridged by', o.ported_by]];
  const groups = new Map([['ported', new Map()], ['bridged', new Map()], ['other', new Map()]]);
  for (const f of o.functions ?? []) {
    const st = statusOf(f);
    const g = groups.get(groups.has(st) ? st : 'other');
    for (const p of f.ported_by) {
      const key = p.email ?? p.handle ?? p.name;
      const e = g.get(key) ?? { name: p.name, handle: p.handle, email: p.email, commit: p.commit, date: p.date, functions: 0 };
      e.functions += 1;
      if ((p.date ?? '') > (e.date ?? '')) Object.assign(e, { commit: p.commit, date: p.date });
      g.set(key, e);
    }
  }
  const list = (g) => [...g.values()].sort((a, b) => b.functions - a.functions || a.name.localeCompare(b.name));
  return [['Ported by', list(groups.get('ported'))], ['bridged by', list(groups.get('bridged'))],
    // HPy code added to a function that has none left (neither status)
    groups.get('other').size ? ['HPy code since removed, added by', list(groups.get('other'))] : null].filter(Boolean);
}

function ownersPanel(repo, o, statusOf) {
  const rows = (o.functions ?? []).filter((f) => f.ported_by.length || f.changed_by.length);
  return h('div', { id: 'owners', class: 'owners' },
    h('h3', null, 'Owners'),
    h('p', { class: 'small' }, porterGroups(o, statusOf).map(([label, list], i) => h('span', { class: 'owners-group' },
      i ? ' · ' : null, `${label}: `, people(repo, list))), ' · changed lately: ', people(repo, o.changed_by),
    h('span', { class: 'muted' }, ` (from ${fmt(o.versions_read)} ${o.versions_read === 1 ? 'version' : 'versions'} of the file${o.history_cut ? ', history cut' : ''}; renames followed, .mailmap applied)`)),
    h('details', null, h('summary', null, `Per function (${fmt(rows.length)})`),
      h('table', { class: 'data owners-table' },
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Function'),
          h('th', { scope: 'col', title: 'who added its HPy code: the function is ported (HPy only) or bridged (HPy that still needs CPython), as its status says' }, 'Ported or bridged by'),
          h('th', { scope: 'col' }, 'Changed lately by'))),
        h('tbody', null, rows.map((f) => h('tr', { dataset: { name: f.name, status: statusOf?.(f) ?? null } },
          h('th', { scope: 'row' }, h('a', { href: `#L${f.start_line}` }, h('code', null, nameNodes(f.name))),
            statusOf?.(f) ? [' ', statusBadge(statusOf(f))] : null),
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

/**
 * Fills `sec` (a port panel) with the owners and the plan of one file;
 * functions: the page's functions of the file ({name, start_line,
 * status}), which say who ported and who bridged (porterGroups).
 */
export async function mountPlan(sec, { repo, rev, path, functions }) {
  const base = commitBase(repo, rev);
  const [o, p] = await Promise.all([
    getJson(`${base}/owners/${pathSegs(path)}`),
    getJson(`${base}/plan?path=${encodeURIComponent(path)}&limit=500`),
  ]);
  const status = new Map((functions ?? []).map((f) => [`${f.name}\u0000${f.start_line}`, f.status]));
  const statusOf = functions ? (f) => status.get(`${f.name}\u0000${f.start_line}`) : null;
  replace(sec, h('h2', null, 'Owners and porting plan'), ownersPanel(repo, o, statusOf), planPanel(repo, rev, p));
  sec.hidden = false;
  return { owners: o, plan: p };
}
