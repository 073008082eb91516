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
 * Why a file page for `path` in repository `repo_id` found nothing (rc
 * PD_ENOTFOUND; any other rc is returned as it is): a directory, a suffix
 * the analysis does not read, a path the repository's path filter (set at
 * ingest) leaves out, or no such file at the commit.  Sets the message
 * (pd_error) and returns PD_ENOTFOUND.  The API and `portdash show file`
 * say the same.
 */
int api_file_missing(sqlite3 *db, int64_t repo_id, const char *path, int rc);

/*
 * The blob id (hex, `blob` of 41 bytes) of r->tail at the commit `at`.  A
 * name that is not valid UTF-8 is shown in its display form (api_text);
 * when no file has the name as written, the bytes that form names are
 * tried, and r->tail becomes them (*owned, to free by the caller, else
 * NULL).  PD_ENOTFOUND when the commit has no such file.
 */
int api_file_locate(srv_req *r, const api_at *at, char *blob, char **owned);

/*
 * Read the file page that r asks for, the same way for every answer made
 * of it (GET .../files/{path...} and .../file-functions/{path...}): the
 * paging window (?page, ?per_page), {rev}, the path (api_file_locate),
 * ?tool=A,B and ?level=L,.. (findings of those only), then q_file_get with
 * p's other fields as the caller set them (typed or not) into *out
 * (q_file_free), and the Link header of a paged answer.  *owned as
 * api_file_locate: free it once *out is written.  0, or the first error
 * (PD_EINVAL for a bad parameter, PD_ENOTFOUND, PD_EDB, PD_ENOMEM), to
 * reply with srv_reply_error; then *out is NULL.
 */
int api_file_read(srv_req *r, q_file_params *p, q_file **out, char **owned);
/* GET /api/v1/repos/{repo}/commits/{rev}/files/{path...} */
enum MHD_Result api_file(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/raw/{path...} */
enum MHD_Result api_raw(srv_req *r);

#endif
