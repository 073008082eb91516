// why.mjs: why a function has its status and object state (the API's
// `why`, issue 11), as the file page's text and links.

import { h } from './dom.mjs';
import { fileHref } from './ui.mjs';

/** A deciding finding in the page's words: rule, token, line. */
export const whyFinding = (w) => (w ? `${w.rule} \`${w.text}\` at line ${w.line}` : '');

/**
 * The why as visible text under a badge (not only a tooltip), linking to the
 * deciding line so a reader can check it.
 */
export function whyLine(w, text) {
  if (!text) return null;
  return h('div', { class: 'why small' },
    w?.line ? h('a', { href: `#L${w.line}`, title: 'Show the deciding line' }, text) : text);
}

/** Why a function has its status: the deciding rule and line (API `why`). */
export function whyStatus(f) {
  return f.why?.status ? `${f.status}: ${whyFinding(f.why.status)}` : '';
}

/** Why it has its object state: its own item site, or the chain of calls
 * that reaches one, and what keeps it on CPython; with no state, the
 * lesser fact that it mentions object dtype. */
/**
 * A chain of calls as text: each callee in the file that defines it, and
 * the line of its call, which is in the caller's body: the function
 * itself (self) for the first, each callee before for the next ones.
 */
function chainText(chain, self) {
  return chain.map((c, i) => `${c.function} in ${c.path} (called at line ${c.line} of ${i ? chain[i - 1].function : self})`).join(' → ');
}

export function whyObject(f) {
  const o = f.why?.object;
  if (!f.object_state) {
    const m = f.why?.mentions;
    return m ? `mentions object dtype (${m.name} at line ${m.line}), reaches no item` : '';
  }
  if (!o) return '';
  const what = o.chain ? `via ${chainText(o.chain, f.name)}` : whyFinding(o);
  const also = f.why.object_also ? `; on CPython by ${whyFinding(f.why.object_also)}` : '';
  return `${f.object_state}: ${what}${also}`;
}

/**
 * A chain of calls as links, for checking it a hop at a time: each callee
 * to its function in the file that defines it (#fn=NAME, file.mjs's
 * applyHash), and each call to its line in the caller's file (the first
 * caller is this function, each next one the callee before: doc/api.md).
 * at: the page's {repo, rev, path}.
 */
export function whyChain(f, at) {
  const chain = f.why.object.chain;
  const also = f.why.object_also;
  return h('div', { class: 'why small' }, chain.map((c, i) => {
    const caller = i ? chain[i - 1].path : at.path;
    const call = caller === at.path ? `#L${c.line}` : fileHref(at.repo, at.rev, caller, c.line);
    const callee = `${c.path === at.path ? '' : fileHref(at.repo, at.rev, c.path)}#fn=${encodeURIComponent(c.function)}`;
    return [i ? ' → ' : 'via ',
      h('a', { href: callee, class: 'why-callee', title: `Show ${c.function} and why it has its state` }, c.function),
      ` in ${c.path} (`,
      h('a', { href: call, class: 'why-call', title: 'Show the call' }, `called at line ${c.line} of ${i ? chain[i - 1].function : f.name}`), ')'];
  }), also ? `; on CPython by ${whyFinding(also)}` : null);
}
