/*
 * ingest_filter_dirs.c: a path filter's include globs as literal directories (see
 * ingest_filter_dirs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ingest_filter_dirs.h"
#include "pd_error.h"

/* Length of the literal directory of `glob` with its '/', 0 when none. */
static size_t ingest_filter_dir_len(const char *glob)
{
    size_t meta = strcspn(glob, "*?[");
    size_t i, len = 0;

    for (i = 0; i < meta; i++)
        if (glob[i] == '/')
            len = i + 1;
    return len;
}

void ingest_filter_dirs_free(char **dirs, size_t n)
{
    size_t i;

    for (i = 0; dirs && i < n; i++)
        free(dirs[i]);
    free(dirs);
}

int ingest_filter_dirs(const pathfilter *pf, char ***dirs, size_t *n)
{
    size_t i;

    *dirs = NULL;
    *n = 0;
    if (!pf || pf->ninclude == 0)
        return 0;
    for (i = 0; i < pf->ninclude; i++)
        if (ingest_filter_dir_len(pf->include[i]) == 0)
            return 0;
    if (!(*dirs = calloc(pf->ninclude, sizeof(char *))))
        return pd_error_nomem(NULL);
    for (i = 0; i < pf->ninclude; i++) {
        if (!((*dirs)[i] = strndup(pf->include[i], ingest_filter_dir_len(pf->include[i])))) {
            ingest_filter_dirs_free(*dirs, i);
            *dirs = NULL;
            return pd_error_nomem(NULL);
        }
    }
    *n = pf->ninclude;
    return 0;
}
