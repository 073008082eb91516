/*
 * db_sarif.c: stored SARIF runs and results (see db_sarif.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_fns.h"
#include "db_kept.h"
#include "db_sarif.h"
#include "pd_error.h"

/* SQL condition on sarif_results r: the result is a finding, the rule of
 * db_sarif_kind_is_finding. */
#define DB_SARIF_FINDING_SQL "r.kind NOT IN ('pass', 'notApplicable')"

/* One function's lines and the offset of its name in fn_names. */
typedef struct {
    int64_t start, end;
    size_t name_off;
} ds_range;

struct db_sarif_upload {
    sqlite3 *db;
    int committed;
    sqlite3_stmt *ins;          /* INSERT INTO sarif_results */
    /* The functions of the analysis last asked (results come a file at a
     * time): their lines and names, for the innermost one holding a line. */
    int64_t fn_aid;             /* 0: none read yet */
    ds_range *fn;
    size_t nfn, capfn;
    pd_buf fn_names;            /* NUL-separated, fn[].name_off into it */
    sqlite3_stmt *rule_get;     /* a run's rule row by id text */
    sqlite3_stmt *rule_ins;     /* INSERT INTO sarif_rules */
};

/* Bind text or NULL (copied: the caller's strings may go before the step
 * of a later call). */
static void ds_bind_text(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* Bind a positive number, NULL for 0 (absent). */
static void ds_bind_pos(sqlite3_stmt *st, int i, int64_t v)
{
    if (v > 0)
        sqlite3_bind_int64(st, i, v);
    else
        sqlite3_bind_null(st, i);
}

/* Step a statement that returns no rows: 0, or PD_EDB saying `what`. */
static int ds_done(sqlite3_stmt *st, const char *what)
{
    if (sqlite3_step(st) == SQLITE_DONE)
        return 0;
    return pd_error_set(PD_EDB, "%s: %s", what, sqlite3_errmsg(sqlite3_db_handle(st)));
}

int db_sarif_upload_begin(sqlite3 *db, db_sarif_upload **out)
{
    db_sarif_upload *u;
    int rc;

    *out = NULL;
    if (!(u = calloc(1, sizeof(*u))))
        return pd_error_nomem(NULL);
    u->db = db;
    if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0) {
        free(u);
        return rc;
    }
    if ((rc = db_prepare(db, &u->ins, "INSERT INTO sarif_results (run_id, idx, path, "
                         "line, col, rule, level, kind, message, function, "
                         "fingerprints) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                         "?10, ?11)")) < 0 ||
        (rc = db_prepare(db, &u->rule_get, "SELECT id FROM sarif_rules WHERE "
                         "run_id = ?1 AND rule_id = ?2")) < 0 ||
        (rc = db_prepare(db, &u->rule_ins, "INSERT INTO sarif_rules (run_id, rule_id) "
                         "VALUES (?1, ?2)")) < 0) {
        db_sarif_upload_end(u);
        return rc;
    }
    *out = u;
    return 0;
}

/* Run a statement on (commit, tool, category); 0 or PD_EDB. */
static int ds_exec_key(db_sarif_upload *u, const char *sql, int64_t commit_id,
                       const char *tool, const char *cat)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(u->db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, tool, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, cat, -1, SQLITE_STATIC);
    rc = ds_done(st, "replacing SARIF runs");
    sqlite3_finalize(st);
    return rc;
}

int db_sarif_upload_replace(db_sarif_upload *u, int64_t commit_id, const char *tool,
                            const char *category)
{
    int rc;

    if ((rc = ds_exec_key(u, "DELETE FROM sarif_results WHERE run_id IN (SELECT id "
                          "FROM sarif_runs WHERE commit_id = ?1 AND tool = ?2 AND "
                          "category = ?3)", commit_id, tool, category)) < 0 ||
        (rc = ds_exec_key(u, "DELETE FROM sarif_rules WHERE run_id IN (SELECT id "
                          "FROM sarif_runs WHERE commit_id = ?1 AND tool = ?2 AND "
                          "category = ?3)", commit_id, tool, category)) < 0)
        return rc;
    return ds_exec_key(u, "DELETE FROM sarif_runs WHERE commit_id = ?1 AND tool = ?2 "
                       "AND category = ?3", commit_id, tool, category);
}

