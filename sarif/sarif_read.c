/*
 * sarif_read.c: a SARIF log read in two streaming passes (sarif_log.h,
 * sarif_log_read).  JSON leaves the order of a run's members free, so its
 * results may come before its tool, rules or artifacts: pass 1 keeps each
 * run's own parts (sarif_json.c prunes them to what is read) and checks
 * the log and its runs; pass 2 checks each result against its run and
 * hands them to the sink in batches.  Warnings come out in the order the
 * one-document reading gave: a run's own, then its results', run after
 * run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "sarif_import.h"
#include "sarif_json.h"
#include "sarif_log.h"

/* What the read keeps per run of the log. */
typedef struct {
    sarif_run_ctx c;
    sarif_run run;
    json_t *pending;           /* warnings of the run's own parts */
    size_t pending_omitted;
    char over[32];             /* member past SARIF_MAX_META, "" none */
    int over_set;
    size_t kept;               /* 1 + index in log->runs; 0: skipped */
} sr_run;

typedef struct {
    sarif_log *log;
    const sarif_sink *sink;
    sj_walk *w;
    sr_run *runs;
    size_t nruns, cap;
    size_t flushed;            /* runs whose pending warnings are out */
    size_t pending;            /* pending warnings of all runs */
    sarif_result batch[SARIF_BATCH];
    size_t nbatch, batch_bytes, batch_run;
} sr_state;

static void sr_runs_free(sr_state *s)
{
    size_t i;

    for (i = 0; i < s->nruns; i++) {
        json_decref(s->runs[i].c.meta);
        json_decref(s->runs[i].c.rule_by_id);
        json_decref(s->runs[i].pending);
        free(s->runs[i].run.category);
    }
    s->nruns = 0;
}

/* Pass 1: a "runs" array begins; one seen before is forgotten. */
static void sr_runs_begin(void *arg)
{
    sr_runs_free(arg);
}

/* Pass 1: what run `i` is made of. */
static int sr_run_meta(void *arg, size_t i, json_t *meta, const char *over_key)
{
    sr_state *s = arg;
    sr_run *r;

    if (i >= s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 8;
        sr_run *p = realloc(s->runs, cap * sizeof(*p));

        if (!p) {
            json_decref(meta);
            return pd_error_nomem("reading SARIF");
        }
        s->runs = p;
        s->cap = cap;
    }
    r = &s->runs[i];
    memset(r, 0, sizeof(*r));
    s->nruns = i + 1;
    r->c.meta = meta;
    snprintf(r->c.at, sizeof(r->c.at), "/runs/%zu", i);
    r->run.idx = i;
    r->c.log = s->log;
    r->c.made = &s->log->made;
    if (over_key) {
        r->over_set = 1;
        snprintf(r->over, sizeof(r->over), "%s", over_key);
    }
    if (!(r->pending = json_array()))
        return pd_error_nomem("reading SARIF");
    return 0;
}

/*
 * Check run i's own parts; its warnings go to its pending list (the log's
 * list stands in for it meanwhile, so the checks need not know).
 */
static int sr_check_run(sr_state *s, size_t i)
{
    sr_run *r = &s->runs[i];
    sarif_log *log = s->log;
    json_t *saved = log->warnings;
    size_t saved_omitted = log->warnings_omitted;
    char at[64];
    int rc;

    /* Past the first SARIF_MAX_WARN of the log a warning is only counted,
     * so the pending lists of all runs together need hold no more. */
    log->warnings = r->pending;
    log->warnings_omitted = 0;
    log->warnings_before = s->pending;
    if (r->over_set) {
        snprintf(at, sizeof(at), "%s%s%s", r->c.at, r->over[0] ? "/" : "", r->over);
        rc = sarif_fail(at, "the run's tool, rules, artifacts and base URIs pass %zu MiB "
                        "in memory", SARIF_MAX_META >> 20);
    } else {
        rc = sarif_run_check(&r->run, &r->c);
    }
    if (rc == PD_EINVAL) {
        free(r->run.category);
        r->run.category = NULL;
        sj_walk_skip_run(s->w, i);
        rc = sarif_warn(log, "run skipped");
    } else if (rc == 0) {
        log->runs[log->nruns++] = r->run;
        r->kept = log->nruns;
        r->run.category = NULL;        /* now the log's */
    }
    r->pending_omitted = log->warnings_omitted;
    s->pending += json_array_size(r->pending);
    log->warnings_before = 0;
    log->warnings = saved;
    log->warnings_omitted = saved_omitted;
    return rc;
}

/* The pending warnings of runs up to `upto` (included) into the log's. */
static int sr_flush_warnings(sr_state *s, size_t upto)
{
    sarif_log *log = s->log;
    json_t *w;
    size_t k;

    for (; s->flushed <= upto && s->flushed < s->nruns; s->flushed++) {
        sr_run *r = &s->runs[s->flushed];

        json_array_foreach(r->pending, k, w) {
            if (json_array_size(log->warnings) >= SARIF_MAX_WARN)
                log->warnings_omitted++;
            else if (json_array_append(log->warnings, w))
                return pd_error_nomem("reading SARIF");
        }
        log->warnings_omitted += r->pending_omitted;
    }
    return 0;
}

static void sr_result_free(sarif_result *r)
{
    free(r->message);
    free(r->uri);
    json_decref(r->doc);
    memset(r, 0, sizeof(*r));
}

