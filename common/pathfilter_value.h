/*
 * pathfilter_value.h: a path filter (pathfilter.h) as a value: compared by
 * what it selects, encoded to the JSON stored with a repository (the
 * `repos.scope` column, served as the `"scope"` field of GET
 * /api/v1/repos/{repo}) and read back from it (pathfilter_value.c).  The
 * JSON is made and read here only, at the edge where it is stored or
 * served; in between the filter stays typed.
 */
#ifndef PATHFILTER_VALUE_H
#define PATHFILTER_VALUE_H

#include "pathfilter.h"

/* A path filter that owns its globs (read back from JSON, or copied). */
typedef struct {
    pathfilter f;           /* f.include and f.exclude point into globs */
    char **globs;           /* owned: the include globs, then the exclude ones */
} pathfilter_owned;

/*
 * 1 when a and b select the same paths by their globs as written: the same
 * set of include globs and the same set of exclude globs.  Order and
 * repeats do not matter (a path is selected when it matches any include
 * and no exclude, an "or" on each side); NULL is the empty filter.  Globs
 * that differ in text but happen to match the same paths count as
 * different: deciding that is not worth a surprise.  Else 0.
 */
int pathfilter_equal(const pathfilter *a, const pathfilter *b);

/*
 * The filter as JSON text {"include":[...],"exclude":[...]}, the globs in
 * the order given (pf NULL: both empty), stored with a repository so later
 * ingests keep to it.  A new string freed with free(), or NULL on
 * allocation failure.
 */
char *pathfilter_to_json(const pathfilter *pf);

/*
 * Read the JSON of pathfilter_to_json back into *out (freed with
 * pathfilter_owned_free, also after a failure).  0, PD_EINVAL when `text`
 * is not an object with "include" and "exclude" arrays of strings (no
 * message set: the caller names what it read), PD_ENOMEM.
 */
int pathfilter_from_json(pathfilter_owned *out, const char *text);

/* Copy pf (NULL: the empty filter) into *out.  0 or PD_ENOMEM. */
int pathfilter_copy(pathfilter_owned *out, const pathfilter *pf);

/* Free what *o owns and empty it; accepts an emptied or zeroed one. */
void pathfilter_owned_free(pathfilter_owned *o);

#endif
