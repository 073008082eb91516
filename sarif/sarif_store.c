/*
 * sarif_store.c: import a SARIF log (sarif_import.h): gzip bodies, the
 * mapping of each result to a file and analysed function of the commit,
 * the portdash fingerprint, and the writes, all in one transaction so a
 * failed import leaves the database as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>
#include "db.h"
#include "pd_error.h"
#include "sarif_import.h"
#include "sarif_log.h"

/* One import: where it goes, its statements, and the file last looked up. */
typedef struct {
    sqlite3 *db;
    const sarif_import_options *opt;
    sarif_import_report *rep;
    int64_t repo_id, commit_id;
    int64_t *run_ids;           /* per run of the log, its sarif_runs row */
    int in_tx;                  /* the transaction is open */
    char rules_hash[64];
    sqlite3_stmt *ins;          /* INSERT INTO sarif_results */
    sqlite3_stmt *fn;           /* innermost function holding a line */
    char *file;                 /* path of the last lookup, owned */
    int file_known;             /* 1: file is a file of the commit */
    int64_t file_analysis;      /* its analysis row, 0: none */
    json_t *files;              /* path -> -1 not a file, else its analysis row
                                   or 0; at most SS_FILES paths */
} ss_ctx;

/* Paths whose lookup is remembered: a log's results seldom come file by
 * file, and each lookup walks the commit's first-parent chain. */
#define SS_FILES 16384

/* Look `path` up at the commit (remembered, see SS_FILES). */
static int ss_file(ss_ctx *c, const char *path)
{
    sqlite3_stmt *st = NULL;
    json_t *known;
    char blob[41];
    int rc;

    if (c->file && strcmp(c->file, path) == 0)
        return 0;
    free(c->file);
    c->file_known = 0;
    c->file_analysis = 0;
    if (!(c->file = strdup(path)))
        return pd_error_set(PD_ENOMEM, "out of memory");
    if (!c->files && !(c->files = json_object()))
        return pd_error_set(PD_ENOMEM, "out of memory");
    if ((known = json_object_get(c->files, path))) {
        c->file_known = json_integer_value(known) >= 0;
        c->file_analysis = c->file_known ? json_integer_value(known) : 0;
        return 0;
    }
    if (json_object_size(c->files) >= SS_FILES)
        json_object_clear(c->files);
    if ((rc = db_commit_file_blob(c->db, c->commit_id, path, blob)) == PD_ENOTFOUND)
        return json_object_set_new(c->files, path, json_integer(-1)) ?
               pd_error_set(PD_ENOMEM, "out of memory") : 0;
    if (rc < 0 || (rc = db_prepare(c->db, &st, "SELECT id FROM analyses WHERE "
                                   "blob_oid = ?1 AND rules_hash = ?2")) < 0)
        return rc;
    c->file_known = 1;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, c->rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        c->file_analysis = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;           /* not "no analysis": no function would be named */
    if (json_object_set_new(c->files, path, json_integer(c->file_analysis)))
        return pd_error_set(PD_ENOMEM, "out of memory");
    return 0;
}

/* The innermost analysed function of the cached file holding `line`,
 * copied into fn (size n); "" when none.  0 or PD_EDB (the function is part
 * of the fingerprint: a failed read must not store a different one). */
static int ss_function(ss_ctx *c, long line, char *fn, size_t n)
{
    int rc;

    fn[0] = '\0';
    if (!c->file_analysis || line <= 0)
        return 0;
    sqlite3_reset(c->fn);
    sqlite3_bind_int64(c->fn, 1, c->file_analysis);
    sqlite3_bind_int64(c->fn, 2, line);
    if ((rc = db_step(c->fn)) > 0)
        snprintf(fn, n, "%s", (const char *)sqlite3_column_text(c->fn, 0));
    return rc < 0 ? rc : 0;
}

/* The result's partialFingerprints as JSON text (new string), with
 * SARIF_FINGERPRINT_KEY added unless present: SHA-256 of tool, rule, path,
 * function and message, none of which moves when lines do. */
