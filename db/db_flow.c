/*
 * db_flow.c: kept call graphs of stored commits (db_flow.h).  The last
 * DB_FLOW_KEEP graphs asked for are kept with a reference count; one that
 * is dropped while a reader holds it is freed by the last release.  A
 * graph is rebuilt from the commit's stored results (db_flow_set.h) and
 * its files' own bits; from the flow facts, resolved, when the commit has
 * none (a database the ingest has not filled).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "db_flow_set.h"
#include "db_compress.h"
#include "db_kept.h"
#include "db_tree.h"
#include "pd_buf.h"
#include "pd_error.h"

#define DB_FLOW_KEEP 8

struct db_flow {
    char rules_hash[96];
    char key[600];               /* database file, commit id and oid: one
                                  * process may open several databases */
    pd_flow *g;
    int refs;                    /* readers + 1 while kept */
    uint64_t used;
};

static pthread_mutex_t db_flow_mu = PTHREAD_MUTEX_INITIALIZER;
static db_flow *db_flow_kept[DB_FLOW_KEEP];
static uint64_t db_flow_clock;

/* Drop one reference; the caller holds the mutex. */
static void db_flow_unref(db_flow *f)
{
    if (f && --f->refs == 0) {
        pd_flow_free(f->g);
        free(f);
    }
}

/* db_commit_calls and db_commit_flow: one compressed text column of the
 * analyses of every file at a commit (`col` and its `col`_len). */
static int db_commit_text(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                          const char *col,
                          int (*fn)(void *arg, const char *path, int64_t analysis_id,
                                    char *text),
                          void *arg)
{
    sqlite3_stmt *st = NULL;
    char sql[2048];
    int rc;

    snprintf(sql, sizeof(sql),
        DB_TREE_LATEST_CTE
        "SELECT p.path, a.id, a.%s, a.%s_len FROM latest l "
        "JOIN paths p ON p.id = l.path_id "
        "JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2 "
        "WHERE l.blob_oid IS NOT NULL ORDER BY p.path", col, col);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        char *text;

        if ((rc = db_column_decompress(st, 2, 1, &text)) < 0)
            break;
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
                     sqlite3_column_int64(st, 1), text)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_commit_calls(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    int (*fn)(void *arg, const char *path, int64_t analysis_id, char *calls),
                    void *arg)
{
    return db_commit_text(db, commit_id, rules_hash, "calls", fn, arg);
}

int db_commit_flow(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                   int (*fn)(void *arg, const char *path, int64_t analysis_id, char *flow),
                   void *arg)
{
    return db_commit_text(db, commit_id, rules_hash, "flow", fn, arg);
}

/* db_commit_flow callback: one file into the graph. */
static int db_flow_file(void *arg, const char *path, int64_t analysis_id, char *text)
{
    int rc = pd_flow_set_file_text(arg, pd_flow_path_key(path), path, text,
                                   text ? strlen(text) : 0);

    (void)analysis_id;
    free(text);
    return rc;
}

int db_flow_compute(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out)
{
    int rc;

    *out = NULL;
    if ((rc = pd_flow_new(out)) < 0 ||
        (rc = db_commit_flow(db, commit_id, rules_hash, db_flow_file, *out)) < 0 ||
        (rc = pd_flow_resolve(*out)) < 0) {
        pd_flow_free(*out);
        *out = NULL;
    }
    return rc;
}

/* One file of a graph of results: its functions' own bits and lines,
 * made from the facts when the analysis predates flow_fns. */
static int db_flow_results_row(pd_flow *g, sqlite3_stmt *st)
{
    const char *path = (const char *)sqlite3_column_text(st, 0);
    char *text = NULL;
    pd_buf b;
    int rc;

    if (sqlite3_column_type(st, 1) != SQLITE_NULL)
        return pd_flow_results_file(g, pd_flow_path_key(path), path,
                                    (const char *)sqlite3_column_text(st, 1),
                                    (size_t)sqlite3_column_bytes(st, 1));
    if ((rc = db_column_decompress(st, 2, 0, &text)) < 0)
        return rc;
    pd_buf_init(&b, 0);
    pd_flow_fns_encode(text, strlen(text), &b);
    free(text);
    rc = b.err ? pd_error_nomem(NULL)
               : pd_flow_results_file(g, pd_flow_path_key(path), path, b.data ? b.data : "",
                                      b.len);
    pd_buf_free(&b);
    return rc;
}

/*
 * The graph of a commit from its stored results: each file's functions
 * (flow_fns) and the set.  PD_ENOTFOUND when the commit has no set or the
 * set does not fit the files (then the caller resolves the facts).
 */
