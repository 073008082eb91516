/*
 * ingest_scope_dirs.h: the directories a scope's include globs are confined
 * to, as literal paths for a libgit2 pathspec, so that the planner's tree
 * diff need not read the trees outside them (ingest_plan.c).
 */
#ifndef INGEST_SCOPE_DIRS_H
#define INGEST_SCOPE_DIRS_H

#include <stddef.h>

#include "scope.h"

/*
 * The literal directory of each include glob of `sc`: its text up to the
 * last '/' before the first glob character ('*', '?', '[', scope.h), with
 * that '/' kept so that libgit2 matches a directory only
 * ("numpy/core/" for numpy/core/ followed by **, "a/" for a/b*.c).  Every path
 * the scope contains lies under one of them.  When the scope has no
 * include glob, or one include glob has no such directory ("**" + "/x.c",
 * "*.c"), the answer is no directories (*n = 0: the whole tree).  *dirs
 * is owned by the caller, freed with ingest_scope_dirs_free().  0, or
 * PD_ENOMEM.
 */
int ingest_scope_dirs(const scope *sc, char ***dirs, size_t *n);

/* Free what ingest_scope_dirs() returned (accepts NULL). */
void ingest_scope_dirs_free(char **dirs, size_t n);

#endif
