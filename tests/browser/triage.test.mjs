// triage.test.mjs: dismissed findings, the tool and level filters, and
// findings without a column on the file page (static/js/file.mjs), in a
// real browser (issue 14.6-14.7).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT PORTDASH_TOKEN=TOKEN node --test tests/browser/
//
// PORTDASH_TOKEN carries the scopes sarif and triage (run_all.sh makes it).
// The test uploads a one-result SARIF log without a column and dismisses
// one built-in finding of the demo's src/toyarray.c at the later branch.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, apiOk, close, closeBrowser, launch, here, open } from './lib.mjs';

const REPO = 'demo';
const REV = 'hpy-convert-object-dtype';
const PATH = 'src/toyarray.c';
const TOKEN = process.env.PORTDASH_TOKEN ?? '';
let file;

async function post(p, body) {
  const res = await fetch(BASE + p, {
    method: 'POST', body: JSON.stringify(body),
    headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
  });
  const text = await res.text();
  assert.ok(res.ok, `POST ${p}: ${res.status} ${text}`);
  return JSON.parse(text);
}

before(async () => {
  assert.ok(BASE, 'set PORTDASH_URL');
  assert.ok(TOKEN, 'set PORTDASH_TOKEN (scopes sarif, triage)');
  await post(`/api/v1/repos/${REPO}/commits/${REV}/sarif?category=browser`, {
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'lintW' } }, results: [{ level: 'error', message: { text: 'no column here' },
      locations: [{ physicalLocation: { artifactLocation: { uri: PATH }, region: { startLine: 20 } } }] }] }],
  });
  const before0 = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  const victim = before0.findings.find((f) => f.tool === 'portdash');
  await post(`/api/v1/repos/${REPO}/dismissals`, { rev: REV, path: PATH, fingerprint: victim.fingerprint,
    reason: 'false positive', comment: 'macro, not a call' });
  file = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  await launch();
});

after(async () => {
  await closeBrowser();
});

const pageUrl = (extra = {}) => `${BASE}/file.html?${new URLSearchParams({ repo: REPO, rev: REV, path: PATH, ...extra })}`;

test('a dismissed finding is marked, counted and can be hidden', async () => {
  assert.equal(file.dismissed_count, 1);
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  const count = page.locator('#findings-count');
  assert.match(await count.textContent(), /· 1 dismissed$/);
  const d = file.findings.find((f) => f.dismissed);
  const row = page.locator(`#findings-table tbody tr[data-fingerprint="${d.fingerprint}"]`);
  assert.match(await row.getAttribute('class'), /dismissed/);
  const badge = row.locator('.dismissed-badge');
  assert.equal(await badge.textContent(), 'false positive');
  assert.match(await badge.getAttribute('title'), /dismissed by browser at .*: macro, not a call/);
  await page.locator('#f-open').check();
  assert.equal(Number(await count.getAttribute('data-shown')), file.findings.length - 1);
  assert.equal(await row.count(), 0);
  await close(page);
});

/* What the source view shows of line n. */
async function sourceLine(page, n) {
  return page.locator(`#L${n}`).evaluate((tr) => ({
    hl: tr.classList.contains('hl'), dismissedRow: tr.classList.contains('hl-dismissed'),
    dismissed: tr.dataset.dismissed ?? '0', worst: tr.dataset.worst,
    struck: [...tr.querySelectorAll('.fmsg-one.dismissed')].map((m) => m.textContent),
  }));
}

/* The line of findings fs as the source view must mark it: not coloured
 * when every finding is dismissed, by the worst open one otherwise. */
function expectLine(got, fs) {
  const live = fs.filter((f) => !f.dismissed);
  assert.equal(got.hl, true);
  assert.equal(got.dismissedRow, live.length === 0, 'no colour only when every finding is dismissed');
  assert.equal(Number(got.dismissed), fs.length - live.length);
  if (live.length) assert.ok(live.some((f) => f.class === got.worst), `coloured by an open finding (${got.worst})`);
  const reasons = fs.filter((f) => f.dismissed).map((f) => f.dismissed.reason);
  assert.equal(got.struck.length > 0, reasons.length > 0, 'a struck message exactly when a finding is dismissed');
  for (const r of reasons) assert.ok(got.struck.some((t) => t.endsWith(`dismissed: ${r}`)), `the reason "${r}" under the line`);
}

