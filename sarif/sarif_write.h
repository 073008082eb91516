/*
 * sarif_write.h: writing analyses as SARIF 2.1.0 (sarif_write.c, with
 * sarif_write_group.c, sarif_write_fix.c and sarif_write_rules.c): the
 * writer half of sarif/, above report/ whose analysed files (report_file.h)
 * and --fail-on (report_fail.h) it reads; `portdash analyze --format sarif`
 * calls it.
 */
#ifndef SARIF_WRITE_H
#define SARIF_WRITE_H

#include <stdio.h>

#include "report_file.h"

/*
 * GitHub code scanning's limits on an uploaded SARIF file, from "SARIF
 * results exceed one or more limits" and "SARIF file is too large"
 * (docs.github.com/en/code-security/code-scanning/troubleshooting-sarif-
 * uploads/results-exceed-limit and .../file-too-large): at most 20 runs per
 * file, 25,000 results per run (of which the top 5,000 by severity are
 * shown), 25,000 rules per run, 1,000 locations per result, and 10 MB
 * gzip-compressed.  portdash writes one run, one location per result.
 */
#define SARIF_WRITE_MAX_RESULTS 25000
#define SARIF_WRITE_SHOWN_RESULTS 5000
#define SARIF_WRITE_MAX_GZIP ((size_t)10 << 20)

/* How findings become SARIF results. */
typedef enum {
    SARIF_WRITE_AUTO = 0,      /* one per finding if that fits, else per function */
    SARIF_WRITE_FINDING,       /* one result per finding */
    SARIF_WRITE_FUNCTION       /* one per function and class, with counts */
} sarif_write_group;

typedef struct {
    sarif_write_group group;
    unsigned classes;           /* bit per an_class; 0: capi, npy-legacy, bridge */
    int min_level;              /* lowest level written: 1 note, 2 warning,
                                   3 error; 0: 1 */
    size_t max_results;         /* 0: SARIF_WRITE_MAX_RESULTS */
    FILE *note;                 /* gets a statement of what was grouped or left
                                   out and the sizes against GitHub's limits;
                                   NULL: none */
    const char *since;          /* the files' keep marks are "new since" this
                                   rev (report_new_since); named in properties */
} sarif_write_opts;

/*
 * sarif_write with options (NULL: the defaults).  The run's properties
 * "portdash/sarif" say what was done: {"findings": selected findings,
 * "filtered": findings left out by class or level, "grouping": "finding"
 * or "function", "results", "omitted": results cut to max_results,
 * "omittedByLevel": {...}, "maxResults"}.  Returns 0, PD_ENOMEM, PD_EIO.
 */
int sarif_write_ex(FILE *out, const report_file *files, size_t n, const rules *r,
                    const report_fail *f, const sarif_write_opts *o);


/*
 * Parse a --sarif-classes list ("capi,bridge") into a class bit set, or a
 * --sarif-level word (note, warning, error) into 1-3.  0 or PD_EINVAL.
 */
int sarif_write_classes(unsigned *out, const char *words);
int sarif_write_level(int *out, const char *word);

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
 * function and class instead (sarif_write_ex with the defaults).
 * Returns 0, PD_ENOMEM or PD_EIO.
 */
int sarif_write(FILE *out, const report_file *files, size_t n,
                 const rules *r, const report_fail *f);

#endif
