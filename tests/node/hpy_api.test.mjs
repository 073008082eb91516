// server/hpy_api.tsv is what tools/gen_hpy_api.py makes of HPy's repository
// at the release named in the file (never edited by hand).  Needs a clone
// of HPy: set HPY_GIT_DIR to its git directory (a bare clone of
// https://github.com/hpyproject/hpy); skipped without it.
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
  assert.ok(tag, 'the file names its HPy release');
  const r = spawnSync('python3', [join(root, 'tools', 'gen_hpy_api.py'), '--git-dir', gitDir,
    '--tag', tag], { encoding: 'utf8', maxBuffer: 1 << 24 });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, text);
});

test('the table has the shape the server reads', () => {
  const rows = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !l.startsWith('#'));
  assert.match(rows[0], /^@version\t\d+\.\d+\.\d+$/);
  const names = rows.slice(1).map((l) => l.split('\t'));
  assert.ok(names.length > 150, `${names.length} rows`);
  for (const [cpy, hpy, how] of names) {
    assert.match(cpy, /^_?P[yY]\w+$/);
    assert.match(hpy, /^(_?HPy\w+|HPY\w+|ctx->h_\w+)$/);
    assert.ok(['table', 'handle', 'abi', 'helper', 'macro', 'type', 'name'].includes(how), how);
  }
  const sorted = names.map((n) => n[0]);
  assert.deepEqual(sorted, [...sorted].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
});

test('helpers, CPython-ABI definitions, macros and types come from HPy\'s headers', () => {
  const rows = new Map(fs.readFileSync(file, 'utf8').split('\n').filter((l) => l && !/^[#@]/.test(l))
    .map((l) => l.split('\t')).map(([cpy, hpy, how]) => [cpy, `${hpy} ${how}`]));
  assert.equal(rows.get('PyErr_Format'), 'HPyErr_Format helper');
  assert.equal(rows.get('Py_BuildValue'), 'HPy_BuildValue helper');
  assert.equal(rows.get('PyUnicode_FromFormat'), 'HPyUnicode_FromFormat helper');
  assert.equal(rows.get('Py_ssize_t'), 'HPy_ssize_t abi');
  assert.equal(rows.get('Py_UCS4'), 'HPy_UCS4 abi');
  assert.equal(rows.get('PY_SSIZE_T_MIN'), 'HPY_SSIZE_T_MIN abi');
  assert.equal(rows.get('Py_TPFLAGS_HAVE_GC'), 'HPy_TPFLAGS_HAVE_GC macro');
  assert.equal(rows.get('Py_GE'), 'HPy_GE macro');
  assert.equal(rows.get('PyType_Spec'), 'HPyType_Spec type');
  assert.equal(rows.get('PyThreadState'), 'HPyThreadState type');
  // The porting guide's table wins over the other sources.
  assert.equal(rows.get('PyErr_SetString'), 'HPyErr_SetString table');
  // HPyContext is not CPython's PyContext; HPy's internal declaration macros are not API.
  assert.equal(rows.get('PyContext'), undefined);
  assert.equal(rows.get('PyAPI_UNUSED'), undefined);
});
