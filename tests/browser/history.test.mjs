// history.test.mjs: browser tests of the history pages of the dashboard:
// the commit page, the compare page, the trend chart and the directory tree
// on the overview, the file history sparkline and the snapshots page.
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// Like dashboard.test.mjs, no figure is known in advance: every expected
// value is read from the JSON API of the same server (the demo repository
// built from tests/fixtures/toyport, refs hpy and hpy-convert-object-dtype).
// Screenshots go to build/screenshots/*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BASE, api, apiOk, close, closeBrowser, here, launch, open, shot, SHOTS } from './lib.mjs';

const STATUSES = ['ported', 'bridged', 'legacy', 'neutral'];
const OBJECT_STATES = ['object-legacy', 'object-cpython-only', 'object-universal'];
const TOKEN_CLASSES = ['hpy', 'capi', 'npy-legacy', 'bridge'];
const MEASURE_KEYS = [...OBJECT_STATES.map((s) => `object_paths.${s}`), ...STATUSES.map((s) => `functions.${s}`),
  'universal_ready_files', 'files', ...TOKEN_CLASSES.map((c) => `tokens.${c}`), 'functions.capi-guarded'];
// Which direction is progress (domain knowledge, not data): the rest is neither.
const GOOD_WHEN = {
  'object_paths.object-legacy': 'down', 'object_paths.object-universal': 'up', 'functions.ported': 'up',
  'functions.legacy': 'down', universal_ready_files: 'up', 'tokens.hpy': 'up', 'tokens.capi': 'down',
  'tokens.npy-legacy': 'down', 'tokens.bridge': 'down',
};
const BAD_TAGS = ['regressed', 'object-regressed'];

let browser;
let repo;        // the first repository
let refs;        // its refs [{name, commit}]
let convRef;     // the object-dtype conversion ref (the one that is not first), or the first

/* ---------- helpers ---------- */

const enc = encodeURIComponent;
const encPath = (p) => p.split('/').map(enc).join('/');
const repoApi = (r = repo) => `/api/v1/repos/${enc(r)}`;



const num = (s) => Number(String(s).replace(/[,\s\u00a0+]/g, '').replace('−', '-').replace('±', ''));
const valueAt = (stats, key) => key.split('.').reduce((o, k) => o?.[k], stats);
const page = (name, params) => `${BASE}/${name}?${new URLSearchParams(params)}`;




async function assertNoInjection(p) {
  const r = await p.evaluate(() => ({
    xss: typeof window.__xss,
    imgs: document.querySelectorAll('img').length,
    // The overview's first-screen answers (server/srv_first.c) are one
    // data element, never run: any other script without src is injected.
    scripts: [...document.querySelectorAll('script')].filter((s) => !s.src
      && !(s.id === 'pd-first' && s.type === 'application/json')).length,
    data: document.querySelectorAll('script[type="application/json"]').length,
  }));
  assert.ok(r.data <= 1, 'at most the one embedded answers element');
  assert.equal(r.xss, 'undefined', 'window.__xss must stay undefined');
  assert.equal(r.imgs, 0, 'no <img> element may be injected');
  assert.equal(r.scripts, 0, 'no inline <script> element may be injected');
}

/** Expected group of a function change: the first that applies, regressions first. */
function expectedGroup(f) {
  const t = f.changes ?? [];
  if (t.some((x) => BAD_TAGS.includes(x))) return 'regressions';
  if (t.some((x) => ['converted', 'introduced', 'object-dropped'].includes(x))) return 'object';
  if (t.includes('progressed')) return 'progressed';
  if (t.includes('added') || t.includes('removed')) return 'added-removed';
  return 'other';
}

/** The function-change rows under a selector: [{path, name, changes, group, href, from, to}]. */
function changeRows(p, scope) {
  return p.locator(`${scope} tr.fn-change`).evaluateAll((trs) => trs.map((tr) => ({
    path: tr.dataset.path,
    name: tr.dataset.name,
    changes: tr.dataset.changes,
    group: tr.closest('[data-group]')?.dataset.group,
    href: tr.querySelector('.fn-name a')?.getAttribute('href') ?? null,
    from: tr.querySelector('td.from').textContent,
    to: tr.querySelector('td.to').textContent,
  })));
}

const key = (f) => `${f.path}\u0000${f.name}`;

/** Text a side ({status, object_state} or null) is shown as. */
function sideText(s, labels) {
  if (!s) return '—';
  return `${s.status}${s.object_state ? ` object: ${labels[s.object_state]}` : ''}`;
}
const OBJECT_LABEL = { 'object-legacy': 'legacy API', 'object-cpython-only': 'CPython-only', 'object-universal': 'universal' };
const norm = (s) => s.replace(/\s+/g, ' ').trim();

