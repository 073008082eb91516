/*
 * sarif_log.h: inside the sarif module: the bytes of a log (sarif_src.c),
 * read as a stream of JSON events (sarif_json.c), checked and reduced to
 * what is stored (sarif_parse.c, sarif_read.c), and the mapping of
 * locations to repository paths (sarif_map.c).  Not used outside sarif/
 * (and the fuzz target).
 */
#ifndef SARIF_LOG_H
#define SARIF_LOG_H

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

/* One result as stored; strings borrowed from `doc` unless marked owned. */
typedef struct {
    json_t *doc;               /* owned: the result's JSON (the parts read) */
    const char *rule_id;       /* NULL when the result names no rule */
    const char *level;         /* static: none, note, warning, error */
    const char *kind;          /* static: fail, pass, open, ... */
    char *message;             /* owned: text with {N} arguments filled in */
    char *uri;                 /* owned: location after uriBaseId/index; NULL: none */
    long line, column;         /* region.startLine/startColumn; 0: absent */
    json_t *fingerprints;      /* borrowed partialFingerprints, or NULL */
    size_t idx;                /* position in the log's run.results */
} sarif_result;

typedef struct {
    const char *tool;          /* tool.driver.name */
    const char *version;       /* semanticVersion or version, or NULL */
    char *category;            /* owned */
    size_t nresults;           /* results read (skipped ones not counted) */
    size_t idx;                /* position in the log's runs */
} sarif_run;

/* tool.driver.name of portdash's own SARIF (sarif_write.c). */
#define SARIF_OWN_TOOL "portdash"

/* Which results are findings: db_sarif_kind_is_finding (db_sarif.h). */

/* Tool name stored for a run whose tool.driver.name is "". */
#define SARIF_UNNAMED_TOOL "(unnamed)"

/*
 * Bounds of the streaming read, in bytes of what is kept in memory (string
 * bytes plus SARIF_NODE_COST per JSON value; only the properties portdash
 * reads are kept, so codeFlows, rule help and the like cost nothing):
 * one result (over it: skipped with a warning), the tool, rules,
 * artifacts and base URIs of all runs together (over it: the run where it
 * passed is skipped), one batch of results handed to the store, one JSON
 * string or number token (yajl holds a whole token; over it: the log is
 * refused), and the nesting of arrays and objects (jansson's limit).
 */
#define SARIF_NODE_COST 64
#define SARIF_MAX_RESULT ((size_t)1 << 20)
#define SARIF_MAX_META ((size_t)32 << 20)
#define SARIF_BATCH 256
#define SARIF_BATCH_BYTES ((size_t)8 << 20)
#define SARIF_MAX_TOKEN ((size_t)8 << 20)
#define SARIF_MAX_DEPTH 2048

/* Warnings listed in a report; more are only counted. */
#define SARIF_MAX_WARN 100

typedef struct sarif_log sarif_log;

/*
 * Where the results of a log go, a batch at a time, in log order.  `runs`
 * is called once, after the first pass, with every run that is kept (the
 * runs array of the log, skipped runs left out); then `batch` with up to
 * SARIF_BATCH results of run log->runs[run] (the sink may not keep the
 * results: they are freed after the call).  A negative return ends the
 * read with that code.
 */
typedef struct {
    void *arg;
    int (*runs)(void *arg, sarif_log *log);
    int (*batch)(void *arg, sarif_log *log, size_t run, sarif_result *res, size_t n);
} sarif_sink;

struct sarif_log {
    sarif_run *runs;           /* skipped runs left out */
    size_t nruns;
    json_t *warnings;          /* owned: [{pointer, problem, action}] */
    size_t warnings_omitted;   /* warnings past the listed ones */
    size_t warnings_before;    /* listed ones kept elsewhere (sarif_read.c) */
    size_t made;               /* bytes of messages and URIs made (SARIF_MAX_MADE) */
    size_t runs_seen;          /* runs in the log, skipped ones too */
    size_t results_kept;       /* results handed to the sink */
    size_t results_skipped;    /* results skipped with a warning */
    void *priv;                /* what the read keeps per run (sarif_parse.c) */
};

/* A log's bytes, plain or gzip, read from the start once per pass
 * (sarif_src.c). */
typedef struct sarif_src sarif_src;

