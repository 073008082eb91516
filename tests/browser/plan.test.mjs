// plan.test.mjs: browser tests of issue 24's pages: "What HPy must add"
// (static/hpy-needs.html, js/hpyneeds.mjs) and the owners and porting plan
// on the file page (js/plan.mjs).
//
// Run: PORTDASH_URL=http://127.0.0.1:PORT node --test tests/browser/
//
// Every case first asks the JSON API of the same server and then checks
// that the page shows exactly that.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, apiOk, blank, close, closeBrowser, here, launch, open } from './lib.mjs';

const enc = encodeURIComponent;

before(async () => { await launch(); });
after(async () => { await closeBrowser(); });

test('What HPy must add: one row per symbol in the API order, a column per port, the exports', async () => {
  const d = await apiOk('/api/v1/hpy-needs?limit=500');
  assert.ok(d.symbols.length > 0 && d.ports.length >= 2);
  const page = await open(`${BASE}/hpy-needs.html`);
  const rows = page.locator('#needs-table tbody tr');
  assert.equal(await rows.count(), d.symbols.length);
  for (let i = 0; i < d.symbols.length; i++) {
    const s = d.symbols[i];
    const cells = rows.nth(i).locator('td, th');
    assert.equal(await rows.nth(i).getAttribute('data-symbol'), s.symbol);
    assert.equal(await cells.nth(3).textContent(), String(s.total.functions));
    for (let k = 0; k < d.ports.length; k++) {
      const c = s.ports[d.ports[k].name];
      assert.equal(await cells.nth(8 + k).textContent(), c ? `${c.functions} / ${c.files}` : '');
    }
  }
  assert.equal(await page.locator('#needs-table thead th').count(), 8 + d.ports.length);
  // (the fixtures lack one name since PyObject has HPy's replacement: "1 name")
  assert.ok((await page.locator('#needs-about').textContent())
    .startsWith(`${d.total} ${d.total === 1 ? 'name' : 'names'} across ${d.ports.length} ports: `));
  assert.equal(await page.locator('#nav-hpy-needs').getAttribute('aria-current'), 'page');
  // the exports answer what the page links
  const csv = await page.locator('#needs-export a', { hasText: 'CSV' }).getAttribute('href');
  const r = await api(`/${csv}`);
  assert.equal(r.status, 200);
  assert.match(r.type, /text\/csv/);
  assert.equal(r.body.trim().split('\r\n').length, d.symbols.length + 1);
  // a kind filter asks the API again
  await page.selectOption('#n-kind', 'type');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('kind') === 'type');
  const t = await apiOk('/api/v1/hpy-needs?kind=type&limit=500');
  await page.waitForFunction((n) => document.querySelectorAll('#needs-table tbody tr[data-symbol]').length === n, t.symbols.length);
  await close(page);
});

test('What HPy must add: ?kind= as the dropdown names its choices (macros) filters, and the dropdown shows it', async () => {
  const d = await apiOk('/api/v1/hpy-needs?kind=macro&limit=500');
  assert.ok(d.symbols.length > 0, 'the fixtures use a C API macro HPy lacks');
  const page = await open(`${BASE}/hpy-needs.html?kind=macros`);
  assert.ok(await page.locator('#errors').isHidden(), await page.locator('#errors').textContent());
  assert.equal(await page.locator('#n-kind').inputValue(), 'macro');
  assert.equal(await page.locator('#n-kind option:checked').textContent(), 'macros');
  assert.deepEqual(await page.locator('#needs-table tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.dataset.symbol, tr.cells[2].textContent])),
    d.symbols.map((s) => [s.symbol, 'macro']));
  assert.equal(new URL(await here(page)).searchParams.get('kind'), 'macro');
  // a list the dropdown does not offer gets an option naming it
  await page.goto(`${BASE}/hpy-needs.html?kind=types,macros`);
  await page.waitForSelector('body[data-ready]');
  assert.equal(await page.locator('#n-kind option:checked').textContent(), 'type, macro');
  await close(page);
});

test('What HPy must add: one port and one name are said in the singular', async () => {
  const d = await apiOk('/api/v1/hpy-needs?limit=500');
  const one = { ...d, total: 1, ports: d.ports.slice(0, 1), symbols: d.symbols.slice(0, 1) };
  const page = await blank();
  // The database holds two ports: the answer is cut to one here.
  await page.route(/\/api\/v1\/hpy-needs/, (r) => r.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(one) }));
  await page.goto(`${BASE}/hpy-needs.html`);
  await page.waitForSelector('body[data-ready]');
  assert.ok((await page.locator('#needs-about').textContent()).startsWith('1 name across 1 port: '));
  await close(page);
});

