/*
 * db_analysis.c: typed reads of stored analyses and ref names (see
 * db_analysis.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_fns.h"
#include "db_kept.h"
#include "pd_error.h"

int db_analysis_find(sqlite3 *db, const char *blob, const char *rules_hash, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *id = 0;
    if ((rc = db_prepare(db, &st, "SELECT id FROM analyses WHERE blob_oid = ?1 AND "
                         "rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_analysis_findings_text(sqlite3 *db, int64_t analysis_id, char **text)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *text = NULL;
    if ((rc = db_prepare(db, &st, "SELECT findings, findings_len FROM analyses "
                         "WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no analysis %lld", (long long)analysis_id);
    else if (rc > 0)
        rc = db_column_decompress(st, 0, 0, text);
    sqlite3_finalize(st);
    return rc;
}

int db_analysis_get(sqlite3 *db, const char *blob, const char *rules_hash,
                    db_analysis_row *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_kept_prepare(db, &st, "SELECT id, status, universal_ready, notes, lines, "
                         "size FROM analyses WHERE blob_oid = ?1 AND rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) == 0) {
        rc = pd_error_set(PD_ENOTFOUND, "blob %s has no analysis under the current rules; "
                          "run the ingest again", blob);
    } else if (rc > 0) {
        out->id = sqlite3_column_int64(st, 0);
        out->universal_ready = sqlite3_column_int(st, 2);
        out->lines = sqlite3_column_int64(st, 4);
        out->size = sqlite3_column_int64(st, 5);
        if ((rc = db_column_dup(st, 1, &out->status)) == 0)
            rc = db_column_dup(st, 3, &out->notes);
    }
    db_kept_done(st);
    return rc;
}

void db_analysis_row_free(db_analysis_row *a)
{
    free(a->status);
    free(a->notes);
    memset(a, 0, sizeof(*a));
}

/* The callback and its argument of a typed walk over db_fns_each. */
typedef struct {
    int (*name)(void *arg, const char *name);          /* one of these two */
    int (*brief)(void *arg, const db_fn_brief *f);
    void *arg;
} db_fns_walk;

int db_analysis_function_rows(sqlite3 *db, int64_t analysis_id,
                              int (*fn)(void *arg, const db_function *f), void *arg)
{
    return db_fns_each(db, analysis_id, fn, arg);
}

/* Step `st` calling fn with column 0 as text; its end checked. */
static int db_each_text(sqlite3_stmt *st, int (*fn)(void *arg, const char *s), void *arg)
{
    int rc;

    while ((rc = db_step(st)) > 0)
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0))) != 0)
            break;
    sqlite3_finalize(st);
    return rc;
}

/* db_fns_each callback: a stored function's name. */
static int db_fn_name(void *arg, const db_fn_stored *s)
{
    db_fns_walk *w = arg;

    return w->name(w->arg, s->name);
}

int db_analysis_function_names(sqlite3 *db, int64_t analysis_id,
                               int (*fn)(void *arg, const char *name), void *arg)
{
    db_fns_walk w = {.name = fn, .arg = arg};

    return db_fns_each(db, analysis_id, db_fn_name, &w);
}

/* db_fns_each callback: a stored function as a db_fn_brief. */
static int db_fn_brief_of(void *arg, const db_fn_stored *s)
{
    db_fns_walk *w = arg;
    db_fn_brief f;

    f.name = s->name;
    f.status = s->status;
    f.object_state = s->object_state;
    f.start_line = s->start_line;
    f.tok_capi = s->tok[PD_CLASS_CAPI];
    return w->brief(w->arg, &f);
}

int db_blob_functions(sqlite3 *db, const char *blob, const char *rules_hash,
                      int (*fn)(void *arg, const db_fn_brief *f), void *arg)
{
    int64_t id;
    int rc;

    if ((rc = db_analysis_find(db, blob, rules_hash, &id)) < 0 || !id)
        return rc;
    return db_analysis_functions(db, id, fn, arg);
}

int db_analysis_functions(sqlite3 *db, int64_t analysis_id,
                          int (*fn)(void *arg, const db_fn_brief *f), void *arg)
{
    db_fns_walk w = {.brief = fn, .arg = arg};

    return db_fns_each(db, analysis_id, db_fn_brief_of, &w);
}

int db_analysis_flow(sqlite3 *db, int64_t analysis_id, char **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    /* Kept: a push reads a few files' facts, an ingest one per change. */
    if ((rc = db_kept_prepare(db, &st, "SELECT flow, flow_len FROM analyses WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step(st)) > 0)
        rc = db_column_decompress(st, 0, 1, out);
    else if (rc == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no analysis %lld", (long long)analysis_id);
    db_kept_done(st);
    return rc < 0 ? rc : 0;
}

/* A name search over the functions of one file (db_functions_like). */
typedef struct {
    const char *like;
    db_fn_match m;               /* path set per file */
    int (*fn)(void *arg, const db_fn_match *m);
    void *arg;
} db_fn_search;

/* db_fns_each callback: a function whose name matches, to the caller.
 * sqlite3_strlike is SQL's LIKE (ASCII case folded), as the search was
 * when it was a query. */
static int db_fn_like(void *arg, const db_fn_stored *s)
{
    db_fn_search *q = arg;

    if (sqlite3_strlike(q->like, s->name, '\\') != 0)
        return 0;
    q->m.name = s->name;
    q->m.start_line = s->start_line;
    q->m.end_line = s->end_line;
    q->m.status = s->status;
    q->m.object_state = s->object_state;
    q->m.idx = s->idx;
    return q->fn(q->arg, &q->m);
}

int db_functions_like(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const char *like, int (*fn)(void *arg, const db_fn_match *m),
                      void *arg)
{
    db_files *files = NULL;
    db_file_row row;
    db_fn_search q;
    int rc;

    memset(&q, 0, sizeof(q));
    q.like = like;
    q.fn = fn;
    q.arg = arg;
    if ((rc = db_files_open(db, &files, commit_id, rules_hash)) < 0)
        return rc;
    while ((rc = db_files_next(files, &row)) > 0) {
        if (!row.status)
            continue;
        q.m.path = row.path;
        if ((rc = db_fns_each(db, row.analysis_id, db_fn_like, &q)) != 0)
            break;
    }
    db_files_close(files);
    return rc;
}

int db_ref_names(sqlite3 *db, int64_t repo_id,
                 int (*fn)(void *arg, const char *name), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT name FROM refs WHERE repo_id = ?1 "
                         "ORDER BY name")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    return db_each_text(st, fn, arg);
}

int db_check_readable(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT count(*) FROM repos")) < 0)
        return rc;
    if ((rc = db_step(st)) == 0)
        rc = pd_error_set(PD_EDB, "database: no answer");
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}
