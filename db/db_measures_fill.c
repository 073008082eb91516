/*
 * db_measures_fill.c: the filling of what a migration adds to rows stored
 * before it (db_measures_fill.h).
 *
 * The fills run once, inside the migration's transaction: a failure rolls
 * the migration back, so a database never claims a schema whose new
 * columns are half empty.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "db_measures.h"
#include "db_measures_fill.h"
#include "db_scope.h"
#include "pd_error.h"

/* ---------- migration 011: unguarded counts from the findings ---------- */

/* The ids a query returns, in a new array (*n of them). */
static int db_measures_ids(sqlite3 *db, const char *sql, int64_t **out, size_t *n)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc;

    *out = NULL;
    *n = 0;
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        if (*n == cap) {
            int64_t *grown = realloc(*out, (cap = cap * 2 + 256) * sizeof(**out));

            if (!grown) {
                rc = pd_error_nomem(NULL);
                break;
            }
            *out = grown;
        }
        (*out)[(*n)++] = sqlite3_column_int64(st, 0);
    }
    sqlite3_finalize(st);
    return rc;
}

/* Per function index, unguarded counts; grown on demand. */
typedef struct {
    int64_t (*ung)[PD_CLASS_COUNT];
    size_t n;
    int64_t total[PD_CLASS_COUNT];
} db_ung;

/* Count one finding into u (a db_findings_each callback) when unguarded. */
static int db_ung_add(void *arg, const db_finding *f)
{
    db_ung *u = arg;
    int c = pd_class_parse(f->cls);

    if (f->guarded || c < 0)
        return 0;
    u->total[c]++;
    if (f->function < 0)
        return 0;
    if ((size_t)f->function >= u->n) {
        size_t n = (size_t)f->function + 64;
        int64_t (*grown)[PD_CLASS_COUNT] = realloc(u->ung, n * sizeof(*grown));

        if (!grown)
            return pd_error_nomem("counting findings");
        memset(grown + u->n, 0, (n - u->n) * sizeof(*grown));
        u->ung = grown;
        u->n = n;
    }
    u->ung[f->function][c]++;
    return 0;
}

/* Bind 4 counts from parameter `first` on and run `st`. */
static int db_ung_run(sqlite3 *db, sqlite3_stmt *st, int first, const int64_t *v)
{
    int c;

    for (c = 0; c < PD_CLASS_COUNT; c++)
        sqlite3_bind_int64(st, first + c, v[c]);
    c = sqlite3_step(st);
    sqlite3_reset(st);
    return c == SQLITE_DONE ? 0 : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
}

/* Store the unguarded counts of one analysis (functions with none keep
 * NULL here and get 0 at the end of db_fill_unguarded). */
static int db_ung_store(sqlite3 *db, sqlite3_stmt *fn_up, sqlite3_stmt *an_up,
                        int64_t id, const db_ung *u)
{
    static const int64_t zero[PD_CLASS_COUNT];
    size_t k;
    int rc;

    for (k = 0; k < u->n; k++) {
        if (memcmp(u->ung[k], zero, sizeof(zero)) == 0)
            continue;
        sqlite3_bind_int64(fn_up, 5, id);
        sqlite3_bind_int64(fn_up, 6, (int64_t)k);
        if ((rc = db_ung_run(db, fn_up, 1, u->ung[k])) < 0)
            return rc;
    }
    sqlite3_bind_int64(an_up, 5, id);
    return db_ung_run(db, an_up, 1, u->total);
}

/* Migration 011: fill functions.ung_* and analyses.ung_* of every analysis
 * stored before it from its findings. */
