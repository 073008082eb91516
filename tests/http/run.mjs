// run.mjs: runs the HTTP cases of tests/http/ (one file per case, *.case)
// against a running portdash server; the format is in tests/http/README.md.
//
//   node tests/http/run.mjs --url http://127.0.0.1:PORT --git demo=GITDIR ... [CASE...]
//
// Without CASE arguments every *.case file beside this script runs, in name
// order.  --git NAME=GITDIR lets a case write {{NAME REVSPEC}} (the id git
// rev-parse gives in that git directory: a commit, or a blob as REF:PATH) or
// {{NAME REVSPEC|N}} (its first N digits): ids come from the fixture
// repositories, never from the server under test.  Prints "ok"/"not ok" per case (with each failed check) and ends
// with the line "N passed, M failed"; exits 1 when a case failed.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { request } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';

import { OpenApiCheck } from './openapi.mjs';

const here = dirname(fileURLToPath(import.meta.url));

function parseArgs(argv) {
  const o = { url: process.env.PORTDASH_URL, git: {}, cases: [], token: '', all: false };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--url') o.url = argv[++i];
    else if (argv[i] === '--git') {
      const [name, dir] = argv[++i].split(/=(.*)/s);
      o.git[name] = dir;
    } else if (argv[i] === '--token') o.token = argv[++i];
    else o.cases.push(argv[i]);
  }
  if (!o.url) throw new Error('usage: run.mjs --url URL [--git NAME=GITDIR]... [CASE...]');
  // Every case: the reads first, then the writes (writes/, in name order),
  // which change what the reads would see.
  if (!o.cases.length) {
    o.all = true;
    for (const dir of [here, join(here, 'writes')])
      o.cases.push(...readdirSync(dir).filter((f) => f.endsWith('.case')).sort()
        .map((f) => join(dir, f)));
  }
  return o;
}

// {{NAME REVSPEC}}: what `git rev-parse REVSPEC` says in the fixture NAME (a
// commit by ref, a blob by REF:PATH); {{NAME REVSPEC|N}}: its first N digits.
function expand(text, git, token) {
  return text.replace(/\{\{token\}\}/g, () => {
    if (!token) throw new Error('{{token}}: no --token TOKEN');
    return token;
  }).replace(/\{\{(\S+) ([^}|]+?)(?:\|(\d+))?\}\}/g, (m, name, spec, n) => {
    if (!git[name]) throw new Error(`${m}: no --git ${name}=GITDIR`);
    const id = execFileSync('git', ['--git-dir', git[name], 'rev-parse', '--verify', spec],
      { encoding: 'utf8' }).trim();
    return n ? id.slice(0, Number(n)) : id;
  });
}

// A case file: comments, the request line, request headers, an optional body
// after a blank line, then "--- expect" and one check a line.
export function parseCase(text) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l === '--- expect');
  if (at < 0) throw new Error('no "--- expect" line');
  const req = lines.slice(0, at).filter((l) => !l.startsWith('#'));
  while (req.length && req[0] === '') req.shift();
  const m = /^([A-Z]+) (\S+)$/.exec(req[0] || '');
  if (!m) throw new Error(`first line must be "METHOD PATH", not "${req[0] || ''}"`);
  const headers = [];
  let i = 1;
  for (; i < req.length && req[i] !== ''; i++) {
    const h = /^([^:\s]+):\s?(.*)$/.exec(req[i]);
    if (!h) throw new Error(`bad request header line "${req[i]}"`);
    headers.push([h[1], h[2]]);
  }
  const body = i < req.length ? req.slice(i + 1).join('\n').replace(/\n+$/, '') : null;
  const checks = lines.slice(at + 1).filter((l) => l.trim() !== '' && !l.startsWith('#'));
  return { method: m[1], path: m[2], headers, body: body === '' ? null : body, checks };
}

function send(base, c) {
  const u = new URL(c.path, base);
  return new Promise((resolve, reject) => {
    const req = request({
      host: u.hostname, port: u.port, method: c.method, path: c.path,
      headers: Object.fromEntries(c.headers.concat(c.body === null ? []
        : [['Content-Length', String(Buffer.byteLength(c.body))]])),
    }, (res) => {
      const chunks = [];
      res.on('data', (d) => chunks.push(d));
      res.on('end', () => {
        let raw = Buffer.concat(chunks);
        if (/^gzip$/i.test(res.headers['content-encoding'] || '')) raw = gunzipSync(raw);
        resolve({ status: res.statusCode, headers: res.headers, body: raw });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(30000, () => req.destroy(new Error('timeout after 30 s')));
    if (c.body !== null) req.write(c.body);
    req.end();
  });
}

// RFC 6901: "" is the whole document, ~1 is '/', ~0 is '~'.
function pointer(doc, ptr) {
  if (ptr === '""') ptr = '';   // how a case writes the empty pointer
  if (ptr === '') return { found: true, value: doc };
  if (!ptr.startsWith('/')) throw new Error(`JSON pointer "${ptr}" must start with /`);
  let v = doc;
  for (const raw of ptr.slice(1).split('/')) {
    const k = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(v) && /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < v.length) v = v[Number(k)];
    else if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, k)) v = v[k];
    else return { found: false };
  }
  return { found: true, value: v };
}

function deepEqual(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a), kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && deepEqual(a[k], b[k]));
}

