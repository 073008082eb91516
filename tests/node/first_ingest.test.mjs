// A first ingest (nothing at --db) builds its database aside, in PATH.new,
// and puts it at PATH when it ends (db/db_aside.h): meanwhile every command
// that opens --db says so instead of finding no database or making another
// one there; SIGINT stops `portdash ingest` before its next commit, keeping its
// finished batches at PATH, then ends it by that signal, and the next run
// goes on from them; SIGTERM ends one that waits for the lock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const run = (args) => spawnSync(bin, args, { cwd: root, encoding: 'utf8' });

// The commands that read or write an existing --db, each told of PATH.new.
const readers = [
  ['repo', 'list'], ['token', 'list'], ['triage', 'list', '--name', 'demo'],
  ['show', 'commit', '--name', 'demo', 'HEAD'],
  ['import-sarif', '--name', 'demo', '--rev', 'HEAD', 'README.md'],
];

test('while PATH.new is built, or was left, every command that opens --db says so and makes nothing', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-aside-'));
  try {
    const db = join(dir, 'p.db');
    const left = /no database at .*p\.db yet: a first ingest was stopped before it ended \(.*p\.db\.new\); run `portdash ingest` again/;
    writeFileSync(`${db}.new`, '');
    // No one holds the lock: what a killed first ingest left.
    let s = run(['serve', '--db', db, '--listen', '127.0.0.1:0']);
    assert.equal(s.status, 2, s.stderr);
    assert.match(s.stderr, left);
    let t = run(['token', 'create', '--db', db, '--name', 'ci']);
    assert.equal(t.status, 2, t.stderr);
    assert.match(t.stderr, left);
    // snapshot takes the lock itself before it opens: its own lock is not a run's.
    for (const argv of [...readers, ['snapshot', '--name', 'demo']]) {
      const r = run([...argv, '--db', db]);
      assert.equal(r.status, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, left, argv.join(' '));
    }
    // The lock held, as a running ingest holds it.
    const holder = spawn('flock', ['-o', `${db}.lock`, 'sleep', '30']);
    try {
      while (!existsSync(`${db}.lock`)) await new Promise((r) => setTimeout(r, 5));
      await new Promise((r) => setTimeout(r, 100));
      s = run(['serve', '--db', db, '--listen', '127.0.0.1:0']);
      assert.equal(s.status, 2, s.stderr);
      assert.match(s.stderr, /portdash serve: no database at .*p\.db yet: a first ingest is building it \(.*p\.db\.new\); run this once it has ended/);
      t = run(['token', 'create', '--db', db, '--name', 'ci']);
      assert.equal(t.status, 2, t.stderr);
      assert.match(t.stderr, /a first ingest is building it \(.*p\.db\.new\); run this once it has ended/);
      for (const argv of readers) {
        const r = run([...argv, '--db', db]);
        assert.equal(r.status, 2, `${argv.join(' ')}: ${r.stderr}`);
        assert.match(r.stderr, /no database at .*p\.db yet: a first ingest is building it \(.*p\.db\.new\); run this once it has ended/, argv.join(' '));
      }
    } finally {
      holder.kill('SIGKILL');
    }
    assert.ok(!existsSync(db), 'a command made a database at PATH');
    // The next ingest removes what the stopped one left, and says so.
    const repo = join(dir, 'long.git');
    const mk = spawnSync('sh', ['tests/repo/make_long_repo.sh', '60', repo], { cwd: root, encoding: 'utf8' });
    assert.equal(mk.status, 0, mk.stderr);
    const i = run(['ingest', '--db', db, '--git-dir', repo, '--name', 'long', '--ref', 'main']);
    assert.equal(i.status, 0, i.stderr);
    assert.match(i.stderr, /removed .*p\.db\.new, which a first ingest stopped before it ended had left, and started again/);
    assert.ok(existsSync(db) && !existsSync(`${db}.new`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('SIGTERM ends an ingest that waits for the lock (--wait)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-aside-'));
  try {
    const db = join(dir, 'p.db');
    writeFileSync(`${db}.lock`, '');
    const holder = spawn('flock', ['-o', `${db}.lock`, 'sleep', '30']);
    try {
      await new Promise((r) => setTimeout(r, 200));
      const child = spawn(bin, ['ingest', '--quiet', '--wait', '600', '--db', db, '--git-dir',
        join(root, '.git'), '--name', 'self'], { cwd: root });
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      const done = new Promise((res) => child.on('close', (code, sig) => res({ code, sig })));
      await new Promise((r) => setTimeout(r, 500));
      const t0 = Date.now();
      child.kill('SIGTERM');
      const { code, sig } = await done;
      assert.equal(sig, 'SIGTERM', `code ${code}: ${stderr}`);
      assert.ok(Date.now() - t0 < 3000, 'it went on waiting');
      assert.match(stderr, /stopped by SIGTERM/);
      assert.ok(!existsSync(db) && !existsSync(`${db}.new`));
    } finally {
      holder.kill('SIGKILL');
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// The commits stored for repository "long", by `portdash repo list`.
function commits(db) {
  const r = run(['repo', 'list', '--db', db]);
  assert.equal(r.status, 0, r.stderr);
  const row = r.stdout.split('\n').find((l) => l.startsWith('long '));
  return row ? Number(row.trim().split(/\s+/)[1]) : 0;
}

test('SIGINT stops a first ingest with its batches at PATH; the next run goes on', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-aside-'));
  try {
    const repo = join(dir, 'long.git');
    const mk = spawnSync('sh', ['tests/repo/make_long_repo.sh', '400', repo], { cwd: root, encoding: 'utf8' });
    assert.equal(mk.status, 0, mk.stderr);
    const whole = join(dir, 'whole.db');
    const w = run(['ingest', '--quiet', '--db', whole, '--git-dir', repo, '--name', 'long',
      '--ref', 'main', '--threads', '1']);
    assert.equal(w.status, 0, w.stderr);
    const db = join(dir, 'p.db');
    const child = spawn(bin, ['ingest', '--quiet', '--db', db, '--git-dir', repo, '--name', 'long',
      '--ref', 'main', '--threads', '1'], { cwd: root });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const done = new Promise((res) => child.on('close', (code, sig) => res({ code, sig })));
    // PATH.new is made after the handler is set: the signal finds it.
    while (!existsSync(`${db}.new`)) await new Promise((r) => setTimeout(r, 2));
    child.kill('SIGINT');
    const { code, sig } = await done;
    assert.equal(sig, 'SIGINT', `code ${code}: ${stderr}`);
    const said = stderr.match(/stopped by SIGINT: the open batch of commits was rolled back, (?:the (\d+) commits of the batches before it are kept|and no batch had ended before it: this run kept no commit)/);
    assert.ok(said, stderr);
    assert.ok(existsSync(db), 'the database is not at PATH');
    assert.ok(!existsSync(`${db}.new`), 'PATH.new is left');
    const kept = commits(db);
    assert.equal(kept, Number(said[1] || 0), 'the commits it says it kept');
    const all = commits(whole);
    assert.ok(kept < all, `${kept} of ${all} commits: the signal came too late to test`);
    const again = run(['ingest', '--quiet', '--db', db, '--git-dir', repo, '--name', 'long',
      '--ref', 'main', '--threads', '1']);
    assert.equal(again.status, 0, again.stderr);
    assert.equal(commits(db), all);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
