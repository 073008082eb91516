// gateview.mjs: the CI gate's verdict for a compare pair (issue 11.12).
//
// The compare page counts every file that stops being universal-ready; the
// gate (gate/gate_eval.c) fails only on files that stop being ready outside
// object-dtype paths.  So the page shows the gate's verdict with each of its
// rules, and says for every lost file whether the gate counts it and, when
// not, why: it never says "1 file no longer universal-ready" beside a
// passing gate without the reason.

import { h, replace, fmt, joined } from './dom.mjs';
import { fileHref } from './ui.mjs';

/** What a side of a regression was: "legacy, object-legacy". */
const side = (x) => (x ? [x.status ?? 'absent', x.object_state].filter(Boolean).join(', ') : 'absent');

/**
 * Every function the gate counts against the change, with its reasons
 * (the gate answer's regressions).  A function can break a rule while
 * its status moves forward ("new C API use" in a function that went
 * legacy → bridged), so the compare page's own list of status moves
 * back does not name them all; a trial saw a failing gate beside "No
 * regressions" and the function named nowhere.
 */
function gateFunctions(regs, ctx) {
  if (!regs.length) return null;
  return h('div', { class: 'gate-functions', id: 'gate-functions' },
    h('p', null, h('strong', null, regs.length === 1 ? 'The function the gate counts'
      : `The ${fmt(regs.length)} functions the gate counts`), ' (base → head, and the rules each breaks):'),
    h('ul', null, regs.map((x) => h('li', { dataset: { path: x.path, name: x.name } },
      h('a', { href: `${fileHref(ctx.repo, ctx.head, x.path)}#fn=${encodeURIComponent(x.name)}` },
        h('code', null, x.name)), ' in ', h('code', null, x.path), ': ',
      `${side(x.from)} → ${side(x.to)}`, ' · ', (x.reasons ?? []).join(', ')))));
}

/**
 * Renders the gate's verdict into el.  gate: the GET .../gate answer (or an
 * Error when it failed: then the page says the verdict is unknown, never
 * "pass"); lost: the compare answer's files that were universal-ready at
 * base and are not at head; ctx: {repo, base, head} for the file links.
 */
export function renderGate(el, gate, lost, ctx) {
  if (!gate || gate instanceof Error) {
    replace(el, h('h2', { id: 'gate-heading', class: 'gate-title' }, 'Gate: verdict unknown'),
      h('p', { class: 'warn', id: 'gate-error' }, 'The gate could not be asked: ',
        gate?.problem?.detail || gate?.message || 'no answer', '.'));
    el.dataset.result = 'unknown';
    return;
  }
  const pass = gate.result === 'pass';
  el.dataset.result = gate.result;
  const counted = new Set(gate.files_no_longer_universal_ready ?? []);
  const readyRule = (gate.conditions ?? []).find((c) => c.measure === 'universal_ready_files');
  const excused = lost.filter((f) => !counted.has(f.path));
  replace(el,
    h('h2', { id: 'gate-heading', class: ['gate-title', pass ? 'gate-pass' : 'gate-fail'] },
      'Gate: ', h('span', { id: 'gate-result' }, pass ? '✓ passes' : '✗ fails'),
      h('span', { class: 'muted small' }, ' · the CI check (portdash gate) for this base and head, rule by rule')),
    // Beside each rule the figure it tests (issue 23.9): "no new C API use
    // in a function that had none" counts such functions, not C API
    // tokens; the totals of the rule's measure follow, marked as context.
    h('table', { class: 'data gate-rules', id: 'gate-rules' },
      h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'Rule'), h('th', { scope: 'col' }, 'What it counts'),
        h('th', { scope: 'col', class: 'num' }, 'Found'), h('th', { scope: 'col' }, 'Verdict'),
        h('th', { scope: 'col', class: 'num muted' }, 'For context: total at base → head'))),
      h('tbody', null, (gate.conditions ?? []).map((c) => h('tr', { dataset: { measure: c.measure, ok: String(c.ok) } },
        h('th', { scope: 'row' }, c.rule),
        h('td', { class: 'gate-tested' }, c.tested ?? ''),
        h('td', { class: 'num gate-found', dataset: { found: String(c.found ?? '') } }, c.found == null ? '—' : fmt(c.found)),
        h('td', { class: c.ok ? 'yes' : 'no' }, c.ok ? '✓ holds' : '✗ broken'),
        h('td', { class: 'num muted small gate-context' }, h('code', null, c.measure),
          c.scope ? [' (scope ', h('code', { class: 'gate-scope' }, c.scope), ')'] : null, ` ${fmt(c.base)} → ${fmt(c.head)}`))))),
    gateFunctions(gate.regressions ?? [], ctx),
    (gate.regressions ?? []).some((x) => x.renamed_from) ? h('p', { class: 'muted small', id: 'gate-renames' },
      'Followed as renames (compared with the function of the old name at its place): ',
      joined(gate.regressions.filter((x) => x.renamed_from), (x) => [h('code', null, x.renamed_from), ' → ',
        h('code', null, x.name)])) : null,
    excused.length ? h('div', { class: 'gate-excused', id: 'gate-excused' },
      h('p', null, h('strong', null, `The gate does not count ${excused.length === 1 ? 'this file' : `these ${fmt(excused.length)} files`}`),
        ' that the comparison lists as no longer universal-ready. Its rule is ',
        h('q', null, readyRule?.rule ?? 'no file stops being universal-ready outside object-dtype paths'),
        pass ? ', so the gate passes:' : ', so they are not among its reasons:'),
      h('ul', null, excused.map((f) => h('li', { dataset: { path: f.path, why: f.to ? 'object-dtype' : 'removed' } },
        h('a', { href: fileHref(ctx.repo, f.to ? ctx.head : ctx.base, f.path) }, f.path), ': ',
        f.to ? 'only its object-dtype paths need CPython, which the team\'s plan keeps on the CPython API'
          : 'removed at head; a removed file is not one that stopped being ready')))) : null);
}
