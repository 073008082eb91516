/*
 * report_since.h: findings new since an earlier revision (report_since.c).
 */
#ifndef REPORT_SINCE_H
#define REPORT_SINCE_H

#include <stddef.h>

#include "report_file.h"

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

#endif
