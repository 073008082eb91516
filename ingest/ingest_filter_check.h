/*
 * ingest_filter_check.h: does a path filter given to ingest select any
 * file at a ref's tip?  A mistyped --include (numpy/cor/ and two stars) selected none
 * and the run still "succeeded": every commit recorded with no file, the
 * filter stored with the repository (so the corrected run was refused),
 * and the dashboard showed an empty port as 100 % done.  gate, analyze and
 * fix already refuse a --path that selects nothing (exit 2); so does
 * ingest now, before anything of a new repository is kept.
 */
#ifndef INGEST_FILTER_CHECK_H
#define INGEST_FILTER_CHECK_H

#include <git2.h>

#include "pathfilter.h"

/*
 * Whether `filter` selects at least one blob path of the tree of commit
 * `tip` in `repo` (pathfilter_contains: C source kinds, include and
 * exclude globs): 1 yes, 0 none, PD_EGIT when the tree cannot be read.
 * *nfiles (may be NULL) gets the count of blobs walked, for the message.
 * The walk stops at the first selected path.
 */
int ingest_filter_selects(git_repository *repo, const git_oid *tip, const pathfilter *filter,
                          size_t *nfiles);

#endif
