// round2.test.mjs: browser tests of issue 15 (dashboard, round 2) against
// a real server: blockers by C API symbol (panel and symbol page), search,
// the keys every page has (skip link, `/`, `t`, `y`, copy permalink), a
// page that fits at 1280 and 1920 px, accessibility with axe-core (WCAG
// 2.1 A/AA rules, no serious or critical violation) and the dark theme.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
// Figures are first asked of the JSON API of the same server.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BASE, ROOT, apiOk, blank, close, closeBrowser, launch, here, open, shot } from './lib.mjs';

const enc = encodeURIComponent;
const num = (s) => Number(String(s).replace(/[,\s\u00a0]/g, ''));
const AXE = path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js');

let browser;
let repo;
let rev;
let commit;
let week;

before(async () => {
  const repos = await apiOk('/api/v1/repos');
  repo = repos[0].name;
  rev = repos[0].refs[0].name;
  commit = repos[0].refs[0].commit;
  const snaps = await apiOk(`/api/v1/repos/${enc(repo)}/snapshots`);
  week = (snaps.snapshots ?? snaps)[0]?.week;
  browser = await launch();
});

after(closeBrowser);

/** Every page of the dashboard, with the parameters it needs. */
function pages() {
  const q = (o) => new URLSearchParams(o).toString();
  return {
    overview: `index.html?${q({ repo, rev })}`,
    file: `file.html?${q({ repo, rev, path: 'src/arraytypes.c.src' })}`,
    commit: `commit.html?${q({ repo, rev })}`,
    compare: `compare.html?${q({ repo, base: rev, head: 'hpy-convert-object-dtype' })}`,
    snapshots: `snapshots.html?${q({ repo })}`,
    symbol: `symbol.html?${q({ repo, rev, symbol: 'PyObject' })}`,
    search: `search.html?${q({ repo, rev, q: 'getitem' })}`,
  };
}

test('the symbols panel lists the API\'s blocking symbols with their HPy replacement', async () => {
  const d = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/symbols`);
  assert.ok(d.symbols.length > 0);
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo, rev })}`);
  await page.waitForSelector('#symbols-table');
  const rows = await page.$$eval('#symbols-table tbody tr', (trs) => trs.map((tr) => ({
    symbol: tr.dataset.symbol,
    uses: tr.querySelector('[data-metric="uses"]').textContent,
    // the replacement's name; a generic or pattern kind is said beside it
    hpy: tr.querySelector('[data-metric="hpy"] .hpy-name, [data-metric="hpy"] .hpy-none').textContent,
  })));
  assert.deepEqual(rows.map((r) => r.symbol), d.symbols.slice(0, 15).map((s) => s.symbol));
  for (const [i, r] of rows.entries()) {
    assert.equal(num(r.uses), d.symbols[i].uses);
    assert.equal(r.hpy, d.symbols[i].hpy ?? 'none');
  }
  assert.equal(num(await page.textContent('[data-metric="symbols-without-hpy"]')), d.without_hpy);
  // split as the hpy-needs page counts: C API names HPy must add, and the
  // bridge names (HPy's legacy API) the port must stop needing
  const all = d.symbols.length === d.total ? d.symbols
    : (await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/symbols?scope=${enc(d.scope)}&per_page=100000`)).symbols;
  const bridges = all.filter((x) => x.hpy == null && x.class === 'bridge').length;
  assert.equal(d.without_hpy_bridge, bridges);
  assert.equal(num(await page.textContent('[data-metric="symbols-bridge-without-hpy"]')), bridges);
  assert.equal(num(await page.textContent('[data-metric="symbols-hpy-must-add"]')), d.without_hpy - bridges);
  assert.equal(await page.textContent('#symbols-hpy-version'), d.hpy_version);
  // The symbol link opens its page, which lists the API's sites.
  await Promise.all([page.waitForNavigation(), page.click('#symbols-table tbody tr:first-child a')]);
  await page.waitForSelector('body[data-ready]');
  const one = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/symbols/${enc(d.symbols[0].symbol)}?scope=${enc(d.scope)}`);
  assert.equal(await page.textContent('#symbol-name'), d.symbols[0].symbol);
  assert.equal(await page.locator('#symbol-sites tbody tr').count(), one.sites.length);
  assert.match(await page.textContent('#symbol-uses'), new RegExp(`^${one.uses} in ${one.functions} `));
  await close(page);
});

