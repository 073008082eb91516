// dashboard.test.mjs: browser tests of the portdash dashboard (static/).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// The server behind PORTDASH_URL serves an ingested demo repository whose
// numbers these tests cannot know in advance, so every case first asks the
// JSON API of the same server and then checks that the page shows exactly
// those figures.  Chromium is the system one (/usr/bin/chromium); no browser
// is ever downloaded.  Screenshots go to build/screenshots/*.png.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, apiOk, close, closeBrowser, launch, here, open, shot } from './lib.mjs';

const STATUSES = ['ported', 'bridged', 'legacy', 'neutral'];
const OBJECT_STATES = ['object-legacy', 'object-cpython-only', 'object-universal'];
const TOKEN_CLASSES = ['hpy', 'capi', 'npy-legacy', 'bridge'];

let browser;
let repo;      // first repository from /api/v1/repos
let rev;       // its first ref name
let summary;   // its summary
let files;     // its file list

/* ---------- helpers ---------- */

const enc = encodeURIComponent;
const encPath = (p) => p.split('/').map(enc).join('/');
const commitApi = (r, v) => `/api/v1/repos/${enc(r)}/commits/${enc(v)}`;



const num = (s) => Number(String(s).replace(/[,\s\u00a0]/g, ''));
const overviewUrl = (params) => `${BASE}/index.html?${new URLSearchParams(params)}`;
const fileUrl = (p, hash = '') => `${BASE}/file.html?${new URLSearchParams({ repo, rev, path: p })}${hash}`;




async function metric(page, name) {
  const el = page.locator(`[data-metric="${name}"]`).first();
  return num(await el.textContent());
}

/** Paths of the file table rows, in order. */
const rowPaths = (page) => page.locator('#files-table tbody tr th.path').allTextContents();

/** Expected order: column value in the given order, ties by path ascending (code-point order). */
function expectedOrder(list, get, order) {
  const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return [...list].sort((a, b) => {
    const c = cmp(get(a), get(b));
    return c ? (order === 'desc' ? -c : c) : cmp(a.path, b.path);
  }).map((f) => f.path);
}

/** The finding that colours a source line: open before dismissed, unguarded before guarded, then capi > npy-legacy > bridge > hpy. */
function worst(findings) {
  const sev = { hpy: 1, bridge: 2, 'npy-legacy': 3, capi: 4 };
  const score = (f) => (f.dismissed ? 0 : 100) + (f.guarded ? 0 : 10) + (sev[f.class] ?? 0);
  return findings.reduce((w, f) => (!w || score(f) > score(w) ? f : w), null);
}

