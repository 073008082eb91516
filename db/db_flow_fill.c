/*
 * db_flow_fill.c: migration 018's backfill (db_flow_fill, db_flow_set.h):
 * the functions' own bits of every analysis, then the call graph's results
 * of every summarised commit, replayed along first-parent chains.
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_flow_set.h"
#include "db_tree.h"
#include "db_compress.h"
#include "pd_buf.h"
#include "pd_error.h"
#include "pd_flow.h"

/* ---- flow_fns ----------------------------------------------------------- */

/* The ids of the analyses that have facts and no flow_fns. */
static int db_fill_fns_todo(sqlite3 *db, int64_t **ids, size_t *n)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc;

    *ids = NULL;
    *n = 0;
    if ((rc = db_prepare(db, &st, "SELECT id FROM analyses "
                         "WHERE flow IS NOT NULL AND flow_fns IS NULL ORDER BY id")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        if (*n == cap) {
            int64_t *v = realloc(*ids, (cap = cap ? cap * 2 : 1024) * sizeof(*v));

            if (!v) {
                rc = pd_error_nomem(NULL);
                break;
            }
            *ids = v;
        }
        (*ids)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return rc;
}

static int db_fill_fns(sqlite3 *db)
{
    sqlite3_stmt *get = NULL, *put = NULL;
    int64_t *ids = NULL;
    size_t n = 0, i;
    int rc;

    if ((rc = db_fill_fns_todo(db, &ids, &n)) < 0 || n == 0 ||
        (rc = db_prepare(db, &get, "SELECT flow, flow_len FROM analyses WHERE id = ?1")) < 0 ||
        (rc = db_prepare(db, &put, "UPDATE analyses SET flow_fns = ?2 WHERE id = ?1")) < 0)
        goto done;
    for (i = 0; i < n && rc == 0; i++) {
        char *text = NULL;
        pd_buf b;

        sqlite3_bind_int64(get, 1, ids[i]);
        if ((rc = db_step(get)) > 0)
            rc = db_column_decompress(get, 0, 0, &text);
        sqlite3_reset(get);
        if (rc < 0)
            break;
        pd_buf_init(&b, 0);
        pd_flow_fns_encode(text, text ? strlen(text) : 0, &b);
        free(text);
        if (b.err) {
            pd_buf_free(&b);
            rc = pd_error_nomem(NULL);
            break;
        }
        sqlite3_bind_int64(put, 1, ids[i]);
        sqlite3_bind_text(put, 2, b.data ? b.data : "", (int)b.len, SQLITE_TRANSIENT);
        rc = db_step(put);
        sqlite3_reset(put);
        pd_buf_free(&b);
        rc = rc < 0 ? rc : 0;
    }
done:
    sqlite3_finalize(get);
    sqlite3_finalize(put);
    free(ids);
    return rc;
}

/* ---- sets --------------------------------------------------------------- */

/* A replay: the graph at commit `at`, each path's facts hash (by path id),
 * the set of `at` and its row. */
typedef struct {
    sqlite3 *db;
    const char *rules_hash;
    db_flow_sets *w;
    sqlite3_stmt *files, *changes;
    pd_flow *g;
    int64_t at;
    uint64_t *seen;
    size_t nseen;
    char *set;
    size_t setlen;
    int64_t set_id;
} db_fill;

/* Path `path_id` (path) now holds facts `text` (NULL: none); the graph
 * changes only when its facts do (pd_flow_facts_hash). */
static int db_fill_file(db_fill *f, int64_t path_id, const char *path, const char *text)
{
    uint64_t h = pd_flow_facts_hash(text) | 1;   /* 0: never seen */

    if (path_id < 0)
        return 0;
    if ((size_t)path_id >= f->nseen) {
        size_t n = (size_t)path_id * 2 + 64;
        uint64_t *v = realloc(f->seen, n * sizeof(*v));

        if (!v)
            return pd_error_nomem(NULL);
        memset(v + f->nseen, 0, (n - f->nseen) * sizeof(*v));
        f->seen = v;
        f->nseen = n;
    }
    if (f->seen[path_id] == h || (!f->seen[path_id] && !text))
        return 0;
    f->seen[path_id] = h;
    return pd_flow_set_file_text(f->g, pd_flow_path_key(path), path, text,
                                 text ? strlen(text) : 0);
}

/* Each row (path_id, path, flow, flow_len) of st into the graph. */
static int db_fill_rows(db_fill *f, sqlite3_stmt *st)
{
    int rc;

    while ((rc = db_step(st)) > 0) {
        char *text;

        if ((rc = db_column_decompress(st, 2, 1, &text)) < 0)
            break;
        rc = db_fill_file(f, sqlite3_column_int64(st, 0),
                          (const char *)sqlite3_column_text(st, 1), text);
        free(text);
        if (rc < 0)
            break;
    }
    sqlite3_reset(st);
    return rc;
}

/* Resolve when a file changed; a new set when the results did. */
static int db_fill_resolve(db_fill *f, int force)
{
    pd_buf b;
    int rc;

    if (!force && !pd_flow_dirty(f->g))
        return 0;
    if ((rc = pd_flow_resolve(f->g)) < 0)
        return rc;
    pd_buf_init(&b, 0);
    if ((rc = pd_flow_results_encode(f->g, &b)) == 0 &&
        (force || b.len != f->setlen || memcmp(b.data ? b.data : "", f->set, b.len) != 0)) {
        free(f->set);
        f->set = pd_buf_take(&b, &f->setlen);
        rc = f->set ? db_flow_sets_put(f->w, f->set, f->setlen, &f->set_id)
                    : pd_error_nomem(NULL);
    }
    pd_buf_free(&b);
    return rc;
}

/* Start again at commit `at` (0: the empty tree): its whole file list. */
static int db_fill_reset(db_fill *f, int64_t at)
{
    int rc;

    pd_flow_free(f->g);
    f->g = NULL;
    if (f->seen)
        memset(f->seen, 0, f->nseen * sizeof(*f->seen));
    if ((rc = pd_flow_new(&f->g)) < 0)
        return rc;
    f->at = at;
    if (at) {
        sqlite3_bind_int64(f->files, 1, at);
        if ((rc = db_fill_rows(f, f->files)) < 0)
            return rc;
    }
    return db_fill_resolve(f, 1);
}

/* One commit whose first parent (0: none) the replay is at or goes to. */
static int db_fill_commit(db_fill *f, int64_t id, int64_t parent)
{
    int rc;

    if ((f->at != parent || !f->g) && (rc = db_fill_reset(f, parent)) < 0)
        return rc;
    sqlite3_bind_int64(f->changes, 1, id);
    if ((rc = db_fill_rows(f, f->changes)) < 0 || (rc = db_fill_resolve(f, 0)) < 0)
        return rc;
    f->at = id;
    return db_flow_sets_commit(f->w, id, f->rules_hash, f->set_id);
}

/* The summarised commits without a set under rules_hash: (id, parent). */
static int db_fill_todo(sqlite3 *db, const char *rules_hash, int64_t **v, size_t *n)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc;

    *v = NULL;
    *n = 0;
    if ((rc = db_prepare(db, &st, "SELECT c.id, CASE WHEN c.first_parent_id < c.id "
                         "THEN c.first_parent_id ELSE 0 END FROM commits c "
                         "JOIN commit_stats s ON s.commit_id = c.id AND s.rules_hash = ?1 "
                         "WHERE NOT EXISTS (SELECT 1 FROM flow_commits f "
                         "WHERE f.commit_id = c.id AND f.rules_hash = ?1) ORDER BY c.id")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        if (*n + 2 > cap) {
            int64_t *nv = realloc(*v, (cap = cap ? cap * 2 : 1024) * sizeof(*nv));

            if (!nv) {
                rc = pd_error_nomem(NULL);
                break;
            }
            *v = nv;
        }
        (*v)[(*n)++] = sqlite3_column_int64(st, 0);
        (*v)[(*n)++] = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    *n /= 2;
    return rc;
}

static int db_fill_sets(sqlite3 *db, const char *rules_hash)
{
    db_fill f;
    int64_t *todo = NULL;
    size_t n = 0, i;
    int rc;

    memset(&f, 0, sizeof(f));
    f.db = db;
    f.rules_hash = rules_hash;
    f.at = -1;
    if ((rc = db_fill_todo(db, rules_hash, &todo, &n)) < 0 || n == 0 ||
        (rc = db_flow_sets_open(db, &f.w)) < 0 ||
        (rc = db_prepare(db, &f.files, DB_TREE_LATEST_CTE
                         "SELECT l.path_id, p.path, a.flow, a.flow_len FROM latest l "
                         "JOIN paths p ON p.id = l.path_id "
                         "JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2 "
                         "WHERE l.blob_oid IS NOT NULL ORDER BY p.path")) < 0 ||
        (rc = db_prepare(db, &f.changes, "SELECT ch.path_id, p.path, a.flow, a.flow_len "
                         "FROM changes ch JOIN paths p ON p.id = ch.path_id "
                         "LEFT JOIN analyses a ON a.blob_oid = ch.blob_oid "
                         "AND a.rules_hash = ?2 WHERE ch.commit_id = ?1")) < 0)
        goto done;
    sqlite3_bind_text(f.files, 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(f.changes, 2, rules_hash, -1, SQLITE_STATIC);
    for (i = 0; i < n && rc == 0; i++)
        rc = db_fill_commit(&f, todo[2 * i], todo[2 * i + 1]);
done:
    sqlite3_finalize(f.files);
    sqlite3_finalize(f.changes);
    db_flow_sets_close(f.w);
    pd_flow_free(f.g);
    free(f.seen);
    free(f.set);
    free(todo);
    return rc;
}

int db_flow_fill(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    char **hashes = NULL;
    size_t n = 0, i;
    int rc;

    if ((rc = db_fill_fns(db)) < 0 ||
        (rc = db_prepare(db, &st, "SELECT DISTINCT rules_hash FROM commit_stats")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        char **v = realloc(hashes, (n + 1) * sizeof(*v));

        if (!v || !(v[n] = strdup((const char *)sqlite3_column_text(st, 0)))) {
            if (v)
                hashes = v;
            rc = pd_error_nomem(NULL);
            break;
        }
        hashes = v;
        n++;
    }
    sqlite3_finalize(st);
    for (i = 0; i < n; i++) {
        if (rc == 0)
            rc = db_fill_sets(db, hashes[i]);
        free(hashes[i]);
    }
    free(hashes);
    return rc;
}
