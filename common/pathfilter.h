/*
 * pathfilter.h: the path filter: which paths of a repository are analysed
 * (ingest --include/--exclude, analyze and gate --path).  A path is selected
 * when its suffix is one of the C kinds of an_path_is_source(), it matches at
 * least one include glob (when any is given), and it matches no exclude glob.
 *
 * Globs follow gitignore-style path matching: `*` and `?` never cross a `/`,
 * `**` matches any number of whole directories (numpy/core/ then `**`,
 * or `**` then /test_?.c), `[abc]` and `[a-z]` match one character of a set.
 */
#ifndef PATHFILTER_H
#define PATHFILTER_H

#include <stddef.h>

typedef struct {
    const char **include;   /* borrowed; NULL-free array of ninclude globs */
    size_t ninclude;
    const char **exclude;
    size_t nexclude;
} pathfilter;

/* 1 if `path` matches `glob` (rules above), else 0. */
int pathfilter_glob_match(const char *glob, const char *path);

/* 1 if filter `s` selects `path` (s may be NULL: default kinds only). */
int pathfilter_contains(const pathfilter *s, const char *path);

/* 1 if `path` matches the globs of `s` alone: some include (or none
 * given) and no exclude; the source-kind test of pathfilter_contains is left
 * to the caller (stored paths passed it when they were ingested). */
int pathfilter_globs_contain(const pathfilter *s, const char *path);

/*
 * Why a filter that selected no file may have: the first include glob
 * that starts with './' or '/' (paths are relative to the repository's
 * root and start with neither) or that has no wildcard and names no C
 * source file (`src`, `numpy/core/src/npysort`: it selects only a file of
 * exactly that name, which is no directory's contents).  Writes the hint
 * into buf (cap bytes, NUL-terminated), the glob it means and why:
 * " (did you mean 'src/" then two stars "'? a glob without wildcards
 * names one file)", and returns 1; otherwise writes "" and returns 0.
 * The messages of analyze, fix, gate and ingest add it.
 */
int pathfilter_hint(const pathfilter *s, char *buf, size_t cap);

/* Equality, the stored JSON form and reading it back: pathfilter_value.h. */

#endif
