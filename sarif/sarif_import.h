/*
 * sarif_import.h: analyzer output in, as SARIF 2.1.0 logs (OASIS
 * sarif-v2.1.0-os), for the server's POST .../commits/{rev}/sarif and the
 * CLI's `portdash import-sarif`.
 *
 * A log is checked against the parts of the SARIF schema this module reads
 * (sections 3.13 sarifLog, 3.14 run, 3.18-3.19 tool, 3.27 result, 3.28-3.30
 * locations, 3.4 artifactLocation, 3.11 message, 3.17 runAutomationDetails).
 * As GitHub code scanning does, what can be kept is kept: a bad run or
 * result is skipped and a bad optional property ignored, each reported as a
 * warning with a JSON pointer (RFC 6901); only a log that cannot be read at
 * all, of which nothing could be kept, or that passes a bound on what it
 * makes or stores is refused, and then nothing is stored.  Runs of portdash's own
 * analyzer are listed but their results not stored (the ingest shows them).
 * Every run is stored under (commit, tool, category), replacing the runs
 * of an earlier upload with the same key, in one SQLite transaction.
 * Results are mapped to a repository path and to the analysed function
 * whose lines hold the result's start line; see doc/sarif.md, "Uploading
 * analyzer output", for the rules.
 */
#ifndef SARIF_IMPORT_H
#define SARIF_IMPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>
#include <sqlite3.h>

/*
 * Largest log accepted, after gzip decompression (bytes).  The log is read
 * as a stream, so memory does not depend on it; it bounds the time one
 * upload takes (about 2 s of CPU per 100 MB on the development machine).  GitHub
 * code scanning takes at most 10 MB of gzip per upload (docs.github.com,
 * "SARIF file is too large"); SARIF logs inflate about 20 times (doc/sarif.md,
 * "Uploading analyzer output", "Large logs"), so 1 GiB takes any
 * log GitHub would, with room to spare.
 */
#define SARIF_MAX_INFLATED ((size_t)1 << 30)

/*
 * Bounds on what a log makes, not only on what is sent (issue 16: 5.8 KB of
 * gzip once stored 2 GB): one message with its {N} arguments filled in
 * (SARIF 3.11.5), and all messages and resolved location URIs of one log
 * together.  A log over either is refused with the pointer of the result
 * where it passed, and nothing is stored.  Stored rows hold little beside
 * these, so they also bound what one upload stores.
 */
#define SARIF_MAX_MESSAGE 65536
#define SARIF_MAX_MADE ((size_t)64 << 20)

/*
 * Bounds on every other stored field (issue 27: a 7.9 MiB rule id named by
 * ruleIndex was stored once per result, 8.3 KB of gzip became 498 MB).  A
 * tool name, tool version, category, rule id, and each partialFingerprints
 * name and value hold at most SARIF_MAX_NAME bytes, a resolved location
 * URI SARIF_MAX_URI, a result at most SARIF_MAX_FINGERPRINTS fingerprints.
 * Past a bound the part is ignored with a warning (a tool name: the run
 * is skipped, a run cannot be stored without one).  Then everything one
 * log stores (every column of every row, a row counted at
 * SARIF_ROW_COST more for SQLite's keys and indexes) is bounded by
 * SARIF_MAX_STORED: past it the log is refused with the pointer of the
 * result where it passed, and nothing is stored.  A rule id is stored once
 * per run (table sarif_rules), so a repeated one is counted once.
 */
#define SARIF_MAX_NAME 1024
#define SARIF_MAX_URI 4096
#define SARIF_MAX_FINGERPRINTS 32
#define SARIF_ROW_COST 64
#define SARIF_MAX_STORED ((size_t)128 << 20)

/* Key of the fingerprint portdash adds to every result (SARIF 3.27.17). */
#define SARIF_FINGERPRINT_KEY "portdash/v1"

typedef struct {
    const char *repo;          /* repository name, as ingested */
    const char *rev;           /* ref name or (abbreviated) commit id */
    const char *checkout_uri;  /* absolute path or file: URI of the checkout the
                                  analyzer saw; NULL: absolute paths are unmapped */
    const char *category;      /* overrides every run's category; NULL: from the log */
} sarif_import_options;

/* What one run of a log became. */
typedef struct {
    char *tool;
    char *category;
    size_t results;            /* every result */
    size_t findings;           /* results of kind fail, open, review,
                                  informational (not pass, notApplicable) */
    size_t unmapped;           /* results not at a file of the commit */
} sarif_run_count;

