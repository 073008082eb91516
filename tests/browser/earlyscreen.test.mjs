// earlyscreen.test.mjs: what the first screen of the file page and the
// overview no longer waits behind (issue 26.4), as behaviour that can
// break: prefetch.js parses the first answers while the modules are still
// coming, asks the measures (model.mjs waits for them) first, and leaves
// the repository list out of the file page's first round; the file page
// imports its colouring (highlight.mjs, vendor.mjs) and starts its worker
// once the function table is in; the overview builds its "Next to port"
// table after the three cards, in the same place.  Timings are the benchmark's (tests/bench/pages.sh).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// Uses the pagesport and gcport fixtures (run_all.sh ingests them).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, blank as blankAt, close, closeBrowser, launch } from './lib.mjs';

const q = (o) => new URLSearchParams(o).toString();
const FILE_URL = () => `${BASE}/file.html?${q({ repo: 'pagesport', rev: 'hpy', path: 'src/arrayobject.c' })}`;
const sleep = (ms) => new Promise((res) => setTimeout(res, ms));

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

const blank = () => blankAt({ width: 1280, height: 800 });

/* The function table's rows: name and every cell's text. */
const tableRows = (page) => page.evaluate(() => [...document.querySelectorAll('#functions-table tbody tr')]
  .map((tr) => [...tr.cells].map((td) => td.textContent.trim()).join(' | ')));

test('the file page: the first-screen answer is parsed before the page\'s modules run', async () => {
  const page = await blank();
  let parsed;
  const parsedIn = new Promise((res) => { parsed = res; });
  await page.exposeFunction('__pdParsed', (url) => parsed(url));
  await page.addInitScript(() => {
    const json = Response.prototype.json;
    Response.prototype.json = function () {
      if (this.url.includes('/file-functions/')) window.__pdParsed(this.url);
      return json.call(this);
    };
  });
  // file.mjs is held until that answer's body is being parsed (at most 3 s).
  let beforeModule = null;
  await page.route('**/js/file.mjs', async (route) => {
    beforeModule = await Promise.race([parsedIn.then(() => true), sleep(3000).then(() => false)]);
    await route.continue();
  });
  await page.goto(FILE_URL());
  await page.waitForSelector('body[data-ready]');
  assert.equal(beforeModule, true, 'the file-functions answer was parsed while file.mjs had not come');
  assert.ok((await tableRows(page)).length > 0, 'the function table is drawn from it');
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the file page: the measures are the first answer asked; no repository list; the file history after every line', async () => {
  const page = await blank();
  const asked = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/')) asked.push(u.pathname);
  });
  await page.exposeFunction('__pdMark', (what) => asked.push(what));
  await page.addInitScript(() => {
    for (const [sel, what] of [['#functions-table tbody tr', '(function table)'], ['#source-info:not(:empty)', '(every line)']]) {
      new MutationObserver((_, mo) => {
        if (!document.querySelector(sel)) return;
        mo.disconnect();
        window.__pdMark(what);
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }
  });
  await page.goto(FILE_URL());
  await page.waitForSelector('body[data-ready]');
  assert.equal(asked[0], '/api/v1/measures', asked.join(', '));
  const table = asked.indexOf('(function table)');
  const lines = asked.indexOf('(every line)');
  const history = asked.findIndex((p) => p.includes('/file-history/'));
  assert.ok(table > 0, asked.join(', '));
  // The sparkline asks the history at the page's own rev: it needs no
  // repository list to pick a ref (it once asked one, after the first screen).
  assert.ok(!asked.includes('/api/v1/repos'), `no repository list: ${asked.join(', ')}`);
  assert.ok(lines > table && history > lines, `the file history after every line: ${asked.join(', ')}`);
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the file page: the colouring worker starts once the function table is in, and still colours every line', async () => {
  const page = await blank();
  await page.addInitScript(() => {
    const W = window.Worker;
    window.__workers = [];
    window.Worker = function (...a) {
      window.__workers.push(!!document.querySelector('#functions-table tbody tr'));
      return new W(...a);
    };
  });
  await page.goto(FILE_URL());
  await page.waitForSelector('body[data-ready]');
  const got = await page.evaluate(() => ({
    workers: window.__workers,
    coloured: !!document.querySelector('#source-table[data-coloured]'),
    keywords: document.querySelectorAll('#source-table .sx-k').length,
  }));
  assert.deepEqual(got.workers, [true], 'one worker, started after the table\'s first rows');
  assert.ok(got.coloured && got.keywords > 0, `the source is coloured (${got.keywords} keywords)`);
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the file page: highlight.mjs and vendor.mjs are fetched after the function table is in', async () => {
  const page = await blank();
  const asked = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/js/')) asked.push(u.pathname);
  });
  await page.exposeFunction('__pdTable', () => asked.push('(function table)'));
  await page.addInitScript(() => {
    new MutationObserver((_, mo) => {
      if (!document.querySelector('#functions-table tbody tr')) return;
      mo.disconnect();
      window.__pdTable();
    }).observe(document, { subtree: true, childList: true });
  });
  await page.goto(FILE_URL());
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#source-table[data-coloured]');
  const table = asked.indexOf('(function table)');
  assert.ok(table > 0, asked.join(', '));
  for (const m of ['/js/highlight.mjs', '/js/vendor.mjs']) {
    assert.ok(asked.indexOf(m) > table, `${m} after the table: ${asked.join(', ')}`);
  }
  assert.ok(asked.indexOf('/js/file.mjs') < table && asked.indexOf('/js/tmplgroup.mjs') < table, asked.join(', '));
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the overview: the "Next to port" table comes after the three cards, in the same place', async () => {
  const frontier = await apiOk('/api/v1/repos/gcport/commits/hpy/frontier?limit=25');
  assert.ok(frontier.functions.length > 0, 'the gcport fixture has candidates');
  const page = await blank();
  await page.addInitScript(() => {
    new MutationObserver((_, mo) => {
      if (!document.querySelector('#devcall[data-complete]')) return;
      mo.disconnect();
      window.__tableAtCards = !!document.querySelector('#frontier-table');
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(`${BASE}/index.html?${q({ repo: 'gcport', rev: 'hpy' })}`);
  await page.waitForSelector('body[data-ready]');
  await page.waitForSelector('#frontier-table');
  const got = await page.evaluate(() => ({
    atCards: window.__tableAtCards,
    next: [...document.querySelectorAll('#dc-next li')].map((li) => li.dataset.name),
    rows: [...document.querySelectorAll('#frontier-table tbody tr')].map((tr) => tr.dataset.name),
    order: [...document.querySelectorAll('#main > section, #main > div')].map((e) => e.id).filter(Boolean),
  }));
  assert.equal(got.atCards, false, 'the panel\'s table was not built before the cards were complete');
  assert.deepEqual(got.rows, frontier.functions.map((f) => f.name), 'the panel lists the frontier in its order');
  assert.deepEqual(got.next, frontier.functions.slice(0, 5).map((f) => f.name), 'the card its first five');
  const at = (id) => got.order.indexOf(id);
  assert.ok(at('frontier') >= 0 && at('frontier') < at('traverse') && at('traverse') < at('trend'),
    `the panel keeps its place (before traverse coverage and the trend): ${got.order.join(', ')}`);
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the overview: the week card takes the history answers prefetch.js asked, even when the summary comes late', async () => {
  const page = await blank();
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('/history?')) asked.push(r.url()); });
  // The page as served without its first-screen answers (server/srv_first.c
  // embeds them, and then none of these is asked): prefetch.js's own path.
  await page.route('**/index.html?*', async (route) => {
    const res = await route.fetch();
    await route.fulfill({ response: res, body: (await res.text()).replace(/<script type="application\/json" id="pd-first">[^]*?<\/script>/, '') });
  });
  // The summary after the modules have run: the week card used to ask its
  // five answers itself before prefetch.js had, and each went out twice.
  await page.route('**/commits/hpy/summary', async (route) => {
    await sleep(300);
    await route.continue();
  });
  await page.goto(`${BASE}/index.html?${q({ repo: 'gcport', rev: 'hpy' })}`);
  await page.waitForSelector('#devcall[data-complete]');
  assert.ok(await page.locator('#dc-week tr').count() > 0, 'the week card is filled');
  await page.waitForSelector('body[data-ready]');
  const week = asked.filter((u) => /[?&]date=committer/.test(u) && /[?&](until|since)=/.test(u));
  const twice = asked.filter((u, i) => asked.indexOf(u) !== i);
  assert.deepEqual(twice, [], 'no history URL asked twice');
  assert.equal(week.length, 6, week.join('\n'));
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});

