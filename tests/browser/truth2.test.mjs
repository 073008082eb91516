// truth2.test.mjs: what the overview, trend and compare pages say must hold
// (issue 11, items 9-12): a scope that leaves object dtype out never reads
// as done, forecasts in calendar time, the trend on a rebased branch, and
// the gate's verdict on the compare page.
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/truth2.test.mjs

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

const NO_OBJECT = 'no-object-dtype';
const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams(params)}`;
let refs;
let browser;

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  const repos = await apiOk('/api/v1/repos');
  refs = repos.find((r) => r.name === 'demo').refs.map((r) => r.name);
  browser = await launch();
});

after(async () => {
  await closeBrowser();
});

/* ---------- 10: a scope that leaves object dtype out ---------- */

test('under no-object-dtype the object-dtype card says the scope leaves it out, never a green 0', async () => {
  for (const rev of refs) {
    const page = await open(overviewUrl({ repo: 'demo', rev, scope: NO_OBJECT }));
    try {
      const card = page.locator('#object-left-out');
      assert.ok(await card.isVisible(), `${rev}: the card says the scope leaves object dtype out`);
      assert.match(await card.innerText(), /leaves object dtype out/);
      assert.equal(await page.locator('.hero-good').count(), 0, `${rev}: no green card`);
      assert.doesNotMatch(await card.innerText(), /100\s*%|\b0\b/);
      const whole = new URL(await page.locator('#object-whole').getAttribute('href'), BASE);
      assert.equal(whole.searchParams.get('scope'), null, 'the link leads to the whole repository');
      if (rev === refs[0]) await shot(page, 'truth2-scope-object-card');
    } finally {
      await close(page);
    }
  }
  // Without the scope, the card counts as before.
  const page = await open(overviewUrl({ repo: 'demo', rev: refs[0] }));
  try {
    assert.equal(await page.locator('#object-left-out').count(), 0);
    const s = await apiOk(`/api/v1/repos/demo/commits/${refs[0]}/summary`);
    assert.equal(Number(await page.locator('[data-metric="object-legacy"]').first().innerText()),
      s.object_paths['object-legacy']);
  } finally {
    await close(page);
  }
});

test('under no-object-dtype the object-dtype badges say "left out by scope" in grey, not "100% done"', async () => {
  for (const m of ['object_paths.object-legacy', 'object_paths.object-universal']) {
    const r = await api(`/badge/demo/${refs[0]}/${m}.svg?scope=${NO_OBJECT}`);
    assert.equal(r.status, 200);
    assert.match(r.body, /left out by scope/, m);
    assert.doesNotMatch(r.body, /% universal|#4c1|#97ca00/, m);
    const whole = await api(`/badge/demo/${refs[0]}/${m}.svg`);
    // One definition of done per population, named (issue 23.10).
    assert.match(whole.body, /% universal\)/, `${m} without a scope still has its figure`);
  }
  // Badges of other measures keep their figure under the scope.
  const fn = await api(`/badge/demo/${refs[0]}/functions.ported.svg?scope=${NO_OBJECT}`);
  assert.match(fn.body, /no-object-dtype: functions ported/);
  assert.match(fn.body, /% ported\)/);
});

/* ---------- 12: the gate's verdict on the compare page ---------- */

/** Every ordered pair of the demo's commits whose compare loses a universal-ready file, with its gate. */
async function pairsLosingReady() {
  const commits = new Set();
  for (const ref of refs) {
    for (const p of (await apiOk(`/api/v1/repos/demo/refs/${ref}/history?full=1`)).points) commits.add(p.commit);
  }
  const out = [];
  for (const base of commits) {
    for (const head of commits) {
      if (base === head) continue;
      const c = await apiOk(`/api/v1/repos/demo/compare/${base}...${head}`);
      const lost = (c.files ?? []).filter((f) => f.from?.universal_ready && !f.to?.universal_ready).map((f) => f.path);
      if (!lost.length) continue;
      out.push({ base, head, lost, files: c.files, gate: await apiOk(`/api/v1/repos/demo/gate?base=${base}&head=${head}`) });
    }
  }
  return out;
}

async function checkGate(pair) {
  const { base, head, lost, gate } = pair;
  const counted = new Set(gate.files_no_longer_universal_ready);
  const excused = lost.filter((p) => !counted.has(p));
  const page = await open(`${BASE}/compare.html?${new URLSearchParams({ repo: 'demo', base, head })}`);
  try {
    assert.equal(await page.locator('#gate-section').getAttribute('data-result'), gate.result);
    assert.equal(await page.locator('#gate-result').innerText(), gate.result === 'pass' ? '✓ passes' : '✗ fails');
    const rows = page.locator('#gate-rules tbody tr');
    assert.equal(await rows.count(), gate.conditions.length);
    for (let i = 0; i < gate.conditions.length; i++) {
      const c = gate.conditions[i];
      const cells = await rows.nth(i).locator('th, td').allInnerTexts();
      // Beside the rule, what it counts and the count; the totals last, as context (issue 23.9).
      // The universal-ready rule's totals are the no-object-dtype scope's,
      // not the summary's universal_ready_files, and say so.
      assert.equal(c.scope, c.measure === 'universal_ready_files' ? 'no-object-dtype' : undefined);
      assert.deepEqual(cells, [c.rule, c.tested, String(c.found), c.ok ? '✓ holds' : '✗ broken',
        `${c.measure}${c.scope ? ` (scope ${c.scope})` : ''} ${c.base} → ${c.head}`]);
    }
    const lostText = await page.locator('#lost-ready').innerText();
    assert.match(lostText, /no longer universal-ready/);
    // One file is "it", several "them" (a newcomer read "1 file ... them").
    if (excused.length && excused.length === lostText.split(',').length) {
      assert.match(lostText, excused.length === 1 ? /does not count it: why/ : /does not count them: why/);
    }
    if (excused.length) {
      const note = page.locator('#gate-excused');
      const items = note.locator('li');
      assert.deepEqual(await items.evaluateAll((ls) => ls.map((l) => l.dataset.path)), excused,
        'exactly the files the gate does not count');
      assert.match(await note.innerText(), /outside object-dtype paths/);
      for (let i = 0; i < excused.length; i++) {
        // A file gone at head, or one that only object-dtype paths keep on CPython: each says which.
        const gone = !pair.files.find((f) => f.path === excused[i]).to;
        assert.equal(await items.nth(i).getAttribute('data-why'), gone ? 'removed' : 'object-dtype');
        assert.match(await items.nth(i).innerText(), gone ? /removed at head/ : /only its object-dtype paths need CPython/);
      }
      assert.ok(await page.locator('#lost-ready a[href="#gate-excused"]').isVisible(), 'the lost-files line points to the why');
    } else {
      assert.equal(await page.locator('#gate-excused').count(), 0);
    }
    assert.equal(await page.evaluate(() => window.__xss), undefined, 'repository text stays text');
    return page;
  } catch (e) {
    await close(page);
    throw e;
  }
}

test('compare: a lost universal-ready file beside a passing gate comes with the gate\'s rules and why', async () => {
  const pairs = await pairsLosingReady();
  const passing = pairs.find((p) => p.gate.result === 'pass');
  assert.ok(passing, 'the demo has a pair that loses a file while the gate passes');
  const page = await checkGate(passing);
  await shot(page, 'truth2-compare-gate-pass');
  await close(page);
  // Variants: a failing gate that counts one lost file and not another, and
  // a failing gate that counts none of the lost files.
  const mixed = pairs.find((p) => p.gate.result === 'fail' && p.gate.files_no_longer_universal_ready.length
    && p.gate.files_no_longer_universal_ready.length < p.lost.length);
  const none = pairs.find((p) => p.gate.result === 'fail' && !p.gate.files_no_longer_universal_ready.length);
  // And both reasons: a file removed at head, and one lost only by object-dtype paths.
  const objectOnly = pairs.find((p) => p.lost.some((x) => !p.gate.files_no_longer_universal_ready.includes(x)
    && p.files.find((f) => f.path === x).to));
  for (const p of [mixed, none, objectOnly]) {
    assert.ok(p, 'the demo has the variant');
    await close(await checkGate(p));
  }
});

test('compare: the gate\'s verdict is "unknown" when the gate cannot answer, never a pass', async () => {
  const [base, head] = refs;
  const page = await browser.newPage();
  const errs = [];
  page.on('pageerror', (e) => errs.push(e.message));
  await page.route('**/gate?**', (r) => r.fulfill({ status: 500, contentType: 'application/problem+json',
    body: JSON.stringify({ title: 'Internal Server Error', status: 500, detail: 'gate broke' }) }));
  try {
    await page.goto(`${BASE}/compare.html?${new URLSearchParams({ repo: 'demo', base, head })}`);
    await page.waitForSelector('body[data-ready]', { timeout: 30000 });
    assert.equal(await page.locator('#gate-section').getAttribute('data-result'), 'unknown');
    assert.match(await page.locator('#gate-heading').innerText(), /verdict unknown/);
    assert.match(await page.locator('#gate-error').innerText(), /gate broke/);
    assert.equal(await page.locator('#gate-result').count(), 0);
    assert.deepEqual(errs, []);
  } finally {
    await page.close();
  }
});

/* ---------- 9: forecasts in calendar time ---------- */

test('forecast: a backfill up to 2022-02-13 and a live snapshot this week read as "no progress for N weeks", not a date', async () => {
  // tests/run_all.sh snapshots gcport so: weekly until 2022-02-13, then this week.
  const snaps = await apiOk('/api/v1/repos/gcport/snapshots');
  const weeks = (snaps.snapshots ?? snaps).map((s) => s.week).sort();
  assert.ok(weeks.length > 10, 'gcport has its backfill');
  const gapEnd = Date.now() - Date.parse('2022-02-13T00:00:00Z');
  assert.ok(gapEnd > 200 * 7 * 86400e3, 'the live snapshot is years after the backfill');
  for (const measure of ['tokens.capi', 'object_paths.object-legacy']) {
    const fc = await apiOk(`/api/v1/repos/gcport/forecast?ref=hpy&measure=${measure}`);
    assert.equal(fc.projection, null, `${measure}: no date across a standstill`);
    assert.ok(fc.calendar_weeks > 200, `${measure}: x is calendar weeks, not ${fc.weeks} snapshots`);
    const page = await open(overviewUrl({ repo: 'gcport', rev: 'hpy', measure }));
    try {
      if (measure.startsWith('object_paths.')) {
        // gcport has no object dtype: its trend offers no object-dtype
        // measure (an "already at zero" would read as work done).
        await page.waitForSelector('#trend-measure');
        assert.notEqual(await page.locator('#trend-measure').inputValue(), measure);
        continue;
      }
      const line = page.locator('#trend-forecast');
      await line.waitFor({ state: 'visible', timeout: 20000 });
      const text = await line.innerText();
      assert.doesNotMatch(text, /zero around/);
      assert.ok(text.includes(fc.note), `${text} quotes ${fc.note}`);
      if (fc.note.startsWith('no progress')) {
        // The variant of the issue: unchanged since the backfill's early weeks.
        assert.match(text, /no progress for \d+ weeks: unchanged since \d{4}-W\d\d/);
        assert.equal(await line.getAttribute('data-no-progress-weeks'), String(fc.no_progress_weeks));
        assert.ok(fc.no_progress_weeks > 200);
        if (measure === 'tokens.capi') await shot(page, 'truth2-forecast-standstill');
      } else {
        assert.equal(fc.note, 'already at zero', `${measure}: the only other honest answer here`);
      }
    } finally {
      await close(page);
    }
  }
  const capi = await apiOk('/api/v1/repos/gcport/forecast?ref=hpy&measure=tokens.capi');
  assert.match(capi.note, /^no progress for \d+ weeks/, 'gcport\'s C API uses stand still since 2021');
});

test('forecast: the weekly report names the gap since the previous snapshot', async () => {
  const snaps = await apiOk('/api/v1/repos/gcport/snapshots');
  const weeks = [...new Set((snaps.snapshots ?? snaps).map((s) => s.week))].sort();
  const live = weeks.at(-1);
  const prev = weeks.at(-2);
  assert.equal(prev, '2022-W06');
  const md = (await api(`/api/v1/repos/gcport/snapshots/${live}/report.md?ref=hpy`)).body;
  assert.match(md, new RegExp(`Previous snapshot: ${prev}, (\\d+) weeks before this one \\(no snapshot in between`));
  const n = Number(md.match(/, (\d+) weeks before this one/)[1]);
  assert.ok(n > 200, `${n} weeks`);
  // Consecutive weeks say nothing of a gap.
  const md2 = (await api(`/api/v1/repos/gcport/snapshots/${prev}/report.md?ref=hpy`)).body;
  assert.doesNotMatch(md2, /weeks before this one/);
});

/* ---------- 11: the trend on a rebased branch ---------- */

const chartSeries = (page) => page.evaluate(() => {
  const ch = window.Chart.getChart(document.getElementById('trend-canvas'));
  const ds = ch.data.datasets[0];
  return { data: ds.data.map((p) => ({ x: p.x, own: p.own, late: p.late, commit: p.commit })),
    styles: ds.pointStyle, title: ch.options.scales.x.title.text };
});

test('trend by author date on a rebased branch: x never runs back, commits dated before an earlier one are marked and said', async () => {
  // tests/fixtures/reordered: two commits written in February rebased onto March work.
  const hist = await apiOk('/api/v1/repos/reordered/refs/main/history?measure=tokens.capi');
  const late = hist.points.filter((p) => p.out_of_order).map((p) => p.commit);
  assert.equal(hist.out_of_order, 2);
  assert.equal(late.length, 2);
  hist.points.forEach((p, i) => assert.equal(p.position, i));
  for (let i = 1; i < hist.points.length; i++) {
    assert.ok(Date.parse(hist.points[i].effective_date) >= Date.parse(hist.points[i - 1].effective_date));
  }
  const page = await open(overviewUrl({ repo: 'reordered', rev: 'main', measure: 'tokens.capi', window: 'full' }));
  try {
    await page.waitForSelector('#trend-canvas[data-points]');
    const s = await chartSeries(page);
    assert.deepEqual(s.data.map((p) => p.commit), hist.points.map((p) => p.commit), 'the branch\'s order, oldest first');
    for (let i = 1; i < s.data.length; i++) assert.ok(s.data[i].x >= s.data[i - 1].x, `x runs forward at ${i}`);
    assert.deepEqual(s.data.filter((p) => p.late).map((p) => p.commit), late);
    // Each late point keeps its own (earlier) date for the tooltip, and is a triangle.
    for (const [i, p] of s.data.entries()) {
      const own = Date.parse(hist.points[i].author_date);
      assert.equal(p.own, own);
      assert.equal(s.styles[i], p.late ? 'triangle' : 'circle');
      if (p.late) assert.ok(p.own < p.x);
    }
    assert.match(s.title, /the latest so far along the branch/);
    const cap = page.locator('#trend-backwards');
    assert.equal(await cap.getAttribute('data-late'), '2');
    assert.match(await cap.innerText(), /2 commits are dated before an earlier commit of the branch/);
    assert.match(await cap.innerText(), /follows the branch's order/);
    await shot(page, 'truth2-trend-rebased');
    // Variant: by committer date the same branch runs forward: nothing marked.
    await page.click('#trend-date button[data-date="committer"]');
    const c = await chartSeries(page);
    assert.deepEqual(c.data.filter((p) => p.late), []);
    assert.equal(await page.locator('#trend-backwards').count(), 0);
  } finally {
    await close(page);
  }
});

test('trend: a sampled history keeps x in order and counts every out-of-order commit', async () => {
  const hist = await apiOk('/api/v1/repos/reordered/refs/main/history?measure=tokens.capi&points=3');
  assert.equal(hist.sampled_from, 5);
  assert.equal(hist.points.length, 3);
  assert.equal(hist.out_of_order, 2, 'counted over the whole chain, not the sample');
  for (let i = 1; i < hist.points.length; i++) {
    assert.ok(hist.points[i].position > hist.points[i - 1].position);
    assert.ok(Date.parse(hist.points[i].effective_date) >= Date.parse(hist.points[i - 1].effective_date));
  }
  // A branch whose dates run forward has nothing out of order.
  const demo = await apiOk('/api/v1/repos/demo/refs/hpy/history');
  assert.equal(demo.out_of_order, 0);
  assert.ok(demo.points.every((p) => !p.out_of_order && p.effective_date === new Date(Date.parse(p.author_date)).toISOString().replace('.000Z', '+00:00')));
});

// The snapshots page of a port without object dtype (gcport: no object
// path, profile "auto") shows no object-dtype columns or lines: their zeros
// would read as work done, as the overview says (a trial, on ultrajson-hpy).
test('snapshots of a port without object dtype: no object-dtype columns or lines', async () => {
  const p = await open(`${BASE}/snapshots.html?repo=gcport`);
  const heads = await p.locator('#snapshots-table thead th').allTextContents();
  const cells = await p.locator('#snapshots-table td.fig').count();
  const labels = await p.evaluate(() => window.Chart?.getChart(document.getElementById('snapchart-canvas'))
    ?.data.datasets.map((d) => d.label) ?? null);
  await close(p);
  assert.ok(cells > 0, 'the figures are shown');
  assert.ok(heads.length >= 8, heads.join(' | '));
  assert.ok(!heads.some((t) => /object/i.test(t)), heads.join(' | '));
  assert.ok(labels, 'the chart is drawn');
  assert.equal(labels.length, 2, labels.join(', '));
  assert.ok(!labels.some((t) => /object/i.test(t)), labels.join(', '));
});
