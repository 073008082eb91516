/*
 * api_wrap.c: legacy-facing wrappers (see api_wrap.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_wrap.h"
#include "db_findings.h"
#include "pd_error.h"

typedef struct {
    unsigned char *first;        /* result */
    unsigned char *seen;         /* a finding of the function came already */
    size_t n;
} wr_walk;

static int wr_finding(void *arg, const db_finding *f)
{
    wr_walk *w = arg;

    if (f->function < 0 || (size_t)f->function >= w->n || w->seen[f->function])
        return 0;
    w->seen[f->function] = 1;
    w->first[f->function] = strcmp(f->cls, "capi") == 0 || strcmp(f->cls, "npy-legacy") == 0;
    return 0;
}

int api_wrap_legacy_first(sqlite3 *db, int64_t analysis_id, unsigned char *legacy_first,
                          size_t nfn)
{
    wr_walk w = {legacy_first, calloc(nfn + 1, 1), nfn};
    int rc;

    memset(legacy_first, 0, nfn);
    if (!w.seen)
        return pd_error_nomem(NULL);
    rc = db_findings_each(db, analysis_id, wr_finding, &w);
    free(w.seen);
    return rc == PD_ENOTFOUND ? 0 : rc;
}
