// port.test.mjs: the traverse coverage and "next to port" panels
// (static/js/traverse.mjs, frontier.mjs) in a real browser.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// The server must serve the gcport fixture as repository "gcport" (run_all.sh
// ingests it beside the demo).  Every figure is read from the JSON API of
// the same server first, then looked for on the page.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open } from './lib.mjs';

const REPO = 'gcport';
const REV = 'hpy';
const enc = encodeURIComponent;
const num = (s) => Number(String(s).replace(/[,\s\u00a0]/g, ''));

let browser;
let traverse;  // GET .../traverse of gcport at hpy
let frontier;  // GET .../frontier of gcport at hpy




before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL');
  const repos = await apiOk('/api/v1/repos');
  assert.ok(repos.some((r) => r.name === REPO), `the server serves the ${REPO} fixture`);
  traverse = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/traverse`);
  frontier = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/frontier?limit=25`);
  browser = await launch();
});

after(async () => {
  await closeBrowser();
});

test('the overview lists every HPy type of the API with its members, unvisited ones in red', async () => {
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: REPO, rev: REV })}`);
  await page.waitForSelector('#traverse-table');
  const specs = await page.locator('#traverse-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.spec));
  assert.deepEqual(specs, traverse.types.map((t) => t.spec));
  const fields = traverse.types.flatMap((t) => t.fields);
  const unvisited = fields.filter((f) => !f.visited);
  assert.ok(unvisited.length > 0, 'the fixture has an unvisited member');
  assert.ok(traverse.types.some((t) => !t.fields.length && !t.struct_path), 'the fixture has a type whose struct has no HPyField');
  assert.equal(num(await page.locator('[data-metric="traverse-fields"]').textContent()), fields.length);
  assert.equal(num(await page.locator('[data-metric="traverse-unvisited"]').textContent()), unvisited.length);
  for (const t of traverse.types) {
    const row = page.locator(`#traverse-table tbody tr[data-spec="${t.spec}"]`);
    if (!t.fields.length) {
      // The analysis records only structs with HPyField members: a struct
      // not found may also be one the ingest did not read, so the cell
      // must not claim there are none (gcport's Plain).
      const cell = (await row.locator('td').last().textContent()).trim();   // the members, the last column
      if (t.struct_path) assert.equal(cell, 'no HPyField members', t.spec);
      else assert.match(cell, /^no HPyField members found: .* has none in the analysed files, or lies outside them/, t.spec);
    }
    for (const f of t.fields) {
      const li = row.locator(`li[data-field="${f.name}"]`);
      assert.equal(await li.getAttribute('data-visited'), String(f.visited), `${t.spec}.${f.name}`);
      const color = await li.locator('.badge').evaluate((el) => getComputedStyle(el).color);
      const [r, g] = color.match(/\d+/g).map(Number);
      assert.equal(r > g, !f.visited, `${t.spec}.${f.name} badge is red exactly when not visited (${color})`);
      if (f.introduced_in) {
        assert.ok((await li.textContent()).includes(f.introduced_in.slice(0, 10)), 'shows the commit of the member');
      }
      if (f.visited_since) {
        assert.ok((await li.textContent()).includes(f.visited_since.slice(0, 10)), 'shows the commit of the visit');
      }
    }
  }
  await close(page);
});

test('the next-to-port panel shows the frontier of the API in its order', async () => {
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: REPO, rev: REV })}`);
  await page.waitForSelector('#frontier-table');
  assert.equal(num(await page.locator('[data-metric="frontier-candidates"]').textContent()), frontier.candidates);
  const rows = await page.locator('#frontier-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    name: tr.dataset.name, path: tr.dataset.path,
    callers: tr.querySelector('[data-metric="bridged-callers"]').textContent,
  })));
  assert.deepEqual(rows.map((r) => [r.path, r.name, num(r.callers)]),
    frontier.functions.map((f) => [f.path, f.name, f.bridged_callers]));
  await close(page);
});

test('a file page shows the types of that file only, and no section in a file without types', async () => {
  const withTypes = traverse.types[0].path;
  let page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: REPO, rev: REV, path: withTypes })}`);
  await page.waitForSelector('#traverse-table');
  const specs = await page.locator('#traverse-table tbody tr').evaluateAll((rows) => rows.map((r) => r.dataset.spec));
  assert.deepEqual(specs, traverse.types.filter((t) => t.path === withTypes || t.struct_path === withTypes
    || t.traverse_path === withTypes).map((t) => t.spec));
  await close(page);
  const without = frontier.functions[0].path;
  assert.ok(!traverse.types.some((t) => [t.path, t.struct_path, t.traverse_path].includes(without)));
  page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: REPO, rev: REV, path: without })}`);
  assert.equal(await page.locator('#traverse').isHidden(), true);
  await close(page);
});

test('the demo repository shows both panels too, figures from the API', async () => {
  const repos = await apiOk('/api/v1/repos');
  const demo = repos.find((r) => r.name !== REPO);
  const ref = demo.refs[0].name;
  const t = await apiOk(`/api/v1/repos/${enc(demo.name)}/commits/${enc(ref)}/traverse`);
  const f = await apiOk(`/api/v1/repos/${enc(demo.name)}/commits/${enc(ref)}/frontier?limit=25`);
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: demo.name, rev: ref })}`);
  await page.waitForSelector('#traverse h2');
  assert.equal(num(await page.locator('[data-metric="traverse-types"]').textContent()), t.types.length);
  assert.equal(num(await page.locator('[data-metric="frontier-candidates"]').textContent()), f.candidates);
  await close(page);
});
