// The CI recipes of doc/ci.md (ci/github-actions.yml, ci/gitlab-ci.yml),
// run step by step against a local repository: a copy of the toyport
// fixture as "origin", a clone of it as the CI checkout, a real portdash
// server that has ingested only the base branch, a stub `gh api` and a stub
// GitLab notes API that keep the comments they were given (so a second run
// shows whether the comment is updated in place or posted again).  Every `run:` step
// and every `script:` line runs as written; only the two actions
// (actions/checkout, github/codeql-action/upload-sarif) are stood in for:
// the clone, and checking the file the upload would send against the
// SARIF schema and GitHub's limits.  PORTDASH_BIN names the binary.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, existsSync, chmodSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import YAML from 'yaml';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const bin = resolve(process.env.PORTDASH_BIN || join(root, 'build', 'portdash'));
const fixture = resolve(process.env.PORTDASH_FIXTURES || join(root, 'build-san', 'fixtures'), 'toyport.git');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);
const validate = ajv.compile(JSON.parse(readFileSync(join(here, 'schema', 'sarif-schema-2.1.0.json'), 'utf8')));

const tmp = mkdtempSync(join(tmpdir(), 'pd-recipes-'));
const origin = join(tmp, 'origin.git');
const stubs = join(tmp, 'bin');
let server;       // the portdash server
let url;          // its base URL
let token;        // scope ingest
let gitlab;       // the stub GitLab API
const notes = [];  // the merge request's notes: {id, body}
const calls = [];  // the requests the GitLab stub answered

function sh(cmd, opts = {}) {
  const r = spawnSync('bash', ['-c', cmd], { encoding: 'utf8', ...opts });
  assert.equal(r.status, 0, `${cmd}\n${r.stderr}`);
  return r.stdout;
}

before(async () => {
  sh(`git clone -q --bare '${fixture}' '${origin}' && mkdir -p '${stubs}'`);
  // gh api: the pull request's comments in $GH_LOG.json (jq does --jq),
  // each call's arguments appended to $GH_LOG
  writeFileSync(join(stubs, 'gh'), [
    '#!/bin/bash', 'printf "%s\\n" "$*" >> "$GH_LOG"', '[ "$1" = api ] || exit 1; shift',
    'method=GET; expr=.; body=; path=',
    'while [ $# -gt 0 ]; do case $1 in -X) method=$2; shift;; --jq) expr=$2; shift;;',
    '  --paginate) ;; -F) body=${2#body=@}; shift;; *) path=$1;; esac; shift; done',
    'db=$GH_LOG.json; [ -f "$db" ] || echo "[]" > "$db"',
    'case $method in',
    '  GET) jq -r "$expr" "$db";;',
    '  POST) jq --rawfile b "$body" \'. + [{id: (length + 100), body: $b}]\' "$db" > "$db.t";;',
    '  PATCH) jq --rawfile b "$body" --argjson id "${path##*/}" \'map(if .id == $id then .body = $b else . end)\' "$db" > "$db.t";;',
    'esac',
    '[ "$method" = GET ] || mv "$db.t" "$db"', ''].join('\n'));
  chmodSync(join(stubs, 'gh'), 0o755);
  const db = join(tmp, 'port.db');
  sh(`'${bin}' ingest --quiet --db '${db}' --git-dir '${origin}' --name numpy-hpy --ref hpy`);
  token = sh(`'${bin}' token create --db '${db}' --name ci --scope ingest 2>/dev/null`).trim();
  server = spawn(bin, ['serve', '--db', db, '--listen', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  url = await new Promise((res) => {
    let out = '';
    server.stdout.on('data', (d) => {
      out += d;
      const m = /on (http:\S+?)\/?\s/.exec(out);
      if (m) res(m[1]);
    });
  });
  // the notes of one merge request: listed, created, updated
  gitlab = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => { body += d; });
    req.on('end', () => {
      const text = new URLSearchParams(body).get('body');
      const m = /\/notes\/(\d+)$/.exec(req.url);
      calls.push({ method: req.method, url: req.url, token: req.headers['private-token'] });
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'Content-Type': 'application/json' });
      if (req.method === 'GET') return res.end(JSON.stringify(notes));
      if (req.method === 'POST') notes.push({ id: notes.length + 1, body: text });
      if (req.method === 'PUT') notes.find((n) => n.id === Number(m[1])).body = text;
      res.end('{}');
    });
  });
  await new Promise((res) => gitlab.listen(0, '127.0.0.1', res));
});

