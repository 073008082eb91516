/*
 * ingest_filter_dirs.h: the directories a path filter's include globs are confined
 * to, as literal paths for a libgit2 pathspec, so that the planner's tree
 * diff need not read the trees outside them (ingest_plan.c).
 */
#ifndef INGEST_FILTER_DIRS_H
#define INGEST_FILTER_DIRS_H

#include <stddef.h>

#include "pathfilter.h"

/*
 * The literal directory of each include glob of `pf`: its text up to the
 * last '/' before the first glob character ('*', '?', '[', pathfilter.h), with
 * that '/' kept so that libgit2 matches a directory only
 * ("numpy/core/" for numpy/core/ followed by **, "a/" for a/b*.c).  Every path
 * the filter selects lies under one of them.  When the filter has no
 * include glob, or one include glob has no such directory ("**" + "/x.c",
 * "*.c"), the answer is no directories (*n = 0: the whole tree).  *dirs
 * is owned by the caller, freed with ingest_filter_dirs_free().  0, or
 * PD_ENOMEM.
 */
int ingest_filter_dirs(const pathfilter *pf, char ***dirs, size_t *n);

/* Free what ingest_filter_dirs() returned (accepts NULL). */
void ingest_filter_dirs_free(char **dirs, size_t n);

#endif