test('a symbol page shows its first sites at once and every site after "show all"', async () => {
  // Found on numpy-hpy: PyObject's 7,056 sites were drawn as the first
  // 1,000 (the API's page) without a word; then all of them before the
  // heading (1.5 s, a page 200,000 px tall).  The page asks the first 200;
  // here each request without a page is made to ask 2, so the fixture's
  // few sites need "show all", which must read every page of the API.
  const all = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/symbols/PyObject?per_page=10000`);
  assert.ok(all.uses > 4, `PyObject has ${all.uses} sites in the fixture`);
  const page = await blank();
  const asked = [];
  await page.route('**/symbols/PyObject?*', (route) => {
    const u = new URL(route.request().url());
    asked.push(u.search);
    if (!u.searchParams.has('page')) u.searchParams.set('per_page', '2');
    return route.continue({ url: u.toString() });
  });
  await page.goto(`${BASE}/symbol.html?${new URLSearchParams({ repo, rev, symbol: 'PyObject' })}`);
  await page.waitForSelector('body[data-ready]');
  assert.match(asked[0], /per_page=200\b/, 'the first request asks the first 200 sites');
  assert.match(await page.textContent('#symbol-uses'), new RegExp(`^${all.uses} in ${all.functions} `), 'the figures are the whole symbol\'s');
  assert.equal(await page.locator('#symbol-sites tbody tr').count(), 2);
  assert.equal(await page.textContent('#symbol-more'), `show all ${all.uses} sites (2 shown)`);
  await page.click('#symbol-more');
  await page.waitForFunction((n) => document.querySelectorAll('#symbol-sites tbody tr').length === n
    && !document.getElementById('symbol-more'), all.uses);
  const rows = await page.$$eval('#symbol-sites tbody tr', (trs) => trs.map((tr) => [tr.cells[0].textContent, Number(tr.cells[1].textContent)]));
  assert.deepEqual(rows.map((r) => r[1]), all.sites.map((x) => x.line));
  // the path once per file, on its first row
  assert.deepEqual(rows.map((r) => r[0]), all.sites.map((x, i) => (i && all.sites[i - 1].path === x.path ? '' : x.path)));
  assert.equal(asked.length, 1 + Math.ceil(all.uses / 2));
  await close(page);
});

test('a symbol page whose "show all" fails says why and can try again', async () => {
  // A busy server answers 503; the button stayed at "reading every site…".
  const all = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/symbols/PyObject?per_page=10000`);
  const page = await blank();
  let refuse = true;
  await page.route('**/symbols/PyObject?*', (route) => {
    const u = new URL(route.request().url());
    if (u.searchParams.get('per_page') === '10000' && refuse) {
      refuse = false;
      return route.fulfill({ status: 503, contentType: 'application/problem+json',
        body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'busy' }) });
    }
    if (!u.searchParams.has('page')) u.searchParams.set('per_page', '2');
    return route.continue({ url: u.toString() });
  });
  await page.goto(`${BASE}/symbol.html?${new URLSearchParams({ repo, rev, symbol: 'PyObject' })}`);
  await page.waitForSelector('#symbol-more');
  await page.click('#symbol-more');
  await page.waitForFunction(() => document.getElementById('symbol-more-error')?.textContent);
  assert.match(await page.textContent('#symbol-more-error'), /could not be read.*Try again/);
  assert.equal(await page.locator('#symbol-more').isEnabled(), true);
  assert.equal(await page.textContent('#symbol-more'), `show all ${all.uses} sites (2 shown)`);
  await page.click('#symbol-more');
  await page.waitForFunction((n) => document.querySelectorAll('#symbol-sites tbody tr').length === n
    && !document.getElementById('symbol-more'), all.uses);
  await close(page);
});

test('a symbol with an HPy replacement names it on its page', async () => {
  const page = await open(`${BASE}/symbol.html?${new URLSearchParams({ repo, rev, symbol: 'PyLong_FromLong' })}`);
  assert.match(await page.textContent('#symbol-hpy'), /^HPyLong_FromLong/);
  await close(page);
});

test('an unknown revision on the overview is said once, by the summary, not by every panel', async () => {
  const page = await open(`${BASE}/?${new URLSearchParams({ repo, rev: 'no-such-rev' })}`);
  await page.waitForTimeout(300);     // panels that answer after ready would add theirs
  const problems = await page.$$eval('#errors .problem', (x) => x.map((e) => e.textContent));
  assert.equal(problems.length, 1, problems.join(' | '));
  assert.match(problems[0], /^Summary: Not Found \(HTTP 404\)unknown revision 'no-such-rev'/);
  // No trend of another ref under the error, and no links to panels that are not there.
  assert.equal(await page.locator('#trend').isHidden(), true);
  assert.equal(await page.locator('#trend canvas').count(), 0);
  assert.equal(await page.locator('#more-nav').isHidden(), true);
  // No card repeats it, and the page names the refs it may have meant.
  assert.equal(await page.locator('#devcall').isHidden(), true);
  const refs = await page.$$eval('#unknown-rev a', (x) => x.map((a) => a.textContent));
  assert.deepEqual(refs, (await apiOk('/api/v1/repos')).find((r) => r.name === repo).refs.map((r) => r.name));
  // Each question about the missing commit is asked once; no panel asks more.
  const asked = page.requests.filter((u) => u.includes('/commits/no-such-rev/'));
  assert.equal(new Set(asked).size, asked.length, asked.join(' '));
  assert.ok(asked.length <= 3, asked.join(' '));
  await close(page);
});

test('a mistyped symbol says why and leaves no "Loading…" behind', async () => {
  const page = await open(`${BASE}/symbol.html?${new URLSearchParams({ repo, rev, symbol: 'PyErr_SetStrin' })}`);
  assert.match(await page.textContent('#errors'), /404[\s\S]*no blocking use of 'PyErr_SetStrin'/);
  assert.equal((await page.textContent('#symbol')).trim(), 'Nothing to show.');
  await close(page);
});

test('what HPy must add: a failed answer leaves no "Loading…" row behind', async () => {
  const page = await browser.newPage();
  await page.route('**/api/v1/hpy-needs*', (r) => r.fulfill({ status: 503, contentType: 'application/problem+json',
    body: JSON.stringify({ type: 'about:blank', title: 'Service Unavailable', status: 503, detail: 'busy' }) }));
  await page.goto(`${BASE}/hpy-needs.html`);
  await page.waitForSelector('body[data-ready]');
  assert.match(await page.textContent('#errors'), /503/);
  assert.equal((await page.textContent('#needs-table tbody')).trim(), 'Nothing to show.');
  await page.close();
});

