// porttrend.test.mjs: the trend of a rebased port and the forecast range
// (issue 23.1, 23.2) on the `forked` fixture (tests/fixtures/forked: four
// port commits authored in 2021, rebased onto an upstream main commit of
// 2022-02-07) and the demo (toyport).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, open, shot } from './lib.mjs';

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

const enc = encodeURIComponent;

/** The trend chart's points as drawn (x, y, commit). */
async function chartPoints(p) {
  return p.evaluate(() => {
    const ch = window.Chart.getChart(document.getElementById('trend-canvas'));
    const ds = ch.data.datasets[0];
    return ds.data.map((q) => ({ x: q.x, y: q.y, commit: q.commit }));
  });
}

test('the trend of a rebased port shows its own commits at their own dates, upstream folded away with a way to see it', async () => {
  const h = await apiOk('/api/v1/repos/forked/refs/hpy/history?measure=functions.ported&window=port');
  assert.equal(h.port.own_commits, 4);
  const p = await open(`${BASE}/index.html?repo=forked&rev=hpy&measure=functions.ported`);
  await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
  let pts = await chartPoints(p);
  assert.equal(pts.length, 4, 'the four port commits, not the seven of the chain');
  assert.deepEqual(pts.map((q) => q.commit), h.points.map((q) => q.commit), 'in branch order');
  // Their own dates (2021-02-01 ... 2021-05-03), not the base's 2022-02-07.
  assert.deepEqual(pts.map((q) => new Date(q.x).toISOString().slice(0, 10)),
    ['2021-02-01', '2021-03-01', '2021-05-03', '2021-05-03']);
  assert.equal(await p.locator('#trend-from-to').textContent(), '0 → 3', 'from the upstream base to the tip');
  const count = p.locator('#trend-count');
  assert.equal(await count.getAttribute('data-own'), '4');
  const text = await count.textContent();
  assert.match(text, /4 commits of the port on top of main at [0-9a-f]{7,} \(2022-02-07\)/, text);
  assert.match(text, /3 upstream commits folded away/, text);
  assert.equal(await p.locator('#trend-dates').textContent(), 'author dates 2021-02-01 – 2021-05-03');
  await shot(p, 'porttrend-forked-port');

  // The way to see upstream history: the button in the caption.
  await p.locator('#trend-fold').click();
  await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.window === 'full');
  await p.waitForFunction(() => Number(document.getElementById('trend-canvas')?.dataset.points) === 7);
  pts = await chartPoints(p);
  assert.equal(pts.length, 7);
  assert.match(await p.locator('#trend-count').textContent(), /with 3 upstream commits before them/);
  // The caption's dates stay the port's own, and say so: the axis now
  // spans upstream's too.
  assert.equal(await p.locator('#trend-dates').textContent(), "the port's author dates 2021-02-01 – 2021-05-03");
  assert.equal(new URL(p.url()).searchParams.get('window'), 'full', 'the choice is kept in the URL');
  await shot(p, 'porttrend-forked-full');
  await p.locator('#trend-fold').click();
  await p.waitForFunction(() => Number(document.getElementById('trend-canvas')?.dataset.points) === 4);
  await close(p);
});

/** The x axis's ticks as drawn: value (ms) and label. */
async function xTicks(p) {
  return p.evaluate(() => {
    const x = window.Chart.getChart(document.getElementById('trend-canvas')).scales.x;
    return x.ticks.map((t) => ({ value: t.value, label: String(t.label) }));
  });
}

// The linear axis's own ticks fell on round milliseconds: labelled by
// month they were one or two months apart at random (2021-05, 2021-06,
// 2021-08 on numpy-hpy's hpy-convert-object-dtype).
test('the trend\'s date ticks are calendar boundaries at one equal step', async () => {
  for (const window of ['port', 'full']) {
    const p = await open(`${BASE}/index.html?repo=forked&rev=hpy&measure=functions.ported&window=${window}`);
    await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
    const ticks = await xTicks(p);
    assert.ok(ticks.length >= 3, JSON.stringify(ticks));
    const d = ticks.map((t) => new Date(t.value));
    for (const x of d) assert.equal(x.getUTCHours() * 60 + x.getUTCMinutes(), 0, `midnight UTC: ${x.toISOString()}`);
    const months = d.map((x) => x.getUTCFullYear() * 12 + x.getUTCMonth());
    const steps = d.every((x) => x.getUTCDate() === 1)
      ? months.slice(1).map((m, i) => m - months[i])           // first of months
      : d.slice(1).map((x, i) => x.getTime() - d[i].getTime()); // days or weeks
    assert.ok(steps.every((k) => k === steps[0] && k > 0), `one step: ${steps} (${d.map((x) => x.toISOString().slice(0, 10))})`);
    const labels = ticks.map((t) => t.label);
    assert.equal(new Set(labels).size, labels.length, `distinct labels: ${labels}`);
    assert.ok(labels.every((l, i) => d[i].toISOString().startsWith(l)), `labels name their ticks: ${labels}`);
    await close(p);
  }
});

test('the forecast line gives the range as of today, and says "not at this rate" for a port at a standstill', async () => {
  const fc = await apiOk('/api/v1/repos/forked/forecast?ref=hpy&measure=tokens.capi');
  assert.equal(fc.range.p50, null);
  const p = await open(`${BASE}/index.html?repo=forked&rev=hpy&measure=tokens.capi`);
  const line = p.locator('#trend-forecast');
  await line.waitFor({ state: 'visible', timeout: 20000 });
  const text = await line.textContent();
  assert.ok(text.includes(`as of ${fc.as_of}`), text);
  assert.match(await p.locator('#trend-range').textContent(), /not at this rate/);
  assert.equal(await p.locator('#trend-range').getAttribute('data-p50'), '');
  await close(p);
});

test('a badge says what its percentage counts, the same for every measure of one population', async () => {
  const a = await fetch(`${BASE}/badge/demo/hpy/functions.ported.svg`).then((r) => r.text());
  const b = await fetch(`${BASE}/badge/demo/hpy/functions.legacy.svg`).then((r) => r.text());
  const pa = a.match(/\((\d+)% ported\)/);
  const pb = b.match(/\((\d+)% ported\)/);
  assert.ok(pa && pb, `${a}\n${b}`);
  assert.equal(pa[1], pb[1], 'one percentage for one state');
  assert.match(b, /done = ported functions \/ functions that are ported, bridged or legacy/);
  const m = await apiOk('/api/v1/measures');
  assert.equal(m.find((x) => x.key === 'functions.legacy').done, m.find((x) => x.key === 'functions.ported').done);
});