static int db_fill_unguarded(sqlite3 *db)
{
    sqlite3_stmt *fn_up = NULL, *an_up = NULL;
    int64_t *ids = NULL;
    size_t n = 0, i;
    db_ung u = {0};
    int rc;

    if ((rc = db_measures_ids(db, "SELECT id FROM analyses WHERE ung_hpy IS NULL",
                              &ids, &n)) < 0 ||
        (rc = db_prepare(db, &fn_up, "UPDATE functions SET ung_hpy = ?1, ung_capi = ?2, "
                         "ung_npy_legacy = ?3, ung_bridge = ?4 WHERE analysis_id = ?5 "
                         "AND idx = ?6")) < 0 ||
        (rc = db_prepare(db, &an_up, "UPDATE analyses SET ung_hpy = ?1, ung_capi = ?2, "
                         "ung_npy_legacy = ?3, ung_bridge = ?4 WHERE id = ?5")) < 0)
        goto done;
    for (i = 0; i < n && rc == 0; i++) {
        if (u.n)
            memset(u.ung, 0, u.n * sizeof(*u.ung));
        memset(u.total, 0, sizeof(u.total));
        if ((rc = db_findings_each(db, ids[i], db_ung_add, &u)) == 0)
            rc = db_ung_store(db, fn_up, an_up, ids[i], &u);
    }
    if (rc == 0)
        rc = db_exec(db, "UPDATE functions SET ung_hpy = 0, ung_capi = 0, "
                     "ung_npy_legacy = 0, ung_bridge = 0 WHERE ung_hpy IS NULL");
done:
    sqlite3_finalize(fn_up);
    sqlite3_finalize(an_up);
    free(u.ung);
    free(ids);
    return rc;
}

/* ---------- any migration: measure columns left NULL ---------- */

/* "c1 IS NULL OR c2 IS NULL ..." over table t's measure columns. */
static int db_null_cond(char *buf, size_t n, db_mtable t)
{
    size_t len = 0;
    int i, k = 0;

    buf[0] = '\0';
    for (i = 0; i < PD_NMEASURES && len < n; i++)
        if (db_measure_in(t, i))
            len += (size_t)snprintf(buf + len, n - len, "%s%s IS NULL", k++ ? " OR " : "",
                                    db_measure_column(t, i));
    return len < n ? 0 : pd_error_set(PD_ERROR, "measure condition too long");
}

/* "UPDATE <table> SET c1 = coalesce(c1, ?1), ... WHERE <where>", the
 * measures bound from ?1 in table order, `where` numbering after them. */
static int db_fill_update_sql(char *buf, size_t n, const char *table, db_mtable t,
                              const char *where)
{
    size_t len = (size_t)snprintf(buf, n, "UPDATE %s SET ", table);
    int i, k = 0;

    for (i = 0; i < PD_NMEASURES && len < n; i++)
        if (db_measure_in(t, i)) {
            const char *c = db_measure_column(t, i);

            len += (size_t)snprintf(buf + len, n - len, "%s%s = coalesce(%s, ?%d)",
                                    k ? ", " : "", c, c, k + 1);
            k++;
        }
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, " WHERE %s", where);
    return len < n ? k : pd_error_set(PD_ERROR, "measure update too long");
}

/* Analyses with a NULL measure: every figure from the stored facts. */
static int db_fill_analyses(sqlite3 *db)
{
    char cond[2048], sql[4096], where[32];
    sqlite3_stmt *up = NULL;
    int64_t *ids = NULL;
    size_t n = 0, i;
    int rc, k, status;

    if ((rc = db_null_cond(cond, sizeof(cond), DB_M_ANALYSES)) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT id FROM analyses WHERE %s", cond);
    if ((rc = db_measures_ids(db, sql, &ids, &n)) < 0 || n == 0)
        goto done;
    if ((k = db_fill_update_sql(sql, sizeof(sql), "analyses", DB_M_ANALYSES, "")) < 0) {
        rc = k;
        goto done;
    }
    snprintf(where, sizeof(where), "id = ?%d", k + 1);
    if ((rc = db_fill_update_sql(sql, sizeof(sql), "analyses", DB_M_ANALYSES, where)) < 0 ||
        (rc = db_prepare(db, &up, sql)) < 0)
        goto done;
    for (i = 0, rc = 0; i < n && rc == 0; i++) {
        db_scope_detail d;
        pd_counts c;

        if ((rc = db_scope_detail_read(db, ids[i], &d)) < 0)
            break;
        db_scope_detail_counts(&d, 0, &c, &status);
        db_scope_detail_free(&d);
        db_measure_bind(up, 1, DB_M_ANALYSES, &c);
        sqlite3_bind_int64(up, k + 1, ids[i]);
        rc = sqlite3_step(up) == SQLITE_DONE ? 0
             : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
        sqlite3_reset(up);
    }
done:
    sqlite3_finalize(up);
    free(ids);
    return rc < 0 ? rc : 0;
}

typedef struct {
    sqlite3_stmt *up;
    int k;                       /* measure parameters before the key's */
    const char *rules_hash;
} db_fill_totals_arg;

/* db_scope_history callback: fill the NULL figures of one commit's row. */
static int db_fill_totals_one(void *arg, const db_scope_commit *cm, const db_counts *c)
{
    db_fill_totals_arg *a = arg;
    int rc;

    db_measure_bind(a->up, 1, DB_M_TOTALS, c);
    sqlite3_bind_int64(a->up, a->k + 1, cm->id);
    sqlite3_bind_text(a->up, a->k + 2, a->rules_hash, -1, SQLITE_STATIC);
    rc = sqlite3_step(a->up);
    sqlite3_reset(a->up);
    return rc == SQLITE_DONE ? 0
           : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(sqlite3_db_handle(a->up)));
}

