// speed.test.mjs: what keeps the biggest pages fast (issue 26.4), as
// behaviour that can break: no deferred library script holds back the
// modules, and every module a page imports is preloaded; the overview's
// first screen is in before anything below it is built, and it asks the
// server for its summary and file list once; the file page's source is
// coloured by a worker exactly as on the main thread, and its fast row
// path still shows bidirectional controls as marks; the file page's head
// and function table come from the small first-screen answer, before the
// findings list is read; every source line's text is in the page before
// the findings list and the colours, which then leave the text as it was.
// Timings themselves
// are the benchmark's (tests/bench/pages.sh), never asserted here.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// Uses the pagesport fixture (run_all.sh ingests it).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { BASE, ROOT, apiOk, blank, close, closeBrowser, launch, open } from './lib.mjs';

const REPO = 'pagesport';
const q = (o) => new URLSearchParams(o).toString();
const STATIC = path.join(ROOT, 'static');

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

/** The modules a module imports statically, itself included, transitively. */
function imports(file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  const src = fs.readFileSync(path.join(STATIC, 'js', file), 'utf8');
  for (const m of src.matchAll(/^import\s[^;]*?from\s+'\.\/([^']+)'/gms)) imports(m[1], seen);
  return seen;
}

for (const [page, entry] of [['file.html', 'file.mjs'], ['index.html', 'overview.mjs']]) {
  test(`${page}: no deferred library script, every imported module preloaded`, () => {
    const html = fs.readFileSync(path.join(STATIC, page), 'utf8');
    // A classic script with defer runs before the modules after it: its
    // download held the first screen back (vendor.mjs loads them instead).
    assert.deepEqual([...html.matchAll(/<script[^>]*\bsrc="(vendor\/[^"]+)"/g)].map((m) => m[1]), []);
    const preloaded = new Set([...html.matchAll(/<link rel="modulepreload" href="js\/([^"]+)"/g)].map((m) => m[1]));
    for (const m of [...imports(entry), ...imports('site.mjs')]) {
      assert.ok(preloaded.has(m), `${page} preloads js/${m} (imported by ${entry} or site.mjs)`);
    }
  });
}

test('the overview: the first screen before the rest, the summary and file list asked once', async () => {
  const url = `${BASE}/index.html?${q({ repo: REPO, rev: 'hpy' })}`;
  // What was built when #devcall got data-complete, noted in the page.
  const page = await blank({ width: 1280, height: 800 });
  await page.addInitScript(() => {
    new MutationObserver((_, mo) => {
      const dc = document.getElementById('devcall');
      if (!dc?.dataset.complete) return;
      mo.disconnect();
      window.__atFirstScreen = {
        commit: !!document.getElementById('commit-id'),
        trend: !!document.querySelector('#trend canvas'),
        files: document.querySelectorAll('#files-table tbody tr').length,
        totals: document.querySelectorAll('#summary .card').length,
        tree: document.querySelectorAll('#tree *').length,
      };
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]');
  const at = await page.evaluate(() => window.__atFirstScreen);
  assert.deepEqual(at, { commit: true, trend: false, files: 0, totals: 0, tree: 0 },
    'the commit strip is in with the first screen; the trend, totals, tree and file table come after it');
  // ...and they do come.
  await page.waitForSelector('#trend canvas');
  assert.ok(await page.locator('#files-table tbody tr').count() > 0);
  assert.ok(await page.locator('#summary .card').count() > 0);
  const asked = (tail) => page.requests.filter((u) => new URL(u).pathname === `/api/v1/repos/${REPO}/commits/hpy/${tail}`
    && !new URL(u).search).length;
  // Not at all when the server put it in the page (server/srv_first.c).
  const embedded = await page.evaluate(() => !!document.getElementById('pd-first'));
  assert.equal(asked('summary'), embedded ? 0 : 1, 'the summary answer is asked once (profile, first screen, totals, panel), or not at all');
  assert.equal(asked('files'), 1, 'the file list is asked once (profile, table)');
  await close(page);
});

test('the file page: the worker colours the source as the main thread does', async () => {
  const file = 'src/casts.c.src';
  const page = await open(`${BASE}/file.html?${q({ repo: REPO, rev: 'main', path: file })}`);
  assert.ok(page.requests.some((u) => u.endsWith('/js/hlworker.mjs')), 'the colours come from the worker');
  const got = await page.evaluate(async (url) => {
    const hl = await import('/js/highlight.mjs');
    const { loadPrism } = await import('/js/vendor.mjs');
    const text = hl.normalise(await (await fetch(url)).text());
    const lines = text.split('\n');
    const fromWorker = await hl.highlightAsync(text);
    const here = (await loadPrism()) ? hl.highlightLines(text) : null;
    const coloured = here.flat().filter(([, c]) => c).length;
    return {
      same: lines.every((l, i) => JSON.stringify(fromWorker(i, l)) === JSON.stringify(here[i])),
      coloured,
      shown: document.querySelectorAll('#source-table td.lc [class^="sx-"]').length,
    };
  }, `/api/v1/repos/${REPO}/commits/main/raw/${file}`);
  await close(page);
  assert.ok(got.coloured > 10, 'the fixture has coloured pieces');
  assert.ok(got.same, 'every line has the same segments from the worker as from the main thread');
  assert.equal(got.shown, got.coloured, 'every coloured piece is a span in the source');
});

test('the file page: a source line with bidirectional controls shows them as marks', async () => {
  const file = 'src/casts.c.src';
  const raw = `/api/v1/repos/${REPO}/commits/main/raw/${file}`;
  const text = await apiOk(raw);
  const evil = 'int x; /* \u202E } \u2066 */ int y;';
  const lines = text.split('\n');
  lines.splice(1, 0, evil);
  const page = await blank();
  await page.route(`**${raw}`, (r) => r.fulfill({ status: 200, contentType: 'text/plain; charset=utf-8', body: lines.join('\n') }));
  await page.goto(`${BASE}/file.html?${q({ repo: REPO, rev: 'main', path: file })}`);
  await page.waitForSelector('body[data-ready]');
  const got = await page.evaluate(() => {
    const lc = document.querySelector('#L2 td.lc');
    return { text: lc.textContent, marks: lc.querySelectorAll('.bidi').length, rows: document.querySelectorAll('#source-table tr').length };
  });
  await close(page);
  assert.equal(got.rows, lines.length - (lines.at(-1) === '' ? 1 : 0));
  assert.equal(got.marks, 2);
  assert.equal(got.text, 'int x; /* <U+202E> } <U+2066> */ int y;');
});

test('the file page: template rows named in place when the text comes after the analysis', async () => {
  const file = 'src/casts.c.src';
  const url = `${BASE}/file.html?${q({ repo: REPO, rev: 'main', path: file })}`;
  const table = async (delay) => {
    const page = await blank();
    if (delay) {
      await page.route(`**/raw/${file}`, async (r) => {
        await new Promise((res) => setTimeout(res, delay));
        await r.continue();
      });
    }
    await page.goto(url);
    await page.waitForSelector('body[data-ready]');
    const got = await page.evaluate(() => ({
      html: document.getElementById('functions-table').outerHTML,
      named: document.querySelectorAll('#functions-table code.tmpl-name[data-template="source"]').length,
    }));
    await close(page);
    return got;
  };
  const late = await table(1500);
  const first = await table(0);
  assert.ok(first.named > 0, 'the fixture has template rows named from the source');
  assert.equal(late.named, first.named);
  assert.equal(late.html, first.html, 'the same table, whichever answer came first');
});

test('the file page: the function table from the first-screen answer, before the findings list', async () => {
  const file = 'src/arrayobject.c';
  const full = await apiOk(`/api/v1/repos/${REPO}/commits/hpy/files/${file}`);
  const want = {};
  for (const f of full.findings) if (f.function) want[f.function] = (want[f.function] ?? 0) + 1;
  assert.ok(Object.keys(want).length > 1, 'the fixture has findings in several functions');
  // The findings list is held back until the table is checked.
  let release;
  const held = new Promise((res) => { release = res; });
  const page = await blank();
  await page.route(`**/commits/hpy/files/${file}`, async (r) => { await held; await r.continue(); });
  await page.goto(`${BASE}/file.html?${q({ repo: REPO, rev: 'hpy', path: file })}`);
  await page.waitForSelector('#functions-table tbody tr[data-name]');
  const got = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll('#functions-table tbody tr[data-name]')]
    .map((tr) => [tr.dataset.name, Number(tr.lastElementChild.textContent)])));
  const expected = Object.fromEntries(full.functions.map((f) => [f.name, want[f.name] ?? 0]));
  assert.deepEqual(got, expected, 'each function with its findings counted, the findings list not read yet');
  assert.equal(await page.locator('#findings-table tbody tr').count(), 0, 'no finding shown before their list is in');
  release();
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.locator('#findings-count').getAttribute('data-shown'), String(full.findings.length));
  assert.ok(page.requests.some((u) => u.includes(`/commits/hpy/file-functions/${file}`)));
  await close(page);
});

test("the file page: every line's text in before the findings and colours, the same text after them", async () => {
  const file = 'src/arrayobject.c';
  const raw = `/api/v1/repos/${REPO}/commits/hpy/raw/${file}`;
  const lines = (await apiOk(raw)).split('\n');
  if (lines.at(-1) === '') lines.pop();
  const evil = 'int x; /* \u202E } \u2066 */ int y;';
  lines.splice(1, 0, evil);
  const page = await blank();
  await page.route(`**${raw}`, (r) => r.fulfill({ status: 200, contentType: 'text/plain; charset=utf-8', body: `${lines.join('\n')}\n` }));
  // The colours held back (the worker's script comes late), and the
  // findings list until the text is checked.
  await page.route('**/js/hlworker.mjs', async (r) => { await new Promise((res) => setTimeout(res, 2000)); await r.continue(); });
  let release;
  const held = new Promise((res) => { release = res; });
  await page.route(`**/commits/hpy/files/${file}`, async (r) => { await held; await r.continue(); });
  const texts = () => page.evaluate(() => ({
    coloured: document.getElementById('source-table').dataset.coloured ?? null,
    spans: document.querySelectorAll('#source-table td.lc [class^="sx-"]').length,
    marks: document.querySelectorAll('#L2 td.lc .bidi').length,
    // The line's text: without the finding messages put under it.
    lines: [...document.querySelectorAll('#source-table td.lc')].map((td) => [...td.childNodes]
      .filter((n) => !(n.classList?.contains('fmsg'))).map((n) => n.textContent).join('')),
    hl: document.querySelectorAll('#source-table tr.hl').length,
    dots: document.querySelectorAll('#source-table td.mk .dot').length,
    fmsg: document.querySelectorAll('#source-table .fmsg').length,
  }));
  await page.goto(`${BASE}/file.html?${q({ repo: REPO, rev: 'hpy', path: file })}`);
  await page.waitForSelector('#source-info:not(:empty)');
  const first = await texts();
  release();
  await page.waitForSelector('body[data-ready]');
  const after = await texts();
  await close(page);
  const shown = (l) => l.replace(/\u202E/g, '<U+202E>').replace(/\u2066/g, '<U+2066>');
  assert.equal(first.coloured, null, 'the caption is written before the colours are in');
  assert.equal(first.spans, 0);
  assert.deepEqual(first.lines, lines.map(shown), 'every line, uncoloured');
  assert.equal(first.marks, 2, 'bidirectional controls are marks from the start');
  assert.deepEqual([first.hl, first.dots, first.fmsg], [0, 0, 0], 'the findings list is not read yet');
  assert.equal(after.coloured, 'true');
  assert.ok(after.spans > 10, 'then coloured');
  assert.deepEqual(after.lines, first.lines, 'the same text once coloured');
  assert.equal(after.marks, 2);
  assert.ok(after.hl > 0, 'then the lines with findings are marked');
  assert.equal(after.dots, after.hl);
  assert.equal(after.fmsg, after.hl, 'their messages under them');
});
