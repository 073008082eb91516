/*
 * ingest_scope_dirs.c: a scope's include globs as literal directories (see
 * ingest_scope_dirs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "ingest_scope_dirs.h"
#include "pd_error.h"

/* Length of the literal directory of `glob` with its '/', 0 when none. */
static size_t ingest_scope_dir_len(const char *glob)
{
    size_t meta = strcspn(glob, "*?[");
    size_t i, len = 0;

    for (i = 0; i < meta; i++)
        if (glob[i] == '/')
            len = i + 1;
    return len;
}

void ingest_scope_dirs_free(char **dirs, size_t n)
{
    size_t i;

    for (i = 0; dirs && i < n; i++)
        free(dirs[i]);
    free(dirs);
}

int ingest_scope_dirs(const scope *sc, char ***dirs, size_t *n)
{
    size_t i;

    *dirs = NULL;
    *n = 0;
    if (!sc || sc->ninclude == 0)
        return 0;
    for (i = 0; i < sc->ninclude; i++)
        if (ingest_scope_dir_len(sc->include[i]) == 0)
            return 0;
    if (!(*dirs = calloc(sc->ninclude, sizeof(char *))))
        return pd_error_nomem(NULL);
    for (i = 0; i < sc->ninclude; i++) {
        if (!((*dirs)[i] = strndup(sc->include[i], ingest_scope_dir_len(sc->include[i])))) {
            ingest_scope_dirs_free(*dirs, i);
            *dirs = NULL;
            return pd_error_nomem(NULL);
        }
    }
    *n = sc->ninclude;
    return 0;
}