async function assertNoInjection(page) {
  const r = await page.evaluate(() => ({
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

/* ---------- setup ---------- */

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL to the base URL of a running portdash server, e.g. http://127.0.0.1:8099');
  const repos = await apiOk('/api/v1/repos');
  assert.ok(Array.isArray(repos) && repos.length > 0, 'the server has at least one repository');
  repo = repos[0].name;
  assert.ok(repos[0].refs?.length > 0, `repository ${repo} has at least one ref`);
  rev = repos[0].refs[0].name;
  summary = await apiOk(`${commitApi(repo, rev)}/summary`);
  files = (await apiOk(`${commitApi(repo, rev)}/files`)).files;
  assert.ok(files.length > 0, 'the demo commit has files');
  browser = await launch();
});

after(async () => {
  await closeBrowser();
});

/* ---------- overview ---------- */

test('overview without parameters opens the first repository at its first ref', async () => {
  const page = await open(`${BASE}/`);
  const q = new URL(await here(page)).searchParams;
  assert.equal(q.get('repo'), repo);
  assert.equal(q.get('rev'), rev);
  assert.equal(await page.locator('#repo-select').inputValue(), repo);
  assert.equal(await page.locator('#rev-select').inputValue(), rev);
  await shot(page, 'overview');
  await close(page);
});

test('overview totals are exactly those of the summary API, object-legacy first and largest', async () => {
  const page = await open(overviewUrl({ repo, rev }));
  assert.equal(await metric(page, 'object-legacy'), summary.object_paths['object-legacy']);
  assert.equal(await metric(page, 'object-cpython-only'), summary.object_paths['object-cpython-only']);
  assert.equal(await metric(page, 'object-universal'), summary.object_paths['object-universal']);
  for (const s of STATUSES) assert.equal(await metric(page, `functions-${s}`), summary.functions[s], `functions ${s}`);
  for (const c of TOKEN_CLASSES) assert.equal(await metric(page, `tokens-${c}`), summary.tokens[c], `tokens ${c}`);
  assert.equal(await metric(page, 'universal-ready'), summary.universal_ready_files);
  assert.equal(await metric(page, 'files'), summary.files);
  assert.equal(summary.files, files.length, 'summary.files matches the file list (API consistency)');
  const ratio = (await page.locator('#universal-ready').textContent()).replace(/\s+/g, ' ');
  assert.match(ratio, new RegExp(`${summary.universal_ready_files.toLocaleString('en-US')} of ${summary.files.toLocaleString('en-US')}`));

  // The object-legacy figure comes first in the totals and is their biggest
  // number (above them, the dev call's three questions: pages.test.mjs).
  const order = await page.locator('#summary [data-metric]').evaluateAll((els) => els.map((e) => e.dataset.metric));
  assert.equal(order[0], 'object-legacy');
  const sizes = await page.locator('#summary [data-metric]').evaluateAll((els) => els.map((e) => parseFloat(getComputedStyle(e).fontSize)));
  assert.ok(sizes.slice(1).every((s) => s < sizes[0]), 'object-legacy has the largest font');

  assert.equal(await page.locator('#commit-id').getAttribute('title'), summary.commit);
  assert.ok(summary.commit.startsWith(await page.locator('#commit-id').textContent()));
  assert.equal(await page.locator('#commit-message').textContent(), summary.message.split('\n')[0]);
  assert.equal(await page.locator('#commit time').first().getAttribute('datetime'), summary.author_date);
  await close(page);
});

test('overview lists one row per file with its status', async () => {
  const page = await open(overviewUrl({ repo, rev }));
  const rows = page.locator('#files-table tbody tr');
  assert.equal(await rows.count(), files.length);
  assert.equal(num(await page.locator('#row-count').getAttribute('data-shown')), files.length);
  const shown = await rows.evaluateAll((trs) => trs.map((tr) => ({
    path: tr.querySelector('th.path').textContent,
    status: tr.querySelector('.badge').textContent,
    href: tr.querySelector('th.path a').getAttribute('href'),
  })));
  const byPath = new Map(files.map((f) => [f.path, f]));
  for (const r of shown) {
    assert.ok(byPath.has(r.path), `row ${r.path} is a file of the API`);
    assert.equal(r.status, byPath.get(r.path).status, `status of ${r.path}`);
    assert.equal(new URL(r.href, BASE + '/').searchParams.get('path'), r.path, 'row links to its file page');
  }
  assert.equal(new Set(shown.map((r) => r.path)).size, files.length, 'every file once');
  await close(page);
});

test('clicking a column header sorts the rows and says so in aria-sort and the URL', async () => {
  const page = await open(overviewUrl({ repo, rev }));
  const get = (f) => f.functions?.legacy ?? 0;
  const th = page.locator('#files-table thead th[data-key="legacy"]');
  await th.locator('button').click();
  assert.equal(await th.getAttribute('aria-sort'), 'descending');
  let q = new URL(await here(page)).searchParams;
  assert.equal(q.get('sort'), 'legacy');
  assert.equal(q.get('order'), 'desc');
  assert.deepEqual(await rowPaths(page), expectedOrder(files, get, 'desc'));
  await th.locator('button').click();
  assert.equal(await th.getAttribute('aria-sort'), 'ascending');
  assert.deepEqual(await rowPaths(page), expectedOrder(files, get, 'asc'));

  const pathTh = page.locator('#files-table thead th[data-key="path"]');
  await pathTh.locator('button').click();
  assert.equal(await pathTh.getAttribute('aria-sort'), 'ascending');
  assert.equal(await th.getAttribute('aria-sort'), 'none');
  assert.deepEqual(await rowPaths(page), expectedOrder(files, (f) => f.path, 'asc'));
  await pathTh.locator('button').click();
  assert.deepEqual(await rowPaths(page), expectedOrder(files, (f) => f.path, 'desc'));

  // The object-legacy column (the one that matters most), from the URL.
  await page.goto(overviewUrl({ repo, rev, sort: 'object-legacy', order: 'desc' }));
  await page.waitForSelector('body[data-ready]');
  assert.deepEqual(await rowPaths(page), expectedOrder(files, (f) => f.object_paths?.['object-legacy'] ?? 0, 'desc'));
  assert.equal(await page.locator('#files-table thead th[data-key="object-legacy"]').getAttribute('aria-sort'), 'descending');
  q = new URL(await here(page)).searchParams;
  assert.equal(q.get('sort'), 'object-legacy');
  await close(page);
});

test('the status filter shows only matching rows, is kept in the URL and survives a reload', async () => {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, files.filter((f) => f.status === s).length]));
  // Prefer a status that selects some rows but not all of them.
  const status = STATUSES.find((s) => counts[s] > 0 && counts[s] < files.length) ?? STATUSES.find((s) => counts[s] > 0);
  const page = await open(overviewUrl({ repo, rev }));
  await page.locator('#f-status').selectOption(status);
  const check = async () => {
    const st = await page.locator('#files-table tbody tr').evaluateAll((trs) => trs.map((tr) => tr.dataset.status));
    assert.equal(st.length, counts[status], `${counts[status]} ${status} rows`);
    assert.ok(st.every((s) => s === status), `only ${status} rows`);
    assert.match(await page.locator('#row-count').textContent(), new RegExp(`\\b${counts[status]}\\b`));
  };
  await check();
  assert.equal(new URL(await here(page)).searchParams.get('status'), status);
  await shot(page, 'overview-filtered');
  await page.reload();
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.locator('#f-status').inputValue(), status);
  await check();

  // Directory filter: the biggest directory that does not hold every file.
  await page.locator('#f-status').selectOption('');
  const dirs = new Map();
  for (const f of files) {
    const parts = f.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const d = parts.slice(0, i).join('/');
      dirs.set(d, (dirs.get(d) ?? 0) + 1);
    }
  }
  const dir = [...dirs.entries()].filter(([, n]) => n < files.length).sort((a, b) => b[1] - a[1])[0]?.[0];
  if (dir) {
    await page.locator('#f-dir').selectOption(dir);
    const paths = await rowPaths(page);
    assert.equal(paths.length, dirs.get(dir));
    assert.ok(paths.every((p) => p.startsWith(`${dir}/`)));
    const q = new URL(await here(page)).searchParams;
    assert.equal(q.get('dir'), dir);
    assert.equal(q.get('status'), null, 'cleared filter leaves the URL');
    // The status options count the directory's files, not the whole list's.
    const opts = await page.locator('#f-status option').evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
    for (const [value, text] of opts.filter(([v]) => STATUSES.includes(v))) {
      const n = files.filter((f) => f.status === value && f.path.startsWith(`${dir}/`)).length;
      assert.match(text, new RegExp(`\\(${n}\\)$`), `${value} under ${dir}/: ${text}`);
    }
  }
  await close(page);
});