int db_sarif_upload_run(db_sarif_upload *u, int64_t repo_id, int64_t commit_id,
                        const db_sarif_run_row *run, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(u->db, &st, "INSERT INTO sarif_runs (repo_id, commit_id, tool, "
                         "tool_version, category, uploaded_at, results, findings, "
                         "unmapped) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_int64(st, 2, commit_id);
    ds_bind_text(st, 3, run->tool);
    ds_bind_text(st, 4, run->version);
    ds_bind_text(st, 5, run->category);
    sqlite3_bind_int64(st, 6, run->uploaded_at);
    sqlite3_bind_int64(st, 7, run->results);
    sqlite3_bind_int64(st, 8, run->findings);
    sqlite3_bind_int64(st, 9, run->unmapped);
    rc = ds_done(st, "storing a SARIF run");
    sqlite3_finalize(st);
    *id = sqlite3_last_insert_rowid(u->db);
    return rc;
}

/* db_fns_each callback: one function's lines and name kept. */
static int ds_fn_keep(void *arg, const db_fn_stored *f)
{
    db_sarif_upload *u = arg;

    if (u->nfn == u->capfn) {
        size_t cap = u->capfn ? u->capfn * 2 : 64;
        ds_range *g = realloc(u->fn, cap * sizeof(*g));

        if (!g)
            return pd_error_nomem("reading functions");
        u->fn = g;
        u->capfn = cap;
    }
    u->fn[u->nfn].start = f->start_line;
    u->fn[u->nfn].end = f->end_line;
    u->fn[u->nfn++].name_off = u->fn_names.len;
    pd_buf_put(&u->fn_names, f->name, strlen(f->name) + 1);
    return u->fn_names.err ? pd_error_nomem("reading functions") : 0;
}

int db_sarif_upload_function(db_sarif_upload *u, int64_t analysis_id, int64_t line,
                             char *fn, size_t n)
{
    const ds_range *best = NULL;
    size_t i;
    int rc;

    fn[0] = '\0';
    if (analysis_id != u->fn_aid) {
        u->nfn = 0;
        u->fn_aid = 0;
        pd_buf_reset(&u->fn_names);
        if ((rc = db_fns_each(u->db, analysis_id, ds_fn_keep, u)) < 0)
            return rc;
        u->fn_aid = analysis_id;
    }
    /* The latest start holding the line; the first in index order of equals. */
    for (i = 0; i < u->nfn; i++)
        if (u->fn[i].start <= line && u->fn[i].end >= line &&
            (!best || u->fn[i].start > best->start))
            best = &u->fn[i];
    if (best)
        snprintf(fn, n, "%s", u->fn_names.data + best->name_off);
    return 0;
}

int db_sarif_upload_rule(db_sarif_upload *u, int64_t run_id, const char *rule_id,
                         int64_t *id, int *added)
{
    int rc;

    *added = 0;
    sqlite3_reset(u->rule_get);
    sqlite3_bind_int64(u->rule_get, 1, run_id);
    sqlite3_bind_text(u->rule_get, 2, rule_id, -1, SQLITE_STATIC);
    if ((rc = db_step(u->rule_get)) > 0) {
        *id = sqlite3_column_int64(u->rule_get, 0);
        sqlite3_reset(u->rule_get);
        return 0;
    }
    sqlite3_reset(u->rule_get);
    if (rc < 0)
        return pd_error_set(PD_EDB, "reading SARIF rules: %s", sqlite3_errmsg(u->db));
    sqlite3_reset(u->rule_ins);
    sqlite3_bind_int64(u->rule_ins, 1, run_id);
    sqlite3_bind_text(u->rule_ins, 2, rule_id, -1, SQLITE_STATIC);
    if ((rc = ds_done(u->rule_ins, "storing a SARIF rule")) < 0)
        return rc;
    *id = sqlite3_last_insert_rowid(u->db);
    *added = 1;
    return 0;
}

int db_sarif_upload_result(db_sarif_upload *u, const db_sarif_result_row *r)
{
    sqlite3_reset(u->ins);
    sqlite3_bind_int64(u->ins, 1, r->run_id);
    sqlite3_bind_int64(u->ins, 2, r->idx);
    ds_bind_text(u->ins, 3, r->path);
    ds_bind_pos(u->ins, 4, r->line);
    ds_bind_pos(u->ins, 5, r->column);
    ds_bind_pos(u->ins, 6, r->rule);
    ds_bind_text(u->ins, 7, r->level);
    ds_bind_text(u->ins, 8, r->kind);
    ds_bind_text(u->ins, 9, r->message);
    ds_bind_text(u->ins, 10, r->function);
    ds_bind_text(u->ins, 11, r->fingerprints);
    return ds_done(u->ins, "storing a SARIF result");
}

int db_sarif_upload_counts(db_sarif_upload *u, int64_t run_id, int64_t results,
                           int64_t findings, int64_t unmapped)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(u->db, &st, "UPDATE sarif_runs SET results = ?1, "
                         "findings = ?2, unmapped = ?3 WHERE id = ?4")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, results);
    sqlite3_bind_int64(st, 2, findings);
    sqlite3_bind_int64(st, 3, unmapped);
    sqlite3_bind_int64(st, 4, run_id);
    rc = ds_done(st, "counting a SARIF run");
    sqlite3_finalize(st);
    return rc;
}

