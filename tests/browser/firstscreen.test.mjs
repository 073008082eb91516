// firstscreen.test.mjs: what keeps the first screen of the biggest pages
// cheap (issue 26.4), as behaviour that can break: the function table's
// first frame has only the rows its box shows, the others follow, in the
// same order and the same as a table drawn in one go; no page builds an
// Intl.NumberFormat for its figures (its first construction loads ICU's
// locale data ahead of the first screen), and fmt() writes what Intl's
// en-US format writes.  Timings are the benchmark's (tests/bench/pages.sh).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// Uses the pagesport fixture (run_all.sh ingests it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, blank as blankAt, close, closeBrowser, launch } from './lib.mjs';

const REPO = 'pagesport';
const FILE = 'src/arrayobject.c';
const q = (o) => new URLSearchParams(o).toString();
const FN_URL = `/api/v1/repos/${REPO}/commits/hpy/file-functions/${FILE}`;

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

const blank = () => blankAt({ width: 1280, height: 800 });

/* The file's first-screen answer with n plain functions (the fixture's
 * first function copied, each renamed, on its own lines), none a template. */
async function manyFunctions(n) {
  const d = await apiOk(FN_URL);
  assert.ok(d.functions?.length, 'the fixture file has functions');
  const proto = d.functions[0];
  const functions = Array.from({ length: n }, (_, i) => ({
    ...proto, name: `fn_${String(i).padStart(3, '0')}`, start_line: 1 + 3 * i, end_line: 2 + 3 * i,
  }));
  return JSON.stringify({ ...d, functions, function_findings: {} });
}

