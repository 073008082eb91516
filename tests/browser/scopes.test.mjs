// scopes.test.mjs: browser tests of the scope picker, the "Without object
// dtype" panel and the mixed item representation on the overview
// (static/js/scopes.mjs, static/js/items.mjs).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// Like dashboard.test.mjs, every case first asks the JSON API of the same
// server and then checks that the page shows exactly those figures.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BASE, apiOk, close, closeBrowser, launch, here, open, SHOTS } from './lib.mjs';

const NO_OBJECT = 'no-object-dtype';

let browser;
let repo;
let refs;

const enc = encodeURIComponent;
const commitApi = (r, v) => `/api/v1/repos/${enc(r)}/commits/${enc(v)}`;
const num = (s) => Number(String(s).replace(/[,\s\u00a0]/g, ''));
const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams(params)}`;




async function metric(page, name) {
  return num(await page.locator(`[data-metric="${name}"]`).first().textContent());
}

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  const repos = await apiOk('/api/v1/repos');
  repo = repos[0].name;
  refs = repos[0].refs.map((r) => r.name);
  browser = await launch();
});

after(async () => {
  await closeBrowser();
});

test('the no-object-dtype panel shows the API\'s scoped figures and lists every blocker file', async () => {
  const rev = refs[refs.length - 1];
  const full = await apiOk(`${commitApi(repo, rev)}/summary`);
  const sc = await apiOk(`${commitApi(repo, rev)}/summary?scope=${NO_OBJECT}`);
  const bl = await apiOk(`${commitApi(repo, rev)}/blockers?scope=${NO_OBJECT}`);
  const page = await open(overviewUrl({ repo, rev }));
  assert.equal(await page.locator('#no-object').isVisible(), true);
  assert.equal(await metric(page, 'noobj-universal-ready'), sc.universal_ready_files);
  assert.equal(await metric(page, 'noobj-blocker-files'), bl.total);
  assert.equal(await metric(page, 'noobj-blocker-functions'), bl.functions_total);
  for (const st of ['ported', 'bridged', 'legacy', 'neutral']) {
    assert.equal(await metric(page, `noobj-functions-${st}`), sc.functions[st], st);
  }
  assert.equal(await metric(page, 'noobj-tokens-capi'), sc.tokens.capi);
  const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
  assert.equal(await metric(page, 'noobj-left-out'), sum(full.functions) - sum(sc.functions));
  // The text explains the plan: object arrays raise an error in universal mode.
  assert.match(await page.locator('#no-object .noobj-text').textContent(), /raises an error/);
  const rows = page.locator('#blockers details.blocker-file');
  assert.equal(await rows.count(), bl.files.length);
  for (const f of bl.files) {
    const row = page.locator(`#blockers details[data-path="${f.path.replace(/"/g, '\\"')}"]`);
    const capi = f.functions.reduce((a, x) => a + x.capi, 0) + f.file_scope.capi;
    assert.equal(Number(await row.getAttribute('data-capi')), capi, f.path);
    assert.equal(Number(await row.getAttribute('data-functions')), f.functions.length, f.path);
    if (f.functions.length) {
      const href = await row.locator('.blocker-fns a').first().getAttribute('href');
      assert.ok(href.startsWith('file.html?') && href.endsWith(`#L${f.functions[0].start_line}`), href);
    }
  }
  await close(page);
});

test('the scope picker keeps the scope in the URL, and totals, files and trend follow it', async () => {
  const rev = refs[refs.length - 1];
  const sc = await apiOk(`${commitApi(repo, rev)}/summary?scope=${NO_OBJECT}`);
  const files = (await apiOk(`${commitApi(repo, rev)}/files?scope=${NO_OBJECT}`)).files;
  const scopes = await apiOk('/api/v1/scopes');
  let page = await open(overviewUrl({ repo, rev }));
  const options = await page.locator('#scope-select option').evaluateAll((os) => os.map((o) => o.value));
  // The picker offers the scopes that select a file of the commit (a port
  // profile, issue 23 point 4: numpy's module scopes are not offered where
  // no such directory is).
  const paths = (await apiOk(`${commitApi(repo, rev)}/files`)).files.map((f) => f.path);
  const globRe = (g) => new RegExp(`^${g.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\//g, '(?:.*/)?')
    .replace(/\*\*/g, '.*').replace(/(?<![.])\*/g, '[^/]*')}$`);
  const applies = (sc) => !sc.include.length || paths.some((x) => sc.include.some((g) => globRe(g).test(x)));
  assert.deepEqual(options, ['', ...scopes.filter(applies).map((x) => x.name)]);
  assert.ok(options.includes(NO_OBJECT));
  await Promise.all([page.waitForNavigation(), page.selectOption('#scope-select', NO_OBJECT)]);
  await page.waitForSelector('body[data-ready]', { timeout: 20000 });
  assert.equal(new URL(await here(page)).searchParams.get('scope'), NO_OBJECT);
  await close(page);
  page = await open(overviewUrl({ repo, rev, scope: NO_OBJECT }));
  assert.equal(await page.locator('#scope-banner').isVisible(), true);
  assert.equal(await page.locator('#scope-name').textContent(), NO_OBJECT);
  assert.equal(await page.locator('#scope-select').inputValue(), NO_OBJECT);
  for (const st of ['ported', 'bridged', 'legacy', 'neutral']) {
    assert.equal(await metric(page, `functions-${st}`), sc.functions[st], st);
  }
  assert.equal(await metric(page, 'universal-ready'), sc.universal_ready_files);
  assert.equal(await metric(page, 'tokens-capi'), sc.tokens.capi);
  assert.equal(Number(await page.locator('#row-count').getAttribute('data-total')), files.length);
  await page.waitForFunction(() => [...performance.getEntriesByType('resource')].some((e) => e.name.includes('/history?')),
    null, { timeout: 10000 });
  const hist = page.requests.filter((u) => u.includes('/history?'));
  assert.ok(hist.length > 0 && hist.every((u) => new URL(u).searchParams.get('scope') === NO_OBJECT), hist.join(' '));
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, 'overview-scope.png'), fullPage: true });
  await close(page);
});