const show = (v) => (v === undefined ? 'nothing' : JSON.stringify(v));

// One check against the reply; returns an error message or null.
function check(line, res, git) {
  const text = () => res.body.toString('utf8');
  const json = () => {
    if (res.json === undefined) res.json = JSON.parse(text());
    return res.json;
  };
  let m;
  if ((m = /^status (\d{3})$/.exec(line)))
    return res.status === Number(m[1]) ? null : `status ${res.status}, want ${m[1]}`;
  if ((m = /^header ([^:\s]+): (.*)$/.exec(line))) {
    const got = res.headers[m[1].toLowerCase()];
    return got === m[2] ? null : `${m[1]}: ${show(got)}, want "${m[2]}"`;
  }
  if ((m = /^header-has ([^:\s]+): (.*)$/.exec(line))) {
    const got = res.headers[m[1].toLowerCase()];
    return got !== undefined && String(got).includes(m[2]) ? null
      : `${m[1]}: ${show(got)}, want it to contain "${m[2]}"`;
  }
  if ((m = /^header-absent ([^:\s]+)$/.exec(line)))
    return res.headers[m[1].toLowerCase()] === undefined ? null
      : `${m[1]}: ${show(res.headers[m[1].toLowerCase()])}, want no such header`;
  if ((m = /^body-has (.*)$/.exec(line)))
    return text().includes(m[1]) ? null : `body lacks "${m[1]}"`;
  if ((m = /^body-lacks (.*)$/.exec(line)))
    return text().includes(m[1]) ? `body contains "${m[1]}"` : null;
  if ((m = /^body (.*)$/.exec(line)))
    return text() === JSON.parse(m[1]) ? null : `body ${show(text().slice(0, 200))}, want ${m[1]}`;
  if ((m = /^body-git ([^ ]+) (.+)$/.exec(line))) {
    const want = execFileSync('git', ['--git-dir', git[m[1]], 'cat-file', 'blob', m[2]]);
    return Buffer.compare(res.body, want) === 0 ? null
      : `body (${res.body.length} bytes) is not the blob ${m[2]} (${want.length} bytes)`;
  }
  if ((m = /^json (\S*) (exists|absent)$/.exec(line))) {
    const r = pointer(json(), m[1]);
    return r.found === (m[2] === 'exists') ? null : `${m[1]}: ${r.found ? show(r.value) : 'absent'}`;
  }
  if ((m = /^json (\S*) length (\d+)$/.exec(line))) {
    const r = pointer(json(), m[1]);
    const n = r.found && (Array.isArray(r.value) ? r.value.length
      : r.value && typeof r.value === 'object' ? Object.keys(r.value).length : undefined);
    return n === Number(m[2]) ? null : `${m[1]}: length ${show(n)}, want ${m[2]}`;
  }
  if ((m = /^json (\S*) has (.*)$/.exec(line))) {
    const r = pointer(json(), m[1]);
    return r.found && typeof r.value === 'string' && r.value.includes(m[2]) ? null
      : `${m[1]}: ${r.found ? show(r.value) : 'absent'}, want a string containing "${m[2]}"`;
  }
  if ((m = /^json (\S*) = (.*)$/.exec(line))) {
    const want = JSON.parse(m[2]);
    const r = pointer(json(), m[1]);
    return r.found && deepEqual(r.value, want) ? null
      : `${m[1]}: ${r.found ? show(r.value) : 'absent'}, want ${m[2]}`;
  }
  throw new Error(`unknown check "${line}"`);
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  let passed = 0, failed = 0, n = 0;
  // The document as the server serves it: each answer is checked against it.
  const doc = await send(o.url, { method: 'GET', path: '/api/v1/openapi.json', headers: [],
    body: null });
  const openapi = new OpenApiCheck(JSON.parse(doc.body.toString('utf8')));
  for (const file of o.cases) {
    const name = basename(file, '.case');
    const errors = [];
    n++;
    try {
      const c = parseCase(expand(readFileSync(file, 'utf8'), o.git, o.token));
      const res = await send(o.url, c);
      for (const line of c.checks) {
        const e = check(line, res, o.git);
        if (e) errors.push(`${line}\n      ${e}`);
      }
      if (!c.checks.some((l) => l.startsWith('status ')))
        errors.push('the case checks no status');
      errors.push(...openapi.check(c.method, c.path, res));
    } catch (e) {
      errors.push(`error: ${e.message}`);
    }
    if (errors.length) {
      failed++;
      console.log(`not ok ${n} - ${name}`);
      for (const e of errors) console.log(`    ${e}`);
    } else {
      passed++;
      console.log(`ok ${n} - ${name}`);
    }
  }
  // With every case run, every documented operation has had a 2xx answer.
  if (o.all) {
    const missing = openapi.uncovered();
    n++;
    if (missing.length) {
      failed++;
      console.log(`not ok ${n} - openapi-coverage`);
      for (const m of missing) console.log(`    no case answers ${m} with a 2xx`);
    } else {
      passed++;
      console.log(`ok ${n} - openapi-coverage`);
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
