/*
 * report.h: writing analyses (analyze.h) as text, JSON, a function list or
 * SARIF 2.1.0, for `portdash analyze` and CI bots.  Nothing here touches a
 * database: the input is a list of (path, result) pairs.
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "analyze.h"

/* One analysed file: `path` is repository- or cwd-relative, as printed. */
typedef struct {
    const char *path;
    const an_result *res;
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
 * triple within the function, so moving code up or down keeps it.
 * Returns 0, PD_ENOMEM or PD_EIO.
 */
int report_sarif(FILE *out, const report_file *files, size_t n,
                 const rules *r, const report_fail *f);

/* The version written in SARIF tool.driver.version and --version. */
#define REPORT_TOOL_VERSION "0.3.0"

#endif
