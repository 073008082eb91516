/*
 * db_history.c: history reads (see db_history.h); one file's history is
 * db_history_file.c.
 */
#include <stdio.h>

#include "db.h"
#include "db_history.h"
#include "pd_domain.h"
#include "pd_error.h"

/* The first-parent chain from ?1 with each commit's depth (0 = ?1). */
#define DB_CHAIN_CTE \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "

int db_path_id(sqlite3 *db, const char *path, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *id = 0;
    if ((rc = db_prepare(db, &st, "SELECT id FROM paths WHERE path = ?1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_rewrites(sqlite3 *db, int64_t repo_id, const char *ref,
                int (*fn)(void *arg, const db_rewrite *w), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_rewrite w;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT w.ref, o.oid, n.oid, w.detected_at, "
                         "w.old_commit_id, w.new_commit_id FROM rewrites w "
                         "JOIN commits o ON o.id = w.old_commit_id "
                         "JOIN commits n ON n.id = w.new_commit_id "
                         "WHERE w.repo_id = ?1 AND w.ref = ?2 ORDER BY w.id")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        w.ref = (const char *)sqlite3_column_text(st, 0);
        w.old_commit = (const char *)sqlite3_column_text(st, 1);
        w.new_commit = (const char *)sqlite3_column_text(st, 2);
        w.detected_at = sqlite3_column_int64(st, 3);
        w.old_id = sqlite3_column_int64(st, 4);
        w.new_id = sqlite3_column_int64(st, 5);
        if ((rc = fn(arg, &w)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_commit_types(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    int (*fn)(void *arg, const char *path, int64_t path_id,
                              const char *types),
                    void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, DB_CHAIN_CTE ", latest AS (SELECT ch.path_id, "
        "ch.blob_oid, min(chain.depth) AS d FROM chain JOIN changes ch "
        "ON ch.commit_id = chain.cid GROUP BY ch.path_id) "
        "SELECT p.path, p.id, a.hpy_types FROM latest l JOIN paths p ON p.id = l.path_id "
        "JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2 "
        "WHERE l.blob_oid IS NOT NULL AND a.hpy_types IS NOT NULL ORDER BY p.path")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0)
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
                     sqlite3_column_int64(st, 1),
                     (const char *)sqlite3_column_text(st, 2))) != 0)
            break;
    sqlite3_finalize(st);
    return rc;
}

int db_types_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int64_t a,
                     int64_t b, int (*fn)(void *arg, const db_types_change *c), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_types_change c;
    int rc;

    if ((rc = db_prepare(db, &st, DB_CHAIN_CTE
        "SELECT c.oid, ch.path_id, a.hpy_types, chain.depth FROM chain "
        "JOIN changes ch ON ch.commit_id = chain.cid AND ch.path_id IN (?2, ?3) "
        "JOIN commits c ON c.id = chain.cid LEFT JOIN analyses a "
        "ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?4 "
        "ORDER BY chain.depth DESC")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, a);
    sqlite3_bind_int64(st, 3, b);
    sqlite3_bind_text(st, 4, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        c.oid = (const char *)sqlite3_column_text(st, 0);
        c.path_id = sqlite3_column_int64(st, 1);
        c.types = (const char *)sqlite3_column_text(st, 2);
        c.depth = sqlite3_column_int64(st, 3);
        if ((rc = fn(arg, &c)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_commit_brief_of(sqlite3 *db, int64_t commit_id,
                       int (*fn)(void *arg, const db_commit_brief *c), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_commit_brief c;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT oid, summary, author_name, author_time, "
                         "author_offset FROM commits WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if ((rc = db_step(st)) > 0) {
        c.oid = (const char *)sqlite3_column_text(st, 0);
        c.summary = (const char *)sqlite3_column_text(st, 1);
        c.author_name = (const char *)sqlite3_column_text(st, 2);
        c.author_time = sqlite3_column_int64(st, 3);
        c.author_offset = sqlite3_column_int(st, 4);
        rc = fn(arg, &c);
    }
    sqlite3_finalize(st);
    return rc;
}

int db_contributors(sqlite3 *db, int64_t cur, int64_t prev, int limit,
                    int (*fn)(void *arg, const char *author, int64_t commits), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st,
        "WITH RECURSIVE a(cid) AS (SELECT ?1 UNION ALL SELECT c.first_parent_id FROM "
        "commits c JOIN a ON c.id = a.cid WHERE c.first_parent_id < c.id), "
        "b(cid) AS (SELECT ?2 UNION ALL SELECT c.first_parent_id FROM commits c "
        "JOIN b ON c.id = b.cid WHERE c.first_parent_id < c.id), "
        "n AS (SELECT cid FROM a EXCEPT SELECT cid FROM b) "
        "SELECT c.author_name, count(*) FROM n JOIN commits c ON c.id = n.cid "
        "GROUP BY c.author_name ORDER BY count(*) DESC, c.author_name LIMIT ?3")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, cur);
    sqlite3_bind_int64(st, 2, prev);
    sqlite3_bind_int(st, 3, limit);
    return db_each_text_int(st, fn, arg);
}

int db_rewrite_links(sqlite3 *db, int64_t old_id, int64_t new_id,
                     int (*fn)(void *arg, const char *old_oid, const char *new_oid,
                               const char *by), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st,
        "WITH RECURSIVE oldc(cid) AS (SELECT ?1 UNION ALL SELECT c.first_parent_id "
        "FROM commits c JOIN oldc ON c.id = oldc.cid WHERE c.first_parent_id < c.id), "
        "newc(cid) AS (SELECT ?2 UNION ALL SELECT c.first_parent_id FROM commits c "
        "JOIN newc ON c.id = newc.cid WHERE c.first_parent_id < c.id), "
        "gone AS (SELECT cid FROM oldc EXCEPT SELECT cid FROM newc), "
        "came AS (SELECT cid FROM newc EXCEPT SELECT cid FROM oldc) "
        "SELECT o.oid, n.oid, CASE WHEN o.patch_id = n.patch_id THEN 'patch-id' "
        "ELSE 'author-date-subject' END FROM commits o JOIN gone ON gone.cid = o.id "
        "JOIN commits n ON (n.patch_id = o.patch_id OR (n.author_email = o.author_email "
        "AND n.author_time = o.author_time AND n.summary = o.summary)) "
        "JOIN came ON came.cid = n.id ORDER BY o.author_time")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, old_id);
    sqlite3_bind_int64(st, 2, new_id);
    while ((rc = db_step(st)) > 0)
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
                     (const char *)sqlite3_column_text(st, 1),
                     (const char *)sqlite3_column_text(st, 2))) != 0)
            break;
    sqlite3_finalize(st);
    return rc;
}
