// missing.test.mjs: a port whose clone lacks a file's blob, as
// ultrajson-hpy's mirror lacks deps/double-conversion's gay-*.cc: the
// "lostblob" fixture (no object dtype), its tests/table-fixed.cc taken out
// of the clone by tests/run_all.sh.
// - every count of files on the overview is the summary's: the file whose
//   blob is missing is listed, said so, and counted in none;
// - the overview's links lead to sections that show, and a port without
//   object dtype (lostblob, like ultrajson; reordered) says it has none
//   rather than count 0 object-dtype paths; a scope that leaves object
//   dtype out likewise shows no object-dtype row or column of zeros;
// - the file page of a file whose blob is missing says so once, with no
//   error and no request left pending (the colouring worker was).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/missing.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, blank, close, closeBrowser, launch, open, shot } from './lib.mjs';

const REPO = 'lostblob';
const LOST = 'tests/table-fixed.cc';
const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams({ repo: REPO, rev: 'hpy', ...params })}`;

before(async () => {
  await launch();
});

after(async () => {
  await closeBrowser();
});

/** "2 of 3" (or "2/3") in a text as {ready, files}. */
function ratio(text) {
  const m = /(\d+)\s*(?:of|\/)\s*(\d+)/.exec(text ?? '');
  assert.ok(m, `no "N of M" in ${JSON.stringify(text)}`);
  return { ready: Number(m[1]), files: Number(m[2]) };
}

/* Where the overview counts files, and how to read its figures there. */
const FILE_COUNTS = [
  ['the first card', async (p) => ratio(await p.locator('#dc-far .big-ratio').textContent())],
  ['the totals card', async (p) => ratio(await p.locator('#universal-ready').textContent())],
  ['the file table\'s footer', async (p) => ratio(await p.locator('#files-table tfoot td:last-child').textContent())],
  ['the directory tree', async (p) => (await p.locator('#dir-tree tr.dir[data-depth="0"] .t-ready-text').allTextContents())
    .map(ratio).reduce((a, b) => ({ ready: a.ready + b.ready, files: a.files + b.files }))],
  ['the file table\'s count', async (p) => ({ ready: null,
    files: Number(/^(\d+) files\b/.exec(await p.locator('#row-count').textContent())?.[1]) })],
];

test('a file whose blob is missing is listed and counted nowhere, so every count of files agrees', async () => {
  const sum = await apiOk(`/api/v1/repos/${REPO}/commits/hpy/summary`);
  const list = await apiOk(`/api/v1/repos/${REPO}/commits/hpy/files`);
  assert.equal(list.files.find((f) => f.path === LOST)?.status, 'unanalysed', 'the fixture lacks the blob');
  assert.equal(sum.files, list.files.length - 1);
  const page = await open(overviewUrl({}));
  await shot(page, 'missing-overview');
  for (const [where, read] of FILE_COUNTS) {
    const got = await read(page);
    assert.equal(got.files, sum.files, `files in ${where}`);
    if (got.ready != null) assert.equal(got.ready, sum.universal_ready_files, `universal-ready files in ${where}`);
  }
  // Listed, and said so where the counts are.
  const row = page.locator('#files-table tbody tr[data-status="unanalysed"]');
  assert.match(await row.textContent(), /table-fixed\.cc.*blob missing/);
  assert.match(await page.locator('#row-count').textContent(), /1 more not analysed \(blob missing\)/);
  for (const id of ['#files-missing', '#ready-missing']) {
    assert.match(await page.locator(id).textContent(), /1 file is listed but counted in no figure: its blob is missing/);
  }
  await close(page);
});

/* Ports with and without object dtype (their profile's, by the commit). */
const PORTS = [
  { repo: 'lostblob', rev: 'hpy', objectDtype: false },
  { repo: 'reordered', rev: 'main', objectDtype: false },
  { repo: 'demo', rev: 'hpy', objectDtype: true },
  { repo: 'gcport', rev: 'hpy', objectDtype: false },
  { repo: 'objchain', rev: 'hpy', objectDtype: true },
];

test('the overview links only to sections that show; a port without object dtype says it has none', async () => {
  for (const port of PORTS) {
    const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: port.repo, rev: port.rev })}`);
    await page.waitForSelector('#devcall[data-complete]');
    for (const a of await page.locator('#more-nav a[href^="#"], #devcall a[href^="#"]').all()) {
      if (!(await a.isVisible())) continue;
      const href = await a.getAttribute('href');
      const target = page.locator(href);
      assert.equal(await target.count(), 1, `${port.repo}: "${await a.textContent()}" links to ${href}, which is not there`);
      assert.ok(await target.isVisible(), `${port.repo}: "${await a.textContent()}" links to ${href}, which is hidden`);
    }
    const week = page.locator('#dc-week-card');
    const objectRow = week.locator('tr[data-measure="object_paths.object-legacy"]');
    const objectColumns = page.locator('#files-table thead th, #dir-tree thead th').filter({ hasText: /Object-dtype/i });
    const trendObject = page.locator('#trend-measure option[value^="object_paths."]');
    await page.waitForSelector('#trend-measure');
    if (port.objectDtype) {
      assert.equal(await objectRow.count(), 1, `${port.repo}: the week counts object-dtype paths`);
      assert.ok(await objectColumns.count() > 0, `${port.repo}: object-dtype columns`);
      assert.ok(await trendObject.count() > 0, `${port.repo}: object-dtype measures in the trend`);
    } else {
      assert.equal(await objectRow.count(), 0, `${port.repo}: no object-dtype row of zeros in the week`);
      assert.match(await week.textContent(), /This port has no object-dtype code/);
      assert.equal(await page.locator('a[href="#no-object"]:visible').count(), 0, `${port.repo}: no link to #no-object`);
      assert.equal(await objectColumns.count(), 0, `${port.repo}: no object-dtype columns of zeros`);
      assert.equal(await trendObject.count(), 0, `${port.repo}: no object-dtype measure in the trend`);
      assert.equal(await page.locator('#f-obj').isVisible(), false, `${port.repo}: no object-path filter`);
      assert.doesNotMatch(await page.locator('#universal-ready').locator('..').textContent(), /object-dtype state/,
        `${port.repo}: the universal-ready card points to no object-dtype state`);
    }
    // Nothing blocking: said once, not a table of none (kiwi)
    const sym = await apiOk(`/api/v1/repos/${port.repo}/commits/${port.rev}/symbols`);
    await page.waitForSelector('#symbols-h');
    assert.equal(await page.locator('#symbols-table').count(), sym.total ? 1 : 0, `${port.repo}: symbols table`);
    assert.equal(await page.locator('#symbols-none').count(), sym.total ? 0 : 1, `${port.repo}: nothing blocks`);
    await close(page);
    if (!port.objectDtype) {
      // a scope it does not offer here, asked by URL: named, not "unknown"
      const sp = await open(`${BASE}/index.html?${new URLSearchParams({ repo: port.repo, rev: port.rev, scope: 'no-object-dtype' })}`);
      await sp.waitForSelector('#scope-select:not([disabled])');
      assert.equal(await sp.locator('#scope-select option:checked').textContent(), 'no-object-dtype (nothing it leaves out here)');
      await close(sp);
    }
  }
});

