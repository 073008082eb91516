/*
 * api_triage.h: triage over the API (issue 14.7): dismiss a finding or an
 * object-item site (token scope "triage"), list and undo dismissals, and
 * the fingerprints by which a dismissal follows its finding.
 */
#ifndef API_TRIAGE_H
#define API_TRIAGE_H

#include <jansson.h>

#include "api.h"
#include "db_scope.h"

/*
 * Give every object of `findings` without a "fingerprint" one: 32 hex
 * digits of SHA-256 over its file (its "path", else `path`), "rule",
 * "function", "text" and its occurrence among the earlier objects with
 * those four, so that it stays when lines move or other findings come and
 * go, and is the same on the file page and in the object-items list.
 * Uploaded SARIF findings already carry theirs (portdash/v1).
 */
void api_triage_fingerprints(json_t *findings, const char *path);

/*
 * Fingerprint and mark (db_triage_mark) the findings of `o` (member
 * `key`), and set o["dismissed_count"].  0 or PD_EDB.
 */
int api_triage_apply(srv_req *r, int64_t repo_id, json_t *o, const char *key,
                     const char *path);

/*
 * The file document of GET .../files/{path} for `path` at `at`, with
 * fingerprints and dismissals (api_file.c).  0, PD_ENOTFOUND, PD_EDB.
 */
int api_file_doc(srv_req *r, const api_at *at, const char *path, json_t **out);

/*
 * Leave the dismissed findings of the commit at `at` out of the per-tool
 * counts `tools` (the summary's {"TOOL": {"results", LEVEL: n}}) and give
 * each tool a "dismissed" count; *ndismissed is the total.  Only files in
 * scope `sc` (NULL: all) count, as in the summary's other figures.  Only
 * the files named by a dismissal are read (db_triage_paths), so the cost
 * follows the triage, not the repository.  0 or PD_EDB.
 */
int api_triage_summary(srv_req *r, const api_at *at, const db_scope *sc, json_t *tools,
                       size_t *ndismissed);

/*
 * Dismiss the finding with fingerprint `fp` of `path` at `rev` of
 * repository r->param[0] (r needs only db and param[0]; the CLI passes a
 * request of its own).  *out is the dismissal (db_triage_list's form).
 * 0, PD_EINVAL (reason), PD_ENOTFOUND (repository, rev, file or no such
 * finding), PD_EDB.
 */
int api_triage_dismiss(srv_req *r, const char *rev, const char *path, const char *fp,
                       const char *reason, const char *comment, const char *by,
                       json_t **out);

/* POST /api/v1/repos/{repo}/dismissals {"rev", "path", "fingerprint",
 * "reason", "comment"}: 201 with the dismissal. */
enum MHD_Result api_dismiss(srv_req *r);

/* GET /api/v1/repos/{repo}/dismissals: {"dismissals": [...]}. */
enum MHD_Result api_dismissals(srv_req *r);

/* DELETE /api/v1/repos/{repo}/dismissals/{id}: {"deleted": id}. */
enum MHD_Result api_undismiss(srv_req *r);

#endif
