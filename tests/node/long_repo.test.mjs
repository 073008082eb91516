// tests/repo/make_long_repo.sh, the history the ingest's thread, batch and
// stop tests read, builds any length with the same ids for the same N: at
// 1450 commits it once renamed a file deleted seven commits before, which
// git fast-import refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function build(n, dest) {
  const r = spawnSync('sh', ['tests/repo/make_long_repo.sh', String(n), dest],
    { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const git = (...a) => spawnSync('git', ['--git-dir', dest, ...a], { encoding: 'utf8' }).stdout.trim();
  return { main: git('rev-parse', 'main'), count: Number(git('rev-list', '--count', 'main')),
    side: Number(git('rev-list', '--count', 'main..side')) };
}

test('make_long_repo.sh builds 1,500 commits, the same ids each time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pd-long-'));
  try {
    const a = build(1500, join(dir, 'a.git'));
    assert.equal(a.count, 1500);
    assert.equal(a.side, 40);
    assert.equal(build(1500, join(dir, 'b.git')).main, a.main);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
