// truth.test.mjs: what the source view says must hold (issue 11, item 8).
//
// A token that carries a bridge finding beside its HPy one
// (`HPyField_Store(ctx, HPy_NULL, ...)`: hpy by its name, a bridge by its
// owner) is painted as a bridge, never green as HPy.  The commit is found
// through the API: the first one on the demo's object-dtype branch whose
// src/refcount.c has a field-null-owner finding.
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  await launch();
});

after(async () => {
  await closeBrowser();
});

test('a token with a bridge finding is painted as a bridge, not as HPy', async () => {
  const hist = await apiOk('/api/v1/repos/demo/refs/hpy-convert-object-dtype/history');
  let commit = null;
  let finding = null;
  for (const p of hist.points) {
    const r = await fetch(`${BASE}/api/v1/repos/demo/commits/${p.commit}/files/src/refcount.c`);
    if (r.status !== 200) continue;
    const d = await r.json();
    finding = d.findings.find((f) => f.rule === 'field-null-owner');
    if (finding) { commit = p.commit; break; }
  }
  assert.ok(commit, 'a commit of the demo has HPyField_Store(ctx, HPy_NULL, ...)');
  assert.equal(finding.class, 'bridge');
  const url = `${BASE}/file.html?${new URLSearchParams({ repo: 'demo', rev: commit, path: 'src/refcount.c' })}`;
  const page = await open(url);
  try {
    const row = page.locator(`#L${finding.line}`);
    await row.waitFor();
    const marks = await row.locator('mark.tk').evaluateAll((ms) => ms.map((m) => ({
      text: m.textContent, cls: m.className })));
    const mark = marks.find((m) => m.text === finding.text);
    assert.ok(mark, `the token ${finding.text} is marked`);
    assert.match(mark.cls, /\btk-bridge\b/);
    assert.doesNotMatch(mark.cls, /\btk-hpy\b/);
    await shot(page, 'truth-bridge-token');
  } finally {
    await close(page);
  }
});

test('each function says why it has its status and object state (rule and line)', async () => {
  const d = await apiOk('/api/v1/repos/demo/commits/hpy/files/src/refcount.c');
  const fn = d.functions.find((f) => f.object_state === 'object-legacy');
  assert.ok(fn?.why?.object?.rule, 'the API gives the deciding item site');
  const url = `${BASE}/file.html?${new URLSearchParams({ repo: 'demo', rev: 'hpy', path: 'src/refcount.c' })}`;
  const page = await open(url);
  try {
    const row = page.locator(`#functions-table tbody tr[data-name="${fn.name}"]`);
    await row.waitFor();
    const status = await row.locator('td.fn-status').getAttribute('title');
    const object = await row.locator('td.fn-object').getAttribute('title');
    const w = fn.why;
    assert.equal(status, `${fn.status}: ${w.status.rule} \`${w.status.text}\` at line ${w.status.line}`);
    assert.equal(object, `object-legacy: ${w.object.rule} \`${w.object.text}\` at line ${w.object.line}`);
    // Visible text, not only a tooltip: rule and line under each badge, linking to the line.
    const sWhy = row.locator('td.fn-status .why');
    assert.equal(await sWhy.innerText(), `${w.status.rule} \`${w.status.text}\` at line ${w.status.line}`);
    assert.ok(await sWhy.isVisible());
    assert.equal(await sWhy.locator('a').getAttribute('href'), `#L${w.status.line}`);
    const oWhy = row.locator('td.fn-object .why');
    assert.equal(await oWhy.innerText(), `${w.object.rule} \`${w.object.text}\` at line ${w.object.line}`);
    assert.equal(await oWhy.locator('a').getAttribute('href'), `#L${w.object.line}`);
  } finally {
    await close(page);
  }
});

test('every function with a why shows it as text on its row, in every file of the demo', async () => {
  const tree = await apiOk('/api/v1/repos/demo/commits/hpy-convert-object-dtype/files');
  const files = (tree.files ?? tree).map((f) => f.path).filter((p) => /\.c$/.test(p)).slice(0, 4);
  assert.ok(files.length, 'the demo has C files');
  for (const path of files) {
    const d = await apiOk(`/api/v1/repos/demo/commits/hpy-convert-object-dtype/files/${path}`);
    const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: 'demo', rev: 'hpy-convert-object-dtype', path })}`);
    try {
      for (const fn of d.functions) {
        const row = page.locator(`#functions-table tbody tr[data-name="${fn.name}"]`).first();
        if (await row.count() === 0 || !(await row.isVisible())) continue;
        const st = row.locator('td.fn-status .why');
        if (fn.why?.status) assert.match(await st.innerText(), new RegExp(`at line ${fn.why.status.line}$`));
        else assert.equal(await st.count(), 0, `${path} ${fn.name}: no why, no line`);
        const ob = row.locator('td.fn-object .why');
        assert.equal(await ob.count(), fn.object_state && fn.why?.object ? 1 : 0, `${path} ${fn.name}: object why`);
      }
    } finally {
      await close(page);
    }
  }
});