test('search finds functions by name and C API names with their replacement', async () => {
  const d = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/search?q=getitem`);
  const page = await open(`${BASE}/${pages().search}`);
  await page.waitForSelector('#search-functions');
  assert.deepEqual(await page.$$eval('#search-functions tbody tr', (t) => t.map((r) => r.dataset.name)),
    d.functions.map((f) => f.name));
  assert.deepEqual(await page.$$eval('#search-symbols tbody tr', (t) => t.map((r) => r.dataset.symbol)),
    d.symbols.map((s) => s.name));
  // Typing changes the results.
  await page.fill('#search-q', 'LONG_get');
  await page.waitForFunction(() => document.querySelectorAll('#search-functions tbody tr').length === 1);
  assert.equal(await page.textContent('#search-functions tbody tr code'), 'LONG_getitem');
  // The file finder.
  await page.selectOption('#search-mode', 'file');
  await page.fill('#search-q', 'arraytypes');
  await page.waitForSelector('#search-files li');
  assert.ok((await page.textContent('#search-files')).includes('src/arraytypes.c.src'));
  await close(page);
});

test('keys: skip link first, / focuses search, y pins the commit, t opens the file finder', async () => {
  const page = await open(`${BASE}/${pages().overview}`);
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'skip-link');
  await page.keyboard.press('Enter');
  // Following a link to a fragment may finish after the key's event returns.
  await page.waitForFunction(() => location.hash === '#main', null, { timeout: 5000 }).catch(() => {});
  assert.equal(await page.evaluate(() => location.hash), '#main');
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('/');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'site-q');
  await page.evaluate(() => document.activeElement.blur());
  await page.keyboard.press('y');
  assert.equal(new URL(await here(page)).searchParams.get('rev'), commit);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('t')]);
  await page.waitForSelector('body[data-ready]');
  const u = new URL(await here(page));
  assert.equal(u.pathname.endsWith('/search.html'), true);
  assert.equal(u.searchParams.get('mode'), 'file');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'search-q');
  await close(page);
});

test('on a file page the bar keeps the search box and the permalink on the brand\'s row; the crumbs wrap', async () => {
  // numpy-hpy's hpy-convert-object-dtype/numpy/core/src/umath/... crumbs
  // put them on a second row at 1280 px; this path is shorter, the window too.
  const page = await open(`${BASE}/${pages().file}`, { width: 1100, height: 600 });
  const top = (sel) => page.locator(sel).evaluate((e) => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
  const brand = await top('.topbar .brand');
  assert.ok(Math.abs(await top('#site-q') - brand) <= 4, 'search box on the brand\'s row');
  assert.ok(Math.abs(await top('#copy-permalink') - brand) <= 4, 'permalink on the brand\'s row');
  await close(page);
});

test('the copy-permalink button pins the commit id on the file page', async () => {
  const page = await open(`${BASE}/${pages().file}`);
  await page.click('#copy-permalink');
  const u = new URL(await here(page));
  assert.equal(u.searchParams.get('rev'), commit);
  assert.equal(u.searchParams.get('path'), 'src/arraytypes.c.src');
  await close(page);
});

test('links do not drift: every page offers the commit-id permalink, links to lines name commits, ref links stay where latest is meant', async () => {
  const repos = await apiOk('/api/v1/repos');
  const refs = Object.fromEntries(repos.find((r) => r.name === repo).refs.map((r) => [r.name, r.commit]));
  const HEX40 = /^[0-9a-f]{40}$/;
  for (const [name, url] of Object.entries(pages())) {
    const page = await open(`${BASE}/${url}`);
    // Links to a line of a file name a commit id: a ref moves and the line with it.
    const lineLinks = await page.evaluate(() => [...document.querySelectorAll('main a[href*="file.html"][href*="#L"]')]
      .map((a) => new URL(a.href).searchParams.get('rev')));
    for (const r of lineLinks) assert.match(r, HEX40, `${name}: a link to a line names a commit (${r})`);
    const commitLinks = await page.evaluate(() => [...document.querySelectorAll('main a[href*="commit.html"]')]
      .map((a) => new URL(a.href).searchParams.get('rev')));
    for (const r of commitLinks) assert.match(r, HEX40, `${name}: a commit link names the commit`);
    const q = new URL(await here(page)).searchParams;
    if (!q.has('rev') && !q.has('head')) {
      assert.equal(await page.locator('#copy-permalink').count(), 0, `${name}: nothing to pin, no button`);
      await close(page);
      continue;
    }
    // "Latest" stays a ref: the navigation follows the branch.
    const navRev = new URL(await page.locator('#nav-overview').evaluate((a) => a.href)).searchParams.get('rev');
    assert.equal(navRev, q.get('rev') ?? q.get('head'), `${name}: the navigation keeps the ref name`);
    assert.equal(await page.locator('#copy-permalink').count(), 1, `${name}: a Copy permalink button`);
    await page.click('#copy-permalink');
    const pinnedUrl = await here(page);
    const pinned = new URL(pinnedUrl).searchParams;
    if (q.has('rev')) {
      assert.equal(pinned.get('rev'), refs[q.get('rev')], `${name}: rev pinned to the ref's commit`);
    } else {
      assert.equal(pinned.get('head'), refs[q.get('head')], `${name}: head pinned`);
      assert.equal(pinned.get('base'), refs[q.get('base')], `${name}: base pinned`);
    }
    for (const [k, v] of q) if (!['rev', 'base', 'head'].includes(k)) assert.equal(pinned.get(k), v, `${name}: ${k} kept`);
    await close(page);
    // The permalink opens the same page at those commits.
    const p2 = await open(pinnedUrl);
    assert.ok(await p2.locator('#errors').isHidden(), `${name}: the permalink page has no error`);
    assert.equal(await p2.evaluate(() => document.body.dataset.commit), pinned.get('rev') ?? pinned.get('head'));
    await close(p2);
  }
});

/** Horizontal overflow of the page and of any element in main, and main's
 * content in nested vertical scroll boxes. */
