// portdash analyze and the call graph (issue 26): `--format functions`
// prints no object states, so it skips the cross-file call graph, unless
// --fail-on asks about them. tests/fixtures/callgraph (first commit):
// src/items.c's release_items reads PyObject * items, src/user.c's
// finalize calls it and is object-legacy only through the graph.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const tree = join(root, 'tests', 'fixtures', 'callgraph', '01-legacy', 'tree');

function analyze(args) {
  const r = spawnSync(bin, ['analyze', ...args], { cwd: tree, encoding: 'utf8' });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('the caller follows its callee in another file (JSON)', () => {
  const r = analyze(['--format', 'json', 'src/user.c', 'src/items.c']);
  assert.equal(r.status, 0, r.err);
  const user = JSON.parse(r.out).find((f) => f.path === 'src/user.c');
  const fin = user.functions.find((fn) => fn.name === 'finalize');
  assert.equal(fin.object_state, 'object-legacy');
});

test('--format functions with --fail-on object-legacy still follows the graph', () => {
  const r = analyze(['--format', 'functions', '--fail-on', 'object-legacy', 'src/user.c', 'src/items.c']);
  assert.equal(r.status, 1);
  // release_items by itself, finalize through the call graph: functions,
  // not findings, and said so
  assert.match(r.err, /forbidden by --fail-on: 0 findings, 2 functions in a forbidden object state/);
  assert.match(r.out, /^src\/user\.c\tfinalize\t3\t2\t7\tc$/m);
});

test('--format functions alone prints the same functions', () => {
  const r = analyze(['--format', 'functions', 'src/user.c', 'src/items.c']);
  assert.equal(r.status, 0, r.err);
  assert.equal(r.out, 'src/user.c\tfinalize\t3\t2\t7\tc\nsrc/user.c\tfrom_iter\t10\t9\t17\tc\n' +
    'src/items.c\trelease_items\t3\t2\t10\tc\n');
});

test('--format functions prints each file once analysed; a later failure keeps them and fails', () => {
  // Nothing needs two files at once without the graph, so each file's
  // lines go out before the next is read (one file's result in memory).
  // A path that is not there is bad usage (2), not forbidden findings.
  const r = analyze(['--format', 'functions', 'src/user.c', 'src/no-such-file.c', 'src/items.c']);
  assert.equal(r.status, 2);
  assert.match(r.err, /portdash analyze: cannot open src\/no-such-file\.c: No such file or directory/);
  assert.equal(r.out, 'src/user.c\tfinalize\t3\t2\t7\tc\nsrc/user.c\tfrom_iter\t10\t9\t17\tc\n');
});