// tests/fixtures/objchain: src/shutdown.c's shutdown_arrays calls
// src/clear.c's clear_all (line 8), which calls src/items.c's
// release_items (line 6), which reads PyObject * items (line 5); and
// src/convert.c makes to_int8, to_int16 and to_int32 with one macro.
test('a state given by calls links each hop: the callee and the line of its call', async () => {
  const at = (path) => apiOk(`/api/v1/repos/objchain/commits/hpy/files/${path}`);
  const top = (await at('src/shutdown.c')).functions.find((f) => f.name === 'shutdown_arrays');
  const chain = top.why.object.chain;
  assert.deepEqual(chain.map((c) => [c.function, c.path, c.line]),
    [['clear_all', 'src/clear.c', 8], ['release_items', 'src/items.c', 6]]);
  const leaf = (await at('src/items.c')).functions.find((f) => f.name === 'release_items');
  const fileUrl = (path) => `file.html?${new URLSearchParams({ repo: 'objchain', rev: 'hpy', path })}`;
  const page = await open(`${BASE}/${fileUrl('src/shutdown.c')}`);
  try {
    const why = page.locator('#functions-table tbody tr[data-name="shutdown_arrays"] td.fn-object .why');
    await why.waitFor();
    assert.equal(await why.innerText(),
      'via clear_all in src/clear.c (called at line 8 of shutdown_arrays) → release_items in src/items.c (called at line 6 of clear_all)');
    // Each callee: its function in the file that defines it.
    assert.deepEqual(await why.locator('a.why-callee').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      [`${fileUrl('src/clear.c')}#fn=clear_all`, `${fileUrl('src/items.c')}#fn=release_items`]);
    // Each call: its line in the caller's file, the first one in this file.
    assert.deepEqual(await why.locator('a.why-call').evaluateAll((as) => as.map((a) => a.getAttribute('href'))),
      ['#L8', `${fileUrl('src/clear.c')}#L6`]);
    await why.locator('a.why-call').first().click();
    assert.match(await page.locator('#L8.selected').innerText(), /clear_all\(arrs\[i\]\)/);
    await shot(page, 'truth-chain-links');
    // The last callee's page shows its lines and its own reason.
    await why.locator('a.why-callee').last().click();
    await page.waitForURL(/path=src%2Fitems\.c/);
    await page.locator(`#L${leaf.start_line}.selected`).waitFor();
    assert.equal(new URL(page.url()).hash, `#L${leaf.start_line}-L${leaf.end_line}`);
    assert.equal(await page.locator(`#L${leaf.end_line}`).getAttribute('class').then((c) => /\bselected\b/.test(c)), true);
    const own = page.locator('#functions-table tbody tr[data-name="release_items"] td.fn-object .why');
    assert.equal(await own.innerText(), `${leaf.why.object.rule} \`${leaf.why.object.text}\` at line ${leaf.why.object.line}`);
  } finally {
    await close(page);
  }
});

test('functions a macro of the file makes are one row, named as the macro pastes it', async () => {
  const d = await apiOk('/api/v1/repos/objchain/commits/hpy/files/src/convert.c');
  assert.deepEqual(d.functions.map((f) => [f.name, f.start_line, f.end_line, f.status]),
    [['to_int8', 3, 8, 'legacy'], ['to_int16', 3, 8, 'legacy'], ['to_int32', 3, 8, 'legacy']]);
  const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: 'objchain', rev: 'hpy', path: 'src/convert.c' })}`);
  try {
    const row = page.locator('#functions-table tbody tr.tmpl-group');
    await row.waitFor();
    assert.equal(await row.count(), 1);
    assert.equal(await row.locator('code.tmpl-name').innerText(), 'to_##kind');
    assert.match(await row.locator('th').innerText(), /· macro DECLARE_TO, 3 uses$/);
    await row.locator('button.toggle').click();
    const names = page.locator('#functions-table tbody tr.tmpl-instance th code');
    assert.deepEqual(await names.allInnerTexts(), ['to_int8', 'to_int16', 'to_int32']);
    await shot(page, 'truth-macro-functions');
  } finally {
    await close(page);
  }
});
