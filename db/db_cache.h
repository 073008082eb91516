/*
 * db_cache.h: what the server's answer cache (server/srv_cache.c) reads
 * from the database to know whether a kept answer still holds: the
 * connection's data version and the generations of a commit's SARIF runs
 * and of a repository's dismissals.  The SQL stays here.
 */
#ifndef DB_CACHE_H
#define DB_CACHE_H

#include <stdint.h>
#include <sqlite3.h>

/*
 * PRAGMA data_version of connection `db` into *out: it changes when
 * another connection (another thread, an ingest job, another process)
 * committed since this connection's previous read; this connection's own
 * writes do not change it (https://sqlite.org/pragma.html#pragma_data_version).
 * 0, or PD_EDB (db_error_busy() tells a busy database).
 */
int db_data_version(sqlite3 *db, int64_t *out);

/* What the answers about one commit depend on besides the commit itself. */
typedef struct {
    int64_t sarif_gen;       /* raised by every change to the commit's SARIF
                              * runs (migration 006); 0: never changed */
    int64_t sarif_runs;      /* runs stored for the commit */
    int64_t sarif_last;      /* highest run id (0: none); with the count, covers
                              * runs stored before migration 006 */
    int64_t dismissal_gen;   /* raised by every change to the repository's
                              * dismissals (migration 009); 0: never changed */
} db_commit_gen;

/*
 * The generations of commit `commit_id` of repository `repo_id` into *out.
 * 0, or PD_EDB (out is then all 0 and must not be used as a key).
 */
int db_commit_generation(sqlite3 *db, int64_t repo_id, int64_t commit_id,
                         db_commit_gen *out);

#endif