test('the overview: the week card does not wait for the repository\'s profile when the summary has object-dtype paths', async () => {
  const sum = await apiOk('/api/v1/repos/demo/commits/hpy/summary');
  assert.ok(sum.object_paths['object-legacy'] > 0, 'the demo fixture has object-dtype paths at hpy');
  const page = await blank();
  // The repository's answer (its profile, profile.mjs) held until the
  // cards are in: the week card used to wait for it, and the overview's
  // first screen with it (doc/benchmarks.md, 190 -> 270 ms on numpy-hpy).
  let release;
  const held = new Promise((res) => { release = res; });
  await page.route('**/api/v1/repos/demo', async (route) => {
    await Promise.race([held, sleep(8000)]);
    await route.continue();
  });
  await page.goto(`${BASE}/index.html?${q({ repo: 'demo', rev: 'hpy' })}`);
  const complete = await page.waitForSelector('#devcall[data-complete]', { timeout: 4000 }).then(() => true, () => false);
  const rows = await page.locator('#dc-week tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.measure));
  release();
  assert.ok(complete, 'the three cards are in while the repository\'s answer is still held');
  assert.ok(rows.includes('object_paths.object-legacy'), `the week counts object-dtype paths: ${rows.join(', ')}`);
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.locator('#dc-week tr[data-measure="object_paths.object-legacy"]').count(), 1,
    'the profile (auto: object paths at this commit) keeps the row');
  assert.deepEqual(page.jsErrors, []);
  await close(page);
});
