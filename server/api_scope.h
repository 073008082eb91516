/*
 * api_scope.h: named scopes in the API (db_scope.h): ?scope=NAME on the
 * summary, file table, history and badges, the list of scopes, and a
 * scope's universal blockers.
 */
#ifndef API_SCOPE_H
#define API_SCOPE_H

#include "api.h"
#include "db.h"
#include "db_scope.h"

enum MHD_Result api_scopes(srv_req *r);     /* GET /api/v1/scopes */
enum MHD_Result api_blockers(srv_req *r);   /* GET .../commits/{rev}/blockers */

/*
 * The scope named by ?scope=NAME into *out (NULL when the argument is
 * absent or empty).  0, or PD_EINVAL naming the unknown scope and the
 * known ones (reply with srv_reply_error: 400).
 */
int api_scope_arg(srv_req *r, const db_scope **out);

/*
 * When the request names a scope, replace *c (the stored summary at
 * at->commit_id) by the scope's totals and set *out to the scope; else leave
 * both (*out = NULL).  0 or an error code (PD_EINVAL: unknown scope).
 */
int api_scope_stats(srv_req *r, const api_at *at, db_counts *c, const db_scope **out);

/*
 * A file row of cursor `rows` (db_files_next) under scope `sc`: 1 when its
 * path is not in the scope (leave it out), else 0 with *c (read from the
 * row) and *status replaced by the scoped figures, with the object states
 * of the commit's call graph (db_scope_file_counts_at, as the scoped
 * summary counts them); PD_EDB when they cannot be read (the answer is then
 * an error, never the unscoped figures).
 */
int api_scope_file_row(srv_req *r, const db_scope *sc, const db_files *rows,
                       const db_file_row *row, db_counts *c, const char **status);

/*
 * Reply with the history of summary measure `key` (an api_history key such
 * as functions.ported) under scope `sc` along the first-parent chain of
 * at->commit_id: the shape of GET .../history plus "scope".
 */
enum MHD_Result api_scope_history(srv_req *r, const api_at *at, const db_scope *sc,
                                  const char *key, int by_author, int64_t since,
                                  int64_t until);

#endif
