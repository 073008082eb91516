/*
 * sarif_write_int.h: inside the SARIF writer: what sarif_write.c (one
 * result per finding, the log) shares with sarif_write_group.c (one result
 * per function and class, and the cut to GitHub's limits),
 * sarif_write_fix.c and sarif_write_rules.c.  Not used outside them.
 */
#ifndef SARIF_WRITE_INT_H
#define SARIF_WRITE_INT_H

#include <jansson.h>

#include "report_fail.h"
#include "report_file.h"
#include "sarif_write.h"

/* Rule ids with results so far (pointers owned by the rules file or
 * static), and tool.driver.rules in the same order. */
typedef struct {
    const char **ids;
    size_t n, cap;
    json_t *rules;
} sw_rules;

/* What each class means for someone reading a code-scanning alert. */
extern const char *const sw_class_short[AN_CLASS_COUNT];

/* Index of rule `id` (of class cls) in tool.driver.rules, adding it; -1
 * on ENOMEM. */
long sw_rule_index(sw_rules *sr, const char *id, an_class cls);

/* `path` as a relative, percent-encoded URI reference; a new json string. */
json_t *sw_uri(const char *path);

/* The level of finding f: "error" when fail forbids it, "note" when
 * guarded or npy-legacy, else "warning" (a static string). */
const char *sw_level(const report_fail *fail, const an_finding *f);

/* 0 none, 1 note, 2 warning, 3 error; 0 for anything else. */
int sw_level_rank(const char *level);

/* 1 if finding k of rf is written under options o (class, level, and
 * rf->keep). */
int sw_wanted(const sarif_write_opts *o, const report_fail *fail,
                 const report_file *rf, size_t k);

/*
 * Append to `results` one result per (function, class) of file rf with
 * the findings o selects: its count, the identifiers used, the worst
 * level, at the first finding.  0 or PD_ENOMEM.
 */
int sw_group_file(const report_file *rf, sw_rules *sr, json_t *results,
                     const report_fail *fail, const sarif_write_opts *o);

/*
 * Keep at most `max` of `results`, the worst levels first, in their order;
 * omitted[rank] counts what was left out per level.  0 or PD_ENOMEM.
 */
int sw_cap(json_t *results, size_t max, size_t omitted[4]);

/*
 * The SARIF fix (3.55) of finding f of file rf when rf->fixes offers a
 * checked rewrite replacing it, else NULL: description, and one
 * artifactChange whose replacement has the exact deletedRegion (lines,
 * byte columns = characters of ASCII source, byteOffset/byteLength) and
 * the insertedContent.  *rule gets the rewrite's rule id.  A new reference.
 */
json_t *sw_fix(const report_file *rf, const an_finding *f, const char **rule);

/* The fixes (sw_fix) of the findings of rf in the chain from index head
 * (SIZE_MAX: none) through next[] (SIZE_MAX ends it), as a new array, or
 * NULL when there is none. */
json_t *sw_fixes_of(const report_file *rf, size_t head, const size_t *next);

/* A rule id as a readable PascalCase name ("capi-names-cpython" ->
 * "CapiNamesCpython"), which SARIF wants different from the id. */
void sw_rule_name(const char *id, char *buf, size_t cap);

#endif