/* commit_stats rows with a NULL measure: the sums over each commit's files,
 * replayed along the first-parent chain of every ref (as a scoped history
 * is), then any row off those chains one commit at a time. */
static int db_fill_totals(sqlite3 *db)
{
    static const db_scope all = {"all", "", NULL, 0, NULL, 0, 0};
    char cond[2048], sql[4096], where[96];
    sqlite3_stmt *pairs = NULL, *rest = NULL;
    db_fill_totals_arg a = {NULL, 0, NULL};
    int rc;

    if ((rc = db_null_cond(cond, sizeof(cond), DB_M_TOTALS)) < 0 ||
        (a.k = db_fill_update_sql(sql, sizeof(sql), "commit_stats", DB_M_TOTALS, "")) < 0)
        return rc < 0 ? rc : a.k;
    snprintf(where, sizeof(where), "commit_id = ?%d AND rules_hash = ?%d", a.k + 1, a.k + 2);
    if ((rc = db_fill_update_sql(sql, sizeof(sql), "commit_stats", DB_M_TOTALS, where)) < 0 ||
        (rc = db_prepare(db, &a.up, sql)) < 0)
        goto done;
    snprintf(sql, sizeof(sql), "SELECT DISTINCT r.commit_id, s.rules_hash FROM refs r, "
             "(SELECT DISTINCT rules_hash FROM commit_stats WHERE %s) s", cond);
    if ((rc = db_prepare(db, &pairs, sql)) < 0)
        goto done;
    while ((rc = db_step(pairs)) > 0) {
        a.rules_hash = (const char *)sqlite3_column_text(pairs, 1);
        if ((rc = db_scope_history(db, &all, sqlite3_column_int64(pairs, 0), a.rules_hash,
                                   db_fill_totals_one, &a)) < 0)
            goto done;
    }
    if (rc < 0)
        goto done;
    snprintf(sql, sizeof(sql), "SELECT commit_id, rules_hash FROM commit_stats WHERE %s",
             cond);
    if ((rc = db_prepare(db, &rest, sql)) < 0)
        goto done;
    while ((rc = db_step(rest)) > 0) {
        db_scope_commit cm = {.id = sqlite3_column_int64(rest, 0)};
        pd_counts c;

        a.rules_hash = (const char *)sqlite3_column_text(rest, 1);
        if ((rc = db_scope_commit_counts(db, &all, cm.id, a.rules_hash, &c)) < 0 ||
            (rc = db_fill_totals_one(&a, &cm, &c)) < 0)
            break;
    }
done:
    sqlite3_finalize(pairs);
    sqlite3_finalize(rest);
    sqlite3_finalize(a.up);
    return rc < 0 ? rc : 0;
}

/* Append printf-style text at buf + *len (size n); on overflow *len ends
 * at n or beyond. */
static void db_put(char *buf, size_t n, size_t *len, const char *fmt, ...)
{
    va_list ap;

    if (*len >= n)
        return;
    va_start(ap, fmt);
    *len += (size_t)vsnprintf(buf + *len, n - *len, fmt, ap);
    va_end(ap);
}

/* The fill of snapshots and snapshot_files, which their triggers refuse
 * to update. */
