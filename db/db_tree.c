/*
 * db_tree.c: the filling of chain positions and stored file lists
 * (db_tree.h, migration 017).
 */
#include <stdint.h>
#include <stdlib.h>

#include "db.h"
#include "db_tree.h"
#include "pd_error.h"

enum { T_PARENT, T_POS, T_TREE, T_BASE, T_COUNT };

static const char *const db_tree_sql[T_COUNT] = {
    [T_PARENT] = "SELECT depth, base_id FROM chain_pos WHERE commit_id = ?1",
    [T_POS] = "INSERT INTO chain_pos(commit_id, depth, base_id) VALUES(?1, ?2, ?3)",
    /* Runs while the commit's row still names its parent's checkpoint. */
    [T_TREE] = DB_TREE_LATEST_CTE "INSERT INTO tree_files(commit_id, path_id, blob_oid) "
               "SELECT ?1, path_id, blob_oid FROM latest WHERE blob_oid IS NOT NULL",
    [T_BASE] = "UPDATE chain_pos SET base_id = ?1 WHERE commit_id = ?1",
};

/* The commits without a row: (id, first parent id or 0) pairs into *out. */
static int db_tree_new(sqlite3 *db, int64_t **out, size_t *n)
{
    sqlite3_stmt *st = NULL;
    int64_t *v = NULL;
    size_t cap = 0;
    int rc;

    *n = 0;
    if ((rc = db_prepare(db, &st, "SELECT id, coalesce(first_parent_id, 0) FROM commits "
                         "WHERE id > (SELECT coalesce(max(commit_id), 0) FROM chain_pos) "
                         "ORDER BY id")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        if (*n + 2 > cap) {
            int64_t *nv = realloc(v, (cap = cap ? cap * 2 : 256) * sizeof(*v));

            if (!nv) {
                rc = pd_error_nomem("reading the commits to checkpoint");
                break;
            }
            v = nv;
        }
        v[(*n)++] = sqlite3_column_int64(st, 0);
        v[(*n)++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    if (rc < 0) {
        free(v);
        return rc;
    }
    *out = v;
    *n /= 2;
    return 0;
}

/* Run a write statement with one to three integer parameters. */
static int db_tree_run(sqlite3_stmt *st, int64_t a, int64_t b, int64_t c, int nargs)
{
    int rc;

    sqlite3_reset(st);
    sqlite3_bind_int64(st, 1, a);
    if (nargs > 1)
        sqlite3_bind_int64(st, 2, b);
    if (nargs > 2) {
        if (c)
            sqlite3_bind_int64(st, 3, c);
        else
            sqlite3_bind_null(st, 3);
    }
    rc = db_step(st);
    sqlite3_reset(st);
    return rc < 0 ? rc : 0;
}

/* One commit: its position, and its file list at a checkpoint. */
static int db_tree_one(sqlite3_stmt **st, int64_t id, int64_t parent, int every)
{
    int64_t depth = 0, base = 0;
    int rc;

    /* The walk follows a link only to an older row (db_query.c). */
    if (parent > 0 && parent < id) {
        sqlite3_reset(st[T_PARENT]);
        sqlite3_bind_int64(st[T_PARENT], 1, parent);
        if ((rc = db_step(st[T_PARENT])) < 0)
            return rc;
        if (rc > 0) {
            depth = sqlite3_column_int64(st[T_PARENT], 0) + 1;
            base = sqlite3_column_int64(st[T_PARENT], 1);
        }
        sqlite3_reset(st[T_PARENT]);
    }
    if ((rc = db_tree_run(st[T_POS], id, depth, base, 3)) < 0)
        return rc;
    if (depth == 0 || depth % every != 0)
        return 0;
    if ((rc = db_tree_run(st[T_TREE], id, 0, 0, 1)) < 0)
        return rc;
    return db_tree_run(st[T_BASE], id, 0, 0, 1);
}

int db_tree_fill(sqlite3 *db)
{
    return db_tree_fill_every(db, DB_TREE_EVERY);
}

int db_tree_fill_every(sqlite3 *db, int every)
{
    sqlite3_stmt *st[T_COUNT] = {NULL};
    int64_t *todo = NULL;
    size_t n = 0, i;
    int k, rc;

    if ((rc = db_tree_new(db, &todo, &n)) < 0 || n == 0) {
        free(todo);
        return rc;
    }
    for (k = 0; k < T_COUNT && rc == 0; k++)
        rc = db_prepare(db, &st[k], db_tree_sql[k]);
    for (i = 0; i < n && rc == 0; i++)
        rc = db_tree_one(st, todo[2 * i], todo[2 * i + 1], every < 1 ? 1 : every);
    for (k = 0; k < T_COUNT; k++)
        sqlite3_finalize(st[k]);
    free(todo);
    return rc;
}

int db_tree_refill(sqlite3 *db)
{
    int rc;

    if ((rc = db_exec(db, "DELETE FROM tree_files; DELETE FROM chain_pos")) < 0)
        return rc;
    return db_tree_fill(db);
}
