// lifecycle.test.mjs: browser tests of issue 23, points 4, 5 and 6:
// - a repository without data ("empty", a row with no ref, as a failed
//   first run of an older portdash left it) says so on the overview, with
//   no "unknown revision" errors;
// - port profiles: "reordered" (the default rules, profile auto, no object
//   paths) shows no object-dtype card, no scope that leaves object dtype
//   out and no numpy module scope, and its trend starts on functions
//   ported; "demo" (object paths) keeps them;
// - a file of "partial" (a --filter=blob:none clone) says the clone lacked
//   it.
// The setup is in tests/run_all.sh.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, api, close, closeBrowser, launch, open, shot } from './lib.mjs';

const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams(params)}`;

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  await launch();
});

after(async () => {
  await closeBrowser();
});

test('a repository without data says so instead of failing', async () => {
  const info = await apiOk('/api/v1/repos/empty');
  assert.equal(info.state, 'empty');
  const page = await open(overviewUrl({ repo: 'empty' }));
  await shot(page, 'lifecycle-empty');
  assert.match(await page.locator('.nodata').textContent(), /No data for empty yet/);
  assert.equal(await page.locator('#errors').isHidden(), true, 'no error box');
  assert.doesNotMatch(await page.locator('body').textContent(), /unknown revision/);
  assert.ok(!page.requests.some((u) => u.includes('/commits/HEAD')), 'nothing asked of HEAD');
  await close(page);
});

test('a port without object dtype shows none of it; one with it keeps it', async () => {
  const ro = await apiOk('/api/v1/repos/reordered/commits/main/summary');
  assert.equal(Object.values(ro.object_paths).reduce((a, b) => a + b, 0), 0);
  assert.equal((await apiOk('/api/v1/repos/reordered')).profile.object_dtype, 'auto');
  let page = await open(overviewUrl({ repo: 'reordered', rev: 'main' }));
  await shot(page, 'lifecycle-profile-none');
  assert.equal(await page.locator('#hero-h').count(), 0, 'no object-dtype card');
  const scopes = await page.locator('#scope-select option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(!scopes.includes('no-object-dtype'), `scopes ${scopes}`);
  assert.ok(!scopes.includes('multiarray') && !scopes.includes('umath'), `scopes ${scopes}`);
  assert.equal(await page.locator('#no-object').isHidden(), true);
  await page.waitForSelector('#trend-measure');
  assert.equal(await page.locator('#trend-measure').inputValue(), 'functions.ported');
  await close(page);

  page = await open(overviewUrl({ repo: 'demo', rev: 'hpy' }));
  assert.match(await page.locator('#hero-h').textContent(), /Object-dtype/);
  const demoScopes = await page.locator('#scope-select option').evaluateAll((os) => os.map((o) => o.value));
  assert.ok(demoScopes.includes('no-object-dtype'), `scopes ${demoScopes}`);
  await page.waitForSelector('#trend-measure');
  assert.equal(await page.locator('#trend-measure').inputValue(), 'object_paths.object-legacy');
  await close(page);
});

test('a file the clone lacked says so on its page', async () => {
  const miss = await apiOk('/api/v1/repos/partial/missing');
  assert.ok(miss.total > 0);
  const f = await api('/api/v1/repos/partial/commits/hpy/files/src/toyarray.c');
  assert.equal(f.status, 200);
  assert.ok(f.body.missing, 'the answer has missing');
  const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: 'partial', rev: 'hpy', path: 'src/toyarray.c' })}`);
  await shot(page, 'lifecycle-missing-file');
  assert.match(await page.locator('#file-missing').textContent(), /Not in the clone/);
  await close(page);
});