/** Checks that the rows show exactly the API's function changes, each in its group, linked to the right place. */
function checkChanges(rows, functions, revs) {
  assert.equal(rows.length, functions.length, 'one row per function change of the API');
  const byKey = new Map(functions.map((f) => [key(f), f]));
  for (const r of rows) {
    const f = byKey.get(key(r));
    assert.ok(f, `row ${r.path} ${r.name} is a change of the API`);
    assert.equal(r.changes, (f.changes ?? []).join(' '), `tags of ${r.name}`);
    assert.equal(r.group, expectedGroup(f), `group of ${r.name}`);
    assert.equal(norm(r.from), sideText(f.from, OBJECT_LABEL), `before of ${r.name}`);
    assert.equal(norm(r.to), sideText(f.to, OBJECT_LABEL), `after of ${r.name}`);
    if (f.to) {
      const u = new URL(r.href, `${BASE}/`);
      assert.equal(u.pathname, '/file.html');
      assert.equal(u.searchParams.get('path'), f.path);
      assert.equal(u.searchParams.get('rev'), revs.to);
      assert.equal(u.hash, `#L${f.to.start_line}`, `${r.name} links to its first line`);
    }
  }
  assert.equal(new Set(rows.map(key)).size, rows.length, 'every change once');
}

/** The figures table: [{measure, from, to, delta, sense}]. */
function figureRows(p, scope) {
  return p.locator(`${scope} tr[data-measure]`).evaluateAll((trs) => trs.map((tr) => ({
    measure: tr.dataset.measure,
    from: tr.querySelector('.f-from')?.textContent ?? null,
    to: tr.querySelector('.f-to').textContent,
    delta: tr.querySelector('.f-delta .delta').dataset.delta,
    sense: [...tr.querySelector('.f-delta .delta').classList].find((c) => c.startsWith('delta-')),
  })));
}

function checkFigures(rows, fromStats, toStats, delta) {
  assert.deepEqual(rows.map((r) => r.measure).sort(), [...MEASURE_KEYS].sort(), 'every summary figure once');
  for (const r of rows) {
    const d = valueAt(delta, r.measure);
    assert.equal(num(r.to), valueAt(toStats, r.measure), `${r.measure} value`);
    assert.equal(num(r.from), valueAt(fromStats, r.measure), `${r.measure} before`);
    assert.equal(Number(r.delta), d, `${r.measure} change`);
    const good = GOOD_WHEN[r.measure];
    const sense = !d ? 'delta-flat' : !good ? 'delta-neutral' : (d > 0) === (good === 'up') ? 'delta-good' : 'delta-bad';
    assert.equal(r.sense, sense, `${r.measure} ${d > 0 ? '+' : ''}${d} is coloured as ${sense}`);
  }
}

const minus = (a, b) => (typeof a === 'number' ? a - b : Object.fromEntries(Object.keys(a).map((k) => [k, minus(a[k], b[k])])));

/* ---------- setup ---------- */

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server');
  const repos = await apiOk('/api/v1/repos');
  repo = repos[0].name;
  refs = repos[0].refs;
  assert.ok(refs.length > 0);
  convRef = refs.find((r) => /object/.test(r.name))?.name ?? refs[refs.length - 1].name;
  browser = await launch();
});

after(async () => {
  await closeBrowser();
});

/* ---------- commit page ---------- */

test('the commit page shows the API\'s message, dates, parents, deltas and function changes for every commit of a ref', async () => {
  const hist = await apiOk(`${repoApi()}/refs/${enc(convRef)}/history?measure=files`);
  assert.ok(hist.points.length > 1, 'the ref has history');
  let sawConverted = false;
  for (const pt of [...hist.points].reverse()) {
    const c = await apiOk(`${repoApi()}/commits/${pt.commit}`);
    const p = await open(page('commit.html', { repo, rev: pt.commit }));
    const [subject, ...rest] = c.message.split('\n');
    assert.equal(await p.locator('#commit-message').textContent(), subject || '(no message)');
    if (rest.join('').trim()) assert.equal(await p.locator('#commit-body').textContent(), rest.join('\n').trim());
    assert.equal(await p.locator('#commit-id').textContent(), c.commit);
    assert.ok((await p.locator('#commit-author').textContent()).startsWith(c.author));
    assert.equal(await p.locator('#author-date time').getAttribute('datetime'), c.author_date);
    assert.equal(await p.locator('#committer-date time').getAttribute('datetime'), c.committer_date);
    const parents = await p.locator('#parents a.parent-link').evaluateAll((as) => as.map((a) => new URL(a.href).searchParams.get('rev')));
    assert.deepEqual(parents, c.parents, 'parents link to their commit pages');
    const same = await p.locator('#same-patch a.same-patch-link').evaluateAll((as) => as.map((a) => new URL(a.href).searchParams.get('rev')));
    assert.deepEqual(same, (c.same_patch_as ?? []).map((s) => s.commit), 'same-patch commits are linked');

    // Figures: this commit, its parent (stats - delta) and the change.
    checkFigures(await figureRows(p, '#figures'), minus(c.stats, c.delta), c.stats, c.delta);
    const moved = MEASURE_KEYS.filter((k) => valueAt(c.delta, k));
    assert.deepEqual((await p.locator('#headline .chip').evaluateAll((li) => li.map((x) => x.dataset.measure))).sort(), moved.sort(),
      'one headline chip per moved figure');

    // Function changes, grouped, regressions first.
    checkChanges(await changeRows(p, '#functions-changes'), c.functions, { to: c.commit });
    const groups = await p.locator('#functions-changes [data-group]').evaluateAll((els) => els.map((e) => e.dataset.group));
    if (groups.includes('regressions')) assert.equal(groups[0], 'regressions', 'regressions come first');
    if (!c.functions.length) assert.ok(await p.locator('#no-function-changes').isVisible());
    if (c.functions.some((f) => f.changes.includes('converted'))) {
      sawConverted = true;
      await shot(p, 'commit');
    }

    // Changed files.
    const files = await p.locator('#changed-files tbody tr[data-path]').evaluateAll((trs) => trs.map((tr) => ({
      path: tr.dataset.path, change: tr.dataset.change, old: tr.querySelector('.old-path').textContent,
    })));
    assert.deepEqual(files.map((f) => `${f.change} ${f.path} ${f.old}`).sort(),
      c.files.map((f) => `${f.change} ${f.path} ${f.old_path ?? ''}`).sort());
    await close(p);
  }
  assert.ok(sawConverted, `some commit of ${convRef} converts an object path (fixture?)`);
});