async function fit(page) {
  return page.evaluate(() => {
    const doc = document.documentElement;
    const wide = [];
    const boxes = [];
    for (const e of document.querySelectorAll('main *')) {
      const s = getComputedStyle(e);
      if (e.closest('.sr-only') || e.clientWidth === 0) continue;
      if (['auto', 'scroll'].includes(s.overflowX) && e.scrollWidth > e.clientWidth + 1) {
        wide.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className} ${e.scrollWidth}>${e.clientWidth}`);
      }
      if (['auto', 'scroll'].includes(s.overflowY) && e.scrollHeight > e.clientHeight + 1) {
        boxes.push(`${e.tagName.toLowerCase()}#${e.id}.${e.className}`);
      }
    }
    // A select cuts its chosen option when the text is wider than its box
    // less padding and Chromium's 20 px arrow (a select never scrolls, so
    // scrollWidth cannot tell; the file page's history select cut
    // "object paths on the legacy API" at max-width 200px).
    const ctx = document.createElement('canvas').getContext('2d');
    const cut = [...document.querySelectorAll('select')].filter((s) => s.offsetWidth).filter((s) => {
      const cs = getComputedStyle(s);
      ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = s.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20;
      return ctx.measureText(s.options[s.selectedIndex]?.text ?? '').width > room + 1;
    }).map((s) => s.id);
    return { page: doc.scrollWidth - doc.clientWidth, wide, boxes, cut };
  });
}

for (const width of [1280, 1920]) {
  test(`every page fits at ${width} px: no horizontal overflow, no nested scroll boxes, selects show their text`, async () => {
    const bad = [];
    for (const [name, url] of Object.entries(pages())) {
      const page = await open(`${BASE}/${url}`, { width, height: 900 });
      const f = await fit(page);
      await shot(page, `round2-${name}-${width}`);
      if (f.page) bad.push(`${name}: the page is ${f.page} px wider than the window`);
      bad.push(...f.wide.map((w) => `${name}: scrolls sideways: ${w}`),
        ...f.boxes.map((b) => `${name}: nested scroll box: ${b}`), ...f.cut.map((c) => `${name}: select cuts its text: ${c}`));
      await close(page);
    }
    assert.deepEqual(bad, []);
  });
}

/** axe-core is injected as a script, which the server's Content-Security-
 * Policy forbids (rightly): this page alone bypasses it. */
async function axe(url, scheme) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, bypassCSP: true, colorScheme: scheme });
  await page.goto(url);
  await page.waitForSelector('body[data-ready]', { timeout: 30000 });
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
  }).finally(() => page.close());
}

for (const scheme of ['light', 'dark']) {
  test(`axe-core: no serious or critical WCAG 2.1 AA violation on any page (${scheme})`, async () => {
    const bad = [];
    for (const [name, url] of Object.entries(pages())) {
      bad.push(...(await axe(`${BASE}/${url}`, scheme)).map((v) => `${name}: ${v}`));
    }
    assert.deepEqual(bad, []);
  });
}

test('the dark theme follows prefers-color-scheme', async () => {
  const page = await open(`${BASE}/${pages().overview}`);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await bg(), 'rgb(255, 255, 255)');
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.notEqual(await bg(), 'rgb(255, 255, 255)');
  await shot(page, 'round2-overview-dark');
  await close(page);
});

test('the snapshots page of a week exists for these tests', () => {
  assert.ok(week, 'the test database has weekly snapshots');
});

test('template instances: one row per definition, counts summed, expandable to the instances', async () => {
  const d = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/files/src/arraytypes.c.src`);
  const key = (f) => `${f.start_line}-${f.end_line}`;
  const by = new Map();
  for (const f of d.functions) by.set(key(f), [...(by.get(key(f)) ?? []), f]);
  const groups = [...by].filter(([, v]) => v.length > 1);
  assert.ok(groups.length > 0, 'the fixture has a template definition with several instances');
  const page = await open(`${BASE}/${pages().file}`);
  for (const [k, inst] of groups) {
    const row = page.locator(`#functions-table tr.tmpl-group[data-group="${k}"]`);
    assert.equal(await row.getAttribute('data-instances'), String(inst.length));
    assert.equal(num(await row.locator('[data-sum="capi"]').textContent()),
      inst.reduce((a, f) => a + f.tokens.capi, 0));
    // The instances' status why on the row when they agree on rule and line
    const sites = inst.map((f) => f.why?.status).filter(Boolean);
    const agree = sites.length && sites.every((w) => w.rule === sites[0].rule && w.line === sites[0].line);
    assert.equal(await row.locator('td.fn-status .why').count(), agree ? 1 : 0, k);
    if (agree) {
      const why = await row.locator('td.fn-status .why').textContent();
      assert.ok(why.startsWith(`${sites[0].rule} `) && why.includes(` at line ${sites[0].line}`), why);
      for (const w of sites) assert.ok(why.includes(`\`${w.text}\``), `${why} names ${w.text}`);
      assert.equal(await row.locator('td.fn-status .why a').getAttribute('href'), `#L${sites[0].line}`);
    }
    // Instances are built on expanding (issue 26.4), then all of them show.
    const members = page.locator(`#functions-table tr.tmpl-instance[data-group="${k}"]`);
    assert.equal(await members.count(), 0);
    await row.locator('button.toggle').click();
    assert.equal(await members.count(), inst.length);
    assert.equal(await page.locator(`#functions-table tr.tmpl-instance[data-group="${k}"]`).first().isVisible(), true);
    assert.equal(await page.locator(`#functions-table tr.tmpl-group[data-group="${k}"] button.toggle`).getAttribute('aria-expanded'), 'true');
  }
  assert.match(await page.textContent('#functions-count'),
    new RegExp(`^${d.functions.length} functions \\(${by.size} definitions\\)$`));
  await close(page);
});