/*
 * A source over `len` bytes at `buf` (borrowed; must outlive the source),
 * or over a seekable file from its current position (borrowed, not
 * closed).  Reading more than `max` bytes (inflated) fails.  0, PD_ENOMEM,
 * PD_EIO (not seekable, unreadable).  Free with sarif_src_free.
 */
int sarif_src_mem(sarif_src **out, const void *buf, size_t len, size_t max);
int sarif_src_file(sarif_src **out, FILE *f, size_t max);

/*
 * Up to `cap` next bytes of the log into buf, *got of them; *got 0 at the
 * end.  0, PD_EINVAL (corrupt gzip; or past `max`, then
 * sarif_src_too_big() is 1), PD_EIO, PD_ENOMEM.
 */
int sarif_src_read(sarif_src *s, char *buf, size_t cap, size_t *got);

/* Back to the first byte, for the next pass.  0 or PD_EIO. */
int sarif_src_rewind(sarif_src *s);

/* 1 when the last read failed for passing `max`; accepts NULL. */
int sarif_src_too_big(const sarif_src *s);

/* Free; accepts NULL. */
void sarif_src_free(sarif_src *s);

/*
 * Read and check the log of `src` (sarif_parse.c) in two passes that
 * stream it: the first checks it is JSON and a SARIF log and keeps each
 * run's tool, rules, artifacts, base URIs and category (a run's results may
 * come before them); the second hands every result, checked, to `sink` in
 * batches.  What was skipped or ignored is in (*out)->warnings, in the
 * order of the log.  *out is set even on error (for the warnings so far),
 * freed with sarif_log_free.  PD_EINVAL for a log that cannot be read at
 * all (sarif_import.h; nothing was handed to the sink then) or that passes
 * SARIF_MAX_MADE (results may have been handed); PD_ENOMEM, PD_EIO, or the
 * sink's error.
 */
int sarif_log_read(sarif_log **out, sarif_src *src, const sarif_sink *sink);

/* Free; accepts NULL. */
void sarif_log_free(sarif_log *log);

/* What the results of one run refer to (sarif_parse.c, sarif_read.c). */
typedef struct {
    char at[32];               /* pointer of the run: "/runs/N" */
    json_t *meta;              /* owned: the run's parts read (sarif_json.h) */
    json_t *rules;             /* tool.driver.rules, or NULL */
    json_t *rule_by_id;        /* owned: rule id -> rule object */
    json_t *artifacts;         /* run.artifacts, or NULL */
    json_t *bases;             /* run.originalUriBaseIds, or NULL */
    sarif_log *log;            /* where warnings go */
    size_t *made;              /* bytes of messages and URIs made so far (log) */
} sarif_run_ctx;

/*
 * The checks of sarif_parse.c.  sarif_top_check: the log's top level as
 * sj_walk_top gives it ("version" 2.1.0, an array "runs"); PD_EINVAL with
 * "POINTER: problem" for a log that cannot be read.  sarif_run_check: a
 * run's tool, rules, category, artifacts and base URIs from c->meta into
 * run and c (whose rule_by_id it makes); PD_EINVAL when the run must be
 * skipped, bad optional parts being warnings of c->log.
 * sarif_result_check: one result (at pointer `at`) into r; PD_EINVAL when
 * it must be skipped.  PD_ENOMEM for each.  After a PD_EINVAL,
 * sarif_warn(log, action) records its pointer and problem as a warning
 * (0 or PD_ENOMEM); sarif_fail makes one at pointer `at` (returns
 * PD_EINVAL).
 */
int sarif_top_check(json_t *top);
int sarif_run_check(sarif_run *run, sarif_run_ctx *c);
int sarif_result_check(sarif_result *r, json_t *res, const char *at,
                       const sarif_run_ctx *c);
int sarif_warn(sarif_log *log, const char *action);
int sarif_fail(const char *at, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * The repository-relative path a resolved location URI names: file: URIs
 * and absolute paths under `checkout` (a path or file: URI, may be NULL)
 * lose that prefix, relative references stay, percent-escapes are decoded.
 * Returns a new string (free()), or NULL when the URI is outside the
 * repository (another scheme or host, not under checkout, a ".." that
 * climbs out) or memory ran out.
 */
char *sarif_map_path(const char *uri, const char *checkout);

#endif