test('the commit page of the commit whose message holds <script> and which adds the evil file is plain text', async () => {
  const hist = await apiOk(`${repoApi()}/refs/${enc(refs[0].name)}/history?measure=files`);
  let found = null;
  for (const pt of hist.points) {
    const c = await apiOk(`${repoApi()}/commits/${pt.commit}`);
    if (/<\s*script/i.test(c.message)) { found = c; break; }
  }
  assert.ok(found, 'a commit message of the demo contains <script> (fixture missing?)');
  const p = await open(page('commit.html', { repo, rev: found.commit }));
  assert.equal(await p.locator('#commit-message').textContent(), found.message.split('\n')[0]);
  assert.equal(await p.locator('#commit-message *').count(), 0);
  const evil = found.files.find((f) => f.path.includes('<img'));
  if (evil) assert.ok((await p.locator('#changed-files tbody').textContent()).includes(evil.path), 'the evil path is shown literally');
  assert.ok((await p.title()).includes(found.message.split('\n')[0]));
  await assertNoInjection(p);
  await shot(p, 'commit-evil');
  await close(p);
});

test('the overview links its commit id to the commit page, and every page links to the others', async () => {
  const rev = refs[0].name;
  const sum = await apiOk(`${repoApi()}/commits/${enc(rev)}/summary`);
  const p = await open(page('index.html', { repo, rev }));
  await p.locator('#commit-link').click();
  await p.waitForURL(/commit\.html/);
  await p.waitForSelector('body[data-ready]');
  assert.equal(new URL(p.url()).searchParams.get('rev'), sum.commit);
  assert.equal(await p.locator('#commit-id').textContent(), sum.commit);
  for (const name of ['overview', 'compare', 'snapshots']) {
    const href = await p.locator(`#nav-${name}`).getAttribute('href');
    assert.equal(new URL(href, `${BASE}/`).searchParams.get('repo'), repo, `${name} link keeps the repository`);
  }
  await p.locator('#nav-snapshots').click();
  await p.waitForURL(/snapshots\.html/);
  await p.waitForSelector('body[data-ready]');
  assert.equal(await p.locator('#nav-snapshots').getAttribute('aria-current'), 'page');
  await close(p);

  // The file table's CSV link is the files.csv endpoint of the same commit
  // and scope.
  const o = await open(page('index.html', { repo, rev }));
  const csv = new URL(await o.locator('#files-csv').getAttribute('href'), `${BASE}/`);
  assert.equal(csv.pathname, `${repoApi()}/commits/${enc(rev)}/files.csv`);
  assert.equal(csv.searchParams.get('scope'), null, 'no scope, none in the link');
  assert.ok(await o.locator('#snapshots-link').isVisible(), 'the overview links to the snapshots');
  await close(o);
  // Under a scope the CSV is that scope's table, as the page shows it.
  const os = await open(page('index.html', { repo, rev, scope: 'no-object-dtype' }));
  const scsv = new URL(await os.locator('#files-csv').getAttribute('href'), `${BASE}/`);
  assert.equal(scsv.searchParams.get('scope'), 'no-object-dtype');
  await close(os);
});

/* ---------- compare page ---------- */