static int db_flow_results(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                           pd_flow **out)
{
    sqlite3_stmt *st = NULL;
    char *set = NULL;
    size_t len;
    pd_flow *g = NULL;
    int rc;

    *out = NULL;
    if ((rc = db_flow_set_read(db, commit_id, rules_hash, &set, &len)) < 0)
        return rc;
    if ((rc = pd_flow_new(&g)) < 0 ||
        (rc = db_kept_prepare(db, &st, DB_TREE_LATEST_CTE
                         "SELECT p.path, a.flow_fns, "
                         "CASE WHEN a.flow_fns IS NULL THEN a.flow END, a.flow_len "
                         "FROM latest l JOIN paths p ON p.id = l.path_id "
                         "JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2 "
                         "WHERE l.blob_oid IS NOT NULL AND a.flow IS NOT NULL")) < 0)
        goto done;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0)
        if ((rc = db_flow_results_row(g, st)) < 0)
            break;
    if (rc == 0 && (rc = pd_flow_results_apply(g, set, len)) == PD_EINVAL)
        rc = PD_ENOTFOUND;
done:
    db_kept_done(st);
    free(set);
    if (rc < 0)
        pd_flow_free(g);
    else
        *out = g;
    return rc;
}

/* Build the graph of a commit outside the lock: from the stored results,
 * else from the facts. */
static int db_flow_build(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                         const char *key, db_flow **out)
{
    db_flow *f = calloc(1, sizeof(*f));
    int rc;

    *out = NULL;
    if (!f)
        return pd_error_nomem(NULL);
    snprintf(f->rules_hash, sizeof(f->rules_hash), "%s", rules_hash);
    snprintf(f->key, sizeof(f->key), "%s", key);
    if ((rc = db_flow_results(db, commit_id, rules_hash, &f->g)) == PD_ENOTFOUND)
        rc = db_flow_compute(db, commit_id, rules_hash, &f->g);
    if (rc < 0) {
        free(f);
        return rc;
    }
    f->refs = 1;
    *out = f;
    return 0;
}

/* The key of a commit's graph: which database, which commit. */
static int db_flow_key(sqlite3 *db, int64_t commit_id, char *key, size_t n)
{
    sqlite3_stmt *st = NULL;
    const char *file = sqlite3_db_filename(db, "main");
    int rc;

    if ((rc = db_kept_prepare(db, &st, "SELECT oid FROM commits WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if ((rc = db_step(st)) > 0) {
        snprintf(key, n, "%s\n%lld\n%s", file ? file : "", (long long)commit_id,
                 (const char *)sqlite3_column_text(st, 0));
        rc = 0;
    } else if (rc == 0) {
        rc = pd_error_set(PD_ENOTFOUND, "no commit %lld", (long long)commit_id);
    }
    db_kept_done(st);
    return rc;
}

int db_flow_get(sqlite3 *db, int64_t commit_id, const char *rules_hash, db_flow **out)
{
    db_flow *f = NULL;
    char key[600];
    size_t i, old = 0;
    int rc;

    *out = NULL;
    if ((rc = db_flow_key(db, commit_id, key, sizeof(key))) < 0)
        return rc;
    pthread_mutex_lock(&db_flow_mu);
    for (i = 0; i < DB_FLOW_KEEP; i++)
        if (db_flow_kept[i] && strcmp(db_flow_kept[i]->key, key) == 0 &&
            strcmp(db_flow_kept[i]->rules_hash, rules_hash) == 0) {
            f = db_flow_kept[i];
            f->refs++;
            f->used = ++db_flow_clock;
            break;
        }
    pthread_mutex_unlock(&db_flow_mu);
    if ((*out = f) != NULL)
        return 0;
    if ((rc = db_flow_build(db, commit_id, rules_hash, key, &f)) < 0)
        return rc;
    pthread_mutex_lock(&db_flow_mu);
    for (i = 0; i < DB_FLOW_KEEP; i++) {
        if (!db_flow_kept[i]) {
            old = i;
            break;
        }
        if (db_flow_kept[i]->used < db_flow_kept[old]->used)
            old = i;
    }
    db_flow_unref(db_flow_kept[old]);
    db_flow_kept[old] = f;
    f->refs++;                   /* kept + this reader */
    f->used = ++db_flow_clock;
    pthread_mutex_unlock(&db_flow_mu);
    *out = f;
    return 0;
}

const pd_flow *db_flow_graph(const db_flow *f)
{
    return f->g;
}

void db_flow_release(db_flow *f)
{
    if (!f)
        return;
    pthread_mutex_lock(&db_flow_mu);
    db_flow_unref(f);
    pthread_mutex_unlock(&db_flow_mu);
}

void db_flow_forget(void)
{
    size_t i;

    pthread_mutex_lock(&db_flow_mu);
    for (i = 0; i < DB_FLOW_KEEP; i++) {
        db_flow_unref(db_flow_kept[i]);
        db_flow_kept[i] = NULL;
    }
    pthread_mutex_unlock(&db_flow_mu);
}