test('overview is usable on a narrow screen', async () => {
  const page = await open(overviewUrl({ repo, rev }), { width: 420, height: 800 });
  assert.ok(await page.locator('[data-metric="object-legacy"]').isVisible());
  await shot(page, 'overview-narrow');
  await close(page);
});

/* ---------- file page ---------- */

/** A file with functions and findings, among the files with the most capi/bridge tokens. */
async function pickFile() {
  const cand = [...files].sort((a, b) => ((b.tokens?.capi ?? 0) + (b.tokens?.bridge ?? 0))
    - ((a.tokens?.capi ?? 0) + (a.tokens?.bridge ?? 0)) || (a.path < b.path ? -1 : 1)).slice(0, 12);
  // Prefer findings that are not plain HPy (they colour lines), then more findings.
  const score = (d) => d.findings.filter((x) => x.class !== 'hpy').length * 1e6 + d.findings.length;
  let best = null;
  for (const f of cand) {
    const d = await apiOk(`${commitApi(repo, rev)}/files/${encPath(f.path)}`);
    if (d.functions.length && d.findings.length && (!best || score(d) > score(best))) best = d;
  }
  assert.ok(best, 'the demo commit has a file with functions and findings');
  return best;
}

test('the file page lists the functions of the API and highlights the lines of findings', async () => {
  const d = await pickFile();
  const raw = await api(`${commitApi(repo, rev)}/raw/${encPath(d.path)}`);
  const page = await open(fileUrl(d.path));
  assert.equal(await page.locator('#file-path').textContent(), d.path);
  assert.equal(await page.locator('#file-status .badge').textContent(), d.status);
  assert.match(await page.locator('#file-universal').textContent(), d.universal_ready ? /^universal-ready$/ : /not universal-ready/);
  if (d.notes) assert.equal(await page.locator('#file-notes').textContent(), `Notes: ${d.notes}`);

  const rows = await page.locator('#functions-table tbody tr[data-name]').evaluateAll((trs) => trs.map((tr) => ({
    name: tr.dataset.name,
    status: tr.querySelector('.fn-status').dataset.status,
    statusText: tr.querySelector('.fn-status .badge').textContent,
    statusWhy: tr.querySelector('.fn-status .why')?.textContent ?? '',
    object: tr.querySelector('.fn-object').dataset.object,
    objectClass: tr.querySelector('.fn-object .badge')?.className ?? '',
    lines: tr.querySelector('.lines').textContent,
  })));
  assert.equal(rows.length, d.functions.length, 'one row per function');
  const sorted = [...d.functions].sort((a, b) => a.start_line - b.start_line);
  for (const [i, f] of sorted.entries()) {
    const r = rows[i];
    assert.equal(r.name, f.name);
    assert.equal(r.status, f.status, `status of ${f.name}`);
    assert.equal(r.statusText, f.status);
    // The why under the badge (issue 11.8): rule, token and line.
    assert.equal(r.statusWhy, f.why?.status ? `${f.why.status.rule} \`${f.why.status.text}\` at line ${f.why.status.line}` : '');
    assert.equal(r.object, f.object_state ?? '', `object state of ${f.name}`);
    if (f.object_state) assert.ok(r.objectClass.includes(`ob-${f.object_state}`));
    assert.equal(r.lines, `${f.start_line}–${f.end_line}`);
  }

  assert.equal(await page.locator('#findings-table tbody tr').count(), d.findings.length);

  const byLine = new Map();
  for (const f of d.findings) byLine.set(f.line, [...(byLine.get(f.line) ?? []), f]);
  if (raw.status === 200) {
    const hl = await page.locator('#source-table tr.hl').evaluateAll((trs) => trs.map((tr) => ({
      id: tr.id, worst: tr.dataset.worst, guarded: tr.dataset.guarded,
    })));
    const nlines = raw.body.split(/\r\n|\n|\r/).length - (/(\r\n|\n|\r)$/.test(raw.body) ? 1 : 0);
    const expected = [...byLine.entries()].filter(([n]) => n >= 1 && n <= nlines).sort((a, b) => a[0] - b[0]);
    assert.equal(hl.length, expected.length, 'exactly the lines with findings are highlighted');
    for (const [i, [n, fs]] of expected.entries()) {
      const w = worst(fs);
      assert.equal(hl[i].id, `L${n}`);
      assert.equal(hl[i].worst, w.class, `line ${n} coloured by its worst class`);
      assert.equal(hl[i].guarded, String(!!w.guarded), `line ${n} guarded marking`);
    }
    const guardedLine = expected.find(([, fs]) => worst(fs).guarded && !worst(fs).dismissed);
    if (guardedLine) assert.ok(await page.locator(`#L${guardedLine[0]}`).evaluate((tr) => tr.classList.contains('hl-guarded')));
    assert.equal(await page.locator('#source-table tr').count(), nlines, 'one row per source line');
    // The code column takes the width, the line numbers and marks a little
    // (the fixed layout once gave each of the three a third: code wrapped).
    const [ln, mk, lc] = await page.locator('#source-table tr').first().locator('td')
      .evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().width));
    assert.ok(ln < 100 && mk < 30, `number and mark columns narrow (${ln}, ${mk} px)`);
    assert.ok(lc > 0.8 * (ln + mk + lc), `the code column takes the width (${lc} px)`);
  } else {
    assert.ok(await page.locator('#source-unavailable').isVisible(), 'says the source is unavailable');
  }
  await shot(page, 'file');

  // Filter the findings by class, kept in the URL.
  const cls = TOKEN_CLASSES.find((c) => d.findings.some((f) => f.class === c));
  await page.locator('#f-class').selectOption(cls);
  assert.equal(await page.locator('#findings-table tbody tr').count(), d.findings.filter((f) => f.class === cls).length);
  const classes = await page.locator('#findings-table tbody tr .badge').first().textContent();
  assert.equal(classes, cls);
  assert.equal(new URL(await here(page)).searchParams.get('class'), cls);
  await close(page);

  // A line anchor is selected and scrolled into view.
  if (raw.status === 200) {
    const line = Math.max(...byLine.keys());
    const p2 = await open(fileUrl(d.path, `#L${line}`));
    const row = p2.locator(`#L${line}`);
    assert.ok(await row.evaluate((tr) => tr.classList.contains('selected')));
    assert.ok(await row.evaluate((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }), `line ${line} is scrolled into view`);
    await shot(p2, 'file-anchor');
    await close(p2);
  }
});

