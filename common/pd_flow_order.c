/*
 * pd_flow_order.c: the path order a resolve walks the call graph in (see
 * pd_flow.c: which callee a chain names depends on the order the worklist
 * meets them, so the order must not depend on the order files were added).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_flow_int.h"

/* Files by path, then by index (qsort_r context). */
static int fl_file_cmp(const void *a, const void *b, void *arg)
{
    const pd_flow *g = arg;
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(g->file[x].path, g->file[y].path);

    return c ? c : (x > y) - (x < y);
}

static int fl_u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return (x > y) - (x < y);
}

/* rank[] and order[] for this resolve: files in path order, each file's
 * functions in index order.  0 or PD_ENOMEM. */
int fl_rank(pd_flow *g)
{
    size_t i, r = 0;

    if (fl_grow((void **)&g->rank, &g->caprank, g->nfn + 1, sizeof(*g->rank)) < 0 ||
        fl_grow((void **)&g->order, &g->caporder, g->nfn + 1, sizeof(*g->order)) < 0 ||
        fl_grow((void **)&g->fileorder, &g->capfileorder, g->nfile + 1,
                sizeof(*g->fileorder)) < 0)
        return pd_error_nomem("in the call graph");
    if (g->nfileorder != g->nfile) {      /* files are only ever added */
        for (i = 0; i < g->nfile; i++)
            g->fileorder[i] = (uint32_t)i;
        if (g->nfile > 1)
            qsort_r(g->fileorder, g->nfile, sizeof(*g->fileorder), fl_file_cmp, g);
        g->nfileorder = g->nfile;
    }
    for (i = 0; i < g->nfn; i++)
        g->rank[i] = UINT32_MAX;
    for (i = 0; i < g->nfile; i++) {
        const fl_file *f = &g->file[g->fileorder[i]];
        uint32_t j;

        for (j = f->fn0; j < f->fn0 + f->nfn; j++) {
            g->rank[j] = (uint32_t)r;
            g->order[r++] = j;
        }
    }
    g->norder = r;
    g->in_order = 1;
    for (i = 1; i < r && g->in_order; i++)
        g->in_order = g->order[i] > g->order[i - 1];
    g->gen++;
    return 0;
}

/* Sort a vector of (fn, call) pairs (pairs = 1) or of fns by path order,
 * dropping dead functions' entries (none reads them); a vector whose live
 * entries are in that order already (most: only replaced files' functions
 * move) is left as it is.
 * 0 or PD_ENOMEM. */
static int fl_sort_vec(const pd_flow *g, fl_vec *v, int pairs)
{
    size_t step = pairs ? 2 : 1, n = 0, i;
    uint64_t *k, last = 0;
    int sorted = 1, seen = 0;

    for (i = 0; i + step <= v->n && sorted; i += step) {
        uint64_t r = (uint64_t)g->rank[v->v[i]] << 32 | (pairs ? v->v[i + 1] : 0);

        if (g->rank[v->v[i]] == UINT32_MAX)
            continue;                /* dead: skipped by every reader */
        sorted = !seen || r > last;
        last = r;
        seen = 1;
    }
    if (sorted)
        return 0;
    if (!(k = malloc(v->n / step * sizeof(*k))))
        return pd_error_nomem("in the call graph");
    for (i = 0; i + step <= v->n; i += step)
        if (g->rank[v->v[i]] != UINT32_MAX)
            k[n++] = (uint64_t)g->rank[v->v[i]] << 32 | (pairs ? v->v[i + 1] : 0);
    qsort(k, n, sizeof(*k), fl_u64_cmp);
    for (i = 0; i < n; i++) {
        v->v[i * step] = g->order[k[i] >> 32];
        if (pairs)
            v->v[i * step + 1] = (uint32_t)k[i];
    }
    v->n = n * step;
    free(k);
    return 0;
}

/* Put name nm's call sites (calls, or only its definitions: defs = 1) in
 * path order for this resolve (already so when the functions are and no
 * vector was ever sorted: they are pushed in index order).  0 or
 * PD_ENOMEM. */
int fl_in_order(pd_flow *g, fl_name *nm, int defs)
{
    uint32_t *stamp = defs ? &nm->dstamp : &nm->stamp;
    int rc;

    if ((g->in_order && !g->sorted) || *stamp == g->gen)
        return 0;
    g->sorted = 1;
    if ((rc = fl_sort_vec(g, &nm->defs, 0)) < 0 ||
        (!defs && ((rc = fl_sort_vec(g, &nm->calls, 1)) < 0 ||
                   (rc = fl_sort_vec(g, &nm->cbs, 1)) < 0)))
        return rc;
    nm->dstamp = g->gen;
    if (!defs)
        nm->stamp = g->gen;
    return 0;
}
