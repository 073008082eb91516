// pages.test.mjs: pages that say what they mean (issue 23.7-9) in a real
// browser: template rows named as the template writes them, the overview's
// first screen answering the dev call's three questions, and the gate
// table showing the figure each rule tests, a rename followed.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// The server must serve the pagesport fixture as repository "pagesport"
// (run_all.sh ingests it): at main, src/casts.c.src casts between every
// pair of 3 x 4 types with a nested template named @FROMTYPE@_to_@TOTYPE@,
// and src/arrayobject.c has array_dealloc; at hpy, array_dealloc became
// array_finalize_impl (still object-legacy) followed by a new
// array_traverse_impl, and array_base_count gained C API use.  Figures are
// read from the JSON API of the same server first.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

const REPO = 'pagesport';
const enc = encodeURIComponent;
const num = (s) => Number(String(s).replace(/[,\s\u00a0]/g, ''));
const q = (o) => new URLSearchParams(o).toString();

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL');
  const repos = await apiOk('/api/v1/repos');
  assert.ok(repos.some((r) => r.name === REPO), `the server serves the ${REPO} fixture`);
  await launch();
});

after(async () => {
  await closeBrowser();
});

test('a template row reads as the template names it, its instances on expanding', async () => {
  const d = await apiOk(`/api/v1/repos/${REPO}/commits/main/files/src/casts.c.src`);
  const casts = d.functions.filter((f) => /_to_/.test(f.name));
  assert.equal(casts.length, 12, 'the fixture expands 3 x 4 casts');
  const key = `${casts[0].start_line}-${casts[0].end_line}`;
  const page = await open(`${BASE}/file.html?${q({ repo: REPO, rev: 'main', path: 'src/casts.c.src' })}`);
  const row = page.locator(`#functions-table tr.tmpl-group[data-group="${key}"]`);
  const name = row.locator('code.tmpl-name');
  assert.equal(await name.textContent(), '@FROMTYPE@_to_@TOTYPE@');
  assert.equal(await name.getAttribute('data-template'), 'source');
  assert.match(await row.locator('th').textContent(), /template, 12 instances/);
  assert.doesNotMatch(await row.locator('th').textContent(), /@…@/);
  // Collapsed: no instance is in the table; expanded: all twelve, by name.
  assert.equal(await page.locator(`#functions-table tr.tmpl-instance[data-group="${key}"]`).count(), 0);
  await row.locator('button.toggle').click();
  const inst = page.locator(`#functions-table tr.tmpl-instance[data-group="${key}"]`);
  assert.equal(await inst.count(), 12);
  assert.deepEqual((await inst.evaluateAll((trs) => trs.map((tr) => tr.dataset.name))).sort(),
    casts.map((f) => f.name).sort());
  assert.ok((await inst.evaluateAll((trs) => trs.map((tr) => tr.dataset.name))).includes('SHORT_to_DOUBLE'));
  assert.equal(await row.locator('button.toggle').getAttribute('aria-label'),
    'Collapse the 12 instances of @FROMTYPE@_to_@TOTYPE@');
  await shot(page, 'pages-template-row');
  await close(page);
});

