// portdash analyze without a database: reading one revision of a git
// repository (the toyport fixture built by tests/run_all.sh), the JSON,
// text and function-list formats, and usage errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const fixtures = process.env.PORTDASH_FIXTURES || join(root, 'build-san', 'fixtures');
const toyport = join(fixtures, 'toyport.git');

function analyze(args) {
  const r = spawnSync(bin, ['analyze', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

test('--git-dir --rev --path reads one revision, JSON per file', () => {
  const r = analyze(['--git-dir', toyport, '--rev', 'hpy-convert-object-dtype', '--path', 'src/**',
    '--format', 'json']);
  assert.equal(r.status, 0, r.err);
  const files = JSON.parse(r.out);
  assert.ok(files.length >= 3);
  for (const f of files) {
    assert.match(f.path, /^src\//);
    assert.ok(['ported', 'bridged', 'legacy', 'neutral'].includes(f.status));
    for (const fn of f.functions) {
      assert.ok(fn.start_line <= fn.name_line && fn.name_line <= fn.end_line);
    }
  }
  // the template is expanded: instances are functions of their own
  const tmpl = files.find((f) => f.path === 'src/arraytypes.c.src');
  assert.ok(tmpl.functions.some((fn) => fn.name.startsWith('OBJECT_')), JSON.stringify(tmpl.functions));
  // the file name with markup is one path, as text
  assert.ok(files.some((f) => f.path.includes('<img')));
});

test('text and functions formats', () => {
  const t = analyze(['tests/fixtures/analyze/hpydef.c']);
  assert.equal(t.status, 0, t.err);
  assert.match(t.out, /^tests\/fixtures\/analyze\/hpydef\.c: \w+, /m);
  assert.match(t.out, /^tests\/fixtures\/analyze\/hpydef\.c:\d+:\d+: (hpy|capi|bridge|npy-legacy) \S+ `/m);
  const f = analyze(['--format', 'functions', 'tests/fixtures/ctags/methods.cpp']);
  assert.equal(f.status, 0, f.err);
  assert.match(f.out, /^tests\/fixtures\/ctags\/methods\.cpp\tnpy::Sorter::sort\t31\t30\t34\tc\+\+$/m);
});

test('usage errors and unknown revisions exit 2, failures 1', () => {
  assert.equal(analyze([]).status, 2);
  assert.equal(analyze(['--format', 'xml', 'x.c']).status, 2);
  assert.equal(analyze(['--rev', 'hpy', 'x.c']).status, 2);
  // a PATH that is not there, or no C source, is the caller's (2): a
  // --fail-on job reads 1 as forbidden findings
  let r = analyze(['no/such/file.c']);
  assert.equal(r.status, 2);
  assert.match(r.err, /cannot open no\/such\/file\.c: No such file or directory/);
  r = analyze(['tests/fixtures/analyze/bad.rules']);
  assert.equal(r.status, 2);
  assert.match(r.err, /bad\.rules is not a C source file/);
  // 1: forbidden findings
  assert.equal(analyze(['--fail-on', 'capi', 'tests/fixtures/analyze/decls.c']).status, 1);
  // 2, as gate's: a --fail-on job reads 1 as forbidden findings
  r = analyze(['--git-dir', toyport, '--rev', 'no-such-ref']);
  assert.equal(r.status, 2);
  assert.match(r.err, /unknown revision 'no-such-ref'/);
});

// --threads: files analysed in any order, reported in the inputs' order.
const same = (a, b, what) => {
  assert.equal(b.status, a.status, `${what}: exit status`);
  assert.equal(b.err, a.err, `${what}: stderr`);
  assert.ok(b.out === a.out, `${what}: stdout differs (${a.out.length} and ${b.out.length} bytes)`);
};

test('--threads N prints what one thread prints, in every format', () => {
  const runs = [
    ['tests/fixtures'],
    ['--fail-on', 'capi,object-legacy', 'tests/fixtures/analyze', 'tests/fixtures/ctags'],
    ['--git-dir', toyport, '--rev', 'hpy-convert-object-dtype', '--path', 'src/**'],
    ['--git-dir', toyport, '--rev', 'hpy-convert-object-dtype', '--sarif-since', 'hpy'],
  ];
  for (const args of runs) {
    for (const format of ['functions', 'json', 'text', 'sarif']) {
      if (args.includes('--sarif-since') && format !== 'sarif') continue;
      const one = analyze(['--threads', '1', '--format', format, ...args]);
      assert.ok(one.status === 0 || one.status === 1, one.err);
      assert.ok(one.out.length > 100, `${format} ${args.join(' ')}: output`);
      for (const n of ['2', '5']) {
        same(one, analyze(['--threads', n, '--format', format, ...args]),
          `--threads ${n} --format ${format} ${args.join(' ')}`);
      }
    }
  }
});

test('--threads N: a bad input in the middle ends the run as on one thread', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'portdash-threads-'));
  try {
    writeFileSync(join(tmp, 'notes.txt'), 'not C\n');
    const args = ['tests/fixtures/analyze', 'tests/fixtures/ctags/methods.cpp',
      join(tmp, 'notes.txt'), 'tests/fixtures/ctags'];
    for (const format of ['functions', 'json']) {
      const one = analyze(['--threads', '1', '--format', format, ...args]);
      assert.equal(one.status, 2);
      assert.match(one.err, /notes\.txt is not a C source file/);
      // the functions format has printed the files before it
      if (format === 'functions') assert.match(one.out, /^tests\/fixtures\/ctags\/methods\.cpp\t/m);
      for (const n of ['2', '8']) {
        same(one, analyze(['--threads', n, '--format', format, ...args]),
          `--threads ${n} --format ${format}`);
      }
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('--threads takes a number from 1 to 256', () => {
  for (const bad of ['0', '257', 'two', '-1', '']) {
    const r = analyze(['--threads', bad, 'tests/fixtures/analyze/hpydef.c']);
    assert.equal(r.status, 2, bad);
    assert.match(r.err, /--threads takes a number from 1 to 256/);
  }
});

test('--blobs, the benchmark, refuses the options it would not heed', () => {
  for (const extra of [['--rev', 'hpy'], ['--threads', '2'], ['--format', 'json'],
    ['--fail-on', 'capi'], ['--path', 'src/**']]) {
    const r = analyze(['--git-dir', toyport, '--blobs', '/dev/null', ...extra]);
    assert.equal(r.status, 2, extra.join(' '));
    assert.match(r.err, /--blobs \(the benchmark\) takes --git-dir and --rules only/);
  }
  const ok = analyze(['--git-dir', toyport, '--blobs', '/dev/null']);
  assert.equal(ok.status, 0, ok.err);
  assert.match(ok.out, /^blobs 0 bytes 0 /);
});
