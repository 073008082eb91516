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

#endif
