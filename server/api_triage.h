/*
 * api_triage.h: triage over the API (issue 14.7): dismiss a finding or an
 * object-item site (token permission "triage"), list and undo dismissals, and
 * the fingerprints by which a dismissal follows its finding.
 */
#ifndef API_TRIAGE_H
#define API_TRIAGE_H

#include <jansson.h>

#include "api.h"
#include "db_scope.h"

/*
 * Leave the dismissed findings of the commit at `at` out of the per-tool
 * counts `tools` (the summary's {"TOOL": {"results", LEVEL: n}}) and give
 * each tool a "dismissed" count; *ndismissed is the total.  Only files in
 * scope `sc` (NULL: all) count, as in the summary's other figures.  Only
 * the files named by a dismissal are read (db_triage_paths), so the cost
 * follows the triage, not the repository.  0 or PD_EDB.
 */
int api_triage_summary(sqlite3 *db, const api_at *at, const db_scope *sc, json_t *tools,
                       size_t *ndismissed);

/*
 * Dismiss the finding with fingerprint `fp` of `path` at `rev` of
 * repository `repo` in `db`, on behalf of `by`: the API's POST and the
 * CLI's `triage dismiss` both call this.  *out is the dismissal
 * (db_triage_list's form, a new reference).  0, PD_EINVAL (reason),
 * PD_ENOTFOUND (repository, rev, file or no such finding), PD_EDB.
 */
int api_triage_dismiss(sqlite3 *db, const char *repo, const char *rev, const char *path,
                       const char *fp, const char *reason, const char *comment,
                       const char *by, json_t **out);

/* POST /api/v1/repos/{repo}/dismissals {"rev", "path", "fingerprint",
 * "reason", "comment"}: 201 with the dismissal. */
enum MHD_Result api_dismiss(srv_req *r);

/* GET /api/v1/repos/{repo}/dismissals: {"dismissals": [...]}. */
enum MHD_Result api_dismissals(srv_req *r);

/* DELETE /api/v1/repos/{repo}/dismissals/{id}: {"deleted": id}. */
enum MHD_Result api_undismiss(srv_req *r);

#endif