int db_sarif_upload_commit(db_sarif_upload *u)
{
    int rc = db_exec(u->db, "COMMIT");

    u->committed = rc == 0;
    return rc;
}

void db_sarif_upload_end(db_sarif_upload *u)
{
    if (!u)
        return;
    sqlite3_finalize(u->ins);
    free(u->fn);
    pd_buf_free(&u->fn_names);
    sqlite3_finalize(u->rule_get);
    sqlite3_finalize(u->rule_ins);
    if (!u->committed)
        sqlite3_exec(u->db, "ROLLBACK", NULL, NULL, NULL);  /* not db_exec: keeps the
                                                              * message of the failure */
    free(u);
}

/* The text of column `i`, NULL when NULL. */
static const char *ds_text(sqlite3_stmt *st, int i)
{
    return (const char *)sqlite3_column_text(st, i);
}

/* A read's error as "what: SQLite's message" (rc from db_step), or what fn
 * returned. */
static int ds_read_end(sqlite3_stmt *st, int rc, int stepped, const char *what)
{
    sqlite3 *db = sqlite3_db_handle(st);

    if (rc < 0 && stepped)
        rc = pd_error_set(PD_EDB, "%s: %s", what, sqlite3_errmsg(db));
    db_kept_done(st);           /* a kept statement or a plain one */
    return rc;
}

int db_sarif_runs(sqlite3 *db, int64_t commit_id,
                  int (*fn)(void *arg, const db_sarif_run_row *r), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_sarif_run_row r;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT tool, category, tool_version, results, "
                         "findings, unmapped, uploaded_at FROM sarif_runs WHERE "
                         "commit_id = ?1 ORDER BY tool, category, id")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    while ((rc = db_step(st)) > 0) {
        r.tool = ds_text(st, 0);
        r.category = ds_text(st, 1);
        r.version = ds_text(st, 2);
        r.results = sqlite3_column_int64(st, 3);
        r.findings = sqlite3_column_int64(st, 4);
        r.unmapped = sqlite3_column_int64(st, 5);
        r.uploaded_at = sqlite3_column_int64(st, 6);
        if ((rc = fn(arg, &r)) != 0)
            return ds_read_end(st, rc, 0, NULL);
    }
    return ds_read_end(st, rc, 1, "reading SARIF runs");
}

