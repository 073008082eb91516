/*
 * db_triage.c: dismissed findings (db_triage.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "db_kept.h"
#include "db_triage.h"
#include "pd_error.h"
#include "pd_time.h"

#define DT_COLS "id, fingerprint, reason, comment, tool, path, rule, text, function, " \
                "line, commit_oid, by_name, created_at"

int db_triage_reason_ok(const char *reason)
{
    return reason && (strcmp(reason, "false positive") == 0 ||
                      strcmp(reason, "won't fix") == 0 ||
                      strcmp(reason, "used in tests") == 0);
}

static json_t *dt_text(sqlite3_stmt *st, int col)
{
    const char *s = (const char *)sqlite3_column_text(st, col);

    return s ? json_string(s) : json_null();
}

/* One row of DT_COLS as the list's object. */
static json_t *dt_row(sqlite3_stmt *st)
{
    char at[40];

    pd_iso8601(at, sizeof(at), sqlite3_column_int64(st, 12), 0);
    return json_pack("{s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
        "id", (json_int_t)sqlite3_column_int64(st, 0), "fingerprint", dt_text(st, 1),
        "reason", dt_text(st, 2), "comment", dt_text(st, 3), "tool", dt_text(st, 4),
        "path", dt_text(st, 5), "rule", dt_text(st, 6), "text", dt_text(st, 7),
        "function", dt_text(st, 8),
        "line", sqlite3_column_type(st, 9) == SQLITE_NULL ? json_null()
                : json_integer(sqlite3_column_int64(st, 9)),
        "commit", dt_text(st, 10), "by", dt_text(st, 11), "at", at);
}

