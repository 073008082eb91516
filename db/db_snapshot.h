/*
 * db_snapshot.h: weekly snapshots of refs, immutable once taken.
 *
 * A snapshot copies a commit's summary and per-file status under an ISO 8601
 * week ("2021-W03"), with how it was made ("live" for a snapshot of the
 * ref's current tip, "backfill-author-date" / "backfill-committer-date" for
 * one reconstructed from history).  Triggers in the schema refuse updates
 * and deletes, so a later rebase or re-ingest never changes a snapshot.
 */
#ifndef DB_SNAPSHOT_H
#define DB_SNAPSHOT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* The ISO 8601 week of unix time `t` (UTC) as "YYYY-Www" into buf. */
void db_iso_week(char *buf, size_t n, int64_t t);

/*
 * Unix time of the first second after ISO week `week` ("YYYY-Www"), i.e.
 * the next Monday 00:00 UTC.  0 or PD_EINVAL.
 */
int db_iso_week_end(const char *week, int64_t *out);

/*
 * Record a snapshot of `ref` at commit `commit_id` for `week`.  Returns 0
 * when recorded, 1 when that ref already has a snapshot for that week
 * (left unchanged), PD_ENOTFOUND if the commit has no summary under
 * `rules_hash`, PD_EDB.  Runs in its own transaction.
 */
int db_snapshot_take(sqlite3 *db, int64_t repo_id, const char *ref, int64_t commit_id,
                     const char *week, int64_t taken_at, const char *method,
                     const char *rules_hash);

/*
 * The newest commit of ref's first-parent chain (from `tip_id`) whose author
 * (by_author = 1) or committer date is before `before` (unix seconds).
 * *commit_out is 0 when no commit is that old.  0 or PD_EDB.
 */
int db_chain_commit_before(sqlite3 *db, int64_t *commit_out, int64_t tip_id,
                           int64_t before, int by_author);

/*
 * Reconstruct one snapshot per ISO week from `since` to `until` (unix
 * seconds) for `ref` from its stored history: for each week, the commit
 * chosen by db_chain_commit_before() with the week's end, recorded with
 * method "backfill-author-date" or "backfill-committer-date".  Weeks before
 * the first commit are skipped, weeks already taken are kept.  *taken and
 * *kept count both.  0 or a negative PD_E* code.
 */
int db_snapshot_backfill(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip,
                         int64_t since, int64_t until, int by_author,
                         const char *rules_hash, int *taken, int *kept);

#endif