test('under a scope, the panels that count the whole repository say so', async () => {
  // Found in a browser walk: the multiarray overview showed the whole
  // repository's blockers and next functions beside the scope's totals.
  const rev = refs[refs.length - 1];
  let page = await open(overviewUrl({ repo, rev }));
  await page.waitForSelector('#frontier h2, #frontier h3', { timeout: 20000 });
  await page.waitForSelector('#dc-next-h');
  assert.equal(await page.locator('[data-whole-repo]').count(), 0, 'no note without a scope');
  await close(page);
  page = await open(overviewUrl({ repo, rev, scope: NO_OBJECT }));
  await page.waitForSelector('#frontier [data-whole-repo]', { timeout: 20000 });
  assert.match(await page.locator('#frontier [data-whole-repo]').textContent(),
    new RegExp(`^The whole repository: the scope ${NO_OBJECT} does not apply`));
  // the week card's next functions come from the same answer
  assert.equal(await page.locator('#dc-next-h + [data-whole-repo]').count(), 1);
  // the no-object-dtype panel is the page's own scope: no note there
  assert.equal(await page.locator('#no-object [data-whole-repo]').count(), 0);
  await close(page);
});

test('an unknown scope in the URL is reported, not shown as figures', async () => {
  const page = await open(overviewUrl({ repo, rev: refs[0], scope: 'no-such-scope' }));
  assert.equal(await page.locator('#errors').isVisible(), true);
  assert.match(await page.locator('#errors').textContent(), /unknown scope 'no-such-scope'/);
  await close(page);
});

test('a mixed item representation is said at the top with every PyObject * item site', async () => {
  let seenMixed = false;
  for (const rev of refs) {
    const items = await apiOk(`${commitApi(repo, rev)}/object-items`);
    const page = await open(overviewUrl({ repo, rev }));
    assert.equal(await page.locator('#object-items').isVisible(), items.mixed, rev);
    if (items.mixed) {
      seenMixed = true;
      assert.equal(await metric(page, 'items-legacy'), items.legacy_site_count);
      assert.equal(await metric(page, 'items-field'), items.field_site_count);
      const rows = page.locator('#items-table tbody tr');
      assert.equal(await rows.count(), items.legacy_sites.length);
      for (let i = 0; i < items.legacy_sites.length; i++) {
        const s = items.legacy_sites[i];
        const row = rows.nth(i);
        assert.equal(await row.getAttribute('data-path'), s.path);
        assert.equal(Number(await row.getAttribute('data-line')), s.line);
        assert.ok((await row.locator('a.line-link').getAttribute('href')).endsWith(`#L${s.line}`));
      }
      // The warning sits above the totals.
      const order = await page.evaluate(() => document.getElementById('object-items')
        .compareDocumentPosition(document.getElementById('summary')) & Node.DOCUMENT_POSITION_FOLLOWING);
      assert.ok(order, 'the item warning comes before the summary');
      // Under a scope that leaves object dtype out, object arrays stay on
      // the legacy API: no warning that every site must move to HPyField.
      const scope = (await apiOk('/api/v1/scopes')).find((x) => x.exclude_object_paths);
      const sp = await open(overviewUrl({ repo, rev, scope: scope.name }));
      await sp.waitForSelector('#scope-banner:not([hidden])');
      await sp.waitForSelector('#devcall[data-complete]');
      assert.equal(await sp.locator('#object-items').isVisible(), false, `${rev} under ${scope.name}`);
      await close(sp);
    }
    await close(page);
  }
  assert.ok(seenMixed, 'the demo has a ref with a mixed item representation');
});
