// forecast.test.mjs: the forecast line beside the trend on the overview
// (static/js/trend.mjs) says what GET .../forecast says.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open } from './lib.mjs';

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

test('the trend shows the forecast of the weekly snapshots, or why there is none', async () => {
  const repos = await apiOk('/api/v1/repos');
  const repo = repos[0].name;
  const ref = repos[0].refs.at(-1).name;
  const enc = encodeURIComponent;
  const fc = await apiOk(`/api/v1/repos/${enc(repo)}/forecast?ref=${enc(ref)}` +
    '&measure=object_paths.object-legacy');
  const page = await open(`${BASE}/index.html?repo=${enc(repo)}&rev=${enc(ref)}`);
  const line = page.locator('#trend-forecast');
  await line.waitFor({ state: 'visible', timeout: 20000 });
  const text = await line.textContent();
  if (fc.weeks === 0) assert.match(text, /no weekly snapshots/);
  else if (fc.projection) assert.ok(text.includes(fc.projection.zero_on), text);
  else assert.ok(text.includes(fc.note), `${text} should quote: ${fc.note}`);
  await close(page);
});