static int db_fill_snapshot_rows(sqlite3 *db, const char *scond, const char *fcond)
{
    char sql[8192];
    size_t len = 0;
    int i, rc, k = 0;

    db_put(sql, sizeof(sql), &len, "UPDATE snapshots SET ");
    for (i = 0; i < PD_NMEASURES; i++) {
        const char *c = pd_measures[i].column;

        db_put(sql, sizeof(sql), &len, "%s%s = coalesce(%s, (SELECT cs.%s FROM "
               "commit_stats cs WHERE cs.commit_id = snapshots.commit_id AND "
               "cs.rules_hash = snapshots.rules_hash))", i ? ", " : "", c, c, c);
    }
    db_put(sql, sizeof(sql), &len, " WHERE %s", scond);
    if (len >= sizeof(sql))
        return pd_error_set(PD_ERROR, "snapshot fill too long");
    if ((rc = db_exec(db, sql)) < 0)
        return rc;
    len = 0;
    db_put(sql, sizeof(sql), &len, "UPDATE snapshot_files SET ");
    for (i = 0; i < PD_NMEASURES; i++) {
        const char *c = db_measure_column(DB_M_SNAPFILE, i);

        if (c)
            db_put(sql, sizeof(sql), &len, "%s%s = coalesce(%s, (SELECT a.%s FROM "
                   "analyses a JOIN snapshots s ON s.id = snapshot_files.snapshot_id "
                   "WHERE a.blob_oid = snapshot_files.blob_oid AND a.rules_hash = "
                   "s.rules_hash))", k++ ? ", " : "", c, c, c);
    }
    db_put(sql, sizeof(sql), &len, " WHERE %s", fcond);
    if (len >= sizeof(sql))
        return pd_error_set(PD_ERROR, "snapshot fill too long");
    return db_exec(db, sql);
}

/* Snapshots with a NULL measure, from their commit's filled summary and
 * their files' analyses.  The immutability triggers are dropped for this
 * statement and created again from their own stored SQL. */
static int db_fill_snapshots(sqlite3 *db)
{
    char scond[2048], fcond[2048], sql[4200];
    sqlite3_stmt *st = NULL;
    char *trig[8];
    int ntrig = 0, rc, i, any;

    if ((rc = db_null_cond(scond, sizeof(scond), DB_M_TOTALS)) < 0 ||
        (rc = db_null_cond(fcond, sizeof(fcond), DB_M_SNAPFILE)) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT EXISTS (SELECT 1 FROM snapshots WHERE %s) OR "
             "EXISTS (SELECT 1 FROM snapshot_files WHERE %s)", scond, fcond);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    rc = db_step(st);
    any = rc > 0 && sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (rc < 0 || !any)
        return rc < 0 ? rc : 0;
    if ((rc = db_prepare(db, &st, "SELECT name, sql FROM sqlite_master WHERE type = "
                         "'trigger' AND tbl_name IN ('snapshots', 'snapshot_files')")) < 0)
        return rc;
    while ((rc = db_step(st)) > 0 && ntrig < 8) {
        char drop[256];

        if (!(trig[ntrig] = strdup((const char *)sqlite3_column_text(st, 1)))) {
            rc = pd_error_nomem(NULL);
            break;
        }
        ntrig++;
        snprintf(drop, sizeof(drop), "DROP TRIGGER \"%s\"",
                 (const char *)sqlite3_column_text(st, 0));
        if ((rc = db_exec(db, drop)) < 0)
            break;
    }
    sqlite3_finalize(st);
    if (rc >= 0)
        rc = db_fill_snapshot_rows(db, scond, fcond);
    for (i = 0; i < ntrig; i++) {
        if (rc >= 0)
            rc = db_exec(db, trig[i]);
        free(trig[i]);
    }
    return rc < 0 ? rc : 0;
}

int db_measures_migrated(sqlite3 *db, int version, int last)
{
    int rc = 0;

    if (version == 11)
        rc = db_fill_unguarded(db);
    /* Only once every migration has run do all the measure columns exist.
     * Before 011 there are no unguarded counts to derive figures from (and
     * the measures of 001 are NOT NULL). */
    if (rc == 0 && last && version >= 11 && (rc = db_fill_analyses(db)) == 0 &&
        (rc = db_fill_totals(db)) == 0)
        rc = db_fill_snapshots(db);
    return rc;
}