test('compare base...conversion lists the API\'s function moves, totals and file moves, with no false regressions', async () => {
  const base = refs[0].name;
  const head = convRef;
  const c = await apiOk(`${repoApi()}/compare/${enc(base)}...${enc(head)}`);
  const p = await open(page('compare.html', { repo, base, head }));
  assert.equal(await p.locator('#c-base').inputValue(), base);
  assert.equal(await p.locator('#c-head').inputValue(), head);
  const regRows = await changeRows(p, '#regressions');
  const moveRows = await changeRows(p, '#moves');
  const regKeys = new Set(c.regressions.map(key));
  // Links to a function's line name the commit compared (c.head), not the ref, which moves.
  checkChanges(regRows, c.regressions, { to: c.head });
  checkChanges(moveRows, c.functions.filter((f) => !regKeys.has(key(f))), { to: c.head });
  for (const r of regRows) assert.ok(BAD_TAGS.some((t) => r.changes.split(' ').includes(t)), `${r.name} listed as regression is one`);
  for (const r of moveRows) assert.ok(!BAD_TAGS.some((t) => r.changes.split(' ').includes(t)), `${r.name} is not a regression`);
  if (!c.regressions.length) assert.ok(await p.locator('#no-regressions').isVisible(), 'says there are no regressions');
  assert.ok(c.functions.some((f) => f.changes.includes('converted')), 'the conversion branch converts object paths (fixture?)');
  checkFigures(await figureRows(p, '#figures'), c.base_stats, c.head_stats, c.delta);
  const fileRows = await p.locator('#file-moves tbody tr[data-path]').evaluateAll((trs) => trs.map((tr) => tr.dataset.path));
  assert.deepEqual(fileRows.sort(), c.files.map((f) => f.path).sort(), 'files whose status or readiness changed');
  await shot(p, 'compare');

  // Swapping and submitting is a navigation to the shareable reverse comparison.
  await p.locator('#c-swap').click();
  await Promise.all([p.waitForURL(/compare\.html/), p.locator('#c-go').click()]);
  await p.waitForSelector('body[data-ready]');
  const q = new URL(p.url()).searchParams;
  assert.equal(q.get('base'), head);
  assert.equal(q.get('head'), base);
  await close(p);
});

test('the reverse compare lists the regressions first and apart, and repository text stays text', async () => {
  const base = convRef;
  const head = refs[0].name;
  const c = await apiOk(`${repoApi()}/compare/${enc(base)}...${enc(head)}`);
  assert.ok(c.regressions.length > 0, 'going back from the conversion regresses (fixture?)');
  const p = await open(page('compare.html', { repo, base, head }));
  const rows = await changeRows(p, '#regressions');
  checkChanges(rows, c.regressions, { to: c.head });
  assert.ok(rows.every((r) => r.group === 'regressions'));
  // The regressions come before every other change on the page.
  const order = await p.locator('tr.fn-change').evaluateAll((trs) => trs.map((tr) => tr.closest('[data-group]').dataset.group));
  const firstOther = order.findIndex((g) => g !== 'regressions');
  assert.ok(firstOther === -1 || order.slice(firstOther).every((g) => g !== 'regressions'), 'regressions first');
  const colour = await p.locator('#regressions .fn-group').first().evaluate((el) => el.classList.contains('tone-bad'));
  assert.ok(colour, 'regressions are marked red');
  checkFigures(await figureRows(p, '#figures'), c.base_stats, c.head_stats, c.delta);
  await shot(p, 'compare-reverse');
  await close(p);

  // From the first commit to the ref with the evil file: its path is text.
  const hist = await apiOk(`${repoApi()}/refs/${enc(head)}/history?measure=files`);
  const root = hist.points[0].commit;
  const c2 = await apiOk(`${repoApi()}/compare/${root}...${enc(head)}`);
  const p2 = await open(page('compare.html', { repo, base: root, head }));
  const evil = c2.files.find((f) => f.path.includes('<img'));
  if (evil) assert.ok((await p2.locator('#file-moves').textContent()).includes(evil.path));
  await assertNoInjection(p2);
  await close(p2);

  // An unknown rev shows the API's problem document.
  const bad = await api(`${repoApi()}/compare/no-such-ref-4711...${enc(head)}`);
  const p3 = await open(page('compare.html', { repo, base: 'no-such-ref-4711', head }));
  assert.ok(await p3.locator('#errors').isVisible());
  if (bad.body?.detail) assert.ok((await p3.locator('#errors').textContent()).includes(bad.body.detail));
  await close(p3);
});

