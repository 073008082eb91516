// api.mjs: the portdash JSON API (/api/v1) as small async functions.
//
// Every path segment is percent-encoded with encodeURIComponent (a ref such
// as "ss/np-zeros-1" is one segment); a file path keeps its "/" separators.
// A file path with a "." or ".." segment is refused here (404), never sent:
// the browser resolves such segments, %2E included (WHATWG URL, "single-dot
// path segment"), before the request, so path=../../REF/... reached another
// route; git itself allows no such segment in a tree.
// URLs are relative to the page, so the dashboard also works under a prefix.
// Failures throw ApiError carrying the server's problem document
// (application/problem+json: type, title, status, detail).

export class ApiError extends Error {
  constructor(problem, url) {
    super(problem.detail || problem.title || 'request failed');
    this.name = 'ApiError';
    this.problem = problem;
    this.status = problem.status ?? 0;
    this.url = url;
  }
}

/** One URL path segment, percent-encoded (a ref such as "ss/np-zeros-1" is one segment). */
export const seg = (s) => {
  // a repository or revision "." or "..": no name can be one (the server
  // refuses such names), and the browser would resolve it into another route
  if (s === '.' || s === '..') {
    throw new ApiError({ title: 'Not Found', status: 404, detail: `no such name '${s}': a dot segment names nothing` }, String(s));
  }
  return encodeURIComponent(String(s));
};
/** A file path as URL segments, each through seg(); throws ApiError 404 for a
 *  "." or ".." segment, which no git path has and the browser would resolve. */
export const pathSegs = (p) => {
  const parts = String(p).split('/');
  if (parts.some((x) => x === '.' || x === '..')) {
    throw new ApiError({ title: 'Not Found', status: 404,
      detail: `no file '${p}': a git path has no '.' or '..' segment` }, String(p));
  }
  return parts.map(seg).join('/');
};

/** The API path of a commit: api/v1/repos/REPO/commits/REV. */
export function commitBase(repo, rev) {
  return `api/v1/repos/${seg(repo)}/commits/${seg(rev)}`;
}

/** Turns a failed Response into an ApiError, reading a problem document if there is one. */
async function failure(res, url) {
  let problem = { type: 'about:blank', title: res.statusText || 'HTTP error', status: res.status, detail: '' };
  const type = res.headers.get('content-type') || '';
  try {
    if (type.includes('json')) {
      const body = await res.json();
      if (body && typeof body === 'object') problem = { ...problem, ...body };
    } else {
      const text = (await res.text()).trim();
      if (text) problem.detail = text.slice(0, 500);
    }
  } catch { /* keep the status line */ }
  return new ApiError(problem, url);
}

/* A response prefetch.js started for this URL and Accept header, once. */
function prefetched(url, accept) {
  const map = globalThis.__pdPrefetch;
  const key = `${accept} ${url}`;
  const p = map?.get(key);
  if (p) map.delete(key);
  return p;
}

/* The answers to the page's first requests (those prefetch.js starts),
 * kept for the page's life once asked for: several parts of a page read
 * the same summary or file list (the overview's profile, its first screen
 * and its totals) and each asked the server again (issue 26.4).  Callers
 * only read them.  A write (send) forgets them all. */
const kept = new Map();

async function read(pending, url, as) {
  let res;
  try {
    res = await pending;
  } catch (e) {
    throw new ApiError({ type: 'about:blank', title: 'Network error', status: 0, detail: String(e.message || e) }, url);
  }
  if (!res.ok) throw await failure(res, url);
  // prefetch.js read the body of its answers as soon as they came.
  if (res.__pdBody) return res.__pdBody;
  return as === 'text' ? res.text() : res.json();
}

function get(url, as) {
  const accept = as === 'text' ? 'text/plain, text/markdown, text/csv, application/problem+json' : 'application/json';
  const key = `${accept} ${url}`;
  if (kept.has(key)) return kept.get(key);
  const pre = prefetched(url, accept);
  if (!pre) return read(fetch(url, { headers: { accept } }), url, as);
  const answer = read(pre, url, as);
  kept.set(key, answer);
  // A failure is not kept (the next caller asks again), but for a 404:
  // an unknown revision or path stays unknown for the page's life, and
  // every part of the page that asks would repeat it.
  answer.catch((e) => { if (e?.status !== 404) kept.delete(key); });
  return answer;
}

