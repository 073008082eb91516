/*
 * db_cache.c: the reads the answer cache keys on (see db_cache.h).
 */
#include <string.h>

#include "db.h"
#include "db_cache.h"
#include "db_kept.h"
#include "pd_error.h"

int db_data_version(sqlite3 *db, int64_t *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = 0;
    if ((rc = db_prepare(db, &st, "PRAGMA data_version")) < 0)
        return rc;
    if ((rc = db_step(st)) > 0)
        *out = sqlite3_column_int64(st, 0);
    else if (rc == 0)
        rc = pd_error_set(PD_EDB, "database: PRAGMA data_version gave no row");
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_commit_generation(sqlite3 *db, int64_t repo_id, int64_t commit_id,
                         db_commit_gen *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    /* An aggregate without GROUP BY: always exactly one row. */
    if ((rc = db_kept_prepare(db, &st, "SELECT (SELECT coalesce(max(gen), 0) FROM "
                         "sarif_generation WHERE commit_id = ?1), count(*), "
                         "coalesce(max(id), 0), (SELECT coalesce(max(gen), 0) FROM "
                         "dismissal_generation WHERE repo_id = ?2) "
                         "FROM sarif_runs WHERE commit_id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, repo_id);
    if ((rc = db_step(st)) > 0) {
        out->sarif_gen = sqlite3_column_int64(st, 0);
        out->sarif_runs = sqlite3_column_int64(st, 1);
        out->sarif_last = sqlite3_column_int64(st, 2);
        out->dismissal_gen = sqlite3_column_int64(st, 3);
    } else if (rc == 0) {
        rc = pd_error_set(PD_EDB, "database: the SARIF generation query gave no row");
    }
    db_kept_done(st);
    if (rc < 0)
        memset(out, 0, sizeof(*out));
    return rc < 0 ? rc : 0;
}