test('a compare given by commit ids names each id once, in its heading and its title', async () => {
  const base = refs[0].commit;
  const head = refs.find((r) => r.name === convRef).commit;
  assert.notEqual(base, head, 'two refs at two commits (fixture?)');
  const count = (text, s) => text.split(s).length - 1;
  // Full ids, and abbreviated ones: the same commits.
  for (const [b, hd] of [[base, head], [base.slice(0, 8), head.slice(0, 8)]]) {
    const p = await open(page('compare.html', { repo, base: b, head: hd }));
    const heading = await p.locator('#compare-title').innerText();
    const title = await p.title();
    for (const id of [base, head]) {
      assert.equal(count(heading, id.slice(0, 10)), 1, `${id.slice(0, 10)} once in the heading "${heading}"`);
      assert.equal(count(title, id.slice(0, 10)), 1, `${id.slice(0, 10)} once in the title "${title}"`);
    }
    assert.equal(await p.locator('#compare-title .side-label').count(), 0, 'no side named apart from its commit');
    await close(p);
  }
  // By ref: each ref name with the commit it resolves to.
  const p = await open(page('compare.html', { repo, base: refs[0].name, head: convRef }));
  assert.deepEqual(await p.locator('#compare-title .side-label').allInnerTexts(), [refs[0].name, convRef]);
  assert.equal(count(await p.locator('#compare-title').innerText(), head.slice(0, 10)), 1);
  await close(p);
});

/* ---------- trend chart ---------- */

/** Reads the trend chart's points (before decimation) from the Chart.js instance. */
function chartPoints(p) {
  return p.evaluate(() => {
    const ch = window.Chart.getChart(document.getElementById('trend-canvas'));
    const ds = ch.data.datasets[0];
    return (ds._data ?? ds.data).map((q) => ({ x: q.x, y: q.y, commit: q.commit }));
  });
}

test('a ref without a port (no upstream, no HPy token) draws its whole chain, not an empty 1970 axis', async () => {
  const h = await apiOk('/api/v1/repos/noport/refs/main/history?measure=functions.legacy&window=port');
  assert.equal(h.port.basis, 'none');
  assert.equal(h.points.length, 0, 'its port window is empty');
  const full = await apiOk('/api/v1/repos/noport/refs/main/history?measure=functions.legacy');
  assert.equal(full.points.length, 1);
  const p = await open(page('index.html', { repo: 'noport', rev: 'main' }));
  await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
  assert.equal(await p.getAttribute('#trend-canvas', 'data-points'), '1');
  const pts = await chartPoints(p);
  assert.equal(pts[0].commit, full.points[0].commit);
  assert.ok(new Date(pts[0].x).getUTCFullYear() >= 2021, `drawn at its date, not 1970: ${pts[0].x}`);
  assert.match(await p.textContent('#trend-count'), /^1 commit \(full history\)$/);
  await close(p);
});

test('the trend chart draws one point per commit of the history API, switches the date axis and opens commits', async () => {
  const ref = convRef;
  const measure = 'object_paths.object-legacy';
  const h = await apiOk(`${repoApi()}/refs/${enc(ref)}/history?measure=${enc(measure)}`);
  assert.ok(h.points.length > 1);
  const p = await open(page('index.html', { repo, rev: ref, window: 'full' }));
  await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
  assert.equal(await p.locator('#trend-measure').inputValue(), measure, 'object-legacy is the default measure');
  let pts = await chartPoints(p);
  assert.equal(pts.length, h.points.length, 'as many points as the API gives');
  assert.deepEqual(pts.map((q) => q.commit), h.points.map((q) => q.commit), 'in first-parent order');
  assert.deepEqual(pts.map((q) => q.y), h.points.map((q) => q.value));
  assert.deepEqual(pts.map((q) => q.x), h.points.map((q) => Date.parse(q.author_date)), 'x = author date by default');
  await shot(p, 'overview-trend');

  await p.locator('#trend-date button[data-date="committer"]').click();
  pts = await chartPoints(p);
  assert.deepEqual(pts.map((q) => q.x), h.points.map((q) => Date.parse(q.committer_date)), 'x = committer date after the switch');
  assert.equal(new URL(p.url()).searchParams.get('date'), 'committer', 'the choice is kept in the URL');
  await p.locator('#trend-date button[data-date="author"]').click();

  // Another measure: the values of that series.
  const m2 = 'functions.ported';
  const h2 = await apiOk(`${repoApi()}/refs/${enc(ref)}/history?measure=${enc(m2)}`);
  await p.locator('#trend-measure').selectOption(m2);
  await p.waitForFunction((m) => document.getElementById('trend-canvas').dataset.measure === m, m2);
  pts = await chartPoints(p);
  assert.deepEqual(pts.map((q) => q.y), h2.points.map((q) => q.value), `${m2} values`);

  // The port window (default): from the port_start commit on.
  await p.locator('#trend-full').uncheck();
  // The server folds upstream away (?window=port): wait for the new answer.
  await p.waitForFunction(() => document.getElementById('trend-canvas').dataset.window === 'port');
  pts = await chartPoints(p);
  const start = h.port_start ? h.points.findIndex((q) => q.commit === h.port_start.commit) : 0;
  assert.ok(start >= 0, 'port_start is a point of the history');
  assert.deepEqual(pts.map((q) => q.commit), h2.points.slice(start).map((q) => q.commit), 'port window starts at the first HPy token');

  // Rewrites are listed with the chart.
  const rw = await apiOk(`${repoApi()}/refs/${enc(ref)}/rewrites`);
  assert.equal(await p.locator('#trend-rewrites li').count(), rw.length);

  // Clicking a point opens its commit page.
  const target = await p.evaluate(() => {
    const ch = window.Chart.getChart(document.getElementById('trend-canvas'));
    const meta = ch.getDatasetMeta(0);
    const i = meta.data.length - 1;
    const r = ch.canvas.getBoundingClientRect();
    return { x: r.left + meta.data[i].x, y: r.top + meta.data[i].y, commit: ch.data.datasets[0].data[i].commit };
  });
  await Promise.all([p.waitForURL(/commit\.html/), p.mouse.click(target.x, target.y)]);
  assert.equal(new URL(p.url()).searchParams.get('rev'), target.commit);
  await close(p);

  // Defaults from a fresh overview: port window, author date.
  const p2 = await open(page('index.html', { repo, rev: ref }));
  await p2.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
  pts = await chartPoints(p2);
  assert.equal(pts.length, h.points.length - start);
  await close(p2);
});