test('the breadcrumb leads back to the overview of the same repo and rev', async () => {
  const f = files[0];
  const page = await open(fileUrl(f.path));
  await page.locator('#crumb-overview').click();
  await page.waitForSelector('body[data-ready]');
  const q = new URL(await here(page)).searchParams;
  assert.equal(q.get('repo'), repo);
  assert.equal(q.get('rev'), rev);
  await close(page);
});

/* ---------- errors ---------- */

test('an unknown repository shows the problem document of the API', async () => {
  const bad = 'no-such-repo-4711';
  const prob = await api(`${commitApi(bad, rev)}/summary`);
  assert.ok(prob.status >= 400, 'API refuses an unknown repository');
  const page = await open(overviewUrl({ repo: bad, rev }));
  const box = page.locator('#errors');
  assert.ok(await box.isVisible(), 'error box visible');
  const text = await box.textContent();
  if (prob.body?.title) assert.ok(text.includes(prob.body.title), `shows title "${prob.body.title}"`);
  if (prob.body?.detail) assert.ok(text.includes(prob.body.detail), `shows detail "${prob.body.detail}"`);
  assert.ok(text.includes(String(prob.status)), 'shows the HTTP status');
  await shot(page, 'error-unknown-repo');
  await close(page);

  const p2 = await open(overviewUrl({ repo: bad }));
  assert.ok(await p2.locator('#errors').isVisible());
  assert.ok((await p2.locator('#errors').textContent()).includes(bad));
  await close(p2);

  const p3 = await open(fileUrl('no/such/file.c'));
  assert.ok(await p3.locator('#errors').isVisible(), 'file page shows an unknown path as an error');
  await close(p3);
});

