/*
 * report_fail.h: what a run forbids, --fail-on (report_fail.c).
 */
#ifndef REPORT_FAIL_H
#define REPORT_FAIL_H

#include <stddef.h>

#include "report_file.h"

/*
 * Parse one --fail-on word ("capi", "bridge", "npy-legacy", "hpy",
 * "object-legacy", "object-cpython-only", "object-universal"; a comma list
 * is several words) into *f.  Returns 0, or PD_EINVAL naming the word.
 */
int report_fail_parse(report_fail *f, const char *words);

/* 1 when finding x (of a file) is forbidden by f; 0 otherwise. */
int report_fail_finding(const report_fail *f, const an_finding *x);

/*
 * Count what f forbids in the n files: *findings, the unguarded findings of
 * a forbidden class, and *functions, the functions in a forbidden object
 * state (both 0 when f is NULL).  Kept apart so a message names each.
 */
void report_fail_count(const report_fail *f, const report_file *files, size_t n,
                       size_t *findings, size_t *functions);

#endif
