/*
 * api_file.h: one file at a commit (api_file.c): its page and its source,
 * and the whole document the triage reads.
 */
#ifndef API_FILE_H
#define API_FILE_H

#include <jansson.h>
#include <sqlite3.h>

#include "api_common.h"
#include "srv_reply.h"
#include "srv_req.h"

/*
 * The whole file document of GET .../files/{path} (every function and
 * finding, no paging) for `path` at `at` in `db`, with fingerprints and
 * dismissals.  *out is a new reference.  0, PD_ENOTFOUND (no such file at
 * the commit), PD_EDB, PD_ENOMEM.
 */
int api_file_doc(sqlite3 *db, const api_at *at, const char *path, json_t **out);

/* GET /api/v1/repos/{repo}/commits/{rev}/files/{path...} */
enum MHD_Result api_file(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/raw/{path...} */
enum MHD_Result api_raw(srv_req *r);

#endif
