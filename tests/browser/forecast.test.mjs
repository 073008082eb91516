// forecast.test.mjs: the forecast line beside the trend on the overview
// (static/js/trend.mjs) says what GET .../forecast says.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const BASE = (process.env.PORTDASH_URL ?? '').replace(/\/+$/, '');
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];
let browser;

before(async () => {
  assert.ok(BASE, 'PORTDASH_URL is set');
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ARGS });
});
after(async () => { await browser?.close(); });

test('the trend shows the forecast of the weekly snapshots, or why there is none', async () => {
  const repos = await (await fetch(`${BASE}/api/v1/repos`)).json();
  const repo = repos[0].name;
  const ref = repos[0].refs.at(-1).name;
  const enc = encodeURIComponent;
  const fc = await (await fetch(`${BASE}/api/v1/repos/${enc(repo)}/forecast?ref=${enc(ref)}` +
    '&measure=object_paths.object-legacy')).json();
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${BASE}/index.html?repo=${enc(repo)}&rev=${enc(ref)}`);
  const line = page.locator('#trend-forecast');
  await line.waitFor({ state: 'visible', timeout: 20000 });
  const text = await line.textContent();
  if (fc.weeks === 0) assert.match(text, /no weekly snapshots/);
  else if (fc.projection) assert.ok(text.includes(fc.projection.zero_on), text);
  else assert.ok(text.includes(fc.note), `${text} should quote: ${fc.note}`);
  assert.deepEqual(errors, []);
  await page.close();
});
