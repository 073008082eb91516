// profile.mjs: what the port has (issue 23, point 4), from the profile its
// rules file declares (`profile` lines, stored with the repository at each
// ingest; GET /api/v1/repos/{repo}).  A port without object dtype (kiwi,
// ultrajson) shows no object-dtype card, no "Without object dtype" panel and
// no scope that only makes sense for another port; its trend starts on a
// measure that moves.  "auto" (a rules file without the line) decides by the
// commit shown: object dtype is there when it has object paths.

import { getJson, seg, summary, files } from './api.mjs';

const OBJECT_MEASURE = 'object_paths.object-legacy';
const PLAIN_MEASURE = 'functions.ported';

/** A glob of a scopes file (** any depth, * within a name) as a RegExp. */
function globRe(glob) {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += glob[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += glob[i + 2] === '/' ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * The profile of `repo` at `rev`: {objectDtype (boolean), measure (the
 * trend's default), hpy (or null), keepScope(scope) (whether the scope
 * picker offers it)}.  Never throws: without an answer it keeps everything
 * as before profiles.
 */
export async function loadProfile(repo, rev) {
  let p = null;
  try {
    p = (await getJson(`api/v1/repos/${seg(repo)}`)).profile;
  } catch { /* an older server: no profile */ }
  p = p ?? { object_dtype: 'auto', scopes: null, default_measure: null, hpy_version: null };
  let objectDtype = p.object_dtype === true;
  let paths = null;
  if (p.object_dtype === 'auto' || !p.scopes) {
    const [s, f] = await Promise.allSettled([summary(repo, rev), p.scopes ? null : files(repo, rev)]);
    const ob = s.status === 'fulfilled' ? s.value.object_paths ?? {} : null;
    if (p.object_dtype === 'auto') objectDtype = !ob || Object.values(ob).some((n) => n > 0);
    if (f.status === 'fulfilled' && f.value) paths = (f.value.files ?? []).map((x) => x.path);
  }
  const keepScope = (sc) => {
    if (sc.exclude_object_paths && !objectDtype) return false;
    if (p.scopes) return p.scopes.includes(sc.name);
    if (!paths || !(sc.include ?? []).length) return true;
    const res = sc.include.map(globRe);
    return paths.some((x) => res.some((re) => re.test(x)));   // a scope that selects nothing here
  };
  return {
    objectDtype,
    measure: p.default_measure ?? (objectDtype ? OBJECT_MEASURE : PLAIN_MEASURE),
    hpy: p.hpy_version ?? null,
    keepScope,
  };
}