test('a count column sorts a template definition by the sum its row shows', async () => {
  // Sorted by capi, most first: a definition's row shows its instances'
  // sum, and sits among the functions by it (not where its first instance
  // would); ties by first line.
  for (const order of ['desc', 'asc']) {
    const page = await open(`${BASE}/${pages().file}&sort=capi&order=${order}`);
    const rows = await page.evaluate(() => {
      const head = [...document.querySelectorAll('#functions-table thead th')];
      const at = head.findIndex((th) => th.textContent.trim().startsWith('capi'));
      return [...document.querySelectorAll('#functions-table tbody tr:not(.tmpl-instance)')].map((tr) => ({
        group: tr.classList.contains('tmpl-group'),
        capi: Number(tr.cells[at].textContent.replace(/[^0-9]/g, '')),
        line: Number(tr.querySelector('td.lines a').textContent),
      }));
    });
    assert.ok(rows.some((r) => r.group) && rows.some((r) => !r.group), 'definitions and plain functions');
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1], rows[i]];
      const ok = a.capi === b.capi ? a.line <= b.line : order === 'desc' ? a.capi > b.capi : a.capi < b.capi;
      assert.ok(ok, `${order}: row ${i} (capi ${b.capi}, line ${b.line}) after capi ${a.capi}, line ${a.line}`);
    }
    await close(page);
  }
});

test('a template row\'s why: one text where the instances agree, tokens counted where they differ, reasons by instance where rules or lines do', async () => {
  const page = await open(`${BASE}/${pages().file}`);
  const out = await page.evaluate(async () => {
    const { groupWhy } = await import('./js/tmplgroup.mjs');
    const s = (text, line = 203, rule = 'capi-names-cpython') => ({ rule, text, line });
    return [
      groupWhy([s('PyObject'), s('PyObject')])?.text,
      groupWhy([s('PyLong_FromLong'), s('PyLong_FromUnsignedLong'), s('PyLong_FromLong')])?.text,
      groupWhy([null, s('memcpy(&obj)', 22, 'object-item-legacy'), null])?.text,
      groupWhy([s('PyObject', 203), s('PyObject', 204)]),
      groupWhy([s('PyObject'), s('PyObject', 203, 'npy-legacy-prefix-PyArray')]),
      groupWhy([null, null]),
      groupWhy([s('A', 1841), s('B', 1837, 'npy-legacy-prefix-PyArray'), s('C', 1841), null]),
      groupWhy([s('A', 1), s('A', 2), s('A', 3), s('A', 4), s('A', 4)])?.text,
    ];
  });
  assert.deepEqual(out.slice(0, 3), [
    'capi-names-cpython `PyObject` at line 203',
    'capi-names-cpython `PyLong_FromLong` ×2, `PyLong_FromUnsignedLong` ×1 at line 203',
    'object-item-legacy `memcpy(&obj)` at line 22 (1 of 3 instances)']);
  // where the instances' rules or lines differ (a trial: `@fname@_fromstr`
  // of arraytypes.c.src, 8 at line 1841, 4 at 1837, showed no reason)
  assert.equal(out[3].text, 'differs by instance: capi-names-cpython at line 203 ×1; capi-names-cpython at line 204 ×1');
  assert.equal(out[4].text, 'differs by instance: capi-names-cpython at line 203 ×1; npy-legacy-prefix-PyArray at line 203 ×1');
  assert.equal(out[5], null);
  assert.deepEqual(out[6], { site: { rule: 'capi-names-cpython', text: 'A', line: 1841 },
    text: 'differs by instance: capi-names-cpython at line 1841 ×2; npy-legacy-prefix-PyArray at line 1837 ×1' });
  assert.equal(out[7], 'differs by instance: capi-names-cpython at line 4 ×2; capi-names-cpython at line 1 ×1; capi-names-cpython at line 2 ×1; 1 more');
  await close(page);
});

test('the weekly report quoting a hostile commit message renders as text, nothing runs', async () => {
  const snaps = await apiOk(`/api/v1/repos/${enc(repo)}/snapshots`);
  const s = snaps[snaps.length - 1];
  const md = await (await fetch(`${BASE}/api/v1/repos/${enc(repo)}/snapshots/${enc(s.week)}/report.md?ref=${enc(s.ref)}`)).text();
  const page = await open(`${BASE}/snapshots.html?${new URLSearchParams({ repo })}`);
  await page.locator(`#snapshots-table tr[data-week="${s.week}"][data-ref="${s.ref}"] .show-report`).click();
  await page.waitForFunction((w) => document.getElementById('report').dataset.week === w, s.week);
  const r = await page.evaluate(() => ({
    xss: typeof window.__xss,
    bad: document.querySelectorAll('#report script, #report img, #report iframe, #report svg').length,
    text: document.getElementById('report').textContent,
  }));
  assert.equal(r.xss, 'undefined');
  assert.equal(r.bad, 0);
  if (md.includes('__xss')) assert.ok(r.text.includes('<script>window.__xss=1</script>'), 'the message shown as text');
  await close(page);
});

