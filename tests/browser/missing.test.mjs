// missing.test.mjs: a port whose clone lacks a file's blob, as
// ultrajson-hpy's mirror lacks deps/double-conversion's gay-*.cc: the
// "lostblob" fixture (no object dtype), its tests/table-fixed.cc taken out
// of the clone by tests/run_all.sh.
// - every count of files on the overview is the summary's: the file whose
//   blob is missing is listed, said so, and counted in none;
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/missing.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

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
