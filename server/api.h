/*
 * api.h: what the JSON API (v1) handlers share.  Each handler is declared
 * in the header named after its file (api_commit.h, api_file.h, ...); the
 * route table (srv_routes.c) lists them.  Shapes are documented in
 * doc/api.md and server/openapi.json; field names and meanings there are a
 * contract with CI bots.  `{rev}` is a ref name or a full or abbreviated
 * commit id.
 */
#ifndef API_H
#define API_H

#include "db_history.h"
#include "pd_domain.h"
#include "srv.h"

/* ---- shared by the api_*.c files ---- */

/* A resolved {repo}/{rev} pair. */
typedef struct {
    int64_t repo_id;
    int64_t commit_id;
    char oid[41];
    char rules_hash[64];
} api_at;

/*
 * Resolve r->param[0] (repo) and r->param[1] (rev) and read the current rules
 * hash.  Returns 0, or a negative code after pd_error_set (reply with
 * srv_reply_error).
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

/* {"commit","author_date","committer_date"} of a commit (db_history.h). */
json_t *api_commit_point(const db_commit_when *w);

/* A JSON string from repository text, which may not be valid UTF-8 (git
 * names are bytes): each byte that is not part of a valid UTF-8 character
 * becomes "\xHH" (the display form), rather than losing the whole value. */
json_t *api_text(const char *s);

/* The bytes a display form names: "\xHH" (HH 80-FF) back to its byte.  A
 * new string (free()), NULL on ENOMEM. */
char *api_text_bytes(const char *s);

#endif