int db_sarif_file_count(sqlite3 *db, int64_t commit_id, const char *path, int64_t *n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *n = 0;
    if ((rc = db_kept_prepare(db, &st, "SELECT count(*) FROM sarif_results r JOIN sarif_runs s "
                         "ON s.id = r.run_id WHERE r.path = ?2 AND s.commit_id = ?1 AND "
                         DB_SARIF_FINDING_SQL)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        *n = sqlite3_column_int64(st, 0);
    return ds_read_end(st, rc < 0 ? rc : 0, 1, "counting SARIF results");
}

int db_sarif_file_findings(sqlite3 *db, int64_t commit_id, const char *path,
                           const char *fp_key, size_t offset, size_t limit,
                           int (*fn)(void *arg, const db_sarif_finding_row *f), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_sarif_finding_row f;
    char member[256];
    int rc;

    /* A JSON path naming the member whatever its characters ('/' in
     * "portdash/v1"): $."key". */
    if (strlen(fp_key) > 200 || strchr(fp_key, '"'))
        return pd_error_set(PD_EINVAL, "fingerprint key \"%.40s\" cannot be read", fp_key);
    snprintf(member, sizeof(member), "$.\"%s\"", fp_key);
    if ((rc = db_kept_prepare(db, &st, "SELECT r.line, r.col, u.rule_id, r.message, "
                         "r.function, s.tool, r.level, s.category, "
                         "json_extract(r.fingerprints, ?3) FROM sarif_results r "
                         "JOIN sarif_runs s ON s.id = r.run_id LEFT JOIN sarif_rules u "
                         "ON u.id = r.rule WHERE r.path = ?2 AND "
                         "s.commit_id = ?1 AND " DB_SARIF_FINDING_SQL " "
                         "ORDER BY r.line, r.col, s.tool, r.idx LIMIT ?5 OFFSET ?4")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, path, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, member, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)(offset > INT64_MAX ? INT64_MAX : offset));
    sqlite3_bind_int64(st, 5, limit > INT64_MAX ? -1 : (sqlite3_int64)limit);
    while ((rc = db_step(st)) > 0) {
        f.line = sqlite3_column_int64(st, 0);
        f.column = sqlite3_column_int64(st, 1);
        f.rule_id = ds_text(st, 2);
        f.message = ds_text(st, 3);
        f.function = ds_text(st, 4);
        f.tool = ds_text(st, 5);
        f.level = ds_text(st, 6);
        f.category = ds_text(st, 7);
        f.fingerprint = ds_text(st, 8);
        if ((rc = fn(arg, &f)) != 0)
            return ds_read_end(st, rc, 0, NULL);
    }
    return ds_read_end(st, rc, 1, "reading SARIF results");
}

int db_sarif_tool_levels(sqlite3 *db, int64_t commit_id,
                         int (*fn)(void *arg, const db_sarif_level_row *r), void *arg)
{
    sqlite3_stmt *st = NULL;
    db_sarif_level_row r;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT s.tool, r.level, count(*) FROM sarif_results r "
                         "JOIN sarif_runs s ON s.id = r.run_id WHERE s.commit_id = ?1 "
                         "AND " DB_SARIF_FINDING_SQL " GROUP BY s.tool, r.level UNION ALL "
                         "SELECT tool, NULL, 0 FROM sarif_runs WHERE commit_id = ?1 "
                         "ORDER BY 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    while ((rc = db_step(st)) > 0) {
        r.tool = ds_text(st, 0);
        r.level = ds_text(st, 1);
        r.count = sqlite3_column_int64(st, 2);
        if ((rc = fn(arg, &r)) != 0)
            return ds_read_end(st, rc, 0, NULL);
    }
    return ds_read_end(st, rc, 1, "counting SARIF results");
}
