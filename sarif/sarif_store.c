/*
 * sarif_store.c: import a SARIF log (sarif_import.h): gzip bodies, the
 * mapping of each result to a file and analysed function of the commit,
 * the portdash fingerprint, and the order of the writes, which db_sarif.h
 * makes in one transaction so a failed import leaves the database as it
 * was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>
#include "db.h"
#include "db_analysis.h"
#include "db_sarif.h"
#include "pd_error.h"
#include "pd_utf8.h"
#include "sarif_import.h"
#include "sarif_log.h"

/* One import: where it goes, its statements, and the file last looked up. */
typedef struct {
    sqlite3 *db;
    const sarif_import_options *opt;
    sarif_import_report *rep;
    int64_t repo_id, commit_id;
    int64_t *run_ids;           /* per run of the log, its sarif_runs row */
    db_sarif_upload *up;        /* the transaction, once begun */
    char rules_hash[64];
    char *file;                 /* path of the last lookup, owned */
    int file_known;             /* 1: file is a file of the commit */
    int64_t file_analysis;      /* its analysis row, 0: none */
    json_t *files;              /* path -> -1 not a file, else its analysis row
                                   or 0; at most SS_FILES paths */
    size_t stored;              /* bytes stored so far (SARIF_MAX_STORED) */
    size_t kept, skipped;       /* results of the log stored / skipped */
} ss_ctx;

/* Paths whose lookup is remembered: a log's results seldom come file by
 * file, and each lookup walks the commit's first-parent chain. */
#define SS_FILES 16384

/* Look `path` up at the commit (remembered, see SS_FILES). */
static int ss_file(ss_ctx *c, const char *path)
{
    json_t *known;
    char blob[41];
    int rc;

    if (c->file && strcmp(c->file, path) == 0)
        return 0;
    free(c->file);
    c->file_known = 0;
    c->file_analysis = 0;
    if (!(c->file = strdup(path)))
        return pd_error_nomem(NULL);
    if (!c->files && !(c->files = json_object()))
        return pd_error_nomem(NULL);
    if ((known = json_object_get(c->files, path))) {
        c->file_known = json_integer_value(known) >= 0;
        c->file_analysis = c->file_known ? json_integer_value(known) : 0;
        return 0;
    }
    if (json_object_size(c->files) >= SS_FILES)
        json_object_clear(c->files);
    /* The key is the path's bytes, which need not be UTF-8: a URI's escapes
     * ("%FF.c") decode to bytes, as git's names are (issue 27: a checked
     * set failed the upload as "out of memory"). */
    if ((rc = db_commit_file_blob(c->db, c->commit_id, path, blob)) == PD_ENOTFOUND)
        return json_object_set_new_nocheck(c->files, path, json_integer(-1)) ?
               pd_error_nomem(NULL) : 0;
    if (rc < 0)
        return rc;
    c->file_known = 1;
    if ((rc = db_analysis_find(c->db, blob, c->rules_hash, &c->file_analysis)) < 0)
        return rc;           /* not "no analysis": no function would be named */
    if (json_object_set_new_nocheck(c->files, path, json_integer(c->file_analysis)))
        return pd_error_nomem(NULL);
    return 0;
}

/* The innermost analysed function of the cached file holding `line`,
 * copied into fn (size n); "" when none.  0 or PD_EDB (the function is part
 * of the fingerprint: a failed read must not store a different one). */
