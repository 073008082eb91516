/*
 * pd_flow_walk.c: what the call graph's passes share (pd_flow_int.h): the
 * path order they walk in (ranks, call sites and definitions sorted by
 * it), and the steps of a chain (which definition a call reaches, a
 * parameter's depth, a kind gained).  pd_flow.c's worklist and
 * pd_flow_chain.c's closures both take them from here.
 */
#include <stdlib.h>
#include <string.h>

#include "pd_flow_int.h"

/* ---- path order ------------------------------------------------------- */

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

/* ---- the steps of a chain ---------------------------------------------- */

/* 1 when the call of name `nm` in function f may reach definition d:
 * a file that defines the name calls its own definition. */
int fl_reaches(const pd_flow *g, const fl_fn *f, uint32_t d)
{
    const fl_name *nm = &g->name[g->fn[d].name];
    size_t k;

    if (g->fn[d].file == f->file)
        return 1;
    for (k = 0; k < nm->defs.n; k++)
        if (g->fn[nm->defs.v[k]].alive && g->fn[nm->defs.v[k]].file == f->file)
            return 0;
    return 1;
}

/* Least depth over the parameters in mask m of d[]. */
unsigned fl_min_depth(const uint8_t *d)
{
    unsigned m = FL_FAR;
    int k;

    for (k = 0; k < 16; k++)
        if (d[k] < m)
            m = d[k];
    return m;
}

/* f reaches kind k (0 legacy, 1 field) through callee d at line. */
void fl_gain(fl_fn *f, int k, uint32_t d, uint32_t line)
{
    unsigned bit = k ? PD_FLOW_FIELD : PD_FLOW_LEGACY;

    if (f->kinds & bit)
        return;
    f->kinds |= bit;
    f->via[k] = (int32_t)d;
    f->via_line[k] = line;
}

/* 1 when call ci's callee is one of the revision's functions: only such a
 * receiver makes a function handed to it a visitor (one handed to dladdr
 * or qsort is not known to be called with items; numpy's check_callers
 * takes &PyArray_INCREF to find its library). */
int fl_callee_defined(const pd_flow *g, const fl_call *c)
{
    return g->name[c->callee].defs.n > 0;
}
