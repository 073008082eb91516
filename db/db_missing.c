/*
 * db_missing.c: the record of objects a clone lacked (see db_missing.h).
 */
#include <stdio.h>

#include "db.h"
#include "db_kept.h"
#include "db_missing.h"
#include "pd_error.h"

int db_missing_blob(sqlite3 *db, int64_t repo_id, const char *blob, char *since_out)
{
    sqlite3_stmt *st;
    int rc;

    if ((rc = db_kept_prepare(db, &st, "SELECT c.oid FROM missing_objects m JOIN commits c "
                         "ON c.id = m.commit_id WHERE m.blob_oid = ?1 AND "
                         "c.repo_id = ?2 ORDER BY c.id LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, repo_id);
    if ((rc = db_step(st)) > 0)
        snprintf(since_out, 41, "%s", (const char *)sqlite3_column_text(st, 0));
    db_kept_done(st);
    if (rc == 0)
        return PD_ENOTFOUND;
    return rc < 0 ? rc : 0;
}

int db_missing_any(sqlite3 *db, int64_t repo_id)
{
    sqlite3_stmt *st;
    int rc;

    /* Asked for every answer that names a full commit id: with the record
     * empty (the usual case) that is known without the join, which reads
     * the repository's whole commit index (1 to 3 ms for numpy-hpy's
     * 15,000 commits, issue 26.3). */
    if ((rc = db_prepare(db, &st, "SELECT EXISTS (SELECT 1 FROM missing_objects)")) < 0)
        return rc;
    rc = db_step(st);
    if (rc > 0)
        rc = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc <= 0)
        return rc;
    if ((rc = db_prepare(db, &st, "SELECT EXISTS (SELECT 1 FROM missing_objects m JOIN "
                         "commits c ON c.id = m.commit_id WHERE c.repo_id = ?1)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    if ((rc = db_step(st)) > 0)
        rc = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return rc;
}

int db_missing_list(sqlite3 *db, int64_t repo_id, int64_t offset, int64_t limit,
                    int64_t *total, int (*fn)(void *arg, const db_missing_row *m),
                    void *arg)
{
    sqlite3_stmt *st;
    int rc;

    if (total) {
        if ((rc = db_prepare(db, &st, "SELECT count(*) FROM missing_objects m JOIN "
                             "commits c ON c.id = m.commit_id WHERE c.repo_id = ?1")) < 0)
            return rc;
        sqlite3_bind_int64(st, 1, repo_id);
        rc = db_step(st);
        *total = rc > 0 ? sqlite3_column_int64(st, 0) : 0;
        sqlite3_finalize(st);
        if (rc < 0)
            return rc;
    }
    if ((rc = db_prepare(db, &st, "SELECT c.oid, p.path, m.blob_oid FROM missing_objects m "
                         "JOIN commits c ON c.id = m.commit_id JOIN paths p ON "
                         "p.id = m.path_id WHERE c.repo_id = ?1 ORDER BY c.id, p.path "
                         "LIMIT ?2 OFFSET ?3")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_int64(st, 2, limit);
    sqlite3_bind_int64(st, 3, offset);
    while ((rc = db_step(st)) > 0) {
        db_missing_row m;

        m.commit = (const char *)sqlite3_column_text(st, 0);
        m.path = (const char *)sqlite3_column_text(st, 1);
        m.blob = (const char *)sqlite3_column_text(st, 2);
        if ((rc = fn(arg, &m)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}
