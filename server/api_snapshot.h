/*
 * api_snapshot.h: weekly snapshot endpoints, CSV exports and the dev-call
 * report.  Snapshots are recorded by `portdash snapshot` (db_snapshot.h).
 */
#ifndef API_SNAPSHOT_H
#define API_SNAPSHOT_H

#include "api.h"
#include "db.h"

enum MHD_Result api_snapshots(srv_req *r);      /* GET .../snapshots */
enum MHD_Result api_snapshot_week(srv_req *r);  /* GET .../snapshots/{week} */
enum MHD_Result api_snapshots_csv(srv_req *r);  /* GET .../snapshots.csv */
enum MHD_Result api_files_csv(srv_req *r);      /* GET .../commits/{rev}/files.csv */
enum MHD_Result api_report(srv_req *r);         /* GET .../snapshots/{week}/report.md */

/*
 * Prepare the snapshots of a repository (all, or of one week), ordered by
 * week then ref.  Columns: 0 week, 1 ref, 2 commit oid, 3 taken_at,
 * 4 method, 5-17 counts (see api_snapshot_counts), 18 snapshot id,
 * 19 commit row id.  The caller finalizes.  0 or PD_EDB.
 */
int api_snapshot_query(srv_req *r, sqlite3_stmt **out, int64_t repo_id,
                       const char *week_or_null);

/* The latest snapshot of `ref` before `week` (same columns); stepping it
 * gives no row when there is none. */
int api_snapshot_prev(srv_req *r, sqlite3_stmt **out, int64_t repo_id,
                      const char *ref, const char *week);

/* Counts of a row of api_snapshot_query. */
void api_snapshot_counts(sqlite3_stmt *st, db_counts *c);

#endif
