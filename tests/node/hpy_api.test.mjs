// server/hpy_api.tsv is what tools/gen_hpy_api.py makes of HPy's repository
// at the release named in the file, of tools/hpy_api_manual.tsv and of
// ingest/rules/cpython.names (never edited by hand; make hpy-api).  The
// regeneration test needs a clone of HPy: set HPY_GIT_DIR to its git
// directory (a bare clone of https://github.com/hpyproject/hpy); skipped
// without it.  tests/unit/test_hpy_table.c checks every name of the table
// against CPython's headers and HPy's recorded names.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, 'server', 'hpy_api.tsv');
const gitDir = process.env.HPY_GIT_DIR;

test('the table is the script\'s output for its HPy release', { skip: !gitDir && 'HPY_GIT_DIR not set' }, () => {
  const text = fs.readFileSync(file, 'utf8');
  const tag = /^@version\t(.+)$/m.exec(text)?.[1];
  const versions = /^@versions\t(.+)$/m.exec(text)?.[1];
  assert.ok(tag, 'the file names its HPy release');
  assert.ok(versions, 'the file names the HPy versions whose names it records');
  const dir = fs.mkdtempSync('/tmp/hpy-api-');
  const names = join(dir, 'names.tsv');
  const r = spawnSync('python3', [join(root, 'tools', 'gen_hpy_api.py'), '--git-dir', gitDir,
    '--tag', tag, '--versions', versions.split(' ').join(','),
    '--cpython-names', join(root, 'ingest', 'rules', 'cpython.names'),
    '--manual', join(root, 'tools', 'hpy_api_manual.tsv'), '--names-out', names],
  { encoding: 'utf8', maxBuffer: 1 << 24 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, text);
  const got = fs.readFileSync(names, 'utf8');
  fs.rmSync(dir, { recursive: true });
  assert.equal(got, fs.readFileSync(join(root, 'server', 'hpy_api_names.tsv'), 'utf8'));
});

test('the table has the shape the server reads', () => {
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.match(rows[0], /^@version\t\d+\.\d+\.\d+$/);
  assert.match(rows[1], /^@versions\t[\w. ]+$/);
  const names = rows.slice(2).map((l) => l.split('\t'));
  assert.ok(names.length > 150, `${names.length} rows`);
  for (const [cpy, hpy, how, kind, since] of names) {
    assert.match(cpy, /^[A-Za-z_]\w+$/);
    if (kind !== 'one-to-one') assert.match(hpy, /HPy/);
    else assert.match(hpy, /^(_?HPy\w+|HPY\w+|ctx->h_\w+)$/);
    assert.ok(['table', 'handle', 'abi', 'wrap', 'helper', 'macro', 'type', 'name', 'manual'].includes(how), how);
    assert.ok(['one-to-one', 'generic', 'pattern'].includes(kind), kind);
    assert.ok(rows[1].split('\t')[1].split(' ').includes(since), since);
  }
  const sorted = names.map((n) => n[0]);
  assert.deepEqual(sorted, [...sorted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
});

test('helpers, CPython-ABI definitions, macros and types come from HPy\'s headers', () => {
  const rows = new Map(fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !/^[#@]/.test(l))
    .map((l) => l.split('\t')).map(([cpy, hpy, how]) => [cpy, `${hpy} ${how}`]));
  // Hand-kept rows: HPy's guide in prose.
  assert.equal(rows.get('Py_DECREF'), 'HPy_Close manual');
  assert.equal(rows.get('METH_VARARGS'), 'HPyFunc_VARARGS manual');
  assert.equal(rows.get('PyErr_Format'), 'HPyErr_Format helper');
  assert.equal(rows.get('Py_BuildValue'), 'HPy_BuildValue helper');
  assert.equal(rows.get('PyUnicode_FromFormat'), 'HPyUnicode_FromFormat helper');
  assert.equal(rows.get('Py_ssize_t'), 'HPy_ssize_t abi');
  assert.equal(rows.get('Py_UCS4'), 'HPy_UCS4 abi');
  assert.equal(rows.get('PY_SSIZE_T_MIN'), 'HPY_SSIZE_T_MIN abi');
  assert.equal(rows.get('Py_TPFLAGS_HAVE_GC'), 'HPy_TPFLAGS_HAVE_GC macro');
  assert.equal(rows.get('Py_GE'), 'HPy_GE macro');
  assert.equal(rows.get('PyType_Spec'), 'HPyType_Spec type');
  // What HPy's CPython ABI implements by calling CPython (cpython/misc.h:
  // HPyCapsule_GetContext returns PyCapsule_GetContext's call), HPy_VISIT
  // (hpyfunc.h) and the slots (autogen_hpyslot.h: HPy_tp_new), which change
  // the code's shape (a trial found them on the "what HPy must add" page).
  assert.equal(rows.get('PyCapsule_GetContext'), 'HPyCapsule_GetContext wrap');
  assert.equal(rows.get('PyCapsule_SetName'), 'HPyCapsule_SetName wrap');
  assert.equal(rows.get('Py_VISIT'), 'HPy_VISIT macro');
  assert.equal(rows.get('Py_tp_new'), 'HPy_tp_new macro');
  assert.equal(rows.get('Py_mod_exec'), 'HPy_mod_exec macro');
  assert.equal(rows.get('PyThreadState'), 'HPyThreadState type');
  // The porting guide's table wins over the other sources.
  assert.equal(rows.get('PyErr_SetString'), 'HPyErr_SetString table');
  // HPyContext is not CPython's PyContext; HPy's internal declaration macros are not API.
  assert.equal(rows.get('PyContext'), undefined);
  assert.equal(rows.get('PyAPI_UNUSED'), undefined);
});