static char *ss_fingerprints(const char *tool, const sarif_result *r, const char *path,
                             const char *fn)
{
    json_t *o = r->fingerprints ? json_copy(r->fingerprints) : json_object();
    const char *parts[5] = {tool, r->rule_id ? r->rule_id : "", path, fn, r->message};
    unsigned char hash[crypto_hash_sha256_BYTES];
    char hex[2 * 16 + 1], *s;
    crypto_hash_sha256_state st;
    int i;

    if (!o)
        return NULL;
    if (!json_object_get(o, SARIF_FINGERPRINT_KEY)) {
        crypto_hash_sha256_init(&st);
        for (i = 0; i < 5; i++)
            crypto_hash_sha256_update(&st, (const unsigned char *)parts[i],
                                      strlen(parts[i]) + 1);
        crypto_hash_sha256_final(&st, hash);
        sodium_bin2hex(hex, sizeof(hex), hash, 16);
        json_object_set_new(o, SARIF_FINGERPRINT_KEY, json_string(hex));
    }
    s = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(o);
    return s;
}

/* Bind text or NULL. */
static void ss_bind(sqlite3_stmt *st, int i, const char *s)
{
    if (s)
        sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

/* Map and store one result of a run; counts it into *count. */
static int ss_result(ss_ctx *c, const sarif_run *run, const sarif_result *r, int64_t run_id,
                     sarif_run_count *count)
{
    char *path = r->uri ? sarif_map_path(r->uri, c->opt->checkout_uri) : NULL;
    char fn[1024] = "", *fps;
    int rc = 0;

    if (path && (rc = ss_file(c, path)) < 0)
        goto done;
    if (path && c->file_known && (rc = ss_function(c, r->line, fn, sizeof(fn))) < 0)
        goto done;
    count->unmapped += !(path && c->file_known);
    count->findings += sarif_kind_is_finding(r->kind);
    count->results++;
    if (!(fps = ss_fingerprints(run->tool, r, path ? path : r->uri ? r->uri : "", fn))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto done;
    }
    sqlite3_reset(c->ins);
    sqlite3_bind_int64(c->ins, 1, run_id);
    sqlite3_bind_int64(c->ins, 2, (sqlite3_int64)r->idx);
    ss_bind(c->ins, 3, path);
    if (r->line > 0)
        sqlite3_bind_int64(c->ins, 4, r->line);
    else
        sqlite3_bind_null(c->ins, 4);
    if (r->column > 0)
        sqlite3_bind_int64(c->ins, 5, r->column);
    else
        sqlite3_bind_null(c->ins, 5);
    ss_bind(c->ins, 6, r->rule_id);
    ss_bind(c->ins, 7, r->level);
    ss_bind(c->ins, 8, r->kind);
    ss_bind(c->ins, 9, r->message);
    ss_bind(c->ins, 10, fn[0] ? fn : NULL);
    ss_bind(c->ins, 11, fps);
    if (sqlite3_step(c->ins) != SQLITE_DONE)
        rc = pd_error_set(PD_EDB, "storing a SARIF result: %s", sqlite3_errmsg(c->db));
    free(fps);
done:
    free(path);
    return rc;
}

/* Run a statement on (commit, tool, category); 0 or PD_EDB. */
static int ss_exec_key(ss_ctx *c, const char *sql, const char *tool, const char *cat)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(c->db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, c->commit_id);
    sqlite3_bind_text(st, 2, tool, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, cat, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_DONE)
        rc = pd_error_set(PD_EDB, "replacing SARIF runs: %s", sqlite3_errmsg(c->db));
    sqlite3_finalize(st);
    return rc;
}

/* Forget the runs of earlier uploads with this run's key. */
static int ss_replace(ss_ctx *c, const char *tool, const char *cat)
{
    int rc;

    if ((rc = ss_exec_key(c, "DELETE FROM sarif_results WHERE run_id IN (SELECT id "
                          "FROM sarif_runs WHERE commit_id = ?1 AND tool = ?2 AND "
                          "category = ?3)", tool, cat)) < 0)
        return rc;
    return ss_exec_key(c, "DELETE FROM sarif_runs WHERE commit_id = ?1 AND tool = ?2 "
                       "AND category = ?3", tool, cat);
}

/*
 * Results of portdash's own analyzer (report/sarif.c) are not stored: the
 * ingest already shows every one of them, and a second copy would double
 * each count (issue 14).  The run is listed with its result count and a
 * warning says why it has no findings.  0 or PD_ENOMEM.
 */
static int ss_own(const sarif_run *run, sarif_run_count *count, sarif_import_report *rep)
{
    char ptr[64];

    count->results = run->nresults;
    snprintf(ptr, sizeof(ptr), "/runs/%zu/tool/driver/name", run->idx);
    if (json_array_append_new(rep->warnings, json_pack("{s:s, s:s, s:s}",
            "pointer", ptr, "problem", "is portdash's own analyzer, whose findings "
            "the ingest already shows", "action", "results not stored again")))
        return pd_error_set(PD_ENOMEM, "out of memory");
    return 0;
}

