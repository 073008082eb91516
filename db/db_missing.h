/*
 * db_missing.h: reading the record of objects a clone lacked (table
 * missing_objects, written by ingest/ingest_missing.c; issue 23, point 6).
 */
#ifndef DB_MISSING_H
#define DB_MISSING_H

#include <stdint.h>
#include <sqlite3.h>

/*
 * Whether blob `blob` (40 hex) is recorded missing in repository
 * `repo_id`: 0 with the first commit that lacked it (40 hex) in since_out
 * (41 bytes); PD_ENOTFOUND when it is not recorded; PD_EDB.
 */
int db_missing_blob(sqlite3 *db, int64_t repo_id, const char *blob, char *since_out);

/* 1 when repository `repo_id` has objects recorded missing, 0 when not,
 * PD_EDB. */
int db_missing_any(sqlite3 *db, int64_t repo_id);

/* One record, as db_missing_list gives it (strings valid during the call). */
typedef struct {
    const char *commit;       /* 40 hex: the commit whose change named it */
    const char *path;
    const char *blob;         /* 40 hex */
} db_missing_row;

/*
 * Call `fn` for the records of repository `repo_id`, oldest commit first,
 * skipping `offset` and giving at most `limit`; *total (may be NULL) gets
 * their number.  A non-zero return from fn stops the walk and is
 * returned; otherwise 0 or PD_EDB.
 */
int db_missing_list(sqlite3 *db, int64_t repo_id, int64_t offset, int64_t limit,
                    int64_t *total, int (*fn)(void *arg, const db_missing_row *m),
                    void *arg);

#endif
