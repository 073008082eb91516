/*
 * q_file.h: one file at a commit, typed: its analysis, the functions and
 * findings of one page (the built-in analyzer's findings, then those of
 * uploaded SARIF runs, each with its fingerprint and dismissal mark), and
 * whether the clone lacked its blob.  server/api_file.c renders it as the
 * file page's JSON, cli/cli_show.c as text or the same JSON.
 */
#ifndef Q_FILE_H
#define Q_FILE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "pd_domain.h"
#include "q_at.h"

/* Largest lists of one page of a file, and the most a page may ask: a
 * 10 MB C file once made 95 MB of JSON and 1.2 GB of server memory, and
 * per_page=50000 (ten times this, once allowed) 313 MB (issue 27). */
#define Q_FILE_PER_PAGE 5000

/* What to read of a file: page `page` (1-based) of `per` items of each
 * list, and only the findings of those tools and levels. */
typedef struct {
    size_t page, per;
    const char *tools;           /* comma-separated tool names; NULL: any */
    const char *levels;          /* comma-separated SARIF levels; NULL: any */
    int typed;                   /* 1: the built-in findings stay typed in
                                  * q_file.builtin (see there); ignored with
                                  * tools or levels */
} q_file_params;

/* One built-in finding of the page, typed: the file page's writer
 * (api_file_write.h) writes them without a JSON tree (issue 26.3).  The
 * strings belong to the q_file. */
typedef struct {
    int64_t line, column;
    const char *cls, *rule, *text;
    const char *function;        /* its function's name; NULL: none */
    const char *reason;          /* NULL: none */
    int guarded;
    char fingerprint[33];
    json_t *dismissed;           /* {"id", ...} (owned); NULL: not dismissed */
} q_finding;

typedef struct q_file_store q_file_store;

/* One function of the page. */
typedef struct {
    char *name;
    int64_t start_line, end_line;
    char *status;                /* pd_status name */
    char *object_state;          /* at this commit (call graph); NULL: none */
    int64_t tok[PD_CLASS_COUNT]; /* tokens per pd_class */
    char *name_from_macro;       /* the macro that named it; NULL: none */
    char *why;                   /* stored JSON text of its why; NULL: none */
    char *chain;                 /* JSON text: the call chain that gives its
                                  * object state (why.object); NULL: none */
    int state_from_graph;        /* 1: the call graph gave the object state
                                  * (why.mentions is then void) */
} q_function;

/* One file at a commit. */
typedef struct {
    char commit[41];
    char *path;
    char blob[41];
    int missing;                 /* 1: the clone lacked the blob */
    char missing_since[41];      /* the first commit that lacked it */
    int analysed;                /* 1: status .. size below are set */
    char *status;
    int universal_ready;
    char *notes;                 /* NULL: none */
    int64_t lines, size;
    q_function *functions;       /* the page's */
    size_t nfunctions;
    /* The page's findings as the SARIF module and the triage store read and
     * write them (sarif_import.h, db_triage.h): objects with "line",
     * "column", "rule", "text", "function", "tool", "level", "fingerprint",
     * "dismissed", ... Built-in ones first; with q_file_params.typed the
     * built-in ones are in builtin[] instead, and these are the SARIF
     * ones that follow them. */
    json_t *findings;
    q_finding *builtin;          /* typed: the page's built-in findings */
    size_t nbuiltin, capbuiltin;
    q_file_store *store;         /* their strings */
    int typed;                   /* read with q_file_params.typed */
    size_t dismissed_count;
    size_t functions_total, findings_total; /* of the whole file */
    size_t page, per;            /* the page read */
} q_file;

/*
 * Read file `path` at `at` into *out (q_file_free).  `blob` (40 hex) is
 * its blob when the caller has looked it up, else NULL.  `p` NULL reads
 * everything in one page.  0; PD_ENOTFOUND (no such file at the commit,
 * or it has no analysis and the clone did not lack it); PD_EINVAL (a
 * level in p->levels that is not a SARIF level); PD_EDB; PD_ENOMEM.  On
 * error *out is NULL.
 */
int q_file_get(sqlite3 *db, const q_at *at, const char *path, const char *blob,
               const q_file_params *p, q_file **out);

/*
 * Built-in finding `i` of a typed q_file as the JSON object the untyped
 * one holds: {"line", "column", "class", "rule", "text", "function",
 * "guarded", "tool", "level", "reason", "fingerprint", "dismissed"}.  A
 * new reference, NULL on ENOMEM.
 */
json_t *q_finding_json(const q_finding *f);

/* Free a q_file (NULL is fine). */
void q_file_free(q_file *f);

/* What a blob the clone lacked means, for `analysed` (another
 * repository's ingest stored its analysis) or not.  A static string. */
const char *q_file_missing_detail(int analysed);

#endif
