/*
 * scope.h: which paths of a repository are analysed.  A path is in scope
 * when its suffix is one of the C kinds of an_path_in_scope(), it matches at
 * least one include glob (when any is given), and it matches no exclude glob.
 *
 * Globs follow gitignore-style path matching: `*` and `?` never cross a `/`,
 * `**` matches any number of whole directories (numpy/core/ then `**`,
 * or `**` then /test_?.c), `[abc]` and `[a-z]` match one character of a set.
 */
#ifndef SCOPE_H
#define SCOPE_H

#include <stddef.h>

typedef struct {
    const char **include;   /* borrowed; NULL-free array of ninclude globs */
    size_t ninclude;
    const char **exclude;
    size_t nexclude;
} scope;

/* 1 if `path` matches `glob` (rules above), else 0. */
int scope_glob_match(const char *glob, const char *path);

/* 1 if `path` is in scope `s` (s may be NULL: default kinds only). */
int scope_contains(const scope *s, const char *path);

/* 1 if `path` matches the globs of `s` alone: some include (or none
 * given) and no exclude; the source-kind test of scope_contains is left
 * to the caller (stored paths passed it when they were ingested). */
int scope_globs_contain(const scope *s, const char *path);

/*
 * The scope as canonical JSON text ({"include":[...],"exclude":[...]}),
 * stored with a repository so later ingests keep to it.  Returns a new
 * string freed with free(), or NULL on allocation failure.
 */
char *scope_to_json(const scope *s);

#endif