test('the Markdown sanitiser drops every way to run code or load things', async () => {
  const page = await open(`${BASE}/snapshots.html?${new URLSearchParams({ repo })}`);
  const r = await page.evaluate(async () => {
    const { renderMarkdown } = await import('./js/markdown.mjs');
    const box = document.createElement('div');
    box.append(renderMarkdown([
      '# t', '<img src=x onerror="window.__xss=3">', '[click](javascript:window.__xss=4)',
      '<a href="javascript:window.__xss=5">a</a>', '<svg onload="window.__xss=6"></svg>',
      '<iframe src="data:text/html,x"></iframe>', '<script>window.__xss=7</script>',
      '<details open ontoggle="window.__xss=8">d</details>', '![i](http://example.invalid/x.png)',
      '<style>body{display:none}</style>', '<form action="http://example.invalid"><input></form>',
      '<p style="position:fixed">s</p>', '| a | b |\n|---|---|\n| `x_y` | *z* |',
    ].join('\n\n')));
    document.body.append(box);
    await new Promise((res) => setTimeout(res, 50));
    return {
      xss: typeof window.__xss,
      tags: [...box.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()),
      handlers: [...box.querySelectorAll('*')].flatMap((e) => [...e.attributes].map((a) => a.name)).filter((n) => n.startsWith('on') || n === 'style'),
      hrefs: [...box.querySelectorAll('[href]')].map((a) => a.getAttribute('href')),
      table: box.querySelector('table td code')?.textContent,
    };
  });
  assert.equal(r.xss, 'undefined');
  for (const t of ['img', 'svg', 'iframe', 'script', 'style', 'form', 'input']) assert.ok(!r.tags.includes(t), t);
  assert.deepEqual(r.handlers, []);
  assert.ok(r.hrefs.every((h) => !/^\s*javascript:/i.test(h)), JSON.stringify(r.hrefs));
  assert.equal(r.table, 'x_y', 'tables and code still render');
  await close(page);
});

test('the universal blockers list a template definition once, expandable to its instances', async () => {
  const bl = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/blockers`);
  const page = await open(`${BASE}/${pages().overview}`);
  let groups = 0;
  for (const f of bl.files) {
    const by = new Map();
    for (const x of f.functions) by.set(x.start_line, (by.get(x.start_line) ?? 0) + 1);
    const row = page.locator(`#blockers details[data-path="${f.path}"]`);
    assert.equal(await row.locator('.blocker-fns > li:not(.file-scope)').count(), by.size, f.path);
    for (const [line, n] of by) {
      if (n < 2) continue;
      groups++;
      const g = row.locator('.blocker-fns > li.tmpl-group').filter({ hasText: `line ${line} ` });
      assert.equal(await g.getAttribute('data-instances'), String(n));
      assert.equal(await g.locator('ul > li').count(), n);
    }
  }
  assert.ok(groups > 0, 'the fixture has a blocking template definition');
  await close(page);
});

test('next to port says what the list means, can show every candidate, never proposes the bridge mechanism', async () => {
  const repos = await apiOk('/api/v1/repos');
  const gc = repos.find((r) => r.refs.some((x) => x.name === 'hpy') && r.name === 'gcport') ?? repos[repos.length - 1];
  const f = await apiOk(`/api/v1/repos/${enc(gc.name)}/commits/hpy/frontier?limit=100000`);
  const page = await open(`${BASE}/index.html?${new URLSearchParams({ repo: gc.name, rev: 'hpy' })}`);
  await page.waitForSelector('#frontier-meaning');
  assert.match(await page.textContent('#frontier-meaning'), /What this list means: .* can be converted on its own/);
  const names = await page.$$eval('#frontier-table tbody tr', (t) => t.map((r) => r.dataset.name));
  assert.ok(!names.includes('npy_get_context'));
  if (f.excluded.length) {
    assert.match(await page.textContent('#frontier-excluded'), /npy_get_context.*bridge mechanism/);
  }
  if (await page.locator('#frontier-all').count()) await page.click('#frontier-all');
  assert.equal(await page.locator('#frontier-table tbody tr').count(), f.candidates);
  await close(page);
});

test('the snapshots chart shows one ref\'s weekly figures, with the weeks without a snapshot as gaps', async () => {
  const snaps = await apiOk(`/api/v1/repos/${enc(repo)}/snapshots`);
  const refs = [...new Set(snaps.map((s) => s.ref))].sort();
  const csv = (await (await fetch(`${BASE}/api/v1/repos/${enc(repo)}/snapshots.csv`)).text()).trim().split(/\r?\n/)
    .map((l) => l.split(',').map((x) => x.replace(/^"|"$/g, '')));
  const [head, ...lines] = csv;
  const page = await open(`${BASE}/snapshots.html?${new URLSearchParams({ repo })}`);
  await page.waitForSelector('#snapchart-canvas');
  for (const ref of refs.slice(0, 2)) {
    await page.selectOption('#snapchart-ref', ref);
    const mine = lines.filter((l) => l[head.indexOf('ref')] === ref);
    const weeks = mine.map((l) => l[0]).sort();
    const all = await page.evaluate(async ([a, b]) => (await import('./js/snapchart.mjs')).weeksBetween(a, b),
      [weeks[0], weeks[weeks.length - 1]]);
    const c = await page.evaluate(() => {
      const cv = document.getElementById('snapchart-canvas');
      const ch = window.Chart.getChart(cv);
      return { weeks: cv.dataset.weeks, gaps: cv.dataset.gaps, labels: ch.data.labels,
        legacy: ch.data.datasets[0].data, cpy: ch.data.datasets[1].data, spans: ch.data.datasets.map((d) => d.spanGaps) };
    });
    assert.equal(Number(c.weeks), all.length);
    assert.equal(Number(c.gaps), all.length - weeks.length);
    // every week with a snapshot has its place; the others are gaps (a
    // long run of them one place)
    assert.ok(c.labels.length <= all.length);
    assert.ok(c.spans.every((x) => x === false), 'gaps are not bridged');
    for (const l of mine) {
      const i = c.labels.indexOf(l[0]);
      assert.equal(c.legacy[i], Number(l[head.indexOf('object_paths.object-legacy')]), `${ref} ${l[0]}`);
      assert.equal(c.cpy[i], Number(l[head.indexOf('object_paths.object-cpython-only')]));
    }
    for (const [i, w] of c.labels.entries()) if (!weeks.includes(w)) assert.equal(c.legacy[i], null, `gap at ${w}`);
    if (all.length > weeks.length) assert.match(await page.textContent('#snapchart-gaps'), /no snapshot \(gaps in the lines\)/);
  }
  await close(page);
});

