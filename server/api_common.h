/*
 * api_common.h: shared by the api_*.c handlers (api_common.c): a resolved
 * {repo}/{rev}, measures as JSON, repository text as JSON.
 */
#ifndef API_COMMON_H
#define API_COMMON_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdint.h>

#include "db_history.h"
#include "pd_domain.h"
#include "q_at.h"
#include "srv_reply.h"
#include "srv_req.h"

/*
 * 1 when `name` is a bridge by an exact rule of the built-in rules
 * (HPy_AsPyObject, _HPy_AsStruct_Legacy, ...): the mechanism a half-port
 * crosses with, which the plan and the frontier do not count as a use to
 * port; else 0.
 */
int api_bridge_mechanism(const char *name);

/* A resolved {repo}/{rev} pair (the query layer's, q_at.h). */
typedef q_at api_at;

/* q_at_resolve (q_at.h), under the API's name. */
int api_resolve_at(sqlite3 *db, const char *repo, const char *rev, api_at *at);

/*
 * api_resolve_at for r->param[0] (repo) and r->param[1] (rev); a rev that
 * is the full commit id marks the answer immutable.  Reply to an error
 * with srv_reply_error.
 */
int api_resolve(srv_req *r, api_at *at);

/*
 * Every measure of `c` as a summary object, in pd_measures.def order: a key
 * "functions.ported" is {"functions": {"ported": n}}, "files" is
 * {"files": n}.  A new reference.
 */
json_t *api_measures_obj(const pd_counts *c);

/*
 * The measures of `c` whose key is in `group` ("functions" gives
 * {"ported": n, ..., "capi-guarded": n}), in pd_measures.def order, so a
 * new measure shows in every per-file row too.  A new reference.
 */
json_t *api_group_obj(const pd_counts *c, const char *group);

/* A function's findings per class, {"hpy": n, "capi": n, ...}, in
 * pd_class order.  A new reference. */
json_t *api_tokens_obj(const int64_t tok[4]);

/* A JSON string from repository text, which may not be valid UTF-8 (git
 * names are bytes): each byte that is not part of a valid UTF-8 character
 * becomes "\xHH" (the display form), rather than losing the whole value. */
json_t *api_text(const char *s);

/* The bytes a display form names: "\xHH" (HH 80-FF) back to its byte.  A
 * new string (free()), NULL on ENOMEM. */
char *api_text_bytes(const char *s);

/* {"commit","author_date","committer_date"} of a commit (db_history.h). */
json_t *api_commit_point(const db_commit_when *w);

#endif
