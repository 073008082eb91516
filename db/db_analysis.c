/*
 * db_analysis.c: typed reads of stored analyses and ref names (see
 * db_analysis.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
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
        rc = db_column_inflate(st, 0, 0, text);
    sqlite3_finalize(st);
    return rc;
}

int db_analysis_get(sqlite3 *db, const char *blob, const char *rules_hash,
                    db_analysis_row *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_prepare(db, &st, "SELECT id, status, universal_ready, notes, lines, "
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
    sqlite3_finalize(st);
    return rc;
}

void db_analysis_row_free(db_analysis_row *a)
{
    free(a->status);
    free(a->notes);
    memset(a, 0, sizeof(*a));
}

int db_analysis_function_rows(sqlite3 *db, int64_t analysis_id,
                              int (*fn)(void *arg, const db_function *f), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_function f;
    int rc, k;

    if ((rc = db_prepare(db, &st, "SELECT name, start_line, end_line, status, "
                         "object_state, tok_hpy, tok_capi, tok_npy_legacy, tok_bridge, "
                         "name_from_macro, why FROM functions WHERE analysis_id = ?1 "
                         "ORDER BY idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    while ((rc = db_step(st)) > 0) {
        f.name = (const char *)sqlite3_column_text(st, 0);
        f.start_line = sqlite3_column_int64(st, 1);
        f.end_line = sqlite3_column_int64(st, 2);
        f.status = (const char *)sqlite3_column_text(st, 3);
        f.object_state = (const char *)sqlite3_column_text(st, 4);
        for (k = 0; k < PD_CLASS_COUNT; k++)
            f.tok[k] = sqlite3_column_int64(st, 5 + k);
        f.name_from_macro = (const char *)sqlite3_column_text(st, 9);
        f.why = (const char *)sqlite3_column_text(st, 10);
        if ((rc = fn(arg, &f)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
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

int db_analysis_function_names(sqlite3 *db, int64_t analysis_id,
                               int (*fn)(void *arg, const char *name), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT name FROM functions WHERE analysis_id = ?1 "
                         "ORDER BY idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    return db_each_text(st, fn, arg);
}

/* Step a functions statement (name, status, object_state, start_line,
 * tok_capi) through fn; its end checked, finalized. */
static int db_each_fn(sqlite3_stmt *st, int (*fn)(void *arg, const db_fn_brief *f),
                      void *arg)
{
    db_fn_brief f;
    int rc;

    while ((rc = db_step(st)) > 0) {
        f.name = (const char *)sqlite3_column_text(st, 0);
        f.status = (const char *)sqlite3_column_text(st, 1);
        f.object_state = (const char *)sqlite3_column_text(st, 2);
        f.start_line = sqlite3_column_int64(st, 3);
        f.tok_capi = sqlite3_column_int64(st, 4);
        if ((rc = fn(arg, &f)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}

int db_blob_functions(sqlite3 *db, const char *blob, const char *rules_hash,
                      int (*fn)(void *arg, const db_fn_brief *f), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT f.name, f.status, f.object_state, "
                         "f.start_line, f.tok_capi FROM functions f JOIN analyses a "
                         "ON a.id = f.analysis_id WHERE a.blob_oid = ?1 AND "
                         "a.rules_hash = ?2 ORDER BY f.idx")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    return db_each_fn(st, fn, arg);
}

int db_analysis_functions(sqlite3 *db, int64_t analysis_id,
                          int (*fn)(void *arg, const db_fn_brief *f), void *arg)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT name, status, object_state, start_line, "
                         "tok_capi FROM functions WHERE analysis_id = ?1 ORDER BY idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    return db_each_fn(st, fn, arg);
}

int db_analysis_flow(sqlite3 *db, int64_t analysis_id, char **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    if ((rc = db_prepare(db, &st, "SELECT flow, flow_len FROM analyses WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    if ((rc = db_step(st)) > 0)
        rc = db_column_inflate(st, 0, 1, out);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_functions_like(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const char *like, int (*fn)(void *arg, const db_fn_match *m),
                      void *arg)
{
    sqlite3_stmt *st = NULL;
    db_files *files = NULL;
    db_file_row row;
    db_fn_match m;
    int rc;

    if ((rc = db_files_open(db, &files, commit_id, rules_hash)) < 0 ||
        (rc = db_prepare(db, &st, "SELECT name, start_line, end_line, status, "
                         "object_state FROM functions WHERE analysis_id = ?1 AND "
                         "name LIKE ?2 ESCAPE '\\' ORDER BY idx")) < 0)
        goto done;
    sqlite3_bind_text(st, 2, like, -1, SQLITE_TRANSIENT);
    while (rc == 0 && (rc = db_files_next(files, &row)) > 0) {
        rc = 0;
        if (!row.status)
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, row.analysis_id);
        m.path = row.path;
        while ((rc = db_step(st)) > 0) {
            m.name = (const char *)sqlite3_column_text(st, 0);
            m.start_line = sqlite3_column_int64(st, 1);
            m.end_line = sqlite3_column_int64(st, 2);
            m.status = (const char *)sqlite3_column_text(st, 3);
            m.object_state = (const char *)sqlite3_column_text(st, 4);
            if ((rc = fn(arg, &m)) != 0)
                break;
        }
    }
done:
    db_files_close(files);
    sqlite3_finalize(st);
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