test('the file page: the function table shows its first rows in a frame of their own, then all, in order', async () => {
  const n = 90;
  const body = await manyFunctions(n);
  const page = await blank();
  await page.route(`**${FN_URL}`, (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
  // The rows in the table when the frame that first shows any of them
  // starts, and when every source line's text is in (with where the source
  // is then: below the first screen, so that content-visibility skips it).
  await page.addInitScript(() => {
    const rows = () => document.querySelectorAll('#functions-table tbody tr[data-name]').length;
    new MutationObserver((_, mo) => {
      if (!rows()) return;
      mo.disconnect();
      requestAnimationFrame(() => { window.__firstFrameRows = rows(); });
    }).observe(document, { subtree: true, childList: true });
    new MutationObserver((_, mo) => {
      if (!document.querySelector('#source-info:not(:empty)')) return;
      mo.disconnect();
      window.__atText = { rows: rows(), sourceTop: document.getElementById('source').getBoundingClientRect().top };
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(`${BASE}/file.html?${q({ repo: REPO, rev: 'hpy', path: FILE })}`);
  await page.waitForSelector('body[data-ready]');
  const got = await page.evaluate(() => ({
    first: window.__firstFrameRows,
    atText: window.__atText,
    names: [...document.querySelectorAll('#functions-table tbody tr[data-name]')].map((tr) => tr.dataset.name),
    html: document.querySelector('#functions-table tbody').innerHTML,
  }));
  assert.ok(got.first > 0 && got.first <= 20, `the first frame has the rows the box shows, not all ${n} (had ${got.first})`);
  assert.equal(got.atText.rows, got.first, 'the other rows come after every line\'s text');
  assert.ok(got.atText.sourceTop > 800, `meanwhile the section keeps their room (source at ${got.atText.sourceTop} px)`);
  assert.deepEqual(got.names, Array.from({ length: n }, (_, i) => `fn_${String(i).padStart(3, '0')}`),
    'then every row, in the order of their lines');
  // Sorted by name and back by lines: the table drawn again in one go is the same.
  await page.click('#functions-table thead th[data-key="name"] button');
  await page.click('#functions-table thead th[data-key="lines"] button');
  assert.equal(await page.evaluate(() => document.querySelector('#functions-table tbody').innerHTML), got.html);
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the file page: a sort before the rest of the rows are in is not undone by them', async () => {
  const n = 60;
  const body = await manyFunctions(n);
  const page = await blank();
  await page.route(`**${FN_URL}`, (r) => r.fulfill({ status: 200, contentType: 'application/json', body }));
  // In the first frame with rows, before the others are put in, the table
  // is sorted by lines, descending (it is by lines, ascending).
  await page.addInitScript(() => {
    new MutationObserver((_, mo) => {
      if (!document.querySelector('#functions-table tbody tr[data-name]')) return;
      mo.disconnect();
      requestAnimationFrame(() => {
        window.__rowsWhenSorted = document.querySelectorAll('#functions-table tbody tr[data-name]').length;
        document.querySelector('#functions-table thead th[data-key="lines"] button').click();
      });
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(`${BASE}/file.html?${q({ repo: REPO, rev: 'hpy', path: FILE })}`);
  await page.waitForSelector('body[data-ready]');
  const names = await page.evaluate(() => [...document.querySelectorAll('#functions-table tbody tr[data-name]')]
    .map((tr) => tr.dataset.name));
  assert.ok(await page.evaluate(() => window.__rowsWhenSorted) < n, 'sorted before all rows were in');
  assert.deepEqual(names, Array.from({ length: n }, (_, i) => `fn_${String(n - 1 - i).padStart(3, '0')}`),
    'every row once, by lines descending');
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

for (const [label, url] of [
  ['the file page', () => `${BASE}/file.html?${q({ repo: REPO, rev: 'hpy', path: FILE })}`],
  ['the overview', () => `${BASE}/index.html?${q({ repo: REPO, rev: 'hpy' })}`],
]) {
  test(`${label}: no Intl.NumberFormat built for its figures`, async () => {
    const page = await blank();
    await page.addInitScript(() => {
      const NF = Intl.NumberFormat;
      window.__numberFormats = 0;
      // Counted when the page's own code builds one (Chart.js, in
      // vendor/, formats its ticks with its own once the sparkline is drawn).
      Intl.NumberFormat = function (...a) {
        const stack = new Error().stack;
        if (!stack.includes('/vendor/')) { window.__numberFormats++; window.__nfStack = stack; }
        return new NF(...a);
      };
    });
    await page.goto(url());
    await page.waitForSelector('body[data-ready]');
    const got = await page.evaluate(() => ({
      built: window.__numberFormats, stack: window.__nfStack,
      figures: document.querySelectorAll('.num, [data-metric]').length,
    }));
    assert.ok(got.figures > 0, 'the page has figures');
    assert.equal(got.built, 0, got.stack);
    assert.deepEqual(page.jsErrors, []);
    await close(page);
  });
}

test("fmt() writes numbers as Intl's en-US format does", async () => {
  const page = await blank();
  await page.goto(`${BASE}/file.html`);
  const bad = await page.evaluate(async () => {
    const { fmt } = await import('/js/dom.mjs');
    const nf = new Intl.NumberFormat('en-US');
    const vals = [0, -0, 1, -1, 7, 12, 999, 1000, -1000, 12345, 123456, 1234567, -9876543, 1e15,
      Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 53, 2 ** 60, 1.5, 0.12345, -2.5, 1234.5678,
      NaN, Infinity, -Infinity, '123', 1e21];
    for (let i = 1; i < 16; i++) vals.push(10 ** i - 1, 10 ** i, -(10 ** i) + 1);
    return vals.filter((v) => fmt(v) !== nf.format(v)).map((v) => `${v}: ${fmt(v)} vs ${nf.format(v)}`);
  });
  assert.deepEqual(bad, []);
  assert.equal(await page.evaluate(async () => (await import('/js/dom.mjs')).fmt(null)), '–');
  await close(page);
});

test("the overview: the week card's history answers asked by prefetch.js, before the page's modules run, once each", async () => {
  const page = await blank();
  const week = (u) => { const x = new URL(u); return x.pathname === `/api/v1/repos/${REPO}/refs/hpy/history`
    && x.searchParams.get('date') === 'committer' && (x.searchParams.has('since') || x.searchParams.get('points') === '3'); };
  const asked = [];
  let release;
  const held = new Promise((res) => { release = res; });
  page.on('request', (r) => {
    if (!week(r.url())) return;
    asked.push(r.url());
    if (asked.length === 6) release(true);
  });
  // The page as served without its first-screen answers (server/srv_first.c
  // embeds them, and then none of these is asked): prefetch.js's own path.
  await page.route('**/index.html?*', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: (await res.text()).replace(/<script type="application\/json" id="pd-first">[^]*?<\/script>/, '') });
  });
  // The overview's module is held until the six are asked (10 s at most).
  await page.route('**/js/overview.mjs', async (r) => {
    const early = await Promise.race([held, new Promise((res) => setTimeout(() => res(false), 10000))]);
    page.weekEarly = early;
    await r.continue();
  });
  await page.goto(`${BASE}/index.html?${q({ repo: REPO, rev: 'hpy' })}`);
  await page.waitForSelector('body[data-ready]');
  assert.equal(page.weekEarly, true, 'the six week answers were asked before overview.mjs was in');
  assert.equal(asked.length, 6, `each asked once, the page took the prefetched ones:\n${asked.join('\n')}`);
  assert.equal(await page.locator('#dc-week tbody tr').count(), 5, 'the week card has its figures');
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});