/* ---------- repository text is text ---------- */

test('a file name containing HTML is shown as text, never as markup', async () => {
  const evil = files.find((f) => f.path.includes('<img'));
  assert.ok(evil, 'the demo repository contains a file whose name holds <img ...> (fixture missing?)');
  const page = await open(overviewUrl({ repo, rev }));
  const paths = await rowPaths(page);
  assert.ok(paths.includes(evil.path), 'the evil path appears literally');
  await assertNoInjection(page);
  // The directory filter and its options are built from paths too.
  await page.locator('#f-q').fill('<img');
  assert.deepEqual(await rowPaths(page), files.filter((f) => f.path.toLowerCase().includes('<img')).map((f) => f.path).sort());
  await assertNoInjection(page);
  await close(page);

  const fp = await open(fileUrl(evil.path));
  assert.equal(await fp.locator('#file-path').textContent(), evil.path);
  assert.equal(await fp.locator('#crumbs li[aria-current]').textContent(), evil.path.split('/').pop());
  assert.ok((await fp.title()).includes(evil.path));
  await assertNoInjection(fp);
  // The coloured source (highlight.mjs, Prism's tokens) keeps the string literal as text.
  assert.ok((await fp.locator('#source-table td.lc .sx-s').allTextContents())
    .includes('"</pre><img src=x onerror=window.__xss=2>"'), 'the hostile string literal shown coloured, as text');
  await shot(fp, 'file-evil');
  await close(fp);
});

test('a commit message containing <script> is shown as text', async () => {
  const repos = await apiOk('/api/v1/repos');
  let found = null;
  for (const r of repos) {
    for (const ref of r.refs) {
      const s = await apiOk(`${commitApi(r.name, ref.name)}/summary`);
      if (/<\s*script/i.test(s.message ?? '')) { found = { repo: r.name, rev: ref.name, s }; break; }
    }
    if (found) break;
  }
  assert.ok(found, 'the head of some ref of the demo repository has a commit message containing <script> (fixture missing?)');
  const page = await open(overviewUrl({ repo: found.repo, rev: found.rev }));
  const [subject, ...rest] = found.s.message.split('\n');
  assert.equal(await page.locator('#commit-message').textContent(), subject);
  assert.equal(await page.locator('#commit-message *').count(), 0, 'the message has no child elements');
  if (rest.join('').trim()) assert.equal(await page.locator('.commit-body pre').textContent(), rest.join('\n').trim());
  await assertNoInjection(page);
  await shot(page, 'overview-script-message');
  await close(page);
});

// A trial: after choosing another ref and going Back, the page showed
// hpy's figures under a Ref picker that still said the other ref (the
// browser put the left choice back), and choosing it again did nothing.
test('Back after choosing another ref shows the ref the figures are for', async () => {
  const page = await open(`${BASE}/index.html?repo=demo&rev=hpy`);
  await Promise.all([page.waitForURL(/rev=hpy-convert-object-dtype/),
    page.selectOption('#rev-select', 'hpy-convert-object-dtype')]);
  await page.waitForSelector('body[data-ready]');
  await page.goBack();
  await page.waitForURL(/rev=hpy$/);
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.inputValue('#rev-select'), 'hpy');
  assert.equal(await page.inputValue('#repo-select'), 'demo');
  await close(page);
});