test('a dismissed finding is muted in the source view, not coloured as open', async () => {
  const d = file.findings.find((f) => f.dismissed);
  const page = await open(pageUrl());
  await page.waitForSelector('#source-table[data-coloured]');
  const got = await sourceLine(page, d.line);
  expectLine(got, file.findings.filter((f) => f.line === d.line));
  assert.ok(got.struck.length >= 1, 'its message struck through');
  assert.match(await page.locator(`#L${d.line} td.mk`).getAttribute('title'), /\(dismissed: false positive\)/);
  // Other lines keep their colour: no open finding is shown as dismissed.
  const other = file.findings.find((f) => !f.dismissed && f.line !== d.line);
  if (other) assert.equal((await sourceLine(page, other.line)).dismissed, '0');
  await close(page);
});

test('the tool and level filters show only those findings', async () => {
  const page = await open(pageUrl({ tool: 'lintW' }));
  await page.waitForSelector('#findings-table tbody tr');
  const shown = Number(await page.locator('#findings-count').getAttribute('data-shown'));
  assert.equal(shown, file.findings.filter((f) => f.tool === 'lintW').length);
  assert.equal(shown, 1);
  await page.selectOption('#f-tool', '');
  await page.selectOption('#f-level', 'error');
  assert.equal(Number(await page.locator('#findings-count').getAttribute('data-shown')),
    file.findings.filter((f) => f.level === 'error').length);
  assert.match(await here(page), /level=error/);
  await close(page);
});

test('a finding without a column has no ":null" in the source gutter', async () => {
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  const titles = await page.locator('[title]').evaluateAll((els) => els.map((e) => e.getAttribute('title')));
  assert.ok(titles.some((t) => /^20 sarif /m.test(t)), 'the SARIF finding of line 20 is in a title');
  assert.ok(!titles.some((t) => t.includes(':null')), 'no ":null"');
  await close(page);
});

test('dismissing without a token is refused on the page, not sent to be refused', async () => {
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  await page.evaluate(() => sessionStorage.removeItem('portdash-triage-token'));
  const asked = [];
  page.on('request', (r) => { if (r.url().includes('/dismissals')) asked.push(r.method()); });
  const target = file.findings.find((f) => !f.dismissed && f.tool === 'portdash' && f.fingerprint);
  const row = page.locator(`#findings-table tbody tr[data-fingerprint="${target.fingerprint}"]`);
  await row.locator('button.dismiss').click();
  await row.locator('input[name=token]').fill('  ');
  await row.locator('button[type=submit]').click();
  await row.locator('.form-error').filter({ hasText: /triage permission is needed/ }).waitFor();
  assert.deepEqual(asked, [], 'no request without a token');
  assert.equal(await row.locator('.dismissed-badge').count(), 0);
  await close(page);
});

/* A built-in finding not dismissed, off the dismissed one's line, dismissed
 * now through the API with reason and comment: [finding, dismissal]. */
async function dismissedNow(reason, comment) {
  const target = file.findings.find((f) => !f.dismissed && f.tool === 'portdash' && f.fingerprint
    && f.line !== file.findings.find((x) => x.dismissed)?.line);
  return [target, await post(`/api/v1/repos/${REPO}/dismissals`,
    { rev: REV, path: PATH, fingerprint: target.fingerprint, reason, comment })];
}

