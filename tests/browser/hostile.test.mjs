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

// Issue 27: a tooltip or the page title cannot hold a mark, so there the
// controls are written out; a path's CR/LF show too.
test('tooltips and the page title show controls instead of obeying them', async () => {
  const page = await open(`${BASE}/index.html`);
  const got = await page.evaluate(async () => {
    const { h, setTitle } = await import('/js/dom.mjs');
    const el = h('a', { title: 'src/\u202Egnp.c line 3', 'aria-label': 'a\rb' }, 'x');
    setTitle('evil\r\n# heading\u2066 · demo');
    return { title: el.getAttribute('title'), label: el.getAttribute('aria-label'), doc: document.title };
  });
  await close(page);
  assert.equal(got.title, 'src/<U+202E>gnp.c line 3');
  assert.equal(got.label, 'a<U+000D>b');
  assert.equal(got.doc, 'evil<U+000D><U+000A># heading<U+2066> · demo');
});

test('the dashboard cannot be framed', async () => {
  const res = await fetch(`${BASE}/index.html`);
  assert.match(res.headers.get('content-security-policy') ?? '', /frame-ancestors 'none'/);
});

// A file path with "." or ".." segments is no file (git has none), and is
// never sent: the browser would resolve it into another route (a trial's
// path=../../REF/file-functions/X showed another ref's file under this
// one's breadcrumb).
test('dot segments in a file path do not reach another route', async () => {
  const evil = '../../hpy-convert-object-dtype/file-functions/src/refcount.c';
  const page = await open(`${BASE}/file.html?repo=demo&rev=hpy&path=${encodeURIComponent(evil)}`);
  const api = page.requests.filter((u) => u.includes('/api/v1/'));
  const text = await page.textContent('body');
  await close(page);
  for (const u of api) {
    assert.ok(!u.includes('/commits/hpy-convert-object-dtype/'), `no request left the ref: ${u}`);
  }
  assert.match(text, /a git path has no '\.' or '\.\.' segment/);
  assert.doesNotMatch(text, /Unexpected error/, 'the file answer\'s error, not the page\'s');
});

// A path of thousands of directories (a hand-made URL) keeps the header one
// line: the breadcrumb shows the first and last directories, "…" between.
test('a very long path keeps the breadcrumb short', async () => {
  const path = `${'a/'.repeat(1500)}x.c`;   // the query stays under the server's 8 KiB
  const page = await open(`${BASE}/file.html?repo=demo&rev=hpy&path=${encodeURIComponent(path)}`);
  const crumbs = await page.locator('#crumbs li').allTextContents();
  const height = await page.evaluate(() => document.querySelector('#crumbs').getBoundingClientRect().height);
  await close(page);
  assert.ok(crumbs.length <= 11, `${crumbs.length} items`);
  assert.ok(crumbs.includes('…'));
  assert.equal(crumbs[crumbs.length - 1], 'x.c');
  assert.ok(height < 80, `the breadcrumb is ${height} px high`);
});

// The same for a revision or repository of "..": never sent (a re-check
// reached /api/v1/repos/REPO/file-functions/... outside the commits route).
test('a dot segment as the revision is refused, not resolved', async () => {
  const page = await open(`${BASE}/file.html?repo=demo&rev=..&path=src/refcount.c`);
  const api = page.requests.filter((u) => u.includes('/api/v1/repos/'));
  await close(page);
  for (const u of api) assert.ok(u.includes('/commits/'), `a request outside the commits route: ${u}`);
});
