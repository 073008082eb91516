// firstblock.test.mjs: the overview's first-screen answers written into its
// page by the server (server/srv_first.c, issue 26.4): the page asks none
// of them, shows the same first screen as without them, and a commit
// message with "</script>" in it neither ends the element nor runs.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// Uses the toyport fixture as "demo" (run_all.sh ingests it): the tip of
// hpy is tests/fixtures/toyport/04-evil, whose message holds
// "<script>window.__xss=1</script>".

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, blank, close, closeBrowser, launch } from './lib.mjs';

const URL_ = () => `${BASE}/index.html?repo=demo&rev=hpy`;
/* The answers the first screen reads (prefetch.js, devcall.mjs). */
const FIRST = /\/api\/v1\/(measures|repos|repos\/demo\/commits\/hpy\/(summary|frontier\?limit=100000)|repos\/demo\/refs\/hpy\/history\?.*(until|since)=.*)$/;

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

/* The first screen's text: the commit strip and the three cards. */
const firstScreen = (page) => page.evaluate(() => [document.getElementById('commit').innerText,
  ...[...document.querySelectorAll('#devcall .dc-card')].map((c) => c.innerText)]);

/* Loads the overview (without the embedded element when `strip`, as an
 * older server served it) and returns the API requests made before the
 * first screen was complete, and that screen. */
async function load(strip) {
  const page = await blank({ width: 1280, height: 800 });
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('/api/')) asked.push(r.url()); });
  if (strip) {
    await page.route('**/index.html?*', async (route) => {
      const res = await route.fetch();
      const body = (await res.text()).replace(/<script type="application\/json" id="pd-first">[^]*?<\/script>/, '');
      await route.fulfill({ response: res, body });
    });
  }
  await page.goto(URL_());
  await page.waitForSelector('#devcall[data-complete]', { timeout: 30000 });
  const before_ = [...asked];
  const screen = await firstScreen(page);
  const embedded = await page.evaluate(() => !!document.getElementById('pd-first'));
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  return { page, asked: before_, screen, embedded };
}

test('the overview asks none of its first screen\'s answers: the server put them in the page', async () => {
  const { page, asked, screen, embedded } = await load(false);
  assert.equal(embedded, true, 'the page holds #pd-first');
  const first = asked.filter((u) => FIRST.test(u));
  assert.deepEqual(first, [], 'no first-screen answer asked before the first screen');
  // All three cards answered (none says "not available").
  assert.equal(screen.length, 4);
  assert.ok(screen.every((t) => !/not available|Loading/.test(t)), JSON.stringify(screen));
  await close(page);
});

test('the overview shows the same first screen with and without the embedded answers', async () => {
  const a = await load(false);
  const b = await load(true);
  assert.equal(b.embedded, false);
  assert.ok(b.asked.filter((u) => FIRST.test(u)).length >= 9, `without them the page asks them: ${b.asked.join(' ')}`);
  assert.deepEqual(a.screen, b.screen);
  await close(a.page);
  await close(b.page);
});

test('a commit message with </script> in the embedded answers is text: the element holds, nothing runs', async () => {
  const { page, screen } = await load(false);
  const r = await page.evaluate(() => ({
    xss: window.__xss ?? null,
    // One element, whose text parses whole (had "</script>" ended it, the
    // rest of the JSON would be page text and JSON.parse would throw).
    blocks: document.querySelectorAll('script[type="application/json"]').length,
    parsed: (() => { try { return JSON.parse(document.getElementById('pd-first').textContent).answers['api/v1/repos/demo/commits/hpy/summary'].message; } catch (e) { return String(e); } })(),
    scripts: document.querySelectorAll('script:not([src]):not([type="application/json"])').length,
  }));
  assert.equal(r.xss, null, 'window.__xss is not set');
  assert.equal(r.blocks, 1);
  assert.equal(r.scripts, 0, 'no inline script in the page');
  assert.ok(r.parsed.includes('<script>window.__xss=1</script>'), r.parsed);
  assert.ok(screen[0].includes('<script>window.__xss=1</script>'), `the message shown as text: ${screen[0]}`);
  await close(page);
});

test('index.html: the mark for the answers comes before prefetch.js, and prefetch.js (deferred) before every module script', async () => {
  const html = await (await fetch(`${BASE}/index.html`)).text();
  const mark = (await import('node:fs')).readFileSync(new URL('../../static/index.html', import.meta.url), 'utf8')
    .indexOf('<!--pd:first-screen-->');
  const pre = html.search(/<script defer src="js\/prefetch\.js"><\/script>/);
  const firstModule = html.search(/<script type="module"/);
  assert.ok(mark > 0, 'static/index.html has the mark');
  assert.ok(pre > 0 && firstModule > pre, 'deferred prefetch.js runs before the modules (document order)');
  assert.equal(html.indexOf('<!--pd:first-screen-->'), -1, 'the server takes the mark out');
});

test('the week card\'s "trend" link stays when the trend\'s module arrives after every answer', async () => {
  // The overview hides links to panels still hidden once every answer is
  // in; the trend panel shows itself when its module has loaded, which on
  // a page whose answers are embedded can come later (seen as a missing
  // "trend" in the first-screen comparison above).
  const page = await blank({ width: 1280, height: 800 });
  await page.route('**/js/trend.mjs', async (route) => {
    await new Promise((r) => setTimeout(r, 1500));
    await route.continue();
  });
  await page.goto(URL_());
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  const link = await page.evaluate(() => {
    const a = document.querySelector('#devcall a[href="#trend"]');
    return { there: !!a, hidden: !!a?.closest('[hidden]'), panel: !document.getElementById('trend').hidden };
  });
  assert.deepEqual(link, { there: true, hidden: false, panel: true });
  await close(page);
});