test('an undo asks for the token when the tab has none, and undoes with it', async () => {
  const [target] = await dismissedNow('used in tests', 'undo without a token');
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  await page.evaluate(() => sessionStorage.removeItem('portdash-triage-token'));
  const row = page.locator(`#findings-table tbody tr[data-fingerprint="${target.fingerprint}"]`);
  await row.locator('button.undo').click();
  const token = row.locator('form.undo-form input[name=token]');
  await token.waitFor();
  await row.locator('form.undo-form button[type=submit]').click();
  await row.locator('.form-error').filter({ hasText: /triage permission is needed/ }).waitFor();
  await token.fill(TOKEN);
  await row.locator('form.undo-form button[type=submit]').click();
  await page.waitForFunction((fp) => !document.querySelector(`#findings-table tbody tr[data-fingerprint="${fp}"] .dismissed-badge`),
    target.fingerprint);
  const now = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  assert.equal(now.findings.find((f) => f.fingerprint === target.fingerprint).dismissed, null);
  await close(page);
});

test('an undo of a dismissal changed meanwhile undoes nothing and shows the row as it stands', async () => {
  const [target, old] = await dismissedNow('false positive', 'first');
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  await page.evaluate((t) => sessionStorage.setItem('portdash-triage-token', t), TOKEN);
  // another tab dismisses it again: a new id, another reason
  const again = await post(`/api/v1/repos/${REPO}/dismissals`, { rev: REV, path: PATH, fingerprint: target.fingerprint,
    reason: 'used in tests', comment: 'second' });
  assert.notEqual(again.id, old.id);
  const row = () => page.locator(`#findings-table tbody tr[data-fingerprint="${target.fingerprint}"]`);
  assert.equal(await row().locator('.dismissed-badge').textContent(), 'false positive');
  await row().locator('button.undo').click();
  await row().locator('.dismiss-note').filter({ hasText: /changed meanwhile/ }).waitFor();
  assert.equal(await row().locator('.dismissed-badge').textContent(), 'used in tests');
  const now = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  assert.equal(now.findings.find((f) => f.fingerprint === target.fingerprint).dismissed.id, again.id, 'the newer dismissal stays');
  const del = await fetch(`${BASE}/api/v1/repos/${REPO}/dismissals/${again.id}`,
    { method: 'DELETE', headers: { Authorization: `Bearer ${TOKEN}` } });
  assert.equal(del.status, 200);
  await close(page);
});

test('a finding is dismissed and undone from the page, with the token of scope triage', async () => {
  const page = await open(pageUrl());
  await page.waitForSelector('#findings-table tbody tr');
  const count = page.locator('#findings-count');
  const target = file.findings.find((f) => !f.dismissed && f.tool === 'portdash' && f.fingerprint);
  const row = () => page.locator(`#findings-table tbody tr[data-fingerprint="${target.fingerprint}"]`);
  // a wrong token: the server's problem is shown, nothing changes
  await row().locator('button.dismiss').click();
  await row().locator('input[name=token]').fill('pd_wrong');
  await row().locator('button[type=submit]').click();
  await row().locator('.form-error').filter({ hasText: /token/ }).waitFor();
  await row().locator('select[name=reason]').selectOption('used in tests');
  await row().locator('input[name=comment]').fill('only the test suite calls it');
  await row().locator('input[name=token]').fill(TOKEN);
  await row().locator('button[type=submit]').click();
  await page.waitForFunction(() => document.querySelector('#findings-count').dataset.dismissed === '2');
  assert.equal(await row().locator('.dismissed-badge').textContent(), 'used in tests');
  const api = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  assert.equal(api.findings.find((f) => f.fingerprint === target.fingerprint).dismissed.comment, 'only the test suite calls it');
  // The source view follows the dismissal, and its undo, without a reload.
  await page.waitForSelector('#source-table[data-coloured]');
  expectLine(await sourceLine(page, target.line), api.findings.filter((f) => f.line === target.line));
  await row().locator('button.undo').click();
  await page.waitForFunction(() => document.querySelector('#findings-count').dataset.dismissed === '1');
  assert.match(await count.textContent(), /· 1 dismissed$/);
  const undone = await apiOk(`/api/v1/repos/${REPO}/commits/${REV}/files/${PATH}`);
  expectLine(await sourceLine(page, target.line), undone.findings.filter((f) => f.line === target.line));
  await close(page);
});
