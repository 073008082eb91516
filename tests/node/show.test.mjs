// `portdash show`: the answers of the file page, a commit, a compare and
// the symbol lists read from the database without a server.  With
// --format json each is the API's answer to the same question, byte for
// byte (a real server on the same database answers the same GET); with
// --format text it has the answer's fields.  PORTDASH_BIN names the binary,
// PORTDASH_FIXTURES the fixture repositories (toyport).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const fixtures = process.env.PORTDASH_FIXTURES || join(root, 'build-san', 'fixtures');
const INITIAL = '5a1092dee8f1ef1a7e68ca379d12c302914fb469';
let tmp, db, scopes, server, url;

const show = (args) => spawnSync(bin, ['show', ...args, '--db', db, '--name', 'demo'],
  { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'portdash-show-'));
  db = join(tmp, 'show.db');
  const r = spawnSync(bin, ['ingest', '--quiet', '--db', db, '--git-dir',
    join(fixtures, 'toyport.git'), '--name', 'demo', '--ref', 'hpy',
    '--ref', 'hpy-convert-object-dtype'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  // a scope of the server's own file, which show reads with --scopes
  scopes = join(tmp, 'test.scopes');
  writeFileSync(scopes, 'scope no-object-dtype\nexclude-object-paths\n\nscope src\ninclude src/**\n');
  server = spawn(bin, ['serve', '--db', db, '--listen', '127.0.0.1:0', '--scopes', scopes],
    { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise((res) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\S+?)\/?\s/.exec(out);
      if (m) res(m[1]);
    });
  });
});

after(() => {
  server?.kill();
  rmSync(tmp, { recursive: true, force: true });
});

// The CLI's JSON for `args` is the body of GET `path`, byte for byte.
async function sameAsApi(args, path) {
  const r = show([...args, '--format', 'json']);
  assert.equal(r.status, 0, r.stderr);
  const res = await fetch(url + path);
  assert.equal(res.status, 200, path);
  assert.equal(r.stdout, (await res.text()) + '\n', `${args.join(' ')} vs ${path}`);
  return JSON.parse(r.stdout);
}

test('show file --format json is the file page of the API', async () => {
  const doc = await sameAsApi(['file', '--rev', 'hpy', 'src/toyarray.c'],
    '/api/v1/repos/demo/commits/hpy/files/src/toyarray.c');
  assert.equal(doc.status, 'ported');
  assert.ok(doc.functions.length > 1);
  // a page as the API pages it, with the same totals
  const page = await sameAsApi(['file', '--rev', 'hpy', 'src/toyarray.c', '--page', '2', '--per-page', '1'],
    '/api/v1/repos/demo/commits/hpy/files/src/toyarray.c?page=2&per_page=1');
  assert.equal(page.functions.length, 1);
  assert.equal(page.functions[0].name, doc.functions[1].name);
  assert.equal(page.truncated, true);
  // a name with markup is bytes, not a URL
  await sameAsApi(['file', '--rev', 'hpy', 'src/evil<img src=x onerror=window.__xss=1>.c'],
    '/api/v1/repos/demo/commits/hpy/files/src/evil%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E.c');
});

test('show commit, compare and symbols --format json are the API answers', async () => {
  await sameAsApi(['commit', INITIAL], `/api/v1/repos/demo/commits/${INITIAL}`);
  await sameAsApi(['commit', 'hpy'], '/api/v1/repos/demo/commits/hpy');
  const cmp = await sameAsApi(['compare', 'hpy', INITIAL], `/api/v1/repos/demo/compare/hpy...${INITIAL}`);
  assert.ok(cmp.regressions.length > 0);
  await sameAsApi(['compare', INITIAL, 'hpy-convert-object-dtype'],
    `/api/v1/repos/demo/compare/${INITIAL}...hpy-convert-object-dtype`);
  const sym = await sameAsApi(['symbols', '--rev', INITIAL], `/api/v1/repos/demo/commits/${INITIAL}/symbols`);
  assert.ok(sym.symbols.length > 1);
  const src = await sameAsApi(['symbols', '--rev', 'hpy-convert-object-dtype', '--scope', 'src', '--scopes', scopes],
    '/api/v1/repos/demo/commits/hpy-convert-object-dtype/symbols?scope=src');
  assert.equal(src.scope, 'src');
  await sameAsApi(['symbols', '--rev', INITIAL, sym.symbols[0].symbol],
    `/api/v1/repos/demo/commits/${INITIAL}/symbols/${sym.symbols[0].symbol}`);
});

