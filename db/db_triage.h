/*
 * db_triage.h: dismissed findings (db/migrations/007_triage.sql): a team
 * member marks a finding or an object-item site as a false positive, won't
 * fix or used in tests, with a comment; the dismissal follows the finding's
 * fingerprint (see api_triage.h) from commit to commit.
 */
#ifndef DB_TRIAGE_H
#define DB_TRIAGE_H

#include <stdint.h>

#include <jansson.h>
#include <sqlite3.h>

/* The reasons a finding may be dismissed for (GitHub code scanning's). */
#define DB_TRIAGE_REASONS "false positive, won't fix, used in tests"

/* 1 if `reason` is one of DB_TRIAGE_REASONS. */
int db_triage_reason_ok(const char *reason);

/*
 * Dismiss finding `f` ({"fingerprint", "tool", "path", "rule", "text",
 * "function", "line"}; the file API's finding object) of repository
 * `repo_id` at commit `oid`, for `reason` with `comment`, by `by`.
 * Replaces an earlier dismissal of the fingerprint.  *out is the stored
 * dismissal as in db_triage_list (caller decrefs).  0, PD_EINVAL (reason),
 * PD_EDB.
 */
int db_triage_dismiss(sqlite3 *db, int64_t repo_id, const char *oid, json_t *f,
                      const char *reason, const char *comment, const char *by,
                      json_t **out);

/* Remove dismissal `id` of repository `repo_id`.  0, PD_ENOTFOUND, PD_EDB. */
int db_triage_undo(sqlite3 *db, int64_t repo_id, int64_t id);

/*
 * The dismissals of repository `repo_id`, newest first, as a new array of
 * {"id", "fingerprint", "reason", "comment", "tool", "path", "rule", "text",
 * "function", "line", "commit", "by", "at" (ISO 8601)}.  0 or PD_EDB.
 */
int db_triage_list(sqlite3 *db, int64_t repo_id, json_t **out);

/*
 * Mark each object of `findings` that has a "fingerprint" dismissed in
 * repository `repo_id`: "dismissed" becomes {"id", "reason", "comment",
 * "by", "at"} (null when not dismissed).  *ndismissed counts them.
 * 0 or PD_EDB.
 */
int db_triage_mark(sqlite3 *db, int64_t repo_id, json_t *findings, size_t *ndismissed);

/*
 * The same for `n` fingerprints `fp` (a NULL one is skipped): out[i]
 * becomes a new {"id", "reason", "comment", "by", "at"} when fp[i] is
 * dismissed, else NULL.  *ndismissed counts them.  0 or PD_EDB (every
 * out[i] NULL then), PD_ENOMEM.
 */
int db_triage_marks(sqlite3 *db, int64_t repo_id, const char *const *fp, size_t n,
                    json_t **out, size_t *ndismissed);

/*
 * The distinct paths of repository `repo_id`'s dismissals, sorted, as a
 * new array of strings (caller decrefs): the files whose findings a
 * commit summary must look at to leave dismissed ones out.  0 or PD_EDB.
 */
int db_triage_paths(sqlite3 *db, int64_t repo_id, json_t **out);

#endif