test('under a scope that leaves object dtype out, no object-dtype row or column of zeros; no object items column without object dtype', async () => {
  // demo has object-dtype paths; no-object-dtype counts none of them (every
  // object-dtype figure under it is 0), as the object-dtype card says.
  const scope = (await apiOk('/api/v1/scopes')).find((x) => x.exclude_object_paths);
  assert.ok(scope, 'a scope that leaves object dtype out');
  const files = (await apiOk(`/api/v1/repos/demo/commits/hpy/files?scope=${scope.name}`)).files;
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: 'demo', rev: 'hpy', scope: scope.name, obj: 'object-legacy' })}`);
  await page.waitForSelector('#trend-measure');
  const week = page.locator('#dc-week-card');
  assert.equal(await week.locator('tr[data-measure="object_paths.object-legacy"]').count(), 0, 'no object-dtype row of 0 ±0 in the week');
  assert.equal(await week.locator('#dc-week-object-left-out').textContent(),
    `The scope ${scope.name} leaves object dtype out: its object-dtype paths are not counted here.`);
  assert.equal(await page.locator('#files-table thead th, #dir-tree thead th').filter({ hasText: /Object-dtype|legacy API|CPython-only|universal$/i }).count(), 0,
    'no object-dtype columns of zeros');
  assert.equal(await page.locator('#files-table tbody tr:first-child td.col-ob').count(), 0);
  assert.equal(await page.locator('#f-obj').isVisible(), false, 'no object-path filter');
  assert.equal(await page.locator('#row-count').getAttribute('data-shown'), String(files.length), 'the object filter of the URL is dropped with it');
  assert.equal(await page.locator('#trend-measure option[value^="object_paths."]').count(), 0, 'no object-dtype measure in the trend');
  assert.ok(await page.locator('#object-left-out').isVisible(), 'the object-dtype card says the scope leaves it out');
  await close(page);
  // Traverse coverage: whether a type visits the object items of an
  // array buffer is a question for a port with object dtype only.
  for (const port of PORTS) {
    const tv = await apiOk(`/api/v1/repos/${port.repo}/commits/${port.rev}/traverse`);
    if (!tv.types.length) continue;
    const p = await open(`${BASE}/index.html?${new URLSearchParams({ repo: port.repo, rev: port.rev })}`);
    await p.waitForSelector('#traverse-table');
    const heads = await p.locator('#traverse-table thead th').allTextContents();
    assert.equal(heads.includes('Object items visited'), port.objectDtype, `${port.repo}: ${heads.join(', ')}`);
    for (const n of await p.locator('#traverse-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.cells.length))) {
      assert.equal(n, heads.length, `${port.repo}: one cell a column`);
    }
    await close(p);
  }
});

test('the file page of a port without object dtype has no object-dtype column, legend, history measure or traverse column', async () => {
  for (const port of PORTS) {
    const files = (await apiOk(`/api/v1/repos/${port.repo}/commits/${port.rev}/files`)).files
      .filter((f) => Object.values(f.functions ?? {}).reduce((a, b) => a + b, 0) > 0);
    if (!files.length) continue;
    const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: port.repo, rev: port.rev, path: files[0].path })}`);
    await page.waitForSelector('#functions-table[data-object-columns]');
    const heads = await page.locator('#functions-table thead th').allTextContents();
    const onPaths = files[0].object_paths && Object.values(files[0].object_paths).some((n) => n > 0);
    const want = port.objectDtype || !!onPaths;
    assert.equal(heads.some((t) => /Object-dtype path/.test(t)), want, `${port.repo} ${files[0].path}: ${heads.join(', ')}`);
    for (const n of await page.locator('#functions-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.cells.length))) {
      assert.equal(n, heads.length, `${port.repo}: one cell a column`);
    }
    assert.equal(await page.locator('#legend-slot').getByText('Object-dtype paths').count(), want ? 1 : 0,
      `${port.repo}: the legend's object-dtype paths`);
    // the file's history offers object-dtype measures only where they mean something
    await page.waitForSelector('#spark-measure');
    const measures = await page.locator('#spark-measure option').evaluateAll((os) => os.map((o) => o.value));
    assert.equal(measures.some((m) => m.startsWith('object_paths.')), want, `${port.repo}: ${measures.join(', ')}`);
    await close(page);
  }
});

