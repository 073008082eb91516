// portdash analyze --format sarif: valid SARIF 2.1.0 (the published OASIS
// schema, tests/node/schema/), the fields GitHub code scanning reads, and
// fingerprints that survive moving code.  PORTDASH_BIN names the binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const schema = JSON.parse(readFileSync(join(here, 'schema', 'sarif-schema-2.1.0.json'), 'utf8'));
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(schema);

function analyze(args, cwd = root) {
  const r = spawnSync(bin, ['analyze', ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('SARIF of numpy-like files is valid against the SARIF 2.1.0 schema', () => {
  const r = analyze(['--format', 'sarif', 'tests/fixtures/analyze']);
  assert.equal(r.status, 0, r.err);
  const log = JSON.parse(r.out);
  const ok = validate(log);
  assert.ok(ok, JSON.stringify(validate.errors, null, 1));
  assert.equal(log.version, '2.1.0');
  const run = log.runs[0];
  assert.equal(run.tool.driver.name, 'portdash');
  assert.ok(run.results.length > 10);
  for (const rule of run.tool.driver.rules) {
    assert.ok(rule.id && rule.shortDescription.text && rule.help.text);
  }
  for (const res of run.results) {
    assert.equal(run.tool.driver.rules[res.ruleIndex].id, res.ruleId);
    const loc = res.locations[0].physicalLocation;
    assert.match(loc.artifactLocation.uri, /^tests\/fixtures\/analyze\/(cases\/)?[^/]+$/);
    assert.ok(loc.region.startLine >= 1 && loc.region.startColumn >= 1);
    assert.match(res.partialFingerprints['portdash/v1'], /^[0-9a-f]{16}$/);
    assert.ok(['warning', 'note', 'error'].includes(res.level));
  }
  // the template's instances carry their own results
  assert.ok(run.results.some((x) => x.locations[0].logicalLocations?.[0].name === 'OBJECT_getitem'));
});

test('fingerprints are stable when code moves down, and distinct', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-sarif-'));
  try {
    const src = 'static PyObject *\nf(PyObject *o)\n{\n    Py_INCREF(o);\n    Py_INCREF(o);\n'
      + '    return o;\n}\n';
    writeFileSync(join(dir, 'a.c'), src);
    const before = JSON.parse(analyze(['--format', 'sarif', 'a.c'], dir).out).runs[0].results;
    writeFileSync(join(dir, 'a.c'), '/* moved */\n\n\n' + src);
    const after = JSON.parse(analyze(['--format', 'sarif', 'a.c'], dir).out).runs[0].results;
    const fp = (rs) => rs.map((x) => x.partialFingerprints['portdash/v1']);
    assert.deepEqual(fp(after), fp(before));
    assert.equal(after[0].locations[0].physicalLocation.region.startLine,
      before[0].locations[0].physicalLocation.region.startLine + 3);
    assert.equal(new Set(fp(before)).size, before.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--fail-on sets the exit status and the level', () => {
  const pass = analyze(['--format', 'sarif', '--fail-on', 'bridge', 'tests/fixtures/analyze/decls.c']);
  assert.equal(pass.status, 0, pass.err);
  const fail = analyze(['--format', 'sarif', '--fail-on', 'capi', 'tests/fixtures/analyze/template.c.src',
    'tests/fixtures/analyze/guarded.c']);
  assert.equal(fail.status, 1);
  assert.match(fail.err, /forbidden by --fail-on: [1-9][0-9]* findings?, 0 functions in a forbidden object state/);
  const log = JSON.parse(fail.out);
  assert.ok(validate(log));
  assert.ok(log.runs[0].results.some((x) => x.level === 'error'));
  // guarded C API stays a note and does not fail
  assert.ok(log.runs[0].results.some((x) => x.level === 'note'));
  const bad = analyze(['--fail-on', 'nonsense', 'tests/fixtures/analyze/decls.c']);
  assert.equal(bad.status, 2);
});

// The real numpy file when a numpy-hpy clone is at hand (PORTDASH_NUMPY_REPO,
// a bare clone as in the README's "On a real repository"); skipped otherwise.
const numpyRepo = process.env.PORTDASH_NUMPY_REPO;
test('SARIF of numpy arraytypes.c.src is valid', (t) => {
  if (!numpyRepo) { t.skip('PORTDASH_NUMPY_REPO not set'); return; }
  const r = analyze(['--format', 'sarif', '--git-dir', numpyRepo, '--rev', 'hpy-convert-object-dtype',
    '--path', 'numpy/core/src/multiarray/arraytypes.c.src']);
  if (r.status !== 0 && /cannot open repository/.test(r.err)) { t.skip('no numpy-hpy clone'); return; }
  assert.equal(r.status, 0, r.err);
  const log = JSON.parse(r.out);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
  assert.ok(log.runs[0].results.length > 1000);
});

// GitHub code scanning takes at most 25,000 results per run and 10 MB of
// gzip (docs.github.com .../troubleshooting-sarif-uploads/results-exceed-limit
// and .../file-too-large); the writer groups or cuts, and says so.
test('one result per function and class carries the counts, and is valid', () => {
  const each = JSON.parse(analyze(['--format', 'sarif', 'tests/fixtures/analyze']).out).runs[0];
  const r = analyze(['--format', 'sarif', '--sarif-group', 'function', 'tests/fixtures/analyze']);
  assert.equal(r.status, 0, r.err);
  const log = JSON.parse(r.out);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
  const run = log.runs[0];
  assert.equal(run.properties['portdash/sarif'].grouping, 'function');
  assert.equal(run.properties['portdash/sarif'].findings, each.results.length);
  // every finding is counted in exactly one grouped result
  assert.equal(run.results.reduce((n, x) => n + x.properties.count, 0), each.results.length);
  assert.ok(run.results.length < each.results.length);
  for (const res of run.results) {
    assert.match(res.ruleId, /^class\/(capi|npy-legacy|bridge)$/);
    assert.equal(run.tool.driver.rules[res.ruleIndex].id, res.ruleId);
    assert.match(res.message.text, /^\d+ (capi|npy-legacy|bridge) findings? (in |at file scope)/);
    const ids = Object.values(res.properties.identifiers).reduce((a, b) => a + b, 0);
    assert.ok(ids <= res.properties.count && ids >= 1);
  }
  assert.match(r.err, /findings -> \d+ results, one per function and class/);
  // each grouped result counts its own function's findings of its class:
  // by file, function name and class, the grouped counts add up to the
  // per-finding results (the message's class starts each one's text)
  const key = (x, cls) => [x.locations[0].physicalLocation.artifactLocation.uri,
    x.locations[0].logicalLocations?.[0]?.name ?? '', cls].join('|');
  // and names the identifiers those findings use, with their counts
  const want = new Map(), got = new Map(), wantIds = new Map(), gotIds = new Map();
  const add = (m, k, id, n) => {
    const v = m.get(k) ?? {};
    v[id] = (v[id] ?? 0) + n;
    m.set(k, v);
  };
  for (const x of each.results) {
    const k = key(x, x.message.text.split(' ')[0]);
    want.set(k, (want.get(k) ?? 0) + 1);
    add(wantIds, k, x.message.text.split('`')[1], 1);
  }
  for (const x of run.results) {
    const k = key(x, x.ruleId.slice('class/'.length));
    got.set(k, (got.get(k) ?? 0) + x.properties.count);
    for (const [id, n] of Object.entries(x.properties.identifiers)) add(gotIds, k, id, n);
  }
  assert.deepEqual(got, want);
  assert.deepEqual(gotIds, wantIds);
  // and a function's results are told apart from a same-named one's in
  // its file (GitHub matches fingerprints within a file)
  const prints = run.results.map((x) =>
    x.locations[0].physicalLocation.artifactLocation.uri + ' ' + x.partialFingerprints['portdash/v1']);
  assert.equal(new Set(prints).size, prints.length);
  // auto: these few findings fit, so one result per finding
  assert.equal(each.properties['portdash/sarif'].grouping, 'finding');
});

test('--sarif-max keeps the worst levels and states what it left out', () => {
  const all = JSON.parse(analyze(['--format', 'sarif', '--fail-on', 'capi',
    'tests/fixtures/analyze']).out).runs[0].results;
  const errors = all.filter((x) => x.level === 'error').length;
  assert.ok(errors > 0 && errors < all.length);
  const r = analyze(['--format', 'sarif', '--fail-on', 'capi', '--sarif-group', 'finding',
    '--sarif-max', String(errors), 'tests/fixtures/analyze']);
  const run = JSON.parse(r.out).runs[0];
  assert.equal(run.results.length, errors);
  assert.ok(run.results.every((x) => x.level === 'error'));
  const p = run.properties['portdash/sarif'];
  assert.equal(p.omitted, all.length - errors);
  assert.equal(p.omittedByLevel.warning + p.omittedByLevel.note, all.length - errors);
  assert.match(r.err, new RegExp(`${all.length - errors} results left out over the limit of ${errors}`));
  // auto groups when the findings do not fit
  const g = JSON.parse(analyze(['--format', 'sarif', '--sarif-max', String(all.length - 1),
    'tests/fixtures/analyze']).out).runs[0];
  assert.equal(g.properties['portdash/sarif'].grouping, 'function');
});

test('--sarif-classes and --sarif-level leave findings out, counted', () => {
  const all = JSON.parse(analyze(['--format', 'sarif', 'tests/fixtures/analyze']).out).runs[0].results;
  const r = analyze(['--format', 'sarif', '--sarif-classes', 'capi,bridge', '--sarif-level', 'warning',
    'tests/fixtures/analyze']);
  const run = JSON.parse(r.out).runs[0];
  const want = all.filter((x) => x.level !== 'note' && !/npy-legacy/.test(x.message.text));
  assert.equal(run.results.length, want.length);
  assert.equal(run.properties['portdash/sarif'].filtered, all.length - want.length);
  assert.match(r.err, new RegExp(`${all.length - want.length} findings left out by --sarif-classes`));
  for (const [opt, val] of [['--sarif-classes', 'hpyx'], ['--sarif-level', 'fatal'],
    ['--sarif-group', 'file'], ['--sarif-max', '0']]) {
    const bad = analyze(['--format', 'sarif', opt, val, 'tests/fixtures/analyze']);
    assert.equal(bad.status, 2, `${opt} ${val}`);
    assert.match(bad.err, new RegExp(opt));
  }
});

test('default SARIF of numpy/core fits GitHub code scanning', (t) => {
  if (!numpyRepo) { t.skip('PORTDASH_NUMPY_REPO not set'); return; }
  const r = analyze(['--format', 'sarif', '--git-dir', numpyRepo, '--rev', 'hpy',
    '--path', 'numpy/core/**']);
  if (r.status !== 0 && /cannot open repository/.test(r.err)) { t.skip('no numpy-hpy clone'); return; }
  assert.equal(r.status, 0, r.err);
  const log = JSON.parse(r.out);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
  assert.equal(log.runs.length, 1);
  assert.ok(log.runs[0].results.length <= 25000);
  assert.ok(log.runs[0].tool.driver.rules.length <= 25000);
  const gz = Number(/, (\d+) gzip/.exec(r.err)[1]);
  assert.ok(gz > 0 && gz < 10 * 1024 * 1024, r.err);
});

test('--sarif-since keeps only the findings a revision adds; moved lines are not new', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-since-'));
  const git = (cmd) => {
    const r = spawnSync('sh', ['-c', `git -c user.name=t -c user.email=t@example.org ${cmd}`],
      { cwd: dir, encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim();
  };
  try {
    const src = 'static PyObject *\nf(PyObject *o)\n{\n    Py_INCREF(o);\n    return o;\n}\n';
    git('init -q -b main');
    writeFileSync(join(dir, 'a.c'), src);
    git('add a.c && git -c user.name=t -c user.email=t@example.org commit -qm one');
    writeFileSync(join(dir, 'a.c'), '/* moved down */\n\n\n' + src.replace('    return o;',
      '    Py_INCREF(o);\n    PyErr_SetString(PyExc_TypeError, "x");\n    HPy_Close(ctx, h);\n    return o;'));
    git('commit -qam two');
    const r = analyze(['--format', 'sarif', '--git-dir', '.', '--rev', 'HEAD', '--sarif-since', 'HEAD~1'], dir);
    assert.equal(r.status, 0, r.err);
    const run = JSON.parse(r.out).runs[0];
    assert.ok(validate(JSON.parse(r.out)));
    // the second Py_INCREF and PyErr_SetString / PyExc_TypeError are new; the moved ones are not
    const texts = run.results.map((x) => /`([^`]*)`/.exec(x.message.text)[1]).sort();
    assert.deepEqual(texts, ['PyErr_SetString', 'PyExc_TypeError', 'Py_INCREF']);
    assert.equal(run.properties['portdash/sarif'].since, 'HEAD~1');
    // HPy_Close is new too, and no result: stderr says so beside the count
    assert.match(r.err, /SARIF: 4 findings new since HEAD~1, 1 of them HPy uses \(never results\)/);
    const all = JSON.parse(analyze(['--format', 'sarif', '--git-dir', '.', '--rev', 'HEAD'], dir).out).runs[0];
    assert.equal(run.properties['portdash/sarif'].filtered, all.results.length - run.results.length);
    const bad = analyze(['--format', 'sarif', '--sarif-since', 'HEAD~1', 'a.c'], dir);
    assert.equal(bad.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
