/*
 * report.h: writing analyses (analyze.h) as text, JSON, a function list or
 * SARIF 2.1.0, for `portdash analyze` and CI bots.  Nothing here touches a
 * database: the input is a list of (path, result) pairs.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "analyzer/analyzer.h"

/* One analysed file: `path` is repository- or cwd-relative, as printed. */
typedef struct {
    const char *path;
    const an_result *res;
    const unsigned char *keep;  /* NULL: every finding; else SARIF writes
                                   finding i only when keep[i] (report_new_since) */
    const struct fix_list *fixes; /* NULL: none; else the checked rewrites of
                                   the file (fix.h), written as SARIF fixes */
} report_file;

/* What a run forbids (--fail-on): token classes and object states. */
typedef struct {
    unsigned classes;   /* bit an_class: an unguarded finding fails */
    unsigned objstates; /* bit an_objstate: a function in it fails */
} report_fail;

/*
 * Parse one --fail-on word ("capi", "bridge", "npy-legacy", "hpy",
 * "object-legacy", "object-cpython-only", "object-universal"; a comma list
 * is several words) into *f.  Returns 0, or PD_EINVAL naming the word.
 */
int report_fail_parse(report_fail *f, const char *words);

/* 1 when finding x (of a file) is forbidden by f; 0 otherwise. */
int report_fail_finding(const report_fail *f, const an_finding *x);

/* Number of forbidden findings and functions in the n files. */
size_t report_fail_count(const report_fail *f, const report_file *files,
                         size_t n);

/*
 * Write the n files to out in `format`:
 *   "text"       one line per function (... [(name from macro M)]) and per
 *                finding (path:line:col: class rule `text` [in FUNCTION]
 *                [(guarded)] [(why: REASON)])
 *   "json"       [{"path", "status", "universal_ready", "lines", "notes",
 *                  "functions": [{"name", "name_from_macro" (null or
 *                  the macro, see analyze.h), "start_line", "name_line",
 *                  "end_line", "status", "object_state", "tokens", "why"
 *                  (an_why_json)}], "findings": [{"line", "column",
 *                  "class", "rule", "text", "function", "guarded",
 *                  "reason" (null or an_finding.reason)}]}]
 *   "functions"  tab-separated path, name, name_line, start_line, end_line,
 *                language ("c" or "c++"; what tests/ctags_compare.sh reads)
 *   "sarif"      report_sarif() below
 * `r` is the rules used (SARIF names its hash).  Returns 0, PD_EINVAL for
 * an unknown format, PD_ENOMEM or PD_EIO (write error).
 */
int report_write(FILE *out, const char *format, const report_file *files,
                 size_t n, const rules *r, const report_fail *f);

/*
 * GitHub code scanning's limits on an uploaded SARIF file, from "SARIF
 * results exceed one or more limits" and "SARIF file is too large"
 * (docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-
 * uploads/results-exceed-limit and .../file-too-large): at most 20 runs per
 * file, 25,000 results per run (of which the top 5,000 by severity are
 * shown), 25,000 rules per run, 1,000 locations per result, and 10 MB
 * gzip-compressed.  portdash writes one run, one location per result.
 */
#define REPORT_SARIF_MAX_RESULTS 25000
#define REPORT_SARIF_SHOWN_RESULTS 5000
#define REPORT_SARIF_MAX_GZIP ((size_t)10 << 20)

/* How findings become SARIF results. */
typedef enum {
    REPORT_SARIF_AUTO = 0,      /* one per finding if that fits, else per function */
    REPORT_SARIF_FINDING,       /* one result per finding */
    REPORT_SARIF_FUNCTION       /* one per function and class, with counts */
} report_sarif_group;

typedef struct {
    report_sarif_group group;
    unsigned classes;           /* bit per an_class; 0: capi, npy-legacy, bridge */
    int min_level;              /* lowest level written: 1 note, 2 warning,
                                   3 error; 0: 1 */
    size_t max_results;         /* 0: REPORT_SARIF_MAX_RESULTS */
    FILE *note;                 /* gets a statement of what was grouped or left
                                   out and the sizes against GitHub's limits;
                                   NULL: none */
    const char *since;          /* the files' keep marks are "new since" this
                                   rev (report_new_since); named in properties */
} report_sarif_opts;

/*
 * report_sarif with options (NULL: the defaults).  The run's properties
 * "portdash/sarif" say what was done: {"findings": selected findings,
 * "filtered": findings left out by class or level, "grouping": "finding"
 * or "function", "results", "omitted": results cut to max_results,
 * "omittedByLevel": {...}, "maxResults"}.  Returns 0, PD_ENOMEM, PD_EIO.
 */
int report_sarif_ex(FILE *out, const report_file *files, size_t n, const rules *r,
                    const report_fail *f, const report_sarif_opts *o);

/*
 * Mark the findings of `head` (nh files) that are new since `base` (nb
 * files, the same paths at an earlier revision): head[i].keep[k] is 1 when
 * finding k's file, rule, function, identifier and occurrence among those
 * four are not in base, the same key as the fingerprints, so moved lines
 * do not count as new.  The keep arrays are allocated here, one per file
 * (free each with free()).  *nnew counts the new findings.  0 or PD_ENOMEM.
 */
int report_new_since(report_file *head, size_t nh, const report_file *base, size_t nb,
                     size_t *nnew);

/*
 * Parse a --sarif-classes list ("capi,bridge") into a class bit set, or a
 * --sarif-level word (note, warning, error) into 1-3.  0 or PD_EINVAL.
 */
int report_sarif_classes(unsigned *out, const char *words);
int report_sarif_level(int *out, const char *word);

/*
 * SARIF 2.1.0 (OASIS, sarif-v2.1.0 sections 3.13-3.27): one run whose
 * tool.driver (name "portdash", version, rules with id, shortDescription,
 * fullDescription, help, defaultConfiguration) describes each rule id that
 * has results; one result per capi, npy-legacy and bridge finding, with
 * ruleId, ruleIndex, level ("error" when f forbids it, "note" when
 * guarded, else "warning"), message.text, a physicalLocation
 * (artifactLocation.uri: the path, relative, percent-encoded; region
 * startLine/startColumn, 1-based, byte columns), the enclosing function as
 * a logicalLocation, and partialFingerprints["portdash/v1"]: a hash of
 * rule id, function name, token text and the occurrence index of that
 * triple within the function, so moving code up or down keeps it.  When
 * there are more findings than GitHub accepts in a run, one result per
 * function and class instead (report_sarif_ex with the defaults).
 * Returns 0, PD_ENOMEM or PD_EIO.
 */
int report_sarif(FILE *out, const report_file *files, size_t n,
                 const rules *r, const report_fail *f);

/* tool.driver.informationUri: where to learn what the results ask for (HPy's
 * porting guide; portdash has no public home page to name instead). */
#define REPORT_TOOL_URI "https://docs.hpyproject.org/en/latest/porting-guide.html"

/* The version written in SARIF tool.driver.version and --version. */
#define REPORT_TOOL_VERSION "0.3.0"

#endif