test('the trend chart asks the history API for about its pixel width in points', async () => {
  const p = await open(page('index.html', { repo, rev: convRef }), { width: 1366 });
  await p.waitForFunction(() => document.getElementById('trend-canvas')?.dataset.points);
  const asked = await p.evaluate(() => performance.getEntriesByType('resource')
    // The trend's requests; the first screen's week card asks for its 7 days
    // (since/until, devcall.mjs), not for a chart.
    .map((e) => new URL(e.name)).filter((u) => u.pathname.endsWith('/history')
      && !u.searchParams.has('since') && !u.searchParams.has('until'))
    .map((u) => ({ points: Number(u.searchParams.get('points')), width: document.getElementById('trend-canvas').parentElement.clientWidth * devicePixelRatio })));
  assert.ok(asked.length >= 1, 'the history was asked for');
  for (const a of asked) {
    assert.equal(a.points % 500, 0, 'a step the server warms');
    assert.ok(a.points >= Math.min(2000, a.width) && a.points <= 2000, `${a.points} points for ${a.width} px`);
  }
  await close(p);
});

test('the file page shows a sparkline with one point per change of the file', async () => {
  const ref = convRef;
  const files = (await apiOk(`${repoApi()}/commits/${enc(ref)}/files`)).files;
  // The file with the longest history.
  let best = null;
  for (const f of files) {
    const fh = await apiOk(`${repoApi()}/refs/${enc(ref)}/file-history/${encPath(f.path)}?measure=functions.ported`);
    if (!best || fh.points.length > best.fh.points.length) best = { f, fh };
  }
  const p = await open(page('file.html', { repo, rev: ref, path: best.f.path }));
  await p.waitForFunction(() => document.getElementById('spark-canvas')?.dataset.points);
  const sparkValues = () => p.evaluate(() => {
    const ds = window.Chart.getChart(document.getElementById('spark-canvas')).data.datasets[0];
    return (ds._data ?? ds.data).map((q) => q.y);
  });
  // The default measure is the file's object-legacy paths when it has object paths, else ported functions.
  const measure = await p.locator('#spark-measure').inputValue();
  const fh = await apiOk(`${repoApi()}/refs/${enc(ref)}/file-history/${encPath(best.f.path)}?measure=${enc(measure)}`);
  assert.deepEqual(await sparkValues(), fh.points.map((q) => q.value), `${measure} at each change`);
  const other = measure === 'functions.ported' ? 'object_paths.object-legacy' : 'functions.ported';
  const fh2 = await apiOk(`${repoApi()}/refs/${enc(ref)}/file-history/${encPath(best.f.path)}?measure=${enc(other)}`);
  await p.locator('#spark-measure').selectOption(other);
  await p.waitForFunction((n) => document.getElementById('spark-canvas')?.dataset.measure === n, other);
  assert.deepEqual(await sparkValues(), fh2.points.map((q) => q.value), `${other} at each change`);
  await shot(p, 'file-sparkline');
  await close(p);
});