// The why column as the file page writes it (static/js/file.mjs:
// whyFinding, whyObject), from the API's why of the same function.
const site = (w) => `${w.rule} \`${w.text}\` at line ${w.line}`;
function whyColumn(f) {
  const w = f.why ?? {};
  const parts = [];
  if (w.status) parts.push(site(w.status));
  if (f.object_state && w.object) {
    parts.push(`object: ${w.object.chain ? `via ${w.object.chain.map((c, i) => `${c.function} in ${c.path} (called at line ${c.line} of ${i ? w.object.chain[i - 1].function : f.name})`).join(' → ')}`
      : site(w.object)}${w.object_also ? `; on CPython by ${site(w.object_also)}` : ''}`);
  } else if (!f.object_state && w.mentions) {
    parts.push(`mentions object dtype (${w.mentions.name} at line ${w.mentions.line}), reaches no item`);
  }
  return parts.length ? parts.join('; ') : '-';
}

test('show file --format text gives each function its why, in the file page\'s words', () => {
  // callgraph: object states through a chain of calls, an item site with
  // what keeps it on CPython, a mention that reaches no item
  const cdb = join(tmp, 'callgraph.db');
  const r = spawnSync(bin, ['ingest', '--quiet', '--db', cdb, '--git-dir', join(fixtures, 'callgraph.git'),
    '--name', 'cg', '--ref', 'back'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const seen = new Set();
  for (const path of ['src/items.c', 'src/more.c', 'src/user.c']) {
    const args = ['show', 'file', '--db', cdb, '--name', 'cg', '--rev', 'back', path];
    const json = JSON.parse(spawnSync(bin, [...args, '--format', 'json'], { encoding: 'utf8' }).stdout);
    const text = spawnSync(bin, args, { encoding: 'utf8' }).stdout;
    const lines = text.split('\n').filter((l) => /^ {2}\d+-\d+\t/.test(l));
    assert.equal(lines.length, json.functions.length, path);
    json.functions.forEach((f, i) => {
      assert.equal(lines[i], `  ${f.start_line}-${f.end_line}\t${f.status}\t${f.object_state ?? '-'}\t${f.name}\t${whyColumn(f)}`);
      const w = f.why ?? {};
      if (w.object?.chain) seen.add('chain');
      if (w.object_also) seen.add('also');
      if (!f.object_state && w.mentions) seen.add('mentions');
    });
  }
  assert.deepEqual([...seen].sort(), ['also', 'chain', 'mentions']);
  // and one line in full, as read in the code
  const t = spawnSync(bin, ['show', 'file', '--db', cdb, '--name', 'cg', '--rev', 'back', 'src/more.c'], { encoding: 'utf8' }).stdout;
  assert.match(t, /^ {2}\d+-\d+\tlegacy\tobject-cpython-only\tclear_all\tnpy-legacy-prefix-PyArray `PyArrayObject` at line 2; object: via release_items in src\/items\.c \(called at line 5 of clear_all\)$/m);
});

test('show file of a path the ingest\'s path filter left out says so, as the API does', () => {
  // It said "no file ... at this commit" of a file that is there (a newcomer).
  const idb = join(tmp, 'inc.db');
  let r = spawnSync(bin, ['ingest', '--quiet', '--db', idb, '--git-dir', join(fixtures, 'toyport.git'),
    '--name', 'inc', '--ref', 'hpy', '--include', 'src/toyarray.c'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  r = spawnSync(bin, ['show', 'file', '--db', idb, '--name', 'inc', '--rev', 'hpy', 'src/refcount.c'],
    { encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^portdash show: no analysed file 'src\/refcount\.c': the repository's path filter, set at ingest, leaves it out \(--include src\/toyarray\.c\)\n/);
});

test('show ... --format text has the answer\'s fields', () => {
  let r = show(['file', '--rev', 'hpy', 'src/toyarray.c']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^file: src\/toyarray\.c$/m);
  assert.match(r.stdout, /^status: ported$/m);
  assert.match(r.stdout, /^functions: \d+ of \d+ \(page 1\)$/m);
  assert.match(r.stdout, /^\s+\d+-\d+\tported\t\S+\ttoyarray_new_impl\t/m);
  assert.match(r.stdout, /^findings: \d+ of \d+ \(page 1\), 0 dismissed$/m);
  r = show(['commit', 'd9fcc7a']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^commit: d9fcc7afb11788287d2371b1caa6c1c108d5a683$/m);
  assert.match(r.stdout, /^author: Ben Bridger <ben@example\.org>$/m);
  assert.match(r.stdout, /^\s+modified\tsrc\/toyarray\.c$/m);
  assert.match(r.stdout, /^\s+src\/toyarray\.c\ttoyarray_len\tlegacy -> bridged\tprogressed$/m);
  r = show(['compare', 'hpy', INITIAL]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, new RegExp(`^head: ${INITIAL}$`, 'm'));
  assert.match(r.stdout, /^regressions: [1-9]\d* of \d+$/m);
  r = show(['symbols', '--rev', INITIAL]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^scope: no-object-dtype$/m);
  assert.match(r.stdout, /^\s+\d+\s+\d+\s+\d+\s+capi\s+PyErr_SetString\s+HPyErr_SetString$/m);
});

test('show refuses what it cannot answer, and says why', () => {
  let r = show(['file', 'src/toyarray.c']);                     // no --rev
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^portdash show file: --rev REV is required\n/);
  r = show(['commit', 'hpy', '--format', 'xml']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^portdash show commit: --format is text or json\n/);
  r = show(['compare', 'hpy']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^portdash show compare: takes BASE and HEAD\n/);
  r = show(['diff', 'hpy']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^portdash show diff: the first word is file, commit, compare or symbols/);
  // a bad filter is the caller's, as the API's 400
  r = show(['file', '--rev', 'hpy', 'src/toyarray.c', '--level', 'bogus']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /"bogus" is not one of/);
  r = show(['file', '--rev', 'hpy', 'src/toyarray.c', '--tool', 'bogus']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /tool: "bogus" has no findings at this commit \(tools here: portdash\)/);
  // any --per-page, cut as the API cuts ?per_page
  r = show(['file', '--rev', 'hpy', 'src/toyarray.c', '--per-page', '60000']);
  assert.equal(r.status, 0, r.stderr);
  r = show(['file', '--rev', 'hpy', 'src/no-such.c']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^portdash show: no file 'src\/no-such\.c' at this commit\n/);
  // the API's reasons for an empty file page, in the same words
  r = show(['file', '--rev', 'hpy', 'src']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no file 'src': it is a directory/);
  r = show(['file', '--rev', 'hpy', 'README']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no analysed file 'README': its suffix is none of the C sources/);
  r = show(['commit', 'no-such-ref']);
  assert.equal(r.status, 1);
  // a repository name from another database: the ones this one holds
  r = spawnSync(bin, ['show', 'commit', 'hpy', '--db', db, '--name', 'numpy'],
    { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 1);
  assert.match(r.stderr, /^portdash show: no repository named 'numpy' \(its repositories: demo\)\n/);
  r = show(['symbols', '--rev', 'hpy', '--scope', 'no-such-scope']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /unknown scope 'no-such-scope' \(known: no-object-dtype, /);
  // a name the rules do not know and nothing uses: not an empty answer
  r = show(['symbols', '--rev', 'hpy', 'NoSuchSymbol']);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /no blocking use of 'NoSuchSymbol' here/);
});