/* Files whose blob the clone lacks: with no analysis (lostblob's), and
 * with the analysis another repository's ingest stored for the same
 * content (partial's, a blobless clone of the demo). */
const LOST_FILES = [
  { repo: REPO, path: LOST, analysed: false },
  { repo: 'partial', path: 'src/toyarray.c', analysed: true },
];

test('the file page of a blob the clone lacks says so once, without errors or pending requests', async () => {
  for (const c of LOST_FILES) {
    const page = await blank();
    const pending = new Set();
    page.on('request', (r) => pending.add(r));
    page.on('requestfinished', (r) => pending.delete(r));
    page.on('requestfailed', (r) => pending.delete(r));
    await page.goto(`${BASE}/file.html?${new URLSearchParams({ repo: c.repo, rev: 'hpy', path: c.path })}`);
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    await page.waitForTimeout(1000);
    await shot(page, `missing-file-${c.repo}`);
    assert.deepEqual([...pending].map((r) => r.url()), [], `${c.repo}: requests left pending`);
    assert.equal(await page.locator('#errors').isHidden(), true,
      `${c.repo}: no error box: ${await page.locator('#errors').textContent()}`);
    const body = await page.locator('#main').textContent();
    if (c.analysed) {
      assert.match(await page.locator('#file-missing').textContent(), /Not in the clone/);
      assert.match(body, /The analysis above is stored/);
    } else {
      assert.match(await page.locator('#file-missing').textContent(), /^Blob missing\. .*nothing of it can be shown/);
      assert.equal(await page.locator('.notice:visible, .notes:visible').count(), 1, `${c.repo}: said once: ${body}`);
      assert.doesNotMatch(body, /analysis above|Source not available|No functions in this file/);
      for (const id of ['#functions-section', '#findings-section', '#source-section']) {
        assert.equal(await page.locator(id).isHidden(), true, `${c.repo}: ${id} hidden`);
      }
      const asked = page.requests.filter((u) => /\/(owners|plan|fixes|file-history)\b|hlworker/.test(u));
      assert.deepEqual(asked, [], `${c.repo}: nothing asked of a file that has nothing`);
    }
    await close(page);
  }
});