test('the file sparkline ends at the figure the file page shows, at a ref and at a commit id', async () => {
  const hist = await apiOk(`${repoApi()}/refs/${enc(refs[0].name)}/history?measure=files`);
  const sparkLast = (p) => p.evaluate(() => {
    const ds = window.Chart.getChart(document.getElementById('spark-canvas')).data.datasets[0];
    const d = ds._data ?? ds.data;
    return d[d.length - 1]?.y;
  });
  let differs = 0;
  for (const rev of [refs[0].name, hist.points[0].commit]) {
    for (const f of (await apiOk(`${repoApi()}/commits/${enc(rev)}/files`)).files) {
      const p = await open(page('file.html', { repo, rev, path: f.path }));
      await p.waitForFunction(() => document.getElementById('spark-canvas')?.dataset.points);
      const measure = await p.locator('#spark-measure').inputValue();
      const [group, key] = measure.split('.');
      assert.equal(await sparkLast(p), f[group][key], `${f.path} at ${rev}: ${measure}`);
      const tip = await apiOk(`${repoApi()}/refs/${enc(refs[0].name)}/file-history/${encPath(f.path)}?measure=${enc(measure)}`);
      if (tip.points[tip.points.length - 1].value !== f[group][key]) differs++;
      await close(p);
    }
  }
  assert.ok(differs > 0, 'some file at the first commit differs from the tip (fixture?)');
});

test('the file page at a commit id names the commit once', async () => {
  const first = (await apiOk(`${repoApi()}/refs/${enc(refs[0].name)}/history?measure=files`)).points[0].commit;
  const path = (await apiOk(`${repoApi()}/commits/${first}/files`)).files[0].path;
  const p = await open(page('file.html', { repo, rev: first, path }));
  await p.waitForFunction(() => document.getElementById('spark-canvas')?.dataset.points);
  const short = first.slice(0, 10);
  const head = `${await p.locator('#crumbs').innerText()}\n${await p.locator('#file-head').innerText()}`;
  assert.equal(head.split(short).length - 1, 1, `${short} once in the breadcrumb and head: "${head}"`);
  assert.ok(!head.includes(first), 'the full id shortened');
  assert.equal(await p.title(), `${path} · ${repo} @ ${short} · portdash`);
  await close(p);
  // At a ref the head says which commit the ref is at.
  const q = await open(page('file.html', { repo, rev: refs[0].name, path }));
  assert.ok((await q.locator('#file-head').innerText()).includes(`at ${refs[0].commit.slice(0, 10)}`));
  await close(q);
});

/* ---------- directory tree ---------- */

test('the directory tree sums equal the figures of the files below each directory', async () => {
  const rev = refs[0].name;
  const files = (await apiOk(`${repoApi()}/commits/${enc(rev)}/files`)).files;
  const p = await open(page('index.html', { repo, rev }));
  await p.locator('#tree-expand').click();
  const rows = await p.locator('#dir-tree tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    dir: tr.dataset.dir ?? null,
    path: tr.dataset.path ?? null,
    cells: Object.fromEntries([...tr.querySelectorAll('td[class*="t-"]')].map((td) => [
      [...td.classList].find((c) => c.startsWith('t-')).slice(2), td.querySelector('.t-ready-text')?.textContent ?? td.textContent])),
  })));
  const dirRows = rows.filter((r) => r.dir != null);
  const fileRows = rows.filter((r) => r.path != null);
  assert.deepEqual(fileRows.map((r) => r.path).sort(), files.map((f) => f.path).sort(), 'expanded, every file once');
  assert.ok(dirRows.length > 0);
  for (const r of dirRows) {
    const under = files.filter((f) => f.path.startsWith(`${r.dir}/`));
    assert.ok(under.length > 0, `${r.dir} has files`);
    assert.equal(num(r.cells.files), under.length, `${r.dir} file count`);
    for (const s of STATUSES) assert.equal(num(r.cells[s]), under.reduce((n, f) => n + (f.functions?.[s] ?? 0), 0), `${r.dir} ${s}`);
    for (const s of OBJECT_STATES) assert.equal(num(r.cells[s]), under.reduce((n, f) => n + (f.object_paths?.[s] ?? 0), 0), `${r.dir} ${s}`);
    assert.equal(r.cells.ready, `${under.filter((f) => f.universal_ready).length}/${under.length}`, `${r.dir} universal-ready`);
  }
  await assertNoInjection(p);
  await p.locator('#tree-section').screenshot({ path: path.join(SHOTS, 'overview-tree.png') });
  await close(p);
});

/* ---------- snapshots ---------- */