static int ss_is_own(const sarif_run *run)
{
    return strcmp(run->tool, SARIF_OWN_TOOL) == 0;
}

/* Insert the row of one run (its counts come at the end); *id its rowid. */
static int ss_run_row(ss_ctx *c, const sarif_run *run, const char *cat, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(c->db, &st, "INSERT INTO sarif_runs (repo_id, commit_id, tool, "
                         "tool_version, category, uploaded_at, results, findings, "
                         "unmapped) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0, 0, 0)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, c->repo_id);
    sqlite3_bind_int64(st, 2, c->commit_id);
    ss_bind(st, 3, run->tool);
    ss_bind(st, 4, run->version);
    ss_bind(st, 5, cat);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)time(NULL));
    rc = sqlite3_step(st) == SQLITE_DONE ? 0 : pd_error_set(PD_EDB, "storing a SARIF "
                                                            "run: %s", sqlite3_errmsg(c->db));
    sqlite3_finalize(st);
    *id = sqlite3_last_insert_rowid(c->db);
    return rc;
}

/*
 * The sink's first call, once the log and its runs are known to be good:
 * the transaction begins (not earlier, so a long first pass does not hold
 * the database), earlier runs with the same keys go, each run gets its
 * row.
 */
static int ss_sink_runs(void *arg, sarif_log *log)
{
    ss_ctx *c = arg;
    const char *cat;
    size_t i;
    int rc;

    if (!(c->rep->runs = calloc(log->nruns + 1, sizeof(*c->rep->runs))) ||
        !(c->run_ids = calloc(log->nruns + 1, sizeof(*c->run_ids))))
        return pd_error_set(PD_ENOMEM, "out of memory");
    if ((rc = db_exec(c->db, "BEGIN IMMEDIATE")) < 0)
        return rc;
    c->in_tx = 1;
    if ((rc = db_prepare(c->db, &c->ins, "INSERT INTO sarif_results (run_id, idx, path, "
                         "line, col, rule_id, level, kind, message, function, "
                         "fingerprints) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, "
                         "?10, ?11)")) < 0 ||
        (rc = db_prepare(c->db, &c->fn, "SELECT name FROM functions WHERE analysis_id = ?1 "
                         "AND start_line <= ?2 AND end_line >= ?2 "
                         "ORDER BY start_line DESC LIMIT 1")) < 0)
        return rc;
    for (i = 0; rc == 0 && i < log->nruns; i++) {
        cat = c->opt->category ? c->opt->category : log->runs[i].category;
        rc = ss_replace(c, log->runs[i].tool, cat);
    }
    for (i = 0; rc == 0 && i < log->nruns; i++) {
        sarif_run_count *count = &c->rep->runs[i];

        cat = c->opt->category ? c->opt->category : log->runs[i].category;
        c->rep->nruns = i + 1;
        if (!(count->tool = strdup(log->runs[i].tool)) || !(count->category = strdup(cat)))
            return pd_error_set(PD_ENOMEM, "out of memory");
        rc = ss_run_row(c, &log->runs[i], cat, &c->run_ids[i]);
    }
    return rc;
}

/* A batch of results of run `run`: mapped and stored, unless the run is
 * portdash's own. */
static int ss_sink_batch(void *arg, sarif_log *log, size_t run, sarif_result *res, size_t n)
{
    ss_ctx *c = arg;
    size_t i;
    int rc = 0;

    if (ss_is_own(&log->runs[run]))
        return 0;
    for (i = 0; rc == 0 && i < n; i++)
        rc = ss_result(c, &log->runs[run], &res[i], c->run_ids[run], &c->rep->runs[run]);
    return rc;
}

/* After the last batch: each run's counts, then the commit. */
static int ss_finish(ss_ctx *c, const sarif_log *log)
{
    sqlite3_stmt *st = NULL;
    size_t i;
    int rc = 0;

    for (i = 0; rc == 0 && i < log->nruns; i++) {
        sarif_run_count *count = &c->rep->runs[i];

        if (ss_is_own(&log->runs[i]) && (rc = ss_own(&log->runs[i], count, c->rep)) < 0)
            break;
        if ((rc = db_prepare(c->db, &st, "UPDATE sarif_runs SET results = ?1, "
                             "findings = ?2, unmapped = ?3 WHERE id = ?4")) < 0)
            break;
        sqlite3_bind_int64(st, 1, (sqlite3_int64)count->results);
        sqlite3_bind_int64(st, 2, (sqlite3_int64)count->findings);
        sqlite3_bind_int64(st, 3, (sqlite3_int64)count->unmapped);
        sqlite3_bind_int64(st, 4, c->run_ids[i]);
        if (sqlite3_step(st) != SQLITE_DONE)
            rc = pd_error_set(PD_EDB, "counting a SARIF run: %s", sqlite3_errmsg(c->db));
        sqlite3_finalize(st);
    }
    return rc == 0 ? db_exec(c->db, "COMMIT") : rc;
}

