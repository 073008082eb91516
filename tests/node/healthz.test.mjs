// GET /healthz beside the command line's writes: the health check must not
// drop the server's SQLite locks (closing any descriptor of the database
// file drops every POSIX lock the process holds on it), or the next CLI
// writer takes itself for the last user, deletes the WAL under the running
// server, and the server answers "database disk image is malformed".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const fixtures = process.env.PORTDASH_FIXTURES || join(root, 'build-san', 'fixtures');
let tmp, db, server, url;

before(async () => {
  tmp = mkdtempSync(join(tmpdir(), 'portdash-healthz-'));
  db = join(tmp, 'h.db');
  const r = spawnSync(bin, ['ingest', '--quiet', '--db', db, '--git-dir',
    join(fixtures, 'toyport.git'), '--name', 'demo', '--ref', 'hpy'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  server = spawn(bin, ['serve', '--db', db, '--listen', '127.0.0.1:0', '--no-warm'],
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

test('health checks keep the server\'s locks: a CLI write leaves the WAL and the answers', async () => {
  assert.equal((await fetch(`${url}/api/v1/repos/demo/commits/hpy/summary`)).status, 200);
  for (let i = 0; i < 3; i++)
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
  assert.ok(existsSync(`${db}-wal`), 'the server holds the database in WAL mode');
  for (let i = 0; i < 2; i++) {
    const w = spawnSync(bin, ['token', 'create', '--db', db, '--name', `t${i}`, '--scope', 'sarif'],
      { encoding: 'utf8' });
    assert.equal(w.status, 0, w.stderr);
  }
  assert.ok(existsSync(`${db}-wal`), 'the CLI writer did not delete the WAL under the server');
  const s = await fetch(`${url}/api/v1/repos/demo/commits/hpy/summary`);
  assert.equal(s.status, 200, await s.text());
  assert.equal((await fetch(`${url}/healthz`)).status, 200);
});