test('File page: owners and the porting plan of the file', async () => {
  const repos = await apiOk('/api/v1/repos');
  const repo = repos[0].name;
  const rev = repos[0].refs[0].name;
  // a file the plan has steps for (the repository-wide plan names them)
  const all = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/plan`);
  assert.ok(all.steps.length > 0, 'the fixture has a function to port');
  const path = all.steps[0].path;
  const o = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/owners/${path.split('/').map(enc).join('/')}`);
  const p = await apiOk(`/api/v1/repos/${enc(repo)}/commits/${enc(rev)}/plan?path=${enc(path)}&limit=500`);
  const page = await open(`${BASE}/file.html?repo=${enc(repo)}&rev=${enc(rev)}&path=${enc(path)}`);
  await page.waitForSelector('#owners');
  const withOwners = o.functions.filter((f) => f.ported_by.length || f.changed_by.length);
  assert.equal(await page.locator('#owners tbody tr').count(), withOwners.length);
  if (o.changed_by.length) {
    assert.ok((await page.locator('#owners p').textContent()).includes(o.changed_by[0].handle ?? o.changed_by[0].name));
  }
  // "from 1 version", not "1 versions"
  const noun = o.versions_read === 1 ? 'version' : 'versions';
  assert.ok((await page.locator('#owners p').first().textContent()).includes(`from ${o.versions_read} ${noun} of the file`));
  assert.ok(p.steps.length > 0);
  // the scope the plan answers for is named (object-dtype paths are left
  // out of no-object-dtype: a file of object paths would read as ported)
  const lead = await page.locator('#plan p').first().textContent();
  assert.equal(lead.startsWith('Under scope '), Boolean(p.scope));
  if (p.scope) assert.ok(lead.includes(`scope ${p.scope} `));
  assert.equal(await page.locator('#plan .plan-batches > li').count(), p.batches.length);
  assert.equal(await page.locator('#plan li[data-step]').first().getAttribute('data-name'), p.steps[0].name);
  assert.equal(await page.locator('#plan li[data-step]').count(), p.steps.length);
  // no e-mail address on a public server
  assert.ok(!(await page.locator('#owners-plan').innerHTML()).includes('@example'));
  // Under the source, not between the function table and the source (the
  // plan of arraytypes.c.src is 11,700 px tall); the head links to it.
  const below = (a, b) => page.evaluate(([x, y]) => Boolean(document.getElementById(x)
    .compareDocumentPosition(document.getElementById(y)) & Node.DOCUMENT_POSITION_FOLLOWING), [a, b]);
  assert.equal(await below('source-section', 'owners-plan'), true);
  assert.equal(await below('findings-section', 'source-section'), true);
  assert.equal(await page.locator('#file-plan-link').getAttribute('href'), '#owners-plan');
  await close(page);
  // Opened at #owners-plan in a window too short for the page, it scrolls
  // to the panel, which came after the browser looked for the anchor.
  const url = `${BASE}/file.html?repo=${enc(repo)}&rev=${enc(rev)}&path=${enc(path)}#owners-plan`;
  const short = await open(url, { width: 1366, height: 240 });
  await short.waitForSelector('#owners');
  await short.waitForFunction(() => {
    const r = document.getElementById('owners-plan').getBoundingClientRect();
    return r.top < innerHeight && r.bottom > 0 && scrollY > 0;
  }, null, { timeout: 5000 });
  await close(short);
});

test('File page: the owners say who ported and who bridged apart (the API\'s ported_by is whoever added HPy code)', async () => {
  const repos = await apiOk('/api/v1/repos');
  const gc = repos.find((r) => r.name === 'gcport');
  assert.ok(gc, 'the gcport fixture');
  const at = `/api/v1/repos/gcport/commits/hpy`;
  for (const path of ['src/calls.c', 'src/ctx.c']) {
    const o = await apiOk(`${at}/owners/${path}`);
    const d = await apiOk(`${at}/file-functions/${path}`);
    const status = new Map(d.functions.map((f) => [`${f.name} ${f.start_line}`, f.status]));
    const by = { ported: new Map(), bridged: new Map() };
    for (const f of o.functions) {
      const st = status.get(`${f.name} ${f.start_line}`);
      for (const p of f.ported_by) by[st].set(p.handle ?? p.name, (by[st].get(p.handle ?? p.name) ?? 0) + 1);
    }
    assert.ok(by.bridged.size > 0, `${path} has a bridged function someone added HPy code to`);
    const names = (m) => (m.size ? [...m].map(([n, k]) => (k > 1 ? `${n} ×${k}` : n)).join(', ') : '—');
    const page = await open(`${BASE}/file.html?repo=gcport&rev=hpy&path=${enc(path)}`);
    await page.waitForSelector('#owners');
    const line = await page.locator('#owners p').first().textContent();
    assert.ok(line.startsWith(`Ported by: ${names(by.ported)} · bridged by: ${names(by.bridged)} · changed lately: `), line);
    assert.equal(await page.locator('#owners thead th').nth(1).textContent(), 'Ported or bridged by');
    for (const f of o.functions.filter((x) => x.ported_by.length)) {
      const row = page.locator(`#owners tbody tr[data-name="${f.name}"]`).first();
      assert.equal(await row.getAttribute('data-status'), status.get(`${f.name} ${f.start_line}`));
      assert.equal(await row.locator('th .badge').textContent(), status.get(`${f.name} ${f.start_line}`));
    }
    await close(page);
  }
});
