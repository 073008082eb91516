// The command line as documented: the manual page (doc/portdash.1) names
// every command and every option that `portdash COMMAND --help` prints, and
// names no option that does not exist; the old `--repo` spellings still work
// as deprecated aliases of --git-dir (a git directory) and --name (a
// repository name), with a deprecation line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, copyFileSync, mkdirSync, openSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const fixtures = process.env.PORTDASH_FIXTURES || join(root, 'build-san', 'fixtures');
const toyport = join(fixtures, 'toyport.git');
const run = (args) => spawnSync(bin, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
// roff writes '-' as '\-' in option names
const man = readFileSync(join(root, 'doc', 'portdash.1'), 'utf8').replace(/\\-/g, '-');

function commands() {
  const r = run(['--help']);
  assert.equal(r.status, 0);
  return [...r.stdout.matchAll(/^  ([a-z][a-z-]+) /gm)].map((m) => m[1]);
}

function options(cmd) {
  const r = run([cmd, '--help']);
  assert.equal(r.status, 0, `${cmd} --help: ${r.stderr}`);
  return new Set([...r.stdout.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));
}

test('every command has a section in the man page', () => {
  const cmds = commands();
  assert.ok(cmds.length >= 7, cmds.join(' '));
  for (const c of cmds) assert.match(man, new RegExp(`^\\.SS ${c.replace('-', '\\\\?-')}$`, 'm'), c);
});

test('every option of every --help is in the man page, and no other', () => {
  const all = new Set(['help', 'bare']); // --bare: git clone's, in EXAMPLES
  // portdash's own (--version), from `portdash --help`
  for (const m of run(['--help']).stdout.matchAll(/--([a-z][a-z-]*)/g)) all.add(m[1]);
  for (const c of commands()) {
    const sect = man.split(/^\.SS /m).find((s) => s.startsWith(c + '\n') || s.startsWith(c.replace('-', '\\-') + '\n'));
    assert.ok(sect, `no section for ${c}`);
    for (const o of options(c)) {
      all.add(o);
      if (o === 'help') continue;
      assert.ok(sect.includes(`--${o}`), `portdash ${c} --${o} is not in its man page section`);
    }
  }
  for (const m of man.matchAll(/--([a-z][a-z-]*)/g)) assert.ok(all.has(m[1]), `man page names --${m[1]}, which no command has`);
});

test('--repo GITDIR still works for analyze, with a deprecation line', () => {
  const a = run(['analyze', '--git-dir', toyport, '--rev', 'hpy', '--format', 'functions']);
  const b = run(['analyze', '--repo', toyport, '--rev', 'hpy', '--format', 'functions']);
  assert.equal(a.status, 0, a.stderr);
  assert.equal(b.status, 0, b.stderr);
  assert.equal(b.stdout, a.stdout);
  assert.equal(a.stderr, '');
  assert.match(b.stderr, /--repo is deprecated, use --git-dir/);
});

test('usage names the new spellings', () => {
  assert.match(run(['ingest', '--help']).stdout, /--git-dir GITDIR/);
  assert.match(run(['gate', '--help']).stdout, /--git-dir GITDIR/);
  assert.match(run(['snapshot', '--help']).stdout, /--name NAME/);
  assert.match(run(['import-sarif', '--help']).stdout, /--name NAME/);
  const r = run(['snapshot', '--db', '/nonexistent/x.db']);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /--db and --name are required/);
  const d = run(['ingest', '--git-dir', toyport, '--ref', 'hpy']);
  assert.equal(d.status, 2);
  assert.match(d.stderr, /^portdash ingest: --db FILE is required/);
  const g = run(['ingest', '--db', '/nonexistent/x.db', '--ref', 'hpy']);
  assert.equal(g.status, 2);
  assert.match(g.stderr, /^portdash ingest: --git-dir GITDIR is required/);
  const n = run(['ingest', '--db', '/nonexistent/x.db', '--git-dir', toyport, '--ref', 'hpy']);
  assert.equal(n.status, 1);
  assert.match(n.stderr, /\/nonexistent\/x\.db: no directory \/nonexistent to hold the database/);
});