/* Hand the batch to the sink and free it. */
static int sr_flush_batch(sr_state *s)
{
    int rc = 0;
    size_t k;

    if (s->nbatch)
        rc = s->sink->batch(s->sink->arg, s->log, s->runs[s->batch_run].kept - 1,
                            s->batch, s->nbatch);
    for (k = 0; k < s->nbatch; k++)
        sr_result_free(&s->batch[k]);
    s->nbatch = s->batch_bytes = 0;
    return rc;
}

/* Pass 2: result `idx` of run `run`, NULL when it passed SARIF_MAX_RESULT. */
static int sr_result(void *arg, size_t run, size_t idx, json_t *res, size_t cost)
{
    sr_state *s = arg;
    sr_run *r = &s->runs[run];
    sarif_result *out;
    char at[64];
    int rc;

    if ((rc = sr_flush_warnings(s, run)) < 0 ||
        (s->nbatch && s->batch_run != run && (rc = sr_flush_batch(s)) < 0)) {
        json_decref(res);
        return rc;
    }
    s->batch_run = run;
    snprintf(at, sizeof(at), "%s/results/%zu", r->c.at, idx);
    out = &s->batch[s->nbatch];
    out->doc = res;
    out->idx = idx;
    if (!res)
        rc = sarif_fail(at, "the properties portdash reads pass %zu KiB in memory",
                        SARIF_MAX_RESULT >> 10);
    else
        rc = sarif_result_check(out, res, at, &r->c);
    if (rc == 0) {
        s->log->results_kept++;
        s->log->runs[r->kept - 1].nresults++;
        s->batch_bytes += cost;
        if (++s->nbatch == SARIF_BATCH || s->batch_bytes >= SARIF_BATCH_BYTES)
            return sr_flush_batch(s);
        return 0;
    }
    sr_result_free(out);
    /* past the bound on what a log makes nothing more is read: the upload
     * is refused, not kept in part */
    if (rc != PD_EINVAL || s->log->made > SARIF_MAX_MADE)
        return rc;
    s->log->results_skipped++;
    return sarif_warn(s->log, "result skipped");
}

/* A kept string or name that was not UTF-8 (sj_handlers): a warning at
 * its pointer; the text goes on with U+FFFD in place of each bad byte. */
static int sr_bad_text(void *arg, const char *pointer, size_t nbad, size_t nnul)
{
    sr_state *s = arg;

    if (nnul && !nbad)
        sarif_fail(pointer, "holds \\u0000 (%zu time%s), which no path or text "
                   "may hold", nnul, nnul == 1 ? "" : "s");
    else if (nnul)
        sarif_fail(pointer, "holds \\u0000 (%zu time%s) and is not valid UTF-8 "
                   "(RFC 3629): %zu byte%s", nnul, nnul == 1 ? "" : "s", nbad,
                   nbad == 1 ? "" : "s");
    else
        sarif_fail(pointer, "is not valid UTF-8 (RFC 3629): %zu byte%s", nbad,
                   nbad == 1 ? "" : "s");
    return sarif_warn(s->log, "kept with each such character shown as U+FFFD");
}

/* Between the passes: the log's frame, then each run. */
static int sr_check(sr_state *s)
{
    size_t i;
    int rc;

    if ((rc = sarif_top_check(sj_walk_top(s->w))) < 0)
        return rc;
    if (!(s->log->runs = calloc(s->nruns + 1, sizeof(*s->log->runs))))
        return pd_error_nomem("reading SARIF");
    s->log->runs_seen = s->nruns;
    for (i = 0; i < s->nruns; i++)
        if ((rc = sr_check_run(s, i)) < 0)
            return rc;
    return 0;
}

int sarif_log_read(sarif_log **out, sarif_src *src, const sarif_sink *sink)
{
    sarif_log *log = calloc(1, sizeof(*log));
    sr_state *s = calloc(1, sizeof(*s));
    sj_handlers h = {NULL, sr_runs_begin, sr_run_meta, sr_result, sr_bad_text};
    int rc;

    *out = log;
    if (!log || !s || !(log->warnings = json_array())) {
        free(s);
        return pd_error_nomem("reading SARIF");
    }
    log->priv = s;
    s->log = log;
    s->sink = sink;
    h.arg = s;
    if ((rc = sj_walk_new(&s->w, &h)) < 0 || (rc = sj_walk_pass(s->w, src, 1)) < 0 ||
        (rc = sr_check(s)) < 0 || (rc = sink->runs(sink->arg, log)) < 0 ||
        (rc = sj_walk_pass(s->w, src, 2)) < 0 || (rc = sr_flush_batch(s)) < 0)
        goto done;
    rc = sr_flush_warnings(s, s->nruns);
done:
    sj_walk_free(s->w);
    s->w = NULL;
    while (s->nbatch)
        sr_result_free(&s->batch[--s->nbatch]);
    return rc;
}

void sarif_log_free(sarif_log *log)
{
    sr_state *s;
    size_t i;

    if (!log)
        return;
    if ((s = log->priv)) {
        sr_runs_free(s);
        free(s->runs);
        free(s);
    }
    for (i = 0; i < log->nruns; i++)
        free(log->runs[i].category);
    free(log->runs);
    json_decref(log->warnings);
    free(log);
}