test('the overview answers how far, this week and what next on the first screen at 1280x800', async () => {
  const s = await apiOk(`/api/v1/repos/${REPO}/commits/hpy/summary`);
  const page = await open(`${BASE}/index.html?${q({ repo: REPO, rev: 'hpy' })}`, { width: 1280, height: 800 });
  await page.waitForSelector('#devcall[data-complete]');
  const boxes = await page.evaluate(() => ['#dc-far', '#dc-week-card', '#dc-next-card'].map((sel) => {
    const r = document.querySelector(sel).getBoundingClientRect();
    return { sel, top: r.top, bottom: r.bottom, title: document.querySelector(`${sel} h2`)?.textContent };
  }));
  for (const b of boxes) {
    assert.ok(b.bottom <= 800, `${b.sel} ends at ${b.bottom} px, inside the first screen`);
    assert.ok(b.top >= 0);
  }
  assert.deepEqual(boxes.map((b) => b.title), ['How far to universal mode?', 'What changed this week?', 'What to port next?']);
  // How far: the summary's figures.
  assert.equal(num(await page.textContent('[data-metric="dc-ready"]')), s.universal_ready_files);
  assert.equal(num(await page.textContent('[data-metric="dc-legacy"]')), s.functions.legacy);
  // This week: the fixture's commits are years old, so the card says so and
  // shows the branch's last week: the port's one commit on top of main
  // (the other is main's, the port's fork base), figures from that base.
  assert.match(await page.textContent('#dc-week-stale'), /No commit in the last 7 days/);
  assert.equal(num(await page.textContent('[data-metric="dc-week-commits"]')), 1);
  assert.match(await page.textContent('#dc-week-when'), /commit of the port/);
  // written when it landed: no note of older work
  assert.equal(await page.locator('#dc-week-older').count(), 0);
  const ported = page.locator('#dc-week tr[data-measure="functions.legacy"]');
  assert.equal(num(await ported.locator('td').first().textContent()), s.functions.legacy);
  // Bridged functions have a row of their own, from the same base (the
  // port's commit bridged one); a move either way is progress (legacy ->
  // bridged, bridged -> ported), so the delta is coloured neither way.
  const hb = await apiOk(`/api/v1/repos/${REPO}/refs/hpy/history?measure=functions.bridged&window=port`);
  const bridged = page.locator('#dc-week tr[data-measure="functions.bridged"]');
  assert.equal(num(await bridged.locator('td').first().textContent()), s.functions.bridged);
  const moved = bridged.locator('.dc-delta');
  assert.equal(await moved.getAttribute('data-delta'), String(s.functions.bridged - hb.port.base.value));
  assert.notEqual(await moved.getAttribute('data-delta'), '0', 'the fixture bridges a function in its week');
  assert.equal(await moved.evaluate((e) => e.classList.contains('dc-better') || e.classList.contains('dc-worse')), false);
  // What next: the frontier answer's first functions, in its order.
  const fr = await apiOk(`/api/v1/repos/${REPO}/commits/hpy/frontier?limit=5`);
  const names = await page.locator('#dc-next li').evaluateAll((lis) => lis.map((li) => li.dataset.name));
  if (fr.functions.length) assert.deepEqual(names, fr.functions.slice(0, 5).map((f) => f.name));
  else assert.equal(await page.locator('#dc-next-none').count(), 1);
  // The rest is one click away: every link of the section bar has its target.
  const targets = await page.locator('#more-nav a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.ok(targets.length >= 6);
  for (const t of targets) assert.equal(await page.locator(t).count(), 1, `${t} is on the page`);
  await page.locator('#more-nav a[href="#files-section"]').click();
  assert.ok(await page.locator('#files-section').isVisible());
  await shot(page, 'pages-overview-first-screen');
  await close(page);
});

test("the overview's week counts the port's own commits from its fork base, not upstream's rebased under it", async () => {
  // forked: four port commits, rebased (committed 2022-02-08) onto main's
  // third commit (2022-02-07), which adds a fifth function on the C API;
  // the tip's week holds both.  The port ported three of the five.
  const page = await open(`${BASE}/index.html?${q({ repo: 'forked', rev: 'hpy' })}`, { width: 1280, height: 800 });
  await page.waitForSelector('#devcall[data-complete]');
  assert.equal(num(await page.textContent('[data-metric="dc-week-commits"]')), 4);
  // all four were written in 2021 and landed by the rebase: said beside the count
  assert.equal(await page.textContent('#dc-week-older'), '4 of them written before (authored from ' +
    '2021-02-01 to 2021-05-03): older work that landed in these days, as a rebase or a merge lands it.');
  const legacy = page.locator('#dc-week tr[data-measure="functions.legacy"] .dc-delta');
  assert.equal(await legacy.getAttribute('data-delta'), '-3', 'from the base (5 legacy), not from main\'s second commit (4)');
  const h = await apiOk('/api/v1/repos/forked/refs/hpy/history?measure=functions.legacy&window=port');
  assert.ok((await page.getAttribute('#dc-week-compare', 'href')).includes(`base=${h.port.base.commit}`),
    'the comparison starts at the fork base');
  await close(page);
});

test('a head compared alone is compared with its fork base, not with a ref that may be ahead of it', async () => {
  const repos = await apiOk('/api/v1/repos');
  const hpy = repos.find((r) => r.name === REPO).refs.find((r) => r.name === 'hpy');
  assert.equal(hpy.fork?.upstream, 'main', "ingest found hpy's upstream");
  assert.match(hpy.fork.base ?? '', /^[0-9a-f]{40}$/);
  const page = await open(`${BASE}/compare.html?${q({ repo: REPO, head: 'hpy' })}`);
  await page.waitForSelector('#compare-title');
  assert.equal(new URL(page.url()).searchParams.get('base'), hpy.fork.base);
  assert.equal(await page.textContent('#fork-base'), "hpy's fork base from main");
  assert.equal(await page.getAttribute('#compare-title a >> nth=0', 'title'), hpy.fork.base);
  await close(page);
});

test('the gate table shows the figure each rule tests, and follows a function renamed in place', async () => {
  const g = await apiOk(`/api/v1/repos/${REPO}/gate?base=main&head=hpy`);
  const page = await open(`${BASE}/compare.html?${q({ repo: REPO, base: 'main', head: 'hpy' })}`);
  const row = (m) => page.locator(`#gate-rules tr[data-measure="${m}"]`);
  // "no new C API use in a function that had none" counts functions (1:
  // array_base_count), not the C API tokens in all.
  const capi = g.conditions.find((c) => c.measure === 'tokens.capi');
  assert.equal(capi.found, 1);
  assert.notEqual(capi.head, capi.found);
  assert.equal(num(await row('tokens.capi').locator('.gate-found').textContent()), 1);
  assert.match(await row('tokens.capi').locator('.gate-tested').textContent(), /functions that had no C API use at base/);
  assert.match(await row('tokens.capi').locator('.gate-context').textContent(), new RegExp(`${capi.base} → ${capi.head}`));
  // array_dealloc -> array_finalize_impl is the same object-legacy path.
  const obj = g.conditions.find((c) => c.measure === 'object_paths.object-legacy');
  assert.equal(obj.found, 0);
  assert.equal(obj.ok, true);
  assert.equal(await row('object_paths.object-legacy').getAttribute('data-ok'), 'true');
  assert.equal(num(await row('object_paths.object-legacy').locator('.gate-found').textContent()), 0);
  assert.ok(!g.regressions.some((r) => r.name === 'array_finalize_impl'), 'the renamed function is no regression');
  assert.ok(g.regressions.some((r) => r.name === 'array_base_count' && r.reasons.includes('new C API use')));
  // Every function the gate counts is named under its rules, with the
  // rules it breaks (a trial saw a failing gate and no function named).
  const listed = await page.locator('#gate-functions li').evaluateAll((li) =>
    li.map((x) => [x.dataset.name, x.textContent]));
  assert.deepEqual(listed.map(([n]) => n), g.regressions.map((r) => r.name));
  assert.match(listed.find(([n]) => n === 'array_base_count')[1], /new C API use/);
  await shot(page, 'pages-gate-table');
  await close(page);
});
