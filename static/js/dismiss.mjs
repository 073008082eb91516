// dismiss.mjs: a finding's dismissal on the file page (POST and DELETE
// /api/v1/repos/{repo}/dismissals): its badge and an undo when it is
// dismissed, else a "dismiss…" button that opens the inline form in its
// cell.  Dismissing needs a token with the triage permission, kept for this
// tab only.

import * as api from './api.mjs';
import { h, append, replace } from './dom.mjs';

const TOKEN_KEY = 'portdash-triage-token';
const REASONS = ['false positive', "won't fix", 'used in tests'];
const NO_TOKEN = 'a token with the triage permission is needed (portdash token create --scope triage)';

function dismissedBadge(d) {
  if (!d) return '';
  return h('span', { class: 'badge dismissed-badge', title: `dismissed by ${d.by} at ${d.at}${d.comment ? `: ${d.comment}` : ''}` }, d.reason);
}

/** The inline form that dismisses finding f, in place of its cell's content. */
function dismissForm(td, f, at, refresh) {
  const reason = h('select', { name: 'reason', 'aria-label': 'Reason' }, REASONS.map((r) => h('option', { value: r }, r)));
  const comment = h('input', { name: 'comment', type: 'text', placeholder: 'comment', 'aria-label': 'Comment', maxlength: 4000 });
  const token = h('input', { name: 'token', type: 'password', placeholder: 'token (scope triage)', 'aria-label': 'Token',
    value: sessionStorage.getItem(TOKEN_KEY) ?? '' });
  const msg = h('span', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'dismiss-form', onsubmit: async (e) => {
    e.preventDefault();
    // Without a token the server can only refuse (401): said here, unasked.
    if (!token.value.trim()) {
      msg.textContent = NO_TOKEN;
      token.focus();
      return;
    }
    sessionStorage.setItem(TOKEN_KEY, token.value);
    try {
      await api.dismiss(at.repo, token.value, { rev: at.rev, path: at.path, fingerprint: f.fingerprint,
        reason: reason.value, comment: comment.value });
      await refresh();
    } catch (err) {
      msg.textContent = err.message;
    }
  } }, reason, comment, token, h('button', { type: 'submit' }, 'Dismiss'), msg);
  replace(td, form);
  reason.focus();
}

/**
 * The dismissal cell of finding f of file at = {repo, rev, path}; refresh()
 * reads the file's findings again once a dismissal changed them.
 */
export function dismissCell(f, at, refresh) {
  const td = h('td', { class: 'dismiss-cell' });
  if (f.dismissed) {
    return append(td, [dismissedBadge(f.dismissed), ' ', h('button', { type: 'button', class: 'linkish undo', onclick: async () => {
      const tok = sessionStorage.getItem(TOKEN_KEY) ?? '';
      if (!tok.trim()) {
        append(td, h('span', { class: 'form-error', role: 'alert' }, ` ${NO_TOKEN} (dismiss a finding first to give it)`));
        return;
      }
      try {
        await api.undismiss(at.repo, tok, f.dismissed.id);
        await refresh();
      } catch (err) {
        append(td, h('span', { class: 'form-error', role: 'alert' }, ` ${err.message}`));
      }
    } }, 'undo')]);
  }
  if (f.fingerprint) {
    td.append(h('button', { type: 'button', class: 'linkish dismiss', onclick: () => dismissForm(td, f, at, refresh) }, 'dismiss…'));
  }
  return td;
}
