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
  assert.match(fail.err, /forbidden by --fail-on/);
  const log = JSON.parse(fail.out);
  assert.ok(validate(log));
  assert.ok(log.runs[0].results.some((x) => x.level === 'error'));
  // guarded C API stays a note and does not fail
  assert.ok(log.runs[0].results.some((x) => x.level === 'note'));
  const bad = analyze(['--fail-on', 'nonsense', 'tests/fixtures/analyze/decls.c']);
  assert.equal(bad.status, 2);
});

// The real numpy file when a numpy-hpy clone is at hand (PORTDASH_NUMPY_REPO,
// default the development machine's mirror); skipped otherwise.
const numpyRepo = process.env.PORTDASH_NUMPY_REPO || '/work/.mirror/steve-s+numpy-hpy/repo';
test('SARIF of numpy arraytypes.c.src is valid', (t) => {
  const r = analyze(['--format', 'sarif', '--repo', numpyRepo, '--rev', 'hpy-convert-object-dtype',
    '--path', 'numpy/core/src/multiarray/arraytypes.c.src']);
  if (r.status !== 0 && /cannot open repository/.test(r.err)) { t.skip('no numpy-hpy clone'); return; }
  assert.equal(r.status, 0, r.err);
  const log = JSON.parse(r.out);
  assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
  assert.ok(log.runs[0].results.length > 1000);
});