static int ss_function(ss_ctx *c, long line, char *fn, size_t n)
{
    fn[0] = '\0';
    if (!c->file_analysis || line <= 0)
        return 0;
    return db_sarif_upload_function(c->up, c->file_analysis, line, fn, n);
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

/* Count `n` more bytes stored by result `r` of run `run`; PD_EINVAL once
 * the log passes SARIF_MAX_STORED (the upload is then refused whole). */
static int ss_charge(ss_ctx *c, const sarif_run *run, const sarif_result *r, size_t n)
{
    char at[64];

    c->stored += n;
    if (c->stored <= SARIF_MAX_STORED)
        return 0;
    snprintf(at, sizeof(at), "/runs/%zu/results/%zu", run->idx, r->idx);
    return sarif_fail(at, "what the log stores (every field of every result) passes "
                      "%zu MiB here", SARIF_MAX_STORED >> 20);
}

/* The row of the result's rule, stored on first use; 0 when it has none. */
static int ss_rule(ss_ctx *c, const sarif_run *run, const sarif_result *r, int64_t run_id,
                   int64_t *rule)
{
    int added = 0, rc;

    *rule = 0;
    if (!r->rule_id)
        return 0;
    if ((rc = db_sarif_upload_rule(c->up, run_id, r->rule_id, rule, &added)) < 0)
        return rc;
    return added ? ss_charge(c, run, r, strlen(r->rule_id) + SARIF_ROW_COST) : 0;
}

/* Map and store one result of a run; counts it into *count. */
static int ss_result(ss_ctx *c, const sarif_run *run, const sarif_result *r, int64_t run_id,
                     sarif_run_count *count)
{
    char *path = r->uri ? sarif_map_path(r->uri, c->opt->checkout_uri) : NULL;
    char fn[1024] = "", *fps = NULL;
    db_sarif_result_row row;
    int64_t rule = 0;
    int rc = 0;

    if (path && (rc = ss_file(c, path)) < 0)
        goto done;
    if (path && c->file_known && (rc = ss_function(c, r->line, fn, sizeof(fn))) < 0)
        goto done;
    count->unmapped += !(path && c->file_known);
    count->findings += db_sarif_kind_is_finding(r->kind);
    count->results++;
    if (!(fps = ss_fingerprints(run->tool, r, path ? path : r->uri ? r->uri : "", fn))) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    /* Every column, the path twice (its index), and the row's keys. */
    if ((rc = ss_rule(c, run, r, run_id, &rule)) < 0 ||
        (rc = ss_charge(c, run, r, SARIF_ROW_COST + 2 * (path ? strlen(path) : 0) +
                        strlen(r->level) + strlen(r->kind) + strlen(r->message) +
                        strlen(fn) + strlen(fps))) < 0)
        goto done;
    row = (db_sarif_result_row){
        .run_id = run_id, .idx = (int64_t)r->idx, .path = path,
        .line = r->line > 0 ? r->line : 0, .column = r->column > 0 ? r->column : 0,
        .rule = rule, .level = r->level, .kind = r->kind, .message = r->message,
        .function = fn[0] ? fn : NULL, .fingerprints = fps,
    };
    rc = db_sarif_upload_result(c->up, &row);
done:
    free(fps);
    free(path);
    return rc;
}

/*
 * Results of portdash's own analyzer (sarif_write.c) are not stored: the
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
        return pd_error_nomem(NULL);
    return 0;
}

static int ss_is_own(const sarif_run *run)
{
    return strcmp(run->tool, SARIF_OWN_TOOL) == 0;
}

/* Store the row of one run (its counts come at the end); *id its rowid. */
static int ss_run_row(ss_ctx *c, const sarif_run *run, const char *cat, int64_t *id)
{
    db_sarif_run_row row = {
        .tool = run->tool, .version = run->version, .category = cat,
        .uploaded_at = (int64_t)time(NULL),
    };

    return db_sarif_upload_run(c->up, c->repo_id, c->commit_id, &row, id);
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
        return pd_error_nomem(NULL);
    if ((rc = db_sarif_upload_begin(c->db, &c->up)) < 0)
        return rc;
    for (i = 0; rc == 0 && i < log->nruns; i++) {
        cat = c->opt->category ? c->opt->category : log->runs[i].category;
        rc = db_sarif_upload_replace(c->up, c->commit_id, log->runs[i].tool, cat);
    }
    for (i = 0; rc == 0 && i < log->nruns; i++) {
        sarif_run_count *count = &c->rep->runs[i];

        cat = c->opt->category ? c->opt->category : log->runs[i].category;
        c->rep->nruns = i + 1;
        if (!(count->tool = strdup(log->runs[i].tool)) || !(count->category = strdup(cat)))
            return pd_error_nomem(NULL);
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

/*
 * 1 when nothing of the log could be kept though it had something: every
 * run skipped, or every result (issue 27: {"runs":[{"results":[{}]}]}
 * stored nothing and was answered 201, so a bot believed it uploaded; and
 * storing empty runs would replace the earlier upload's results with
 * nothing).  A log with no runs, or runs without results, keeps them.
 */
static int ss_nothing_kept(const ss_ctx *c, const sarif_log *log)
{
    return (log->nruns == 0 && log->runs_seen > 0) ||
           (log->results_kept == 0 && log->results_skipped > 0);
}

/* After the last batch: each run's counts, then the commit. */
static int ss_finish(ss_ctx *c, const sarif_log *log)
{
    size_t i;
    int rc = 0;

    if (ss_nothing_kept(c, log))
        return pd_error_set(PD_EINVAL, "nothing of the log could be kept: %s; see the "
                            "warnings", log->nruns ? "every result was skipped"
                                                   : "every run was skipped");

    for (i = 0; rc == 0 && i < log->nruns; i++) {
        sarif_run_count *count = &c->rep->runs[i];

        if (ss_is_own(&log->runs[i]) && (rc = ss_own(&log->runs[i], count, c->rep)) < 0)
            break;
        rc = db_sarif_upload_counts(c->up, c->run_ids[i], (int64_t)count->results,
                                    (int64_t)count->findings, (int64_t)count->unmapped);
    }
    return rc == 0 ? db_sarif_upload_commit(c->up) : rc;
}

/* Repository, commit and rules hash of the import. */
static int ss_resolve(ss_ctx *c)
{
    char oid[41];
    int rc;

    if (c->opt->category && strlen(c->opt->category) > SARIF_MAX_NAME)
        return pd_error_set(PD_EINVAL, "category: longer than %d bytes", SARIF_MAX_NAME);
    if (c->opt->category && !pd_utf8_valid(c->opt->category, strlen(c->opt->category)))
        return pd_error_set(PD_EINVAL, "category: not valid UTF-8");

    if ((rc = db_repo_find(c->db, c->opt->repo, &c->repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(c->db, c->repo_id, c->opt->rev, &c->commit_id, oid)) < 0)
        return rc;
    rc = db_meta_get(c->db, "rules_hash", c->rules_hash, sizeof(c->rules_hash));
    if (rc == PD_ENOTFOUND)
        rc = pd_error_set(PD_ENOTFOUND, "nothing has been ingested yet");
    return rc;
}

static void sarif_import_report_clear_runs(sarif_import_report *rep);

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
        rc = pd_error_nomem(NULL);
        goto done;
    }
    if ((rc = ss_resolve(&c)) < 0 || (rc = sarif_log_read(&log, src, &sink)) < 0)
        goto done;
    c.rep->warnings = json_incref(log->warnings);
    c.rep->warnings_omitted = log->warnings_omitted;
    if ((rc = ss_finish(&c, log)) == PD_EINVAL && ss_nothing_kept(&c, log)) {
        /* refused, but the warnings say why: the report goes out, empty */
        c.rep->refused = 1;
        db_sarif_upload_end(c.up);
        c.up = NULL;
        sarif_import_report_clear_runs(c.rep);
        *out = c.rep;
        c.rep = NULL;
    }
done:
    db_sarif_upload_end(c.up);     /* rolls back unless committed */
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

/* Drop the report's runs (a refused log stored none). */
static void sarif_import_report_clear_runs(sarif_import_report *rep)
{
    size_t i;

    for (i = 0; rep->runs && i < rep->nruns; i++) {
        free(rep->runs[i].tool);
        free(rep->runs[i].category);
    }
    free(rep->runs);
    rep->runs = NULL;
    rep->nruns = 0;
}

void sarif_import_report_free(sarif_import_report *rep)
{
    if (!rep)
        return;
    sarif_import_report_clear_runs(rep);
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