test('the snapshots chart folds a run of more than 8 weeks without a snapshot into one place', async () => {
  // A backfill of early 2021 and a live snapshot of 2026-W49: the weeks
  // with figures are not squashed against the ends of the chart.
  const page = await open(`${BASE}/snapshots.html?${new URLSearchParams({ repo })}`);
  const labels = await page.evaluate(async () => {
    const { chartAxis, weeksBetween } = await import('./js/snapchart.mjs');
    const has = new Set(['2021-W01', '2021-W11', '2021-W20', '2026-W49']);
    return chartAxis(weeksBetween('2021-W01', '2026-W49'), (w) => has.has(w)).map((a) => (a.week ? a.label : `${a.label} ${a.first}–${a.last}`));
  });
  // 9 weeks fold (no week behind the place, its first and last given), 8 do not
  assert.deepEqual(labels, ['2021-W01', '… 9 weeks … 2021-W02–2021-W10', '2021-W11',
    '2021-W12', '2021-W13', '2021-W14', '2021-W15', '2021-W16', '2021-W17', '2021-W18', '2021-W19', '2021-W20',
    '… 288 weeks … 2021-W21–2026-W48', '2026-W49']);
  await close(page);
});

test('the source view shows the finding messages under their lines', async () => {
  const d = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/files/src/arraytypes.c.src`);
  const page = await open(`${BASE}/${pages().file}`);
  const byLine = new Map();
  for (const f of d.findings) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
  let folded = 0;
  for (const [line, fs] of byLine) {
    const msgs = await page.locator(`#L${line} .fmsg .fmsg-one`).allTextContents();
    // One message per distinct (class, guarded, text, rule), with how many
    // findings say it: a template line has one finding per instance.
    const same = new Map();
    for (const f of fs) {
      const k = `${f.class}|${!!f.guarded}|${f.text}|${f.rule}`;
      same.set(k, [f, (same.get(k)?.[1] ?? 0) + 1]);
    }
    assert.equal(msgs.length, same.size, `line ${line}`);
    for (const [f, n] of same.values()) {
      const want = `${f.class}${f.guarded ? ' (guarded)' : ''}: ${f.text ?? ''} — ${f.rule ?? ''}${n > 1 ? ` ×${n}` : ''}`;
      assert.ok(msgs.includes(want), `line ${line}: "${want}" among ${JSON.stringify(msgs)}`);
      if (n > 1) folded++;
    }
  }
  assert.ok(folded > 0, 'arraytypes.c.src has template lines whose findings fold');
  assert.equal(await page.locator('#source-table .fmsg').count(), byLine.size);
  await close(page);
});

test('the source view colours C syntax and shows every line exactly as it is', async () => {
  const base = `/api/v1/repos/${enc(repo)}/commits/${enc(rev)}`;
  const raw = await (await fetch(`${BASE}${base}/raw/src/arraytypes.c.src`)).text();
  const d = await apiOk(`${base}/files/src/arraytypes.c.src`);
  const page = await open(`${BASE}/${pages().file}`);
  const got = await page.evaluate(() => [...document.querySelectorAll('#source-table tr')].map((tr) => {
    const lc = tr.querySelector('td.lc').cloneNode(true);
    for (const m of lc.querySelectorAll('.fmsg')) m.remove();
    return { text: lc.textContent, tags: [...lc.querySelectorAll('*')].map((e) => `${e.tagName}.${e.className}`) };
  }));
  const lines = raw.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  assert.deepEqual(got.map((r) => r.text), lines, 'every line\'s text as in the file');
  const tags = new Set(got.flatMap((r) => r.tags));
  for (const t of tags) assert.match(t, /^(SPAN\.sx-[csknftm]|MARK\.tk tk-[a-z-]+( guarded)?( dismissed)?)$/, 'only colour spans and finding marks');
  // Colours where C has them: a comment, a keyword, a string.
  const kinds = await page.evaluate(() => Object.fromEntries(['c', 'k', 's', 'f'].map((k) =>
    [k, [...document.querySelectorAll(`#source-table .sx-${k}`)].map((e) => e.textContent)])));
  assert.ok(kinds.k.includes('return') && kinds.k.includes('static'), 'keywords coloured');
  assert.ok(kinds.c.some((t) => t.startsWith('/*')), 'comments coloured');
  assert.ok(kinds.f.length > 0, 'function calls coloured');
  // Findings keep their marks over the colours, on their own text.
  const marked = await page.evaluate(() => [...document.querySelectorAll('#source-table mark.tk')].map((m) =>
    ({ line: Number(m.closest('tr').id.slice(1)), text: m.textContent })));
  assert.ok(marked.length > 0);
  for (const m of marked) assert.ok(d.findings.some((f) => f.line === m.line && f.text === m.text), `mark ${m.text} at ${m.line}`);
  await close(page);
});