/* Repository, commit and rules hash of the import. */
static int ss_resolve(ss_ctx *c)
{
    char oid[41];
    int rc;

    if ((rc = db_repo_find(c->db, c->opt->repo, &c->repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(c->db, c->repo_id, c->opt->rev, &c->commit_id, oid)) < 0)
        return rc;
    rc = db_meta_get(c->db, "rules_hash", c->rules_hash, sizeof(c->rules_hash));
    if (rc == PD_ENOTFOUND)
        rc = pd_error_set(PD_ENOTFOUND, "nothing has been ingested yet");
    return rc;
}

/* Import the log of `src`: read in two passes, stored in one transaction. */
static int ss_import(sarif_import_report **out, sqlite3 *db, const sarif_import_options *opt,
                     sarif_src *src)
{
    ss_ctx c;
    sarif_sink sink = {&c, ss_sink_runs, ss_sink_batch};
    sarif_log *log = NULL;
    int rc;

    *out = NULL;
    memset(&c, 0, sizeof(c));
    c.db = db;
    c.opt = opt;
    if (!(c.rep = calloc(1, sizeof(*c.rep)))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto done;
    }
    if ((rc = ss_resolve(&c)) < 0 || (rc = sarif_log_read(&log, src, &sink)) < 0)
        goto done;
    c.rep->warnings = json_incref(log->warnings);
    c.rep->warnings_omitted = log->warnings_omitted;
    rc = ss_finish(&c, log);
done:
    if (rc < 0 && c.in_tx)
        sqlite3_exec(c.db, "ROLLBACK", NULL, NULL, NULL);   /* keeps the message */
    sqlite3_finalize(c.ins);
    sqlite3_finalize(c.fn);
    free(c.file);
    json_decref(c.files);
    free(c.run_ids);
    sarif_log_free(log);
    if (rc < 0)
        sarif_import_report_free(c.rep);
    else
        *out = c.rep;
    return rc;
}

int sarif_import(sarif_import_report **out, sqlite3 *db, const sarif_import_options *opt,
                 const void *body, size_t len, int *too_big)
{
    sarif_src *src = NULL;
    int rc;

    *out = NULL;
    if ((rc = sarif_src_mem(&src, body, len, SARIF_MAX_INFLATED)) == 0)
        rc = ss_import(out, db, opt, src);
    if (too_big)
        *too_big = sarif_src_too_big(src);
    sarif_src_free(src);
    return rc;
}

int sarif_import_file(sarif_import_report **out, sqlite3 *db,
                      const sarif_import_options *opt, FILE *f, int *too_big)
{
    sarif_src *src = NULL;
    int rc;

    *out = NULL;
    if ((rc = sarif_src_file(&src, f, SARIF_MAX_INFLATED)) == 0)
        rc = ss_import(out, db, opt, src);
    if (too_big)
        *too_big = sarif_src_too_big(src);
    sarif_src_free(src);
    return rc;
}

void sarif_import_report_free(sarif_import_report *rep)
{
    size_t i;

    if (!rep)
        return;
    for (i = 0; rep->runs && i < rep->nruns; i++) {
        free(rep->runs[i].tool);
        free(rep->runs[i].category);
    }
    free(rep->runs);
    json_decref(rep->warnings);
    free(rep);
}

json_t *sarif_import_report_json(const sarif_import_report *rep)
{
    json_t *runs = json_array();
    size_t i;

    for (i = 0; runs && i < rep->nruns; i++) {
        const sarif_run_count *r = &rep->runs[i];

        json_array_append_new(runs, json_pack("{s:s, s:s, s:I, s:I, s:I}",
            "tool", r->tool, "category", r->category,
            "results", (json_int_t)r->results, "findings", (json_int_t)r->findings,
            "unmapped", (json_int_t)r->unmapped));
    }
    return runs ? json_pack("{s:o, s:O, s:I}", "runs", runs, "warnings", rep->warnings,
                            "warnings_omitted", (json_int_t)rep->warnings_omitted) : NULL;
}
