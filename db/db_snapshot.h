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

#include "pd_domain.h"

/* The ISO 8601 week of unix time `t` (UTC) as "YYYY-Www" into buf. */
void db_iso_week(char *buf, size_t n, int64_t t);

/*
 * Unix time of the first second after ISO week `week` ("YYYY-Www"), i.e.
 * the next Monday 00:00 UTC.  0 or PD_EINVAL: not that form, or a week
 * the year does not have (W53 of most years), or another spelling of one
 * (W1 for W01).
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
 * seconds) for `ref` from its stored history: for each week, the newest
 * commit of the chain whose effective date (the trend's, db_fork.h:
 * the port's own commits dated among themselves) is before the week's
 * end (db_port_chain_at), recorded with
 * method "backfill-author-date" or "backfill-committer-date".  Weeks before
 * the first commit are skipped; a week before the port's first own commit
 * records the fork base, and is skipped when that base is newer than the
 * week (a rebased port), but for the week just before the port's first
 * (the first week's baseline); weeks already taken are kept.  *taken and
 * *kept count both.  0 or a negative PD_E* code.
 */
int db_snapshot_backfill(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip,
                         int64_t since, int64_t until, int by_author,
                         const char *rules_hash, int *taken, int *kept);

/* One snapshot as db_snaps_next() reads it; strings belong to the cursor
 * and stay valid until its next db_snaps_next or db_snaps_close. */
typedef struct {
    int64_t id;
    int64_t commit_id;
    const char *week;        /* "YYYY-Www" */
    const char *ref;
    const char *commit;      /* 40 hex */
    int64_t taken_at;        /* unix seconds */
    const char *method;      /* live | backfill-author-date | ... */
    pd_counts counts;        /* the commit's summary when taken */
} db_snap_row;

/* A cursor over snapshots. */
typedef struct db_snaps db_snaps;

/*
 * Open the cursor over the snapshots of repository `repo_id`: all of them
 * ordered by week then ref, or (week non-NULL) one week's ordered by ref.
 * 0, PD_EINVAL (week is no ISO week: db_iso_week_end), PD_EDB, PD_ENOMEM.
 */
int db_snaps_open(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *week);

/* Open the cursor at the latest snapshot of `ref` before `week` (at most
 * one row).  0, PD_EDB, PD_ENOMEM. */
int db_snaps_open_prev(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *ref,
                       const char *week);

/* Open the cursor over the snapshots of `ref` up to and including `until`
 * (a week; NULL: all), oldest first.  0, PD_EDB, PD_ENOMEM. */
int db_snaps_open_ref(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *ref,
                      const char *until);

/* The next snapshot into *row: 1, 0 at the end, PD_EDB. */
int db_snaps_next(db_snaps *c, db_snap_row *row);

/* Close; accepts NULL. */
void db_snaps_close(db_snaps *c);

/* One file of a snapshot. */
typedef struct {
    const char *path;
    const char *status;      /* pd_status name */
    pd_counts counts;        /* files = 1, universal_ready_files, fn and obj;
                              * tokens are not kept per file */
} db_snap_file;

/*
 * Call `fn` for each file of snapshot `snap_id` in path order (strings valid
 * during the call).  A non-zero return from fn stops the walk and is
 * returned; otherwise 0 or PD_EDB.
 */
int db_snap_files(sqlite3 *db, int64_t snap_id,
                  int (*fn)(void *arg, const db_snap_file *f), void *arg);

#endif