typedef struct {
    sarif_run_count *runs;
    size_t nruns;
    json_t *warnings;          /* [{pointer, problem, action}]: what was skipped,
                                  ignored or not stored, and why */
    size_t warnings_omitted;   /* warnings past the first 100 */
    int refused;               /* 1: nothing of the log could be kept (see
                                  sarif_import), no runs, only warnings */
} sarif_import_report;

/*
 * Import the SARIF log of `len` bytes at `body` (JSON, or gzip of it: told
 * by the magic bytes 1f 8b) for opt->repo at opt->rev.  The log is read as
 * a stream in two passes (the first checks it and reads each run's tool,
 * rules and artifacts, which may follow the run's results; the second
 * stores the results in batches), so memory stays bounded whatever its
 * size.  On success *out describes the stored runs (free with
 * sarif_import_report_free).  Errors: PD_EINVAL (invalid JSON: "invalid
 * JSON at line L, column C (byte B): ..."; a log without the SARIF frame:
 * "POINTER: problem", for example "/version: must be \"2.1.0\""; a corrupt
 * gzip; a log over SARIF_MAX_INFLATED, then *too_big is set to 1 (too_big
 * may be NULL); a log making more than SARIF_MAX_MADE), PD_ENOTFOUND
 * (unknown repository or rev, nothing ingested), PD_EDB.  On error nothing
 * is stored.  A log with runs of which nothing could be kept (every run
 * skipped, or every result of every run) is refused too, PD_EINVAL "nothing
 * of the log could be kept: ...", and then *out is set all the same: a
 * report with refused 1, no runs and the warnings that say why.
 */
int sarif_import(sarif_import_report **out, sqlite3 *db, const sarif_import_options *opt,
                 const void *body, size_t len, int *too_big);

/* The same for the log in `f` (plain or gzip), from its current position;
 * f must be seekable (it is read twice) and is not closed.  PD_EIO for a
 * file that cannot be read or sought. */
int sarif_import_file(sarif_import_report **out, sqlite3 *db,
                      const sarif_import_options *opt, FILE *f, int *too_big);

/* Free a report; accepts NULL. */
void sarif_import_report_free(sarif_import_report *rep);

/* The report as {"runs": [{"tool", "category", "results", "findings",
 * "unmapped"}], "warnings": [{"pointer", "problem", "action"}],
 * "warnings_omitted": n}; a new reference, NULL on ENOMEM. */
json_t *sarif_import_report_json(const sarif_import_report *rep);

/*
 * The stored runs of a commit as a new array [{"tool", "category",
 * "version", "results", "findings", "unmapped", "uploaded_at"}] ordered by
 * tool and category.  0 or PD_EDB (*out NULL).
 */
int sarif_runs_json(json_t **out, sqlite3 *db, int64_t commit_id);

/* Bytes of a finding's text shown in a list; past it the text is cut (at
 * a character boundary) and the finding has "text_truncated": true. */
#define SARIF_SHOWN_TEXT 4096

/*
 * Append the stored findings (every kind but pass and notApplicable) at
 * `path` of commit `commit_id`, skipping the first `offset` and at most
 * `limit` of them, to `findings` as {"line", "column", "class": "sarif",
 * "rule", "text" (see SARIF_SHOWN_TEXT), "function", "guarded": false,
 * "tool", "level", "category", "fingerprint" (its SARIF_FINGERPRINT_KEY)}.
 * *total (may be NULL) is how many there are in all.  Text that is not
 * UTF-8 (stored by older versions) shows U+FFFD in place of each bad byte.
 * 0, PD_EDB, PD_ENOMEM.
 */
int sarif_file_findings(sqlite3 *db, int64_t commit_id, const char *path,
                        size_t offset, size_t limit, json_t *findings, size_t *total);

/*
 * The level a built-in finding of class `cls` ("hpy", "capi", ...) counts
 * at, as in the commit summary's tools.portdash: hpy "none", npy-legacy
 * "note", capi and bridge "warning".  A static string.
 */
const char *sarif_builtin_level(const char *cls);

/*
 * Keep in array `findings` only those whose "tool" is one of `tools` and
 * whose "level" one of `levels` (comma-separated lists; NULL: any).
 * Returns 0, or PD_EINVAL when `levels` names something that is not a
 * SARIF level (none, note, warning, error).
 */
int sarif_findings_filter(json_t *findings, const char *tools, const char *levels);

/*
 * Add to object `tools` one member per uploaded tool of commit `commit_id`:
 * {"results": n, "error": n, "warning": n, "note": n, "none": n}, counting
 * findings over all of that tool's runs.  A tool named like an
 * existing member (the built-in "portdash") gets " (sarif)" appended.
 * 0 or PD_EDB.
 */
int sarif_tools_json(sqlite3 *db, int64_t commit_id, json_t *tools);

#endif