after(() => {
  server?.kill();
  gitlab?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** A fresh CI checkout of `head` (a branch of origin) with every branch fetched. */
function checkout(name, head) {
  const dir = join(tmp, name);
  sh(`git clone -q '${origin}' '${dir}' && cd '${dir}' && git checkout -q -B pr origin/${head}`);
  return dir;
}

/** The value of a GitHub expression `${{ path }}` in context ctx. */
function expr(text, ctx) {
  return String(text).replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, p) => {
    const v = p.split('.').reduce((o, k) => (o == null ? undefined : o[k]), ctx);
    return v == null ? '' : String(v);
  });
}

/** Whether a step's `if:` holds: always(), and `vars.X != ''`. */
function cond(step, ctx, failed) {
  const c = (step.if ?? '').trim();
  if (c === 'always()') return true;
  if (failed) return false;
  const m = /^vars\.(\w+) != ''$/.exec(c);
  if (m) return Boolean(ctx.vars[m[1]]);
  assert.equal(c, '', `an if: the test understands: ${c}`);
  return true;
}

/** Reads KEY=VALUE lines of a $GITHUB_OUTPUT file. */
function outputs(file) {
  if (!existsSync(file)) return {};
  return Object.fromEntries(readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => l.split(/=(.*)/s).slice(0, 2)));
}

/** Runs the workflow's job in `dir` as GitHub would; the steps' results. */
function runGitHub(dir, base) {
  const wf = YAML.parse(readFileSync(join(root, 'ci', 'github-actions.yml'), 'utf8'));
  const job = wf.jobs.port;
  const ctx = {
    github: { base_ref: base, token: 'gh-token', repository: 'org/numpy-hpy', event: { pull_request: { number: 7, head: { sha: sh(`git -C '${dir}' rev-parse HEAD`).trim() } } } },
    vars: { PORTDASH_URL: url }, steps: {},
  };
  const results = [];
  let failed = false;
  job.steps.forEach((step, i) => {
    if (!cond(step, ctx, failed)) { results.push({ step, skipped: true }); return; }
    if (step.uses?.startsWith('actions/checkout@')) {
      assert.equal(step.with['fetch-depth'], 0, 'the gate needs the base branch: full history');
      results.push({ step, status: 0 });
      return;
    }
    if (step.uses?.startsWith('github/codeql-action/upload-sarif@')) {
      const file = join(dir, step.with.sarif_file);
      const log = JSON.parse(readFileSync(file, 'utf8'));
      assert.ok(validate(log), JSON.stringify(validate.errors?.slice(0, 3)));
      assert.ok(log.runs.length <= 20 && log.runs.every((r) => r.results.length <= 25000));
      assert.ok(gzipSync(readFileSync(file)).length < 10 * 1024 * 1024);
      results.push({ step, status: 0, log });
      return;
    }
    const out = join(tmp, `out-${i}`);
    const env = { ...process.env, PATH: `${stubs}:${dirname(bin)}:${process.env.PATH}`,
      GITHUB_OUTPUT: out, GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GH_LOG: join(dir, 'gh.log') };
    for (const [k, v] of Object.entries({ ...wf.env, ...job.env, ...step.env })) env[k] = expr(v, ctx);
    env.PORT_PATHS = 'src/**';           // the fixture's C files, not numpy/core
    const r = spawnSync('bash', ['-e', '-c', step.run], { cwd: dir, env, encoding: 'utf8' });
    if (step.id) ctx.steps[step.id] = { outputs: outputs(out) };
    results.push({ step, status: r.status, stderr: r.stderr, outputs: outputs(out) });
    failed ||= r.status !== 0;
  });
  return results;
}

