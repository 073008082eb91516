/*
 * api_file.h: one file at a commit (api_file.c): its page (q_file.h) as
 * JSON, and its source.
 */
#ifndef API_FILE_H
#define API_FILE_H

#include <jansson.h>
#include <sqlite3.h>

#include "api_common.h"
#include "q_file.h"
#include "srv_reply.h"
#include "srv_req.h"

/*
 * The file page `f` as the API answers it (GET .../files/{path}): a new
 * reference.  With `with_page`, the totals, "truncated" and, when paged,
 * "page" and "per_page" too.  The command line (portdash show file
 * --format json) prints the same.
 */
json_t *api_file_json(const q_file *f, int with_page);

/*
 * A function's why as the file page shows it: the stored why, with the
 * call chain that gives its object state as why.object, and why.mentions
 * void when the call graph gave the state.  A new reference (null when
 * none or not JSON).
 */
json_t *api_file_why(const q_function *f);

/* 1 when `f` is one page of a longer file page (or a page past the first). */
int api_file_paged(const q_file *f);

/* GET /api/v1/repos/{repo}/commits/{rev}/files/{path...} */
enum MHD_Result api_file(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/raw/{path...} */
enum MHD_Result api_raw(srv_req *r);

#endif
