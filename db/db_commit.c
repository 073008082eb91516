/*
 * db_commit.c: typed reads of repositories, refs, commits and the changes
 * of a commit (see db_commit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_commit.h"
#include "pd_error.h"

int db_repos(sqlite3 *db, int (*fn)(void *arg, const db_repo *repo), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_repo repo;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT id, name FROM repos ORDER BY name")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        repo.id = sqlite3_column_int64(st, 0);
        repo.name = (const char *)sqlite3_column_text(st, 1);
        if ((rc = fn(arg, &repo)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_refs(sqlite3 *db, int64_t repo_id, int (*fn)(void *arg, const db_ref *ref),
            void *arg)
{
    sqlite3_stmt *st = NULL;
    db_ref ref;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT f.name, c.oid FROM refs f JOIN commits c "
                         "ON c.id = f.commit_id WHERE f.repo_id = ?1 ORDER BY f.name")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    while ((rc = db_step(st)) > 0) {
        ref.name = (const char *)sqlite3_column_text(st, 0);
        ref.oid = (const char *)sqlite3_column_text(st, 1);
        if ((rc = fn(arg, &ref)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

/* The parents column: 40-hex ids, each but the last followed by one
 * separator character. */
static int db_commit_parents(db_commit *c, const char *p)
{
    size_t n = 0, len = p ? strlen(p) : 0;

    if (len >= 40 && !(c->parents = malloc((len / 40) * sizeof(*c->parents))))
        return pd_error_nomem(NULL);
    while (p && strlen(p) >= 40) {
        memcpy(c->parents[n], p, 40);
        c->parents[n++][40] = '\0';
        p += p[40] ? 41 : 40;
    }
    c->nparents = n;
    return 0;
}

int db_commit_get(sqlite3 *db, int64_t commit_id, db_commit *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_prepare(db, &st, "SELECT author_name, author_email, author_time, "
                         "author_offset, committer_time, committer_offset, summary, "
                         "parents, coalesce(first_parent_id, 0), coalesce(patch_id, '') "
                         "FROM commits WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_EDB, "commit row vanished");
    if (rc > 0) {
        out->author_time = sqlite3_column_int64(st, 2);
        out->author_offset = sqlite3_column_int(st, 3);
        out->committer_time = sqlite3_column_int64(st, 4);
        out->committer_offset = sqlite3_column_int(st, 5);
        out->first_parent_id = sqlite3_column_int64(st, 8);
        if ((rc = db_column_dup(st, 0, &out->author_name)) == 0 &&
            (rc = db_column_dup(st, 1, &out->author_email)) == 0 &&
            (rc = db_column_dup(st, 6, &out->summary)) == 0 &&
            (rc = db_column_dup(st, 9, &out->patch_id)) == 0)
            rc = db_commit_parents(out, (const char *)sqlite3_column_text(st, 7));
    }
    sqlite3_finalize(st);
    /* Ingest stores a parent before its child, so a link to a later row is
     * damage (and the start of a cycle). */
    if (rc == 0 && out->first_parent_id >= commit_id)
        rc = pd_error_set(PD_EDB, "the database is damaged: commit row %lld names "
                          "row %lld as its first parent", (long long)commit_id,
                          (long long)out->first_parent_id);
    return rc;
}

void db_commit_free(db_commit *c)
{
    free(c->author_name);
    free(c->author_email);
    free(c->summary);
    free(c->parents);
    free(c->patch_id);
    memset(c, 0, sizeof(*c));
}

/* The changes of commit ?1 shown as files: a rename's deletion of the old
 * path is part of the rename. */
#define DB_COMMIT_CHANGES \
    "FROM changes ch JOIN paths p ON p.id = ch.path_id LEFT JOIN paths o ON " \
    "o.id = ch.old_path_id WHERE ch.commit_id = ?1 AND NOT (ch.blob_oid IS NULL " \
    "AND ch.path_id IN (SELECT old_path_id FROM changes WHERE commit_id = ?1 " \
    "AND old_path_id IS NOT NULL)) "

int db_commit_changes_count(sqlite3 *db, int64_t commit_id, size_t *n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *n = 0;
    if ((rc = db_prepare(db, &st, "SELECT count(*) " DB_COMMIT_CHANGES)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_EDB, "database: no count of changes");
    else if (rc > 0)
        *n = (size_t)sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_commit_changes(sqlite3 *db, int64_t commit_id, size_t offset, size_t limit,
                      int (*fn)(void *arg, const db_change *ch), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_change ch;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT p.path, ch.blob_oid, o.path "
                         DB_COMMIT_CHANGES "ORDER BY p.path LIMIT ?2 OFFSET ?3")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)limit);
    sqlite3_bind_int64(st, 3, (sqlite3_int64)offset);
    while ((rc = db_step(st)) > 0) {
        ch.path = (const char *)sqlite3_column_text(st, 0);
        ch.blob = (const char *)sqlite3_column_text(st, 1);
        ch.old_path = (const char *)sqlite3_column_text(st, 2);
        if ((rc = fn(arg, &ch)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_same_patch(sqlite3 *db, int64_t repo_id, const char *patch_id, int64_t except_id,
                  int (*fn)(void *arg, const char *oid, const char *summary), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if (!patch_id[0])
        return 0;
    if ((rc = db_prepare(db, &st, "SELECT oid, summary FROM commits WHERE repo_id = ?1 "
                         "AND patch_id = ?2 AND id != ?3 ORDER BY committer_time")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, patch_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, except_id);
    while ((rc = db_step(st)) > 0)
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
                     (const char *)sqlite3_column_text(st, 1))) != 0)
            break;
    sqlite3_finalize(st);
    return rc;
}