test('doc/ci.md shows the recipes as they are tested', () => {
  const doc = readFileSync(join(root, 'doc', 'ci.md'), 'utf8');
  for (const f of ['github-actions.yml', 'gitlab-ci.yml']) {
    assert.ok(doc.includes('```yaml\n' + readFileSync(join(root, 'ci', f), 'utf8') + '```'),
      `doc/ci.md quotes ci/${f} verbatim`);
  }
});

/** The pull request's comments the gh stub keeps for checkout `dir`. */
const ghComments = (dir) => (existsSync(join(dir, 'gh.log.json')) ? JSON.parse(readFileSync(join(dir, 'gh.log.json'), 'utf8')) : []);
const MARKER = '<!-- portdash:pull-request-comment -->';

test('GitHub Actions: a pull request that ports more passes, comments once and uploads SARIF', () => {
  const dir = checkout('gh-pass', 'hpy-convert-object-dtype');
  const res = runGitHub(dir, 'hpy');
  for (const r of res) assert.ok(r.skipped || r.status === 0, `${r.step.name ?? r.step.uses}: ${r.status} ${r.stderr ?? ''}`);
  assert.equal(res.filter((r) => r.skipped).length, 0);
  let comments = ghComments(dir);
  assert.equal(comments.length, 1);
  assert.ok(comments[0].body.startsWith(`${MARKER}\n### HPy port: ✅ gate passes`), comments[0].body);
  assert.match(comments[0].body, /\| functions ported \| 2 \|/);
  assert.match(comments[0].body, /Ask: Ada Legacy\./);
  // links to the dashboard at the exact commits
  const head = sh(`git -C '${dir}' rev-parse HEAD`).trim();
  assert.ok(comments[0].body.includes(`${url}/file.html?repo=numpy-hpy&rev=${head}&path=src/refcount.c`));
  // the next push: the same comment is edited, not posted again
  runGitHub(dir, 'hpy');
  comments = ghComments(dir);
  assert.equal(comments.length, 1);
  assert.match(readFileSync(join(dir, 'gh.log'), 'utf8'), /^api -X PATCH repos\/org\/numpy-hpy\/issues\/comments\/100 -F body=@comment.md$/m);
  const sarif = res.find((r) => r.log).log;
  assert.ok(sarif.runs[0].results.length > 0);
  // the server gated a branch it had never ingested
  assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /^### HPy porting gate: ✅ pass/);
});

test('GitHub Actions: a pull request whose lines move nothing gets no comment', () => {
  const dir = checkout('gh-quiet', 'hpy');
  const res = runGitHub(dir, 'hpy');
  for (const r of res) assert.ok(r.skipped || r.status === 0, `${r.step.name ?? r.step.uses}: ${r.status} ${r.stderr ?? ''}`);
  assert.equal(readFileSync(join(dir, 'comment.md'), 'utf8'), '');
  assert.equal(ghComments(dir).length, 0);
});