test('the colouring turns hostile source into text, never markup', async () => {
  const page = await open(`${BASE}/${pages().file}`);
  const src = [
    '/* </td></tr><img src=x onerror="window.__xss=11"> */',
    'static const char *s = "<script>window.__xss=12</script>";',
    '#define EVIL <svg onload="window.__xss=13"></svg> \\',
    '    <iframe src="javascript:window.__xss=14">',
    "char c = '<'; /* <b>",
    ' still a comment </b> */ int x = 1; // <style>*{display:none}</style>',
    'a\u202Eb',
  ].join('\n');
  const r = await page.evaluate(async (text) => {
    const { highlightLines, styled, appendStyled } = await import('./js/highlight.mjs');
    const { h, hasBidi } = await import('./js/dom.mjs');
    // The page colours in a worker; here Prism is loaded on the main thread.
    const { loadPrism } = await import('./js/vendor.mjs');
    await loadPrism();
    const lines = text.split('\n');
    const segs = highlightLines(text);
    // The source view's fast path (appendStyled) for lines without a
    // bidirectional control, styled() as the other pages build it for the rest.
    const box = h('div', null, lines.map((l, i) => (hasBidi(l) ? h('div', null, styled(l, segs[i]))
      : appendStyled(h('div'), l, segs[i]))));
    document.body.append(box);
    await new Promise((res) => setTimeout(res, 50));
    return {
      texts: [...box.children].map((d) => d.textContent),
      tags: [...box.querySelectorAll('*')].map((e) => e.tagName),
      classes: [...box.querySelectorAll('span:not(.bidi)')].map((e) => e.className),
      xss: typeof window.__xss,
      coloured: segs.flat().filter(([, c]) => c).length,
    };
  }, src);
  assert.deepEqual(r.texts, src.split('\n').map((l) => l.replace('\u202E', '<U+202E>')));
  assert.ok(r.tags.every((t) => t === 'DIV' || t === 'SPAN'), `only div/span: ${r.tags}`);
  assert.ok(r.classes.every((c) => /^sx-[csknftm]$/.test(c)), r.classes.join(' '));
  assert.ok(r.coloured > 5, 'Prism coloured it');
  assert.equal(r.xss, 'undefined');
  await close(page);
});

test('commit and compare pages show the code diff of a changed function, with findings inline', async () => {
  const c = await apiOk(`/api/v1/repos/${enc(repo)}/commits/hpy-convert-object-dtype`);
  const f = c.functions.find((x) => x.from && x.to);
  assert.ok(f, 'the commit changes a function that exists on both sides');
  const parent = c.parents[0];
  const [oldF, newF, oldRaw, newRaw] = await Promise.all([
    apiOk(`/api/v1/repos/${enc(repo)}/commits/${parent}/files/${f.path}`),
    apiOk(`/api/v1/repos/${enc(repo)}/commits/${c.commit}/files/${f.path}`),
    fetch(`${BASE}/api/v1/repos/${enc(repo)}/commits/${parent}/raw/${f.path}`).then((r) => r.text()),
    fetch(`${BASE}/api/v1/repos/${enc(repo)}/commits/${c.commit}/raw/${f.path}`).then((r) => r.text()),
  ]);
  const slice = (d, raw) => {
    const fn = d.functions.find((x) => x.name === f.name);
    return raw.split('\n').slice(fn.start_line - 1, fn.end_line);
  };
  const before = slice(oldF, oldRaw);
  const after = slice(newF, newRaw);
  for (const url of [`commit.html?${new URLSearchParams({ repo, rev: 'hpy-convert-object-dtype' })}`,
    `compare.html?${new URLSearchParams({ repo, base: parent, head: c.commit })}`]) {
    const page = await open(`${BASE}/${url}`);
    const tr = page.locator(`tr.fn-change[data-path="${f.path}"][data-name="${f.name}"]`).first();
    await tr.locator('.fn-diff-btn').click();
    const row = page.locator(`tr.fn-diff-row[data-name="${f.name}"][data-loaded="true"]`).first();
    await row.waitFor();
    const lines = await row.locator('table.fn-diff tr').evaluateAll((trs) => trs.map((t) => ({
      kind: t.className, code: t.querySelector('td.lc').firstChild?.textContent ?? '',
    })));
    // Old side = context + removed lines, new side = context + added lines.
    assert.deepEqual(lines.filter((l) => l.kind !== 'd-add').map((l) => l.code), before, url);
    assert.deepEqual(lines.filter((l) => l.kind !== 'd-del').map((l) => l.code), after, url);
    assert.ok(lines.some((l) => l.kind !== 'd-ctx'), 'something changed');
    const nf = newF.findings.filter((x) => x.function === f.name).length;
    assert.equal(await row.locator('.fmsg-one').count(), nf, 'the findings of the new side, inline');
    await close(page);
  }
});

test('an unknown repository on the overview lists the known ones, with or without a revision', async () => {
  const names = (await apiOk('/api/v1/repos')).map((r) => r.name);
  for (const q of [{ repo: 'no-such-repo' }, { repo: 'no-such-repo', rev: 'hpy' }]) {
    const page = await open(`${BASE}/?${new URLSearchParams(q)}`);
    // Said once: by the page, or (with a revision) by the API's problem.
    const problems = await page.$$eval('#errors .problem', (x) => x.map((e) => e.textContent));
    assert.equal(problems.length, 1, problems.join(' | '));
    assert.match(problems[0], q.rev ? /Not Found \(HTTP 404\)/ : /Unknown repository/);
    assert.deepEqual(await page.$$eval('#unknown-repo a', (x) => x.map((a) => a.textContent)), names);
    // Only what the page's first script asks before it knows (prefetch.js).
    const asked = page.requests.filter((u) => u.includes('/repos/no-such-repo/'));
    assert.ok(q.rev ? asked.length <= 3 : asked.length === 0, asked.join(' '));
    await close(page);
  }
});

test('a compare of a commit with itself says so', async () => {
  const page = await open(`${BASE}/compare.html?${new URLSearchParams({ repo, base: rev, head: rev })}`);
  assert.match(await page.textContent('#same-commit'), new RegExp(`same commit \\(${commit.slice(0, 10)}\\)`));
  await close(page);
  const other = await open(`${BASE}/compare.html?${new URLSearchParams({ repo, base: `${rev}~1`, head: rev })}`);
  assert.equal(await other.locator('#compare-title').count(), 1, 'the compare of two commits is shown');
  assert.equal(await other.locator('#same-commit').count(), 0);
  await close(other);
});
