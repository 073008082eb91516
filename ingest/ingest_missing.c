/*
 * ingest_missing.c: recording and refilling objects a clone lacks (see
 * ingest_missing.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "ingest_missing.h"
#include "pd_error.h"

int ingest_missing_kind(int git_rc)
{
    const git_error *e = git_error_last();

    if (git_rc == GIT_ENOTFOUND)
        return INGEST_MISSING_ABSENT;
    return git_rc < 0 && e && (e->klass == GIT_ERROR_ZLIB || e->klass == GIT_ERROR_ODB)
           ? INGEST_MISSING_DAMAGED : INGEST_MISSING_NO;
}

/* 1 when the clone holds the object and it reads: a damaged one (a
 * loose object that does not inflate) "exists" but would be recorded
 * missing again, and said to have arrived at every run. */
static int ingest_missing_readable(git_odb *odb, const git_oid *oid)
{
    git_odb_object *obj = NULL;

    if (!git_odb_exists(odb, oid) || git_odb_read(&obj, odb, oid) < 0)
        return 0;
    git_odb_object_free(obj);
    return 1;
}

int ingest_missing_record(sqlite3 *db, int64_t commit_id, int64_t path_id,
                          const char *hex)
{
    sqlite3_stmt *st;
    int rc;

    if ((rc = db_prepare(db, &st, "INSERT OR IGNORE INTO missing_objects "
                         "(commit_id, path_id, blob_oid) VALUES (?1, ?2, ?3)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, path_id);
    sqlite3_bind_text(st, 3, hex, -1, SQLITE_STATIC);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

/* Run `sql` with ?1 = a, ?2 = b.  0 or PD_EDB. */
static int ingest_missing_exec2(sqlite3 *db, const char *sql, int64_t a, int64_t b)
{
    sqlite3_stmt *st;
    int rc;

    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, a);
    sqlite3_bind_int64(st, 2, b);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int ingest_missing_refill(sqlite3 *db, git_repository *repo, int64_t repo_id,
                          const char *rules_hash, size_t *filled)
{
    sqlite3_stmt *st;
    git_odb *odb = NULL;
    int64_t first = 0;
    int rc;

    *filled = 0;
    if (git_repository_odb(&odb, repo) < 0)
        return pd_error_set(PD_EGIT, "cannot open the object database: %s",
                            git_error_last() ? git_error_last()->message : "?");
    /* A blob has arrived when the clone holds it now, or when another
     * repository's ingest stored its analysis (analyses are shared by
     * content, so it need not be read).  CROSS JOIN: from the (mostly
     * empty) missing objects, not through every commit of the repository
     * (8 % of a pushed commit's CPU). */
    rc = db_prepare(db, &st, "SELECT m.blob_oid, min(m.commit_id), EXISTS (SELECT 1 FROM "
                    "analyses a WHERE a.blob_oid = m.blob_oid AND a.rules_hash = ?2) "
                    "FROM missing_objects m CROSS JOIN commits c ON c.id = m.commit_id "
                    "WHERE c.repo_id = ?1 GROUP BY m.blob_oid");
    if (rc < 0)
        goto done;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        git_oid oid;
        sqlite3_stmt *del;

        if (!sqlite3_column_int(st, 2) &&
            (git_oid_fromstr(&oid, (const char *)sqlite3_column_text(st, 0)) < 0 ||
             !ingest_missing_readable(odb, &oid)))
            continue;
        (*filled)++;
        if (!first || sqlite3_column_int64(st, 1) < first)
            first = sqlite3_column_int64(st, 1);
        if ((rc = db_prepare(db, &del, "DELETE FROM missing_objects WHERE blob_oid = ?1 "
                             "AND commit_id IN (SELECT id FROM commits "
                             "WHERE repo_id = ?2)")) < 0)
            break;
        sqlite3_bind_text(del, 1, (const char *)sqlite3_column_text(st, 0), -1,
                          SQLITE_TRANSIENT);
        sqlite3_bind_int64(del, 2, repo_id);
        rc = db_step(del);
        sqlite3_finalize(del);
        if (rc < 0)
            break;
    }
    sqlite3_finalize(st);
    git_error_clear();
    /* Row ids grow along each walk, oldest first: every commit whose file
     * set can hold an arrived blob comes at or after the first that lacked
     * it.  Later commits of other branches lose their summaries too and
     * are recomputed the same way, which costs time, never correctness. */
    if (rc >= 0 && first)
        rc = ingest_missing_exec2(db, "DELETE FROM commit_stats WHERE commit_id IN "
                                  "(SELECT id FROM commits WHERE repo_id = ?1 "
                                  "AND id >= ?2)", repo_id, first);
    /* Their call-graph results go with them (db_flow_set.h), and their
     * packed graphs (db_flow_graph.h), made of the facts they lacked. */
    if (rc >= 0 && first)
        rc = ingest_missing_exec2(db, "DELETE FROM flow_commits WHERE commit_id IN "
                                  "(SELECT id FROM commits WHERE repo_id = ?1 "
                                  "AND id >= ?2)", repo_id, first);
    if (rc >= 0 && first)
        rc = ingest_missing_exec2(db, "DELETE FROM flow_graph_commits WHERE commit_id IN "
                                  "(SELECT id FROM commits WHERE repo_id = ?1 "
                                  "AND id >= ?2)", repo_id, first);
    /* Answers about those commits were cached as if they could not change
     * (server/srv_cache_key.c keys them on this generation too). */
    if (rc >= 0 && first)
        rc = ingest_missing_exec2(db, "INSERT INTO meta (key, value) VALUES "
                                  "('fill_generation', ?1) ON CONFLICT (key) DO UPDATE "
                                  "SET value = CAST(value AS INTEGER) + ?2", 1, 1);
done:
    git_odb_free(odb);
    return rc < 0 ? rc : 0;
}

int ingest_missing_tips(sqlite3 *db, git_repository *repo, int64_t repo_id,
                        const char *rules_hash, char (**out)[41], size_t *n)
{
    sqlite3_stmt *st;
    git_odb *odb = NULL;
    char (*tips)[41] = NULL;
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    if (git_repository_odb(&odb, repo) < 0)
        return pd_error_set(PD_EGIT, "cannot open the object database: %s",
                            git_error_last() ? git_error_last()->message : "?");
    if ((rc = db_prepare(db, &st, "SELECT c.oid FROM commits c WHERE c.repo_id = ?1 "
                         "AND NOT EXISTS (SELECT 1 FROM commit_stats s WHERE "
                         "s.commit_id = c.id AND s.rules_hash = ?2) AND NOT EXISTS "
                         "(SELECT 1 FROM commits d WHERE d.first_parent_id = c.id) "
                         "ORDER BY c.id")) < 0)
        goto done;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        const char *hex = (const char *)sqlite3_column_text(st, 0);
        git_oid oid;

        if (git_oid_fromstr(&oid, hex) < 0 || !git_odb_exists(odb, &oid))
            continue;      /* rewritten away and collected: nothing to walk */
        if (*n == cap) {
            void *p = realloc(tips, (cap = cap ? cap * 2 : 16) * sizeof(*tips));

            if (!p) {
                rc = pd_error_nomem(NULL);
                break;
            }
            tips = p;
        }
        snprintf(tips[(*n)++], 41, "%s", hex);
    }
    sqlite3_finalize(st);
    git_error_clear();
done:
    git_odb_free(odb);
    if (rc < 0) {
        free(tips);
        *n = 0;
        return rc;
    }
    *out = tips;
    return 0;
}