test('GitHub Actions: a pull request that makes the port worse comments, then fails with 1', () => {
  const dir = checkout('gh-fail', 'hpy');
  const res = runGitHub(dir, 'hpy-convert-object-dtype');
  const last = res.at(-1);
  assert.equal(last.step.name, 'Fail when the port got worse');
  assert.equal(last.status, 1);
  assert.equal(res.find((r) => r.step.id === 'gate').status, 0, 'the gate step records, the last step fails');
  assert.match(ghComments(dir)[0].body, /^### HPy port: ❌ gate fails \(\d+ regressions?\)$/m);
});

test('GitHub Actions: a gate that cannot run fails with 2, not as a worse port', () => {
  const dir = checkout('gh-broken', 'hpy-convert-object-dtype');
  const res = runGitHub(dir, 'no-such-branch');
  assert.equal(res.find((r) => r.step.id === 'gate').outputs.status, '2');
  assert.ok(res.some((r) => r.status > 0), 'the job fails');
  assert.ok(!res.some((r) => r.status === 1), 'not as "the port got worse"');
});

/** Runs the GitLab job's script in `dir` as one shell, as the runner does. */
async function runGitLab(dir, target, source) {
  const ci = YAML.parse(readFileSync(join(root, 'ci', 'gitlab-ci.yml'), 'utf8'))['hpy-port'];
  assert.equal(ci.variables.GIT_DEPTH, 0);
  const env = { ...process.env, ...ci.variables, PATH: `${dirname(bin)}:${process.env.PATH}`,
    PORT_PATHS: 'src/**', CI_PIPELINE_SOURCE: 'merge_request_event',
    CI_MERGE_REQUEST_TARGET_BRANCH_NAME: target, CI_MERGE_REQUEST_SOURCE_BRANCH_NAME: source,
    CI_MERGE_REQUEST_IID: '12', CI_PROJECT_ID: '34',
    CI_API_V4_URL: `http://127.0.0.1:${gitlab.address().port}/api/v4`, GITLAB_BOT_TOKEN: 'glpat-x',
    PORTDASH_URL: url, PORTDASH_TOKEN: token };
  const script = ['set -eo pipefail', ...ci.script].join('\n');
  // not spawnSync: the stub GitLab API answers from this process's event loop
  return new Promise((res) => {
    const p = spawn('bash', ['-c', script], { cwd: dir, env });
    let stderr = '';
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('close', (status) => res({ status, stderr }));
  });
}

test('GitLab CI: the merge request gets the gate as a note, the SARIF artifact, and the server its branch', async () => {
  const dir = checkout('gl', 'hpy-convert-object-dtype');
  notes.length = 0;
  calls.length = 0;
  const r = await runGitLab(dir, 'hpy', 'hpy-convert-object-dtype');
  assert.equal(r.status, 0, r.stderr);
  assert.equal(notes.length, 1);
  assert.deepEqual(calls.map((c) => c.method), ['GET', 'POST']);
  assert.equal(calls[1].url, '/api/v4/projects/34/merge_requests/12/notes');
  assert.equal(calls[1].token, 'glpat-x');
  assert.ok(notes[0].body.startsWith(`${MARKER}\n### HPy port: ✅ gate passes`), notes[0].body);
  // the next pipeline updates the note in place
  const again = await runGitLab(dir, 'hpy', 'hpy-convert-object-dtype');
  assert.equal(again.status, 0, again.stderr);
  assert.equal(notes.length, 1);
  assert.equal(calls.at(-1).method, 'PUT');
  assert.equal(calls.at(-1).url, '/api/v4/projects/34/merge_requests/12/notes/1');
  const log = JSON.parse(readFileSync(join(dir, 'gl-portdash.sarif'), 'utf8'));
  assert.ok(validate(log));
  // the server now ingests the source branch (a job), then lists it as a ref
  let refs = [];
  for (let i = 0; i < 200 && !refs.includes('hpy-convert-object-dtype'); i++) {
    await new Promise((res) => setTimeout(res, 50));
    const repos = await (await fetch(`${url}/api/v1/repos`)).json();
    refs = repos[0].refs.map((x) => x.name);
  }
  assert.ok(refs.includes('hpy-convert-object-dtype'), JSON.stringify(refs));
  // and the badge of doc/ci.md answers
  const badge = await fetch(`${url}/badge/numpy-hpy/hpy/functions.ported.svg`);
  assert.equal(badge.status, 200);
  assert.match(await badge.text(), /% ported\)/);
  // a worse port (another merge request): its note goes out, the job fails with 1
  notes.length = 0;
  const worse = await runGitLab(checkout('gl-worse', 'hpy'), 'hpy-convert-object-dtype', 'hpy');
  assert.equal(worse.status, 1);
  assert.equal(notes.length, 1);
  assert.match(notes[0].body, /❌ gate fails/);
});
