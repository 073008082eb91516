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
#include "api_file_part.h"
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
 * The blob id (hex, `blob` of 41 bytes) of r->tail at the commit `at`.  A
 * name that is not valid UTF-8 is shown in its display form (api_text);
 * when no file has the name as written, the bytes that form names are
 * tried, and r->tail becomes them (*owned, to free by the caller, else
 * NULL).  PD_ENOTFOUND when the commit has no such file.
 */
int api_file_locate(srv_req *r, const api_at *at, char *blob, char **owned);
/*
 * ?tool=A,B and ?level=warning,error into p (findings of those only),
 * their text in the caller's buffers tools and levels; a value longer
 * than its buffer is an error (srv_query).
 */
int api_file_params(srv_req *r, q_file_params *p, char *tools, size_t ntools,
                    char *levels, size_t nlevels);
/* GET /api/v1/repos/{repo}/commits/{rev}/files/{path...} */
enum MHD_Result api_file(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/raw/{path...} */
enum MHD_Result api_raw(srv_req *r);

#endif