test('the snapshots page shows the snapshots of the ref in ?rev=, and says so when rev names no ref with snapshots', async () => {
  const list = await apiOk(`${repoApi()}/snapshots`);
  const mine = list.filter((s) => s.ref === convRef);
  assert.ok(mine.length > 0 && mine.length < list.length, 'the fixture has snapshots of two refs');
  const shown = (p) => p.locator('#snapshots-table tbody tr:not([hidden])').evaluateAll((trs) => trs.map((tr) => `${tr.dataset.week} ${tr.dataset.ref}`));
  const p = await open(page('snapshots.html', { repo, rev: convRef }));
  assert.deepEqual((await shown(p)).sort(), mine.map((s) => `${s.week} ${s.ref}`).sort());
  assert.equal(await p.locator('#snap-ref').inputValue(), convRef);
  assert.match(await p.locator('#snapshots-count').textContent(), new RegExp(`${mine.length} of ${list.length} snapshots · ref ${convRef}$`));
  assert.ok(await p.locator('#snapshots-rev').isHidden());
  if (await p.locator('#snapchart-ref').count()) assert.equal(await p.locator('#snapchart-ref').inputValue(), convRef, 'the chart too');
  assert.equal(new URL(await here(p)).searchParams.get('rev'), convRef, 'rev stays in the URL');
  assert.equal(new URL(await p.locator('#nav-overview').getAttribute('href'), `${BASE}/`).searchParams.get('rev'), convRef);
  // choosing every ref drops rev
  await p.selectOption('#snap-ref', '');
  assert.equal((await shown(p)).length, list.length);
  assert.equal(new URL(await here(p)).searchParams.get('rev'), null);
  await close(p);
  // a commit id is no ref: every ref's snapshots, and a line saying why
  const commit = refs[0].commit;
  const c = await open(page('snapshots.html', { repo, rev: commit }));
  assert.equal((await shown(c)).length, list.length);
  assert.match(await c.locator('#snapshots-rev').textContent(), new RegExp(`No snapshot is of ${commit}: snapshots are taken of refs \\(.*${convRef}.*\\); the table shows every ref's\\.`));
  await close(c);
  // the overview's link names its ref
  const o = await open(page('index.html', { repo, rev: convRef }));
  assert.equal(new URL(await o.locator('#snapshots-link').getAttribute('href'), `${BASE}/`).searchParams.get('rev'), convRef);
  await close(o);
});

test('the snapshots page lists the API\'s snapshots (or says there are none) and shows a report rendered', async (t) => {
  const r = await api(`${repoApi()}/snapshots`);
  const p = await open(page('snapshots.html', { repo }));
  if (r.status !== 200) {
    // Until the snapshots API exists the page must at least say so.
    assert.ok(await p.locator('#errors').isVisible(), 'a failing snapshots API is shown as an error');
    await close(p);
    if (r.status === 404 && r.body?.detail === 'no such resource') t.skip('endpoint missing');
    return;
  }
  const list = r.body;
  if (!list.length) {
    assert.ok(await p.locator('#snapshots-empty').isVisible(), 'empty-state message');
    await shot(p, 'snapshots-empty');
    await close(p);
    return;
  }
  const rows = await p.locator('#snapshots-table tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    week: tr.dataset.week, ref: tr.dataset.ref, commit: new URL(tr.querySelector('.commit a').href).searchParams.get('rev'),
    taken: tr.querySelector('.taken time')?.getAttribute('datetime'), method: tr.querySelector('td.method').textContent,
  })));
  const expect = list.map((s) => `${s.week} ${s.ref} ${s.commit} ${s.taken_at} ${s.method}`).sort();
  assert.deepEqual(rows.map((s) => `${s.week} ${s.ref} ${s.commit} ${s.taken} ${s.method}`).sort(), expect);
  // Per-snapshot figures come from snapshots.csv.
  const csv = await api(`${repoApi()}/snapshots.csv`);
  if (csv.status === 200) {
    const [head, ...lines] = csv.body.trim().split(/\r?\n/).map((l) => l.split(',').map((x) => x.replace(/^"|"$/g, '')));
    const col = (n) => head.indexOf(n);
    const first = lines[0];
    const cell = await p.locator(`#snapshots-table tr[data-week="${first[col('week')]}"][data-ref="${first[col('ref')]}"] td.fig`).first().textContent();
    assert.equal(num(cell.split(/[▲▼]/)[0]), Number(first[col('object_paths.object-legacy')]), 'object-legacy of a snapshot, from the CSV');
  }
  const s = list[0];
  const md = await api(`${repoApi()}/snapshots/${enc(s.week)}/report.md?ref=${enc(s.ref)}`);
  await p.locator(`#snapshots-table tr[data-week="${s.week}"][data-ref="${s.ref}"] .show-report`).click();
  await p.waitForFunction((w) => document.getElementById('report').dataset.week === w, s.week);
  // Rendered Markdown (marked + DOMPurify): headings and tables, no
  // escape backslashes left visible, the words of the report all there.
  assert.equal(await p.locator('#report h1').count(), (md.body.match(/^# /gm) ?? []).length);
  assert.equal(await p.locator('#report table').count() > 0, /^\|/m.test(md.body));
  const shown = await p.locator('#report').textContent();
  assert.ok(!/\\[_*<>`]/.test(shown), 'no Markdown escape left visible');
  const words = (t) => t.replace(/\\(.)/g, '$1').replace(/[#|*`\-:]+/g, ' ').split(/\s+/).filter((w) => /^\w{4,}$/.test(w));
  const seen = new Set(words(shown));
  assert.deepEqual(words(md.body).filter((w) => !seen.has(w)), [], 'every word of the report is shown');
  await assertNoInjection(p);
  await shot(p, 'snapshots');
  await close(p);
});