/* Bind member `key` of f as text (or NULL) to parameter i. */
static void dt_bind(sqlite3_stmt *st, int i, json_t *f, const char *key)
{
    const char *s = json_string_value(json_object_get(f, key));

    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

int db_triage_dismiss(sqlite3 *db, int64_t repo_id, const char *oid, json_t *f,
                      const char *reason, const char *comment, const char *by,
                      json_t **out)
{
    sqlite3_stmt *st = NULL;
    json_t *line = json_object_get(f, "line");
    int rc;

    *out = NULL;
    if (!db_triage_reason_ok(reason))
        return pd_error_set(PD_EINVAL, "reason must be one of %s", DB_TRIAGE_REASONS);
    /* Dismissing again replaces the row, and with it the id (REPLACE
     * deletes the old row, AUTOINCREMENT gives a new id): an undo sent
     * for the old dismissal answers 404 instead of removing the new one. */
    if ((rc = db_prepare(db, &st, "INSERT OR REPLACE INTO dismissals (repo_id, fingerprint, "
                         "reason, comment, tool, path, rule, text, function, line, "
                         "commit_oid, by_name, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, "
                         "?7, ?8, ?9, ?10, ?11, ?12, ?13) RETURNING " DT_COLS)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    dt_bind(st, 2, f, "fingerprint");
    sqlite3_bind_text(st, 3, reason, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 4, comment ? comment : "", -1, SQLITE_STATIC);
    dt_bind(st, 5, f, "tool");
    dt_bind(st, 6, f, "path");
    dt_bind(st, 7, f, "rule");
    dt_bind(st, 8, f, "text");
    dt_bind(st, 9, f, "function");
    if (json_is_integer(line))
        sqlite3_bind_int64(st, 10, json_integer_value(line));
    sqlite3_bind_text(st, 11, oid, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 12, by, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 13, (sqlite3_int64)time(NULL));
    if (sqlite3_step(st) == SQLITE_ROW)
        *out = dt_row(st);
    else
        rc = pd_error_set(PD_EDB, "storing a dismissal: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

int db_triage_undo(sqlite3 *db, int64_t repo_id, int64_t id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "DELETE FROM dismissals WHERE repo_id = ?1 AND id = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_int64(st, 2, id);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = pd_error_set(PD_EDB, "removing a dismissal: %s", sqlite3_errmsg(db));
    else if (sqlite3_changes(db) == 0)
        rc = pd_error_set(PD_ENOTFOUND, "no dismissal %lld", (long long)id);
    sqlite3_finalize(st);
    return rc;
}

int db_triage_list(sqlite3 *db, int64_t repo_id, json_t **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    if ((rc = db_prepare(db, &st, "SELECT " DT_COLS " FROM dismissals WHERE repo_id = ?1 "
                         "ORDER BY created_at DESC, id DESC")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    *out = json_array();
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(*out, dt_row(st));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(*out);
        *out = NULL;
        return pd_error_set(PD_EDB, "reading dismissals: %s", sqlite3_errmsg(db));
    }
    return 0;
}

/* The fingerprints dismissed in repository `repo_id`, sorted, into *out
 * (*n of them; free with dt_fps_free) when there are at most `most`; else
 * *out NULL.  0 or PD_EDB. */
static int dt_fps(sqlite3 *db, int64_t repo_id, size_t most, char ***out, size_t *n)
{
    sqlite3_stmt *st = NULL;
    char **v;
    int rc;

    *out = NULL;
    *n = 0;
    if (!(v = calloc(most + 1, sizeof(*v))))
        return pd_error_nomem(NULL);
    if ((rc = db_prepare(db, &st, "SELECT fingerprint FROM dismissals WHERE repo_id = ?1 "
                         "ORDER BY fingerprint LIMIT ?2")) < 0) {
        free(v);
        return rc;
    }
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)most + 1);
    while ((rc = db_step(st)) > 0 && *n <= most &&
           (v[*n] = strdup((const char *)sqlite3_column_text(st, 0))))
        (*n)++;
    sqlite3_finalize(st);
    if (rc == 0 && *n <= most) {
        *out = v;
        return 0;
    }
    while (*n)
        free(v[--*n]);
    free(v);
    return rc < 0 ? rc : 0;
}

static void dt_fps_free(char **v, size_t n)
{
    while (n)
        free(v[--n]);
    free(v);
}

static int dt_fps_cmp(const void *key, const void *elt)
{
    return strcmp(key, *(char *const *)elt);
}

int db_triage_marks(sqlite3 *db, int64_t repo_id, const char *const *fp, size_t n,
                    json_t **out, size_t *ndismissed)
{
    sqlite3_stmt *st = NULL;
    char **fps = NULL;
    size_t nfps = 0, i;
    int rc;

    *ndismissed = 0;
    for (i = 0; i < n; i++)
        out[i] = NULL;
    /* A repository dismisses few findings: one read of its fingerprints
     * spares a look-up per finding (3,800 of them made most of a cold file
     * page, issue 26.3).  Past as many as there are findings, look each up. */
    if ((rc = dt_fps(db, repo_id, n, &fps, &nfps)) < 0)
        return rc;
    if ((rc = db_kept_prepare(db, &st, "SELECT " DT_COLS " FROM dismissals WHERE repo_id = ?1 "
                         "AND fingerprint = ?2")) < 0) {
        dt_fps_free(fps, nfps);
        return rc;
    }
    for (i = 0; i < n; i++) {
        if (!fp[i] || (fps && !bsearch(fp[i], fps, nfps, sizeof(*fps), dt_fps_cmp)))
            continue;
        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, repo_id);
        sqlite3_bind_text(st, 2, fp[i], -1, SQLITE_STATIC);
        /* A finding whose dismissal could not be read is not "not
         * dismissed": the whole answer is the error. */
        if ((rc = db_step(st)) < 0)
            break;
        if (rc > 0) {
            json_t *row = dt_row(st);

            out[i] = json_pack("{s:O, s:O, s:O, s:O, s:O}", "id", json_object_get(row, "id"),
                               "reason", json_object_get(row, "reason"),
                               "comment", json_object_get(row, "comment"),
                               "by", json_object_get(row, "by"),
                               "at", json_object_get(row, "at"));
            json_decref(row);
            (*ndismissed)++;
        }
    }
    db_kept_done(st);
    dt_fps_free(fps, nfps);
    for (; rc < 0 && i > 0; i--) {
        json_decref(out[i - 1]);
        out[i - 1] = NULL;
    }
    return rc < 0 ? rc : 0;
}

int db_triage_mark(sqlite3 *db, int64_t repo_id, json_t *findings, size_t *ndismissed)
{
    size_t n = json_array_size(findings), i;
    const char **fp = calloc(n + 1, sizeof(*fp));
    json_t **d = calloc(n + 1, sizeof(*d));
    json_t *f;
    int rc;

    *ndismissed = 0;
    if (!fp || !d) {
        free(fp);
        free(d);
        return pd_error_nomem(NULL);
    }
    json_array_foreach(findings, i, f)
        fp[i] = json_string_value(json_object_get(f, "fingerprint"));
    if ((rc = db_triage_marks(db, repo_id, fp, n, d, ndismissed)) == 0)
        json_array_foreach(findings, i, f)
            if (fp[i])
                json_object_set_new(f, "dismissed", d[i] ? d[i] : json_null());
    free(fp);
    free(d);
    return rc;
}

int db_triage_paths(sqlite3 *db, int64_t repo_id, json_t **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = NULL;
    if ((rc = db_prepare(db, &st, "SELECT DISTINCT path FROM dismissals WHERE repo_id = ?1 "
                         "ORDER BY path")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    *out = json_array();
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        json_array_append_new(*out, json_string((const char *)sqlite3_column_text(st, 0)));
    sqlite3_finalize(st);
    if (rc != SQLITE_DONE) {
        json_decref(*out);
        *out = NULL;
        return pd_error_set(PD_EDB, "reading dismissed paths: %s", sqlite3_errmsg(db));
    }
    return 0;
}
