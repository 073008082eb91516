// hostile.test.mjs: what the browser shows of hostile repository text
// (issue 16): bidirectional control characters become visible marks
// (static/js/dom.mjs) instead of reordering a path or a source line, and
// the server forbids framing the dashboard.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, close, closeBrowser, launch, open } from './lib.mjs';

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

test('bidirectional controls are shown, not obeyed', async () => {
  const page = await open(`${BASE}/index.html`);
  const got = await page.evaluate(async () => {
    const { h } = await import('/js/dom.mjs');
    // The Trojan Source shape: an override inside what reads as a comment.
    const el = h('code', null, 'if (admin) /* \u202E } \u2066 */ {', h('b', { text: 'x\u2069y' }));
    return { text: el.textContent, marks: [...el.querySelectorAll('.bidi')].map((m) => m.title) };
  });
  await close(page);
  assert.equal(got.text, 'if (admin) /* <U+202E> } <U+2066> */ {x<U+2069>y');
  assert.deepEqual(got.marks, ['bidirectional control character U+202E',
    'bidirectional control character U+2066', 'bidirectional control character U+2069']);
  assert.ok(!/[\u202A-\u202E\u2066-\u2069]/.test(got.text), 'no control character left');
});

test('the dashboard cannot be framed', async () => {
  const res = await fetch(`${BASE}/index.html`);
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
});
