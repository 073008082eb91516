// fixes.test.mjs: the file page's "suggested change" rows (static/js/fixes.mjs):
// each checked rewrite of GET .../commits/{rev}/fixes shows under its line,
// with its diff, and its Copy button gives that diff.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// The server must serve the fixport fixture as repository "fixport" (run_all.sh
// ingests it).  The figures come from the API of the same server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open } from './lib.mjs';

const REPO = 'fixport';
const REV = 'pr';
const PATH = 'src/mod.c';
let fixes;

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL');
  fixes = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/fixes?path=${encodeURIComponent(PATH)}`);
  assert.ok(fixes.fixes.length >= 2, 'the fixture has rewrites to show');
  await launch();
});

after(async () => {
  await closeBrowser();
});

test('each checked rewrite shows under its line with its diff, and Copy gives the diff', async () => {
  const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: REPO, rev: REV, path: PATH })}`);
  await page.waitForSelector('body[data-ready="true"]');
  const rows = page.locator('#source-table tr.suggest');
  assert.equal(await rows.count(), fixes.fixes.length);
  for (const fix of fixes.fixes) {
    // the row right after the line (or after another suggestion for it)
    const row = page.locator(`#source-table tr.suggest[data-line="${fix.line}"]`).first();
    const prev = await row.evaluate((tr) => {
      let p = tr.previousElementSibling;
      while (p && p.classList.contains('suggest')) p = p.previousElementSibling;
      return p?.id;
    });
    assert.equal(prev, `L${fix.line}`);
    const head = await row.locator('.suggest-head').textContent();
    assert.match(head, /suggested change/);
    assert.ok(head.includes(fix.replacement) && head.includes(`HPy ${fix.hpy_since}`), head);
    assert.equal(await row.locator('pre.suggest-diff').textContent(), fix.diff);
  }
  const one = page.locator('#source-table tr.suggest').first();
  await one.locator('button.suggest-copy').click();
  await page.waitForFunction(() => document.querySelector('button.suggest-copy').textContent !== 'Copy');
  const state = await page.evaluate(async () => {
    const b = document.querySelector('button.suggest-copy').textContent;
    if (b === 'Copied') return { b, text: await navigator.clipboard.readText().catch(() => null) };
    return { b, text: getSelection().toString() };
  });
  if (state.text !== null) assert.equal(state.text.trim(), fixes.fixes[0].diff.trim(), state.b);
  await close(page);
});

test('in the dark theme a suggestion row takes the theme\'s panel colour', async () => {
  // Found in a browser walk: the row's background named a --panel that no
  // theme defines, so its light fallback stayed under the dark theme's
  // pale text (unreadable).
  const page = await open(`${BASE}/file.html?${new URLSearchParams({ repo: REPO, rev: REV, path: PATH })}`);
  await page.waitForSelector('body[data-ready="true"]');
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme });
    const c = await page.evaluate(() => {
      const td = document.querySelector('#source-table tr.suggest td.lc');
      const probe = document.createElement('div');
      probe.style.background = 'var(--bg-soft)';
      document.body.append(probe);
      const want = getComputedStyle(probe).backgroundColor;
      probe.remove();
      return { got: getComputedStyle(td).backgroundColor, want, page: getComputedStyle(document.body).backgroundColor };
    });
    assert.equal(c.got, c.want, `${scheme}: ${JSON.stringify(c)}`);
    if (scheme === 'dark') assert.notEqual(c.got, 'rgb(246, 248, 250)');
  }
  await close(page);
});