/** GET a JSON document of the API (URL relative to the page); failures throw ApiError. */
export const getJson = (url) => get(url);

/** [{name, refs: [{name, commit}]}] */
export const repos = () => get('api/v1/repos');

export const summary = (repo, rev) => get(`${commitBase(repo, rev)}/summary`);

export const files = (repo, rev) => get(`${commitBase(repo, rev)}/files`);

export const file = (repo, rev, path) => get(`${commitBase(repo, rev)}/files/${pathSegs(path)}`);

/** The file page's first screen: file() without the findings, with function_findings {name: count}. */
export const fileFunctions = (repo, rev, path) => get(`${commitBase(repo, rev)}/file-functions/${pathSegs(path)}`);

/** The file's source as a string. */
export const raw = (repo, rev, path) => get(`${commitBase(repo, rev)}/raw/${pathSegs(path)}`, 'text');

/* ---------- history, commits, compare, snapshots (issue 4) ---------- */

const repoBase = (repo) => `api/v1/repos/${seg(repo)}`;
const query = (params) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params ?? {})) if (v != null && v !== '') q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
};

/** One commit with its stats, delta to the first parent, changed files and function changes. */
export const commit = (repo, rev) => get(commitBase(repo, rev));

/** What moved between two revs: base...head, each side encoded on its own. */
export const compare = (repo, base, head) => get(`${repoBase(repo)}/compare/${seg(base)}...${seg(head)}`);

/** The CI gate's verdict for the pair: {result, conditions: [{measure, rule, base, head, ok}], regressions, files_no_longer_universal_ready}. */
export const gate = (repo, base, head) => get(`${repoBase(repo)}/gate${query({ base, head })}`);

/** The summary measures: [{key, label, short, good, badge}], the keys being what the history API accepts. */
export const measures = () => get('api/v1/measures');

/** A measure along a ref's first-parent history, oldest first. */
export const history = (repo, ref, measure, params = {}) => get(`${repoBase(repo)}/refs/${seg(ref)}/history${query({ measure, ...params })}`);

/** Recorded rewrites (rebases, force-pushes) of a ref. */
export const rewrites = (repo, ref) => get(`${repoBase(repo)}/refs/${seg(ref)}/rewrites`);

/** A measure of one file at each commit of ref that changed it (following renames). */
export const fileHistory = (repo, ref, path, measure) => get(`${repoBase(repo)}/refs/${seg(ref)}/file-history/${pathSegs(path)}${query({ measure })}`);

export const snapshots = (repo) => get(`${repoBase(repo)}/snapshots`);
/** GET /api/v1/repos/{repo}/forecast: pace and projected date for zero. */
export const forecast = (repo, ref, measure) => get(`${repoBase(repo)}/forecast${query({ ref, measure })}`);
export const snapshot = (repo, week) => get(`${repoBase(repo)}/snapshots/${seg(week)}`);
export const reportUrl = (repo, week, ref) => `${repoBase(repo)}/snapshots/${seg(week)}/report.md${query({ ref })}`;
export const report = (repo, week, ref) => get(reportUrl(repo, week, ref), 'text');
export const snapshotsCsvUrl = (repo) => `${repoBase(repo)}/snapshots.csv`;
export const snapshotsCsv = (repo) => get(snapshotsCsvUrl(repo), 'text');
export const filesCsvUrl = (repo, rev, scope) => `${commitBase(repo, rev)}/files.csv${query({ scope })}`;

/** A write request with a JSON body and `Authorization: Bearer token`; the parsed answer. */
async function send(method, url, token, body) {
  kept.clear();
  let res;
  try {
    res = await fetch(url, {
      method,
      headers: { accept: 'application/json', authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new ApiError({ type: 'about:blank', title: 'Network error', status: 0, detail: String(e.message || e) }, url);
  }
  if (!res.ok) throw await failure(res, url);
  return res.json();
}

/** Dismisses a finding ({rev, path, fingerprint, reason, comment}); needs a token of scope triage. */
export const dismiss = (repo, token, body) => send('POST', `${repoBase(repo)}/dismissals`, token, body);
/** Undoes dismissal `id`. */
export const undismiss = (repo, token, id) => send('DELETE', `${repoBase(repo)}/dismissals/${seg(id)}`, token);