test('a short ingest says its CPU in milliseconds and why it used one thread', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-cpu-'));
  try {
    const a = run(['ingest', '--db', join(dir, 'a.db'), '--git-dir', toyport, '--ref', 'hpy',
                   '--threads', '2']);
    assert.equal(a.status, 0, a.stderr);
    assert.match(a.stderr, /: CPU 0\.\d{3} s: planning 0\.\d{3} s, analysis 0\.000 s, writing 0\.\d{3} s \(all on the writing thread: under 32 new commits a ref/);
    const b = run(['ingest', '--db', join(dir, 'b.db'), '--git-dir', toyport, '--ref', 'hpy',
                   '--threads', '1']);
    assert.equal(b.status, 0, b.stderr);
    assert.match(b.stderr, /\(all on the writing thread: one analysis thread, by --threads 1/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a push from a clone of the port branch alone says it kept the stored fork, or lost it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-solo-'));
  const full = join(fixtures, 'forked.git');
  const git = join(dir, 'solo.git');
  const g = (args) => spawnSync('git', ['--git-dir', git, ...args], { encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.org',
           GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.org' } });
  try {
    const db = join(dir, 'x.db');
    const first = run(['ingest', '--db', db, '--git-dir', full, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /fork base/);
    // A git directory with the port branch alone, one commit more.
    assert.equal(spawnSync('git', ['init', '-q', '--bare', git]).status, 0);
    writeFileSync(join(git, 'objects', 'info', 'alternates'), join(full, 'objects') + '\n');
    const tip = spawnSync('git', ['--git-dir', full, 'rev-parse', 'hpy'], { encoding: 'utf8' }).stdout.trim();
    const next = g(['commit-tree', `${tip}^{tree}`, '-p', tip, '-m', 'more']).stdout.trim();
    assert.equal(g(['update-ref', 'refs/heads/hpy', next]).status, 0);
    const kept = run(['ingest', '--db', db, '--git-dir', git, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(kept.stderr, /fk: .*solo\.git lacks the upstream stored for 1 ref\(s\): their own commits are counted from the fork base stored before/);
    // Rewritten off the fork base: a root commit.
    const root = g(['commit-tree', `${tip}^{tree}`, '-m', 'redo']).stdout.trim();
    assert.equal(g(['update-ref', 'refs/heads/hpy', root]).status, 0);
    const lost = run(['ingest', '--db', db, '--git-dir', git, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(lost.status, 0, lost.stderr);
    assert.match(lost.stderr, new RegExp(`fk: 1 new commit, 0 blobs analysed .*; hpy was rewritten \\(rebased or force-pushed\\) from ${next.slice(0, 10)} to ${root.slice(0, 10)}: recorded, old history kept`));
    assert.match(lost.stderr, /fk: 1 ref\(s\) no longer have their stored fork base on their chain .*first HPy token; ingest from a git directory with the upstream, or name it with --upstream REF/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a push from a git directory without every stored ref keeps the stored git directory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-gitdir-'));
  const full = join(dir, 'full.git');
  const solo = join(dir, 'solo.git');
  const db = join(dir, 'x.db');
  const gitDir = () => {
    const r = run(['repo', 'list', '--db', db]);
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.split('\n')[1].trim().split(/\s+/).pop();
  };
  try {
    assert.equal(spawnSync('cp', ['-r', join(fixtures, 'forked.git'), full]).status, 0);
    const first = run(['ingest', '--db', db, '--git-dir', full, '--name', 'fk', '--ref', 'main',
                       '--ref', 'hpy']);
    assert.equal(first.status, 0, first.stderr);
    assert.equal(gitDir(), full);
    // The port branch alone, as a CI checkout has it.
    assert.equal(spawnSync('git', ['init', '-q', '--bare', solo]).status, 0);
    writeFileSync(join(solo, 'objects', 'info', 'alternates'), join(full, 'objects') + '\n');
    const tip = spawnSync('git', ['--git-dir', full, 'rev-parse', 'hpy'], { encoding: 'utf8' }).stdout.trim();
    assert.equal(spawnSync('git', ['--git-dir', solo, 'update-ref', 'refs/heads/hpy', tip]).status, 0);
    const push = run(['ingest', '--db', db, '--git-dir', solo, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(push.status, 0, push.stderr);
    assert.match(push.stderr, /fk: .*solo\.git lacks refs stored for it, so its git directory stays the one stored before/);
    assert.equal(gitDir(), full);
    // One commit more from the CI directory; then an ingest from the stored
    // directory, not fetched since: its hpy is behind and it lacks the
    // stored tip, so the push is not undone.
    const env = { ...process.env, GIT_AUTHOR_NAME: 'T', GIT_AUTHOR_EMAIL: 't@example.org',
                  GIT_COMMITTER_NAME: 'T', GIT_COMMITTER_EMAIL: 't@example.org' };
    const next = spawnSync('git', ['--git-dir', solo, 'commit-tree', `${tip}^{tree}`, '-p', tip, '-m', 'ci'],
                           { encoding: 'utf8', env }).stdout.trim();
    assert.equal(spawnSync('git', ['--git-dir', solo, 'update-ref', 'refs/heads/hpy', next]).status, 0);
    assert.equal(run(['ingest', '--db', db, '--git-dir', solo, '--name', 'fk', '--ref', 'hpy']).status, 0);
    const stored = () => JSON.parse(run(['show', 'commit', '--db', db, '--name', 'fk', 'hpy', '--format', 'json']).stdout).commit;
    assert.equal(stored(), next);
    const stale = run(['ingest', '--db', db, '--git-dir', full, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(stale.status, 0, stale.stderr);
    assert.match(stale.stderr, /fk: hpy's tip in .*full\.git is behind the stored one, which that git directory lacks \(pushed from another\): the stored tip stays; fetch the git directory/);
    assert.doesNotMatch(stale.stderr, /rewritten/);
    assert.equal(stored(), next);
    // Fetched, the directory has the stored tip: a tip behind it is a reset,
    // ingested as a rewrite.
    assert.equal(spawnSync('git', ['--git-dir', full, 'fetch', '-q', solo, 'hpy:refs/heads/ci']).status, 0);
    const reset = run(['ingest', '--db', db, '--git-dir', full, '--name', 'fk', '--ref', 'hpy']);
    assert.match(reset.stderr, new RegExp(`hpy was rewritten \\(rebased or force-pushed\\) from ${next.slice(0, 10)} to ${tip.slice(0, 10)}`));
    assert.equal(stored(), tip);
    // The stored one gone (moved away): the run's own is stored, quietly.
    const moved = join(dir, 'moved.git');
    assert.equal(spawnSync('mv', [full, moved]).status, 0);
    writeFileSync(join(solo, 'objects', 'info', 'alternates'), join(moved, 'objects') + '\n');
    const after = run(['ingest', '--db', db, '--git-dir', solo, '--name', 'fk', '--ref', 'hpy']);
    assert.equal(after.status, 0, after.stderr);
    assert.doesNotMatch(after.stderr, /lacks refs/);
    assert.equal(gitDir(), solo);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an ingest under other rules says so with what it analysed, and every stored ref answers under them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-rules-'));
  try {
    const db = join(dir, 'x.db');
    const rules = join(dir, 'alt.rules');
    writeFileSync(rules, readFileSync(join(root, 'ingest', 'rules', 'default.rules'), 'utf8') +
                  '\nexact npy_bool_conv npy-legacy   # a rule the defaults lack\n');
    const ing = (extra) => run(['ingest', '--db', db, '--git-dir', toyport, '--ref', 'hpy', ...extra]);
    const first = ing(['--ref', 'hpy-convert-object-dtype']);
    assert.equal(first.status, 0, first.stderr);
    assert.doesNotMatch(first.stderr, /other rules/);
    const other = ing(['--rules', rules]);
    assert.equal(other.status, 0, other.stderr);
    const analysed = Number(/, (\d+) blobs analysed/.exec(other.stderr)[1]);
    assert.ok(analysed > 0, other.stderr);
    assert.match(other.stderr, new RegExp(`: the rules changed since its last ingest: its commits answer under .*alt\\.rules from now on \\(${analysed} blob versions not analysed under them before were analysed now`));
    // The ref this run did not name answers under the new rules too.
    const other2 = run(['show', 'commit', '--db', db, '--name', 'toyport', 'hpy-convert-object-dtype', '--format', 'json']);
    assert.equal(other2.status, 0, other2.stderr);
    assert.ok(JSON.parse(other2.stdout).stats, other2.stdout.slice(0, 200));
    const again = ing(['--rules', rules]);
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /other rules/);
    // Back to the built-in rules: their analyses are stored, none is made.
    const back = ing([]);
    assert.match(back.stderr, /, 0 blobs analysed/);
    assert.match(back.stderr, /answer under the built-in rules from now on \(0 blob versions not analysed under them before/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a push without --ref from a git directory without HEAD names the stored refs', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-nohead-'));
  const git = join(dir, 'r.git');
  const g = (args) => spawnSync('git', ['--git-dir', git, ...args], { encoding: 'utf8' });
  try {
    assert.equal(spawnSync('git', ['init', '-q', '--bare', git]).status, 0);
    writeFileSync(join(git, 'objects', 'info', 'alternates'), join(toyport, 'objects') + '\n');
    const tip = spawnSync('git', ['--git-dir', toyport, 'rev-parse', 'hpy'], { encoding: 'utf8' });
    assert.equal(g(['update-ref', 'refs/heads/hpy', tip.stdout.trim()]).status, 0);
    assert.equal(g(['symbolic-ref', 'HEAD', 'refs/heads/none']).status, 0);
    const db = join(dir, 'x.db');
    const first = run(['ingest', '--quiet', '--db', db, '--git-dir', git, '--ref', 'hpy']);
    assert.equal(first.status, 0, first.stderr);
    const r = run(['ingest', '--quiet', '--db', db, '--git-dir', git]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no HEAD to ingest; name refs with --ref \(stored: --ref hpy\)/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('serve on a busy address names it, in one line', async () => {
  const busy = createServer();
  await new Promise((res) => busy.listen(0, '127.0.0.1', res));
  const port = busy.address().port;
  const tmp = mkdtempSync(join(tmpdir(), 'portdash-cli-'));
  try {
    const i = run(['ingest', '--quiet', '--db', join(tmp, 'x.db'), '--git-dir', toyport,
      '--name', 'demo', '--ref', 'hpy']);
    assert.equal(i.status, 0, i.stderr);
    const r = spawnSync(bin, ['serve', '--db', join(tmp, 'x.db'), '--listen',
      `127.0.0.1:${port}`, '--no-warm'], { encoding: 'utf8', timeout: 20000 });
    assert.equal(r.status, 1, r.stderr);
    // libmicrohttpd's own line would name port 0 (the address is passed whole)
    assert.equal(r.stderr,
      `portdash serve: cannot listen on 127.0.0.1:${port}: Address already in use\n`);
  } finally {
    busy.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});

/**
 * Starts `portdash serve` (binary `exe`, working directory `cwd`) on a free
 * port; resolves {stderr, status} once it said where it serves and answered
 * GET / there, then stops it.
 */
function serveOnce(exe, args, cwd) {
  return new Promise((resolveRun, reject) => {
    const p = spawn(exe, ['serve', '--listen', '127.0.0.1:0', '--no-warm', ...args], { cwd });
    let out = '';
    let err = '';
    const timer = setTimeout(() => { p.kill(); reject(new Error(`serve did not start: ${err}`)); }, 20000);
    p.stderr.on('data', (d) => { err += d; });
    p.stdout.on('data', async (d) => {
      out += d;
      const m = /serving .* on (http:\S+)\n/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      try {
        const res = await fetch(m[1]);
        await res.text();
        resolveRun({ stderr: err, status: res.status });
      } catch (e) {
        reject(e);
      } finally {
        p.kill();
      }
    });
    p.on('error', reject);
  });
}

test('serve says on stderr when the browser libraries are missing, and serves anyway', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'portdash-vendor-'));
  try {
    const db = join(tmp, 'x.db');
    assert.equal(run(['ingest', '--quiet', '--db', db, '--git-dir', toyport, '--name', 'demo',
      '--ref', 'hpy']).status, 0);
    // A copy of the binary outside the source tree finds no node_modules next to it.
    mkdirSync(join(tmp, 'bin'));
    copyFileSync(bin, join(tmp, 'bin', 'portdash'));
    const dashboard = ['--db', db, '--static', join(root, 'static')];
    const cases = [
      { what: '--vendor naming an empty directory', exe: bin, cwd: root,
        args: ['--vendor', tmp], warn: tmp },
      // every place it looked, first the source tree next to the binary
      { what: 'no --vendor, no node_modules anywhere it looks', exe: join(tmp, 'bin', 'portdash'),
        cwd: tmp, args: [], warn: `${join(tmp, 'node_modules')}, nor in ${join(tmp, 'bin')}/../node_modules ` +
          `(the source tree of this binary) or ${join(tmp, 'bin')}/../share/portdash/vendor` },
      { what: 'the source tree\'s node_modules', exe: bin, cwd: root,
        args: ['--vendor', join(root, 'node_modules')], warn: null },
    ];
    for (const c of cases) {
      const r = await serveOnce(c.exe, [...dashboard, ...c.args], c.cwd);
      assert.equal(r.status, 200, c.what);
      if (!c.warn) {
        assert.equal(r.stderr, '', c.what);
        continue;
      }
      assert.match(r.stderr, /^portdash serve: warning: the dashboard's browser libraries are not in /, c.what);
      assert.ok(r.stderr.includes(`${c.warn} (missing: chart.js/dist/chart.umd.js `), `${c.what}: ${r.stderr}`);
      assert.match(r.stderr, /make deps.*--vendor DIR; serving without them\n$/, c.what);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('doc/api.md lists every route of the route table, and no other', () => {
  const routes = [...readFileSync(join(root, 'server', 'srv_routes.c'), 'utf8')
    .matchAll(/^\s*\{"(GET|POST|PUT|DELETE)", "([^"]+)"/gm)].map((m) => `${m[1]} ${m[2]}`);
  const doc = [...readFileSync(join(root, 'doc', 'api.md'), 'utf8')
    .matchAll(/^\| (GET|POST|PUT|DELETE) \| \[`([^`]+)`\]/gm)].map((m) => `${m[1]} ${m[2]}`);
  assert.ok(routes.length > 40, 'route records found');
  assert.deepEqual([...doc].sort(), [...routes].sort());
});

test('a path filter that selects nothing is an error, not an empty clean port', () => {
  let r = run(['analyze', '--git-dir', toyport, '--rev', 'hpy', '--path', 'nosuch/**']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /no file of 'hpy' is selected by the path filter/);
  r = run(['gate', '--git-dir', toyport, '--base', 'hpy', '--head', 'hpy-convert-object-dtype',
    '--include', 'nosuch/**']);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /selects no file at 'hpy' or 'hpy-convert-object-dtype'/);
  // ingest: refused before anything is kept, so the right filter may follow
  const tmp = mkdtempSync(join(tmpdir(), 'pd-inc-'));
  try {
    const db = join(tmp, 'i.db');
    r = run(['ingest', '--quiet', '--db', db, '--git-dir', toyport, '--name', 'demo',
      '--ref', 'hpy', '--include', 'sr/**']);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /no file of 'hpy' is selected by the path filter/);
    r = run(['ingest', '--quiet', '--db', db, '--git-dir', toyport, '--name', 'demo',
      '--ref', 'hpy', '--include', 'src/**']);
    assert.equal(r.status, 0, r.stderr);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  // a filter that selects something still passes through
  r = run(['analyze', '--git-dir', toyport, '--rev', 'hpy', '--path', 'src/**',
    '--format', 'functions']);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^src\//m);
});

test('gate names what is wrong with its arguments, one line each, exit 2', () => {
  const base = ['--git-dir', toyport, '--base', 'hpy', '--head', 'hpy-convert-object-dtype'];
  const cases = [
    [['--base', 'hpy', '--head', 'hpy'], /^portdash gate: --git-dir GITDIR is required$/m],
    [['--git-dir', toyport, '--base', 'hpy'], /^portdash gate: --head REV is required$/m],
    [[...base, 'stray'], /^portdash gate: unexpected argument 'stray'/m],
    [[...base, '--dashboard', 'http://127.0.0.1:1'], /^portdash gate: --dashboard needs --name/m],
    [[...base, '--format', 'yaml'], /^portdash gate: --format is json, markdown or comment, not 'yaml'$/m],
  ];
  for (const [args, want] of cases) {
    const r = run(['gate', ...args]);
    assert.equal(r.status, 2, args.join(' '));
    assert.match(r.stderr, want);
    assert.match(r.stderr, /usage: portdash gate/);
  }
});

// stdout is buffered 64 KiB at a time (cli_analyze.c): what is left in the
// buffer is written before the exit status is decided, so a full disk is
// an error (exit 1) and not a clean run whose report is lost.
test('analyze that cannot write its report says so and fails', () => {
  const src = join(root, 'tests', 'fixtures', 'analyze', 'cases');
  const file = readdirSync(src).find((f) => f.endsWith('.c'));
  for (const format of ['functions', 'text', 'json', 'sarif']) {
    const out = openSync('/dev/full', 'w');
    const r = spawnSync(bin, ['analyze', '--format', format, join(src, file)],
                        { cwd: root, encoding: 'utf8', stdio: ['ignore', out, 'pipe'] });
    closeSync(out);
    assert.equal(r.status, 1, `${format}: ${r.stderr}`);
    assert.match(r.stderr, /portdash analyze: cannot write the (JSON |SARIF )?report/, format);
  }
});

test('--version names the tool (as the SARIF driver does), the analyzer and the schema', () => {
  const r = run(['--version']);
  assert.equal(r.status, 0, r.stderr);
  const m = /^portdash (\d+\.\d+\.\d+) \(analyzer (\d+), database schema (\d+)\)\n$/.exec(r.stdout);
  assert.ok(m, r.stdout);
  const sarif = JSON.parse(run(['analyze', '--format', 'sarif', 'tests/fixtures/analyze/decls.c']).stdout);
  assert.equal(sarif.runs[0].tool.driver.version, m[1]);
  const top = Math.max(...readdirSync(join(root, 'db', 'migrations'))
    .filter((f) => /^\d{3}_.*\.sql$/.test(f)).map((f) => Number(f.slice(0, 3))));
  assert.equal(Number(m[3]), top);
});

test('a bad value given on the command line is bad usage (exit 2), named', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'portdash-cli-'));
  const db = join(tmp, 'x.db');
  try {
    assert.equal(run(['ingest', '--quiet', '--db', db, '--git-dir', toyport, '--name', 'demo',
      '--ref', 'hpy']).status, 0);
    // a clone with 12 branches (8 are named) and a repository with none
    const many = join(tmp, 'many.git'), bare = join(tmp, 'bare.git');
    const git = (...a) => assert.equal(spawnSync('git', a, { encoding: 'utf8' }).status, 0, a.join(' '));
    git('clone', '-q', '--bare', toyport, many);
    for (let i = 0; i < 10; i++) git('--git-dir', many, 'branch', `b${i}`, 'hpy');
    git('init', '-q', '--bare', bare);
    const cases = [
      [['token', 'create', '--db', db, '--name', 't', '--scope', 'ingets'], /unknown scope 'ingets'/],
      [['serve', '--db', db, '--listen', '18779', '--no-warm'], /listen address '18779' is not HOST:PORT/],
      [['serve', '--db', db, '--listen', '127.0.0.1:99999', '--no-warm'], /has a bad port/],
      [['fix', '--git-dir', toyport, '--rev', 'hpy', '--path', 'nosuch/**'],
        /no file of 'hpy' is selected by the path filter/],
      [['snapshot', '--db', db, '--name', 'demo', '--backfill', '--since', '2022-02-13',
        '--until', '2021-01-01'], /--since 2022-02-13 is after --until 2021-01-01/],
      // typos that read as "nothing to fix" or "every offer", or a clean port
      [['fix', '--git-dir', toyport, '--rev', 'hpy', '--rule', 'hpy-cal'],
        /--rule 'hpy-cal' is no rule/],
      [['fix', '--git-dir', toyport, '--rev', 'hpy', '--hpy', '0.9.9'],
        /--hpy '0.9.9' is not an HPy version recorded/],
      [['analyze', tmp], /no C source file .* under /],
      // a mistyped option or command: the one meant, in portdash's words
      [['ingest', '--incldue', 'numpy/core/**'],
        /^portdash ingest: unknown option '--incldue' \(did you mean '--include'\?\)\n/],
      [['analyze', '--db'], /^portdash analyze: unknown option '--db'\n/],
      [['ingest', '--db'], /^portdash ingest: option '--db' needs a value\n/],
      [['ingest', '--quiet=1'], /^portdash ingest: option '--quiet' takes no value\n/],
      [['ingest', '--re', 'hpy'], /^portdash ingest: option '--re' is ambiguous \(--repo, --ref\)\n/],
      [['gate', '-b', 'hpy'], /^portdash gate: unknown option '-b' \(options are long: --NAME\)\n/],
      [['ingset', '--db', 'x.db'], /^portdash: unknown command 'ingset' \(did you mean 'ingest'\?\)\n/],
      // an option given no value takes the next option as one: said so
      [['ingest', '--db', join(tmp, 'w.db'), '--git-dir', toyport, '--name', '--ref', 'hpy'],
        /^portdash ingest: option '--name' needs a value, and got the option '--ref'\n/],
      [['analyze', '--git-dir', '--rev', 'hpy'],
        /^portdash analyze: option '--git-dir' needs a value, and got the option '--rev'\n/],
      // the SARIF's options with another format would print all, silently
      [['analyze', '--git-dir', toyport, '--rev', 'hpy', '--sarif-since', 'hpy~1'],
        /--sarif-since shape --format sarif only/],
      // a mistyped or wrong FILE is no clean port (1 is forbidden findings)
      [['analyze', '--fail-on', 'capi', join(tmp, 'nosuch.c')],
        /portdash analyze: cannot open .*nosuch\.c: No such file or directory/],
      [['analyze', join(tmp, 'notes.txt')],
        /notes\.txt is not a C source file \(\.c \.h .*\): name source files or directories/],
      // an ingest's --ref it does not know, as gate says it
      [['ingest', '--quiet', '--db', join(tmp, 'z.db'), '--git-dir', toyport, '--name', 'demo',
        '--ref', 'origin/hpy'],
        /unknown revision 'origin\/hpy' \(no branch, tag or commit of that name; did you mean 'hpy'\? its branches: hpy, /],
      // a directory given without /** selects no file: the message says how
      [['analyze', '--git-dir', toyport, '--rev', 'hpy', '--path', 'src'],
        /selected by the path filter \(--path\) \(did you mean 'src\/\*\*'\?/],
      [['fix', '--git-dir', toyport, '--rev', 'hpy', '--path', 'src/'], /did you mean 'src\/\*\*'\?/],
      [['ingest', '--quiet', '--db', join(tmp, 'y.db'), '--git-dir', toyport, '--name', 'demo',
        '--ref', 'hpy', '--include', 'src'], /did you mean 'src\/\*\*'\?/],
      [['gate', '--git-dir', toyport, '--base', 'hpy', '--head', 'hpy-convert-object-dtype',
        '--include', 'src'], /selects no file at 'hpy' or 'hpy-convert-object-dtype' \(did you mean 'src\/\*\*'\?/],
      // paths are relative to the repository's root: './' or '/' selects nothing
      [['analyze', '--git-dir', toyport, '--rev', 'hpy', '--path', './src/**'],
        /did you mean 'src\/\*\*'\? paths are relative to the repository's root, without '\.\/' or '\/'\)/],
      [['gate', '--git-dir', toyport, '--base', 'hpy', '--head', 'hpy', '--include', './src'],
        /did you mean 'src\/\*\*'\? paths are relative .*, and a glob without wildcards names one file/],
      // on disk --path would be ignored (every PATH read whole): refused
      [['analyze', '--path', 'src/**', 'tests/fixtures/toyport/01-initial/tree'],
        /--path needs --git-dir and --rev: it selects files of a revision/],
      [['analyze', '--path', 'src'], /--path needs --git-dir and --rev/],
      // a database that is not there (a mistyped --db): how to make one,
      // and none made by a command that only reads or adds to one
      [['serve', '--db', join(tmp, 'missing.db'), '--no-warm'],
        /no database at .*missing\.db: `portdash ingest --db .*missing\.db --git-dir GITDIR/],
      [['show', 'file', '--db', join(tmp, 'missing.db'), '--name', 'demo', '--rev', 'hpy', 'src/toyarray.c'],
        /no database at .*missing\.db/],
      [['snapshot', '--db', join(tmp, 'missing.db'), '--name', 'demo'], /no database at .*missing\.db/],
      [['repo', 'list', '--db', join(tmp, 'missing.db')], /no database at .*missing\.db/],
      [['token', 'list', '--db', join(tmp, 'missing.db')], /no database at .*missing\.db/],
      [['import-sarif', '--db', join(tmp, 'missing.db'), '--name', 'demo', '--rev', 'hpy',
        'tests/fixtures/sarif/one.sarif'], /no database at .*missing\.db/],
      // an unknown revision names itself and the repository's branches,
      // first the one it means without (or with) a remote's name
      [['gate', '--git-dir', toyport, '--base', 'hpy', '--head', 'nosuch'],
        /unknown revision 'nosuch' \(no branch, tag or commit of that name; its branches: hpy, hpy-convert-object-dtype\)/],
      [['gate', '--git-dir', toyport, '--base', 'origin/hpy', '--head', 'hpy', '--format', 'comment'],
        /unknown revision 'origin\/hpy' \(no branch, tag or commit of that name; did you mean 'hpy'\? its branches: hpy, /],
      [['gate', '--git-dir', many, '--base', 'hpy', '--head', 'nosuch'],
        /its branches: b0, b1, .* and 4 more, `git --git-dir .*many\.git branch -a` lists them\)/],
      [['gate', '--git-dir', bare, '--base', 'hpy', '--head', 'HEAD'],
        /unknown revision 'hpy' \(no branch, tag or commit of that name, and no branch at all: fetch the branch/],
      // analyze and fix too: a --fail-on job must not read it as findings (1)
      [['analyze', '--git-dir', toyport, '--rev', 'nosuch', '--fail-on', 'capi'],
        /unknown revision 'nosuch' \(no branch, tag or commit of that name; its branches: hpy, /],
      [['analyze', '--git-dir', toyport, '--rev', 'hpy', '--format', 'sarif', '--sarif-since', 'nosuch'],
        /unknown revision 'nosuch'/],
      [['fix', '--git-dir', toyport, '--rev', 'nosuch'], /unknown revision 'nosuch' \(no branch/],
      [['analyze', '--git-dir', join(tmp, 'nosuch.git'), '--rev', 'hpy', '--fail-on', 'capi'],
        /cannot open repository .*nosuch\.git/],
      [['fix', '--git-dir', join(tmp, 'nosuch.git'), '--rev', 'hpy'], /cannot open repository .*nosuch\.git/],
      // a --db that is an empty file or not SQLite: said, and left as it was
      [['serve', '--db', join(tmp, 'empty.db'), '--no-warm'],
        /empty\.db is an empty file, not a portdash database: `portdash ingest --db/],
      [['show', 'file', '--db', join(tmp, 'empty.db'), '--name', 'demo', '--rev', 'hpy', 'src/toyarray.c'],
        /is an empty file, not a portdash database/],
      [['repo', 'list', '--db', join(tmp, 'notes.db')], /notes\.db is not a database \(not SQLite\): `portdash ingest` makes one/],
      [['ingest', '--quiet', '--db', join(tmp, 'notes.db'), '--git-dir', toyport, '--name', 'demo',
        '--ref', 'hpy'], /notes\.db is not a database/],
    ];
    writeFileSync(join(tmp, 'empty.db'), '');
    writeFileSync(join(tmp, 'notes.db'), 'notes of the dev call\n');
    writeFileSync(join(tmp, 'notes.txt'), 'notes of the dev call\n');
    for (const [args, want] of cases) {
      const r = spawnSync(bin, args, { cwd: root, encoding: 'utf8', timeout: 20000 });
      assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, want);
    }
    assert.equal(readFileSync(join(tmp, 'empty.db'), 'utf8'), '', 'an empty --db is not written');
    assert.equal(readFileSync(join(tmp, 'notes.db'), 'utf8'), 'notes of the dev call\n');
    // (snapshot's lock file stays, as every lock file does: it holds no data)
    assert.deepEqual(readdirSync(tmp).filter((f) => f.startsWith('missing.db') && f !== 'missing.db.lock'), [],
      'no database or journal made for a missing --db');
    // still 1: a failure that is not the caller's usage
    assert.equal(run(['token', 'revoke', '--db', db, '--name', 'nosuch']).status, 1);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('an ingest from a path that is no git repository leaves nothing beside the database', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'portdash-cli-'));
  try {
    const r = run(['ingest', '--db', join(tmp, 't.db'), '--git-dir', join(tmp, 'nosuch.git')]);
    assert.equal(r.status, 2, 'bad usage, as for gate and analyze');
    assert.match(r.stderr, /nosuch\.git: not a git repository/);
    assert.deepEqual(readdirSync(tmp), []);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

test('a database from a newer portdash is a failure (exit 1) for every command, and is left as it was', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-newer-'));
  try {
    const db = join(dir, 'db');
    const r = run(['ingest', '--quiet', '--db', db, '--git-dir', toyport, '--name', 'demo', '--ref', 'hpy']);
    assert.equal(r.status, 0, r.stderr);
    const v = spawnSync('sqlite3', [db, 'PRAGMA user_version = 99'], { encoding: 'utf8' });
    assert.equal(v.status, 0, v.stderr);
    const before = readFileSync(db);
    const sarif = join(root, 'tests', 'fixtures', 'sarif', 'one.sarif');
    for (const args of [
      ['ingest', '--db', db, '--git-dir', toyport, '--name', 'demo', '--ref', 'hpy'],
      ['show', 'commit', '--db', db, '--name', 'demo', 'hpy'],
      ['repo', 'list', '--db', db],
      ['snapshot', '--db', db, '--name', 'demo'],
      ['token', 'list', '--db', db],
      ['token', 'create', '--db', db, '--name', 'bot', '--scope', 'sarif'],
      ['triage', 'list', '--db', db, '--name', 'demo'],
      ['import-sarif', '--db', db, '--name', 'demo', '--rev', 'hpy', sarif],
      ['serve', '--db', db, '--listen', '127.0.0.1:0'],
    ]) {
      const c = spawnSync(bin, args, { cwd: root, encoding: 'utf8', timeout: 10000 });
      assert.equal(c.status, 1, `${args.slice(0, 2).join(' ')}: exit ${c.status}: ${c.stderr}`);
      assert.match(c.stderr, /schema version 99 is newer than this portdash \(\d+\); upgrade portdash/,
        args.slice(0, 2).join(' '));
    }
    assert.ok(readFileSync(db).equals(before), 'the database changed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// A damaged object (guide.md: "a damaged pack") is recorded as missing and
// the run goes on, saying which; it is not said to have arrived at every
// later run while still damaged, and is filled in once restored.  A trial
// had the ingest stop at it ("cannot read blob ...: incorrect header
// check"), keeping nothing.
test('a damaged blob is recorded as missing, named, and filled in once restored', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-damaged-'));
  try {
    const git = join(dir, 'toy.git');
    assert.equal(spawnSync('cp', ['-r', toyport, git]).status, 0);
    const blob = spawnSync('git', ['--git-dir', git, 'rev-parse', 'hpy:src/refcount.c'],
      { encoding: 'utf8' }).stdout.trim();
    const loose = join(git, 'objects', blob.slice(0, 2), blob.slice(2));
    const good = readFileSync(loose);
    const bad = Buffer.from(good);
    bad.write('XXXX', 0);
    rmSync(loose, { force: true });
    writeFileSync(loose, bad);
    const db = join(dir, 'x.db');
    const first = run(['ingest', '--db', db, '--git-dir', git, '--name', 'toy', '--ref', 'hpy']);
    assert.equal(first.status, 0, first.stderr);
    assert.match(first.stderr, new RegExp(`toy: 1 of them damaged in the git directory \\(the first: ${blob} \\(src/refcount\\.c\\): [^)]*\\): \`git fsck\` names them`));
    const again = run(['ingest', '--db', db, '--git-dir', git, '--name', 'toy', '--ref', 'hpy']);
    assert.equal(again.status, 0, again.stderr);
    assert.doesNotMatch(again.stderr, /are there now/);
    // The gate, which must read it, names the blob and the cause.
    const gate = run(['gate', '--git-dir', git, '--base', 'hpy~1', '--head', 'hpy']);
    assert.equal(gate.status, 2, gate.stderr);
    assert.match(gate.stderr, new RegExp(`cannot read blob ${blob} \\(src/refcount\\.c\\): .*\\(git fsck says what is damaged or missing\\)`));
    rmSync(loose, { force: true });
    writeFileSync(loose, good);
    const filled = run(['ingest', '--db', db, '--git-dir', git, '--name', 'toy', '--ref', 'hpy']);
    assert.equal(filled.status, 0, filled.stderr);
    assert.match(filled.stderr, /toy: 1 blobs recorded as missing are there now/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// --db naming a directory says so (it was SQLite's "unable to open
// database file"), for a first ingest and for a reader alike.
test('a --db that is a directory is named as such', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-dbdir-'));
  try {
    const ing = run(['ingest', '--db', dir, '--git-dir', toyport, '--name', 'toy', '--ref', 'hpy']);
    assert.notEqual(ing.status, 0);
    assert.match(ing.stderr, new RegExp(`${dir} is a directory, not a database file \\(--db names the file, e\\.g\\. ${dir}/portdash\\.db\\)`));
    const list = run(['repo', 'list', '--db', dir]);
    assert.notEqual(list.status, 0);
    assert.match(list.stderr, /is a directory, not a database file/);
    assert.deepEqual(readdirSync(dir), [], 'nothing written in it');
    // nor beside it: the ingest's lock comes first, and made DIR.lock
    assert.ok(!readdirSync(dirname(dir)).includes(`${basename(dir)}.lock`), 'no lock file beside it');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
