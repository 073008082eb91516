// dismiss.mjs: a finding's dismissal on the file page (POST and DELETE
// /api/v1/repos/{repo}/dismissals): its badge and an undo when it is
// dismissed, else a "dismiss…" button that opens the inline form in its
// cell.  Dismissing and undoing need a token with the triage permission,
// kept for this tab only; an undo asks for it when none was given.

import * as api from './api.mjs';
import { h, append, replace } from './dom.mjs';

const TOKEN_KEY = 'portdash-triage-token';
const REASONS = ['false positive', "won't fix", 'used in tests'];
const NO_TOKEN = 'a token with the triage permission is needed (portdash token create --scope triage)';

function dismissedBadge(d) {
  if (!d) return '';
  return h('span', { class: 'badge dismissed-badge', title: `dismissed by ${d.by} at ${d.at}${d.comment ? `: ${d.comment}` : ''}` }, d.reason);
}

/* A form's token field, holding the tab's token if it has one. */
const tokenField = () => h('input', { name: 'token', type: 'password', placeholder: 'token (scope triage)',
  'aria-label': 'Token', value: sessionStorage.getItem(TOKEN_KEY) ?? '' });

/* The token in field token, kept for the tab; without one, null and msg
 * says it is needed: the server could only refuse (401), so it is not asked. */
function takeToken(token, msg) {
  if (!token.value.trim()) {
    msg.textContent = NO_TOKEN;
    token.focus();
    return null;
  }
  sessionStorage.setItem(TOKEN_KEY, token.value);
  return token.value;
}

/** The inline form that dismisses finding f, in place of its cell's content. */
function dismissForm(td, f, at, refresh) {
  const reason = h('select', { name: 'reason', 'aria-label': 'Reason' }, REASONS.map((r) => h('option', { value: r }, r)));
  const comment = h('input', { name: 'comment', type: 'text', placeholder: 'comment', 'aria-label': 'Comment', maxlength: 4000 });
  const token = tokenField();
  const msg = h('span', { class: 'form-error', role: 'alert' });
  const form = h('form', { class: 'dismiss-form', onsubmit: async (e) => {
    e.preventDefault();
    const tok = takeToken(token, msg);
    if (!tok) return;
    try {
      await api.dismiss(at.repo, tok, { rev: at.rev, path: at.path, fingerprint: f.fingerprint,
        reason: reason.value, comment: comment.value });
      await refresh();
    } catch (err) {
      msg.textContent = err.message;
    }
  } }, reason, comment, token, h('button', { type: 'submit' }, 'Dismiss'), msg);
  replace(td, form);
  reason.focus();
}

/* A word for a finding's next cell, by fingerprint: a refresh this cell
 * asked for draws the row again, and the word goes with the new row. */
const notes = new Map();

/* Undo f's dismissal with token tok; a problem is said in msg.  A 404 means
 * the dismissal changed meanwhile (undone, or dismissed again under a new
 * id, from another tab or by someone else): the row is read again and says
 * so.  A token refused opens the token field (undoForm). */
async function undo(td, f, at, refresh, tok, msg) {
  try {
    await api.undismiss(at.repo, tok, f.dismissed.id);
    await refresh();
  } catch (err) {
    if (err.status === 404) {
      notes.set(f.fingerprint, 'its dismissal had changed meanwhile; this is how it stands now');
      await refresh();
    } else if (err.status === 401 || err.status === 403) {
      undoForm(td, f, at, refresh, err.message);
    } else {
      msg.textContent = ` ${err.message}`;
    }
  }
}

/* The token field of an undo, in place of its button: when no token was
 * given in this tab yet, or the one given was refused (said). */
function undoForm(td, f, at, refresh, said = '') {
  const token = tokenField();
  const msg = h('span', { class: 'form-error', role: 'alert' }, said);
  const form = h('form', { class: 'dismiss-form undo-form', onsubmit: async (e) => {
    e.preventDefault();
    const tok = takeToken(token, msg);
    if (tok) await undo(td, f, at, refresh, tok, msg);
  } }, token, h('button', { type: 'submit' }, 'Undo'), msg);
  replace(td, dismissedBadge(f.dismissed), ' ', form);
  token.focus();
}

/**
 * The dismissal cell of finding f of file at = {repo, rev, path}; refresh()
 * reads the file's findings again once a dismissal changed them.
 */
export function dismissCell(f, at, refresh) {
  const td = h('td', { class: 'dismiss-cell' });
  if (f.dismissed) {
    const msg = h('span', { class: 'form-error', role: 'alert' });
    append(td, [dismissedBadge(f.dismissed), ' ', h('button', { type: 'button', class: 'linkish undo', onclick: () => {
      const tok = sessionStorage.getItem(TOKEN_KEY) ?? '';
      if (!tok.trim()) undoForm(td, f, at, refresh);
      else undo(td, f, at, refresh, tok, msg);
    } }, 'undo'), msg]);
  } else if (f.fingerprint) {
    td.append(h('button', { type: 'button', class: 'linkish dismiss', onclick: () => dismissForm(td, f, at, refresh) }, 'dismiss…'));
  }
  const note = notes.get(f.fingerprint);
  if (note) {
    notes.delete(f.fingerprint);
    td.append(h('span', { class: 'muted small dismiss-note', role: 'status' }, ` ${note}`));
  }
  return td;
}
