// truth2.test.mjs: what the overview, trend and compare pages say must hold
// (issue 11, items 9-12): a scope that leaves object dtype out never reads
// as done, forecasts in calendar time, the trend on a rebased branch, and
// the gate's verdict on the compare page.
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/truth2.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

const NO_OBJECT = 'no-object-dtype';
const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams(params)}`;
let refs;

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  const repos = await apiOk('/api/v1/repos');
  refs = repos.find((r) => r.name === 'demo').refs.map((r) => r.name);
  await launch();
});

after(async () => {
  await closeBrowser();
});

/* ---------- 10: a scope that leaves object dtype out ---------- */

test('under no-object-dtype the object-dtype card says the scope leaves it out, never a green 0', async () => {
  for (const rev of refs) {
    const page = await open(overviewUrl({ repo: 'demo', rev, scope: NO_OBJECT }));
    try {
      const card = page.locator('#object-left-out');
      assert.ok(await card.isVisible(), `${rev}: the card says the scope leaves object dtype out`);
      assert.match(await card.innerText(), /leaves object dtype out/);
      assert.equal(await page.locator('.hero-good').count(), 0, `${rev}: no green card`);
      assert.doesNotMatch(await card.innerText(), /100\s*%|\b0\b/);
      const whole = new URL(await page.locator('#object-whole').getAttribute('href'), BASE);
      assert.equal(whole.searchParams.get('scope'), null, 'the link leads to the whole repository');
      if (rev === refs[0]) await shot(page, 'truth2-scope-object-card');
    } finally {
      await close(page);
    }
  }
  // Without the scope, the card counts as before.
  const page = await open(overviewUrl({ repo: 'demo', rev: refs[0] }));
  try {
    assert.equal(await page.locator('#object-left-out').count(), 0);
    const s = await apiOk(`/api/v1/repos/demo/commits/${refs[0]}/summary`);
    assert.equal(Number(await page.locator('[data-metric="object-legacy"]').first().innerText()),
      s.object_paths['object-legacy']);
  } finally {
    await close(page);
  }
});

test('under no-object-dtype the object-dtype badges say "left out by scope" in grey, not "100% done"', async () => {
  for (const m of ['object_paths.object-legacy', 'object_paths.object-universal']) {
    const r = await api(`/badge/demo/${refs[0]}/${m}.svg?scope=${NO_OBJECT}`);
    assert.equal(r.status, 200);
    assert.match(r.body, /left out by scope/, m);
    assert.doesNotMatch(r.body, /% done|#4c1|#97ca00/, m);
    const whole = await api(`/badge/demo/${refs[0]}/${m}.svg`);
    assert.match(whole.body, /% done/, `${m} without a scope still has its figure`);
  }
  // Badges of other measures keep their figure under the scope.
  const fn = await api(`/badge/demo/${refs[0]}/functions.ported.svg?scope=${NO_OBJECT}`);
  assert.match(fn.body, /no-object-dtype: functions ported/);
  assert.match(fn.body, /% done/);
});
