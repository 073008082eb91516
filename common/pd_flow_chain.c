/*
 * pd_flow_chain.c: what the call graph's resolve (pd_flow.c) does once its
 * worklist is done: the functions a chain passes through, and the chains
 * that are CPython-only.
 */
#include <limits.h>

#include "pd_flow_int.h"

/* ---- a chain's functions are on it -------------------------------------- */

/* d's parameter that carries kind k least deep. */
static unsigned fl_least_param(const uint8_t *dd)
{
    unsigned p = 0, k;

    for (k = 1; k < 16; k++)
        if (dd[k] < dd[p])
            p = k;
    return p;
}

/*
 * Where function fi's parameter p gets its depth for kind k: the first of
 * its calls (body order, a name's definitions in path order) that passes p
 * to a definition one less deep at that argument.  The callee in *d, the
 * call's line in *line, the argument in *arg: 0.  1 when the parameter's
 * item site is fi's own (depth 0) or it has none; PD_ENOMEM.
 */
static int fl_param_source(pd_flow *g, uint32_t fi, int k, unsigned p, uint32_t *d,
                           uint32_t *line, unsigned *arg)
{
    const fl_fn *f = &g->fn[fi];
    unsigned want = (k ? f->dF : f->dL)[p];
    size_t j, a, x;
    int rc;

    if (want == 0 || want > FL_LIMIT)
        return 1;
    for (j = f->call0; j < f->call0 + f->ncall; j++) {
        const fl_call *c = &g->call[j];
        fl_name *n = &g->name[c->callee];

        for (a = 0; a < c->nargs && a < 16; a++) {
            const fl_arg *y = &g->arg[c->arg0 + a];

            if (y->type != 'p' || y->param != p)
                continue;
            if (n->defs.n > 1 && (rc = fl_in_order(g, n, 1)) < 0)
                return rc;
            for (x = 0; x < n->defs.n; x++) {
                uint32_t di = n->defs.v[x];
                const fl_fn *e = &g->fn[di];

                if (e->alive && fl_reaches(g, f, di) && (k ? e->dF : e->dL)[a] + 1u == want) {
                    *d = di;
                    *line = c->line;
                    *arg = (unsigned)a;
                    return 0;
                }
            }
        }
    }
    return 1;
}

/* Callee d, which a gaining call reaches through its parameter p, and the
 * helpers below it gain kind k down to the item site.  Each step is one
 * less deep, so the walk ends.  0 or PD_ENOMEM. */
static int fl_close_from(pd_flow *g, uint32_t d, int k, unsigned p)
{
    unsigned bit = k ? PD_FLOW_FIELD : PD_FLOW_LEGACY;
    int rc;

    while (!(g->fn[d].kinds & bit)) {
        uint32_t next = 0, line = 0;
        unsigned a = 0;

        if ((rc = fl_param_source(g, d, k, p, &next, &line, &a)) < 0)
            return rc;
        if (rc == 1) {
            g->fn[d].kinds |= bit;              /* its own item site */
            break;
        }
        fl_gain(&g->fn[d], k, next, line);
        d = next;
        p = a;
    }
    return 0;
}

/* One gaining chain of f's: its first callee, the argument it carries the
 * kind through (UINT_MAX: a visitor), the call's line and the chain's
 * depth below the callee. */
typedef struct {
    uint32_t d, line;
    unsigned arg, depth;
} fl_link;

/* Call `fn` for each callee through which a call of function fi gains
 * kind k, as fl_apply and fl_apply_cb (pd_flow.c) decide it: an argument
 * the callee carries to an item site, no deeper than one call or with an
 * object-dtype marker in either, or the callee handed as a visitor to one
 * of the revision's functions.  0, fn's non-zero return, or PD_ENOMEM. */
static int fl_each_link(pd_flow *g, uint32_t fi, int k,
                        int (*fn)(pd_flow *g, uint32_t fi, int k, const fl_link *l, void *arg),
                        void *arg)
{
    size_t j, a, x;
    int rc;

    for (j = g->fn[fi].call0; j < g->fn[fi].call0 + g->fn[fi].ncall; j++) {
        const fl_call *c = &g->call[j];

        for (a = 0; a <= c->nargs; a++) {
            /* a == nargs: the callee; else a visitor argument */
            int visitor = a < c->nargs;
            uint32_t nm = !visitor ? c->callee
                          : g->arg[c->arg0 + a].type == 'i' &&
                            fl_callee_defined(g, c) ? g->arg[c->arg0 + a].name : UINT32_MAX;
            fl_name *n = nm == UINT32_MAX ? NULL : &g->name[nm];

            if (n && n->defs.n > 1 && (rc = fl_in_order(g, n, 1)) < 0)
                return rc;
            for (x = 0; n && x < n->defs.n; x++) {
                uint32_t di = n->defs.v[x];
                const fl_fn *f = &g->fn[fi], *e = &g->fn[di];
                const uint8_t *ed = k ? e->dF : e->dL;
                fl_link l = { di, c->line, UINT_MAX, FL_FAR };
                size_t b;

                if (!e->alive || !fl_reaches(g, f, di))
                    continue;
                if (visitor) {
                    l.depth = fl_min_depth(ed);
                } else {
                    for (b = 0; b < c->nargs && b < 16; b++)
                        if (ed[b] < l.depth &&
                            (ed[b] <= 1 || ((f->local | e->local) & PD_FLOW_MARKER))) {
                            l.depth = ed[b];
                            l.arg = (unsigned)b;
                        }
                }
                if (l.depth <= FL_LIMIT && (rc = fn(g, fi, k, &l, arg)) != 0)
                    return rc;
            }
        }
    }
    return 0;
}

/* fl_each_link: close the chain below the callee. */
static int fl_close_link(pd_flow *g, uint32_t fi, int k, const fl_link *l, void *arg)
{
    const fl_fn *e = &g->fn[l->d];

    (void)fi;
    (void)arg;
    return fl_close_from(g, l->d, k, l->arg != UINT_MAX ? l->arg
                         : fl_least_param(k ? e->dF : e->dL));
}

/* fl_each_link: keep the shortest chain (the first of equals, in body
 * order) in *arg. */
static int fl_short_link(pd_flow *g, uint32_t fi, int k, const fl_link *l, void *arg)
{
    fl_link *best = arg;

    (void)g;
    (void)fi;
    (void)k;
    if (l->depth < best->depth)
        *best = *l;
    return 0;
}

/*
 * After the worklist, two things for each function that gained a kind
 * through its calls:
 *
 * - Every helper a gaining chain passes through gains it too, down to the
 *   item site.  A caller with an object-dtype marker reaches the items
 *   through helpers more than one call from the site, which had no state
 *   of their own: PyArray_TakeFrom -> npy_fasttake -> npy_fasttake_impl ->
 *   array_clear_hpyfields_Item -> visit_item left npy_fasttake stateless.
 *   The helper moves items whenever such a caller is on the object path.
 * - Its why is its shortest chain, not the first the worklist met:
 *   array_deepcopy copies its items through _deepcopy_call (the item site
 *   itself), and frees an iterator whose buffers hold them two calls down;
 *   the why named the iterator.
 */
int fl_close_chains(pd_flow *g)
{
    size_t r;
    int k, rc;

    /* A function with a gaining link has the kind (the worklist gave it):
     * only those (about 300 of numpy/core's 10,000) are walked, at each of
     * the ingest's resolves. */
    for (r = 0; r < g->norder; r++)
        for (k = 0; k < 2; k++) {
            const fl_fn *f = &g->fn[g->order[r]];

            if (f->alive && (f->kinds & (k ? PD_FLOW_FIELD : PD_FLOW_LEGACY)) &&
                (rc = fl_each_link(g, g->order[r], k, fl_close_link, NULL)) < 0)
                return rc;
        }
    for (r = 0; r < g->norder; r++) {
        fl_fn *f = &g->fn[g->order[r]];

        for (k = 0; k < 2; k++) {
            fl_link best = { 0, 0, UINT_MAX, FL_FAR };

            if (!f->alive || f->via[k] < 0)
                continue;               /* its own item site, or none */
            if ((rc = fl_each_link(g, g->order[r], k, fl_short_link, &best)) < 0)
                return rc;
            if (best.depth <= FL_LIMIT) {
                f->via[k] = (int32_t)best.d;
                f->via_line[k] = best.line;
            }
        }
    }
    return 0;
}

/* ---- CPython-only chains ------------------------------------------------ */

/* 1 when call c of f reaches HPyField items through callee d (an argument
 * d acts on, or d passed as a visitor). */
static int fl_gives_field(const pd_flow *g, const fl_call *c, const fl_fn *d, uint32_t di)
{
    size_t j;

    if (g->fn[di].name == c->callee) {
        for (j = 0; j < c->nargs && j < 16; j++)
            if (d->dF[j] <= FL_LIMIT)
                return 1;
        return 0;
    }
    return fl_min_depth(d->dF) <= FL_LIMIT;
}

/*
 * The worst state along a chain: a function whose HPyField items are
 * reached through a callee that is CPython-only is CPython-only too
 * (array_items_visit walks a structured dtype's fields through visit_item,
 * which needs PyDict_Next).  Iterated to its fixed point over the
 * functions that reach HPyField items.
 */
int fl_cpython_chains(pd_flow *g)
{
    int changed = 1, rc;
    size_t r, i, j, a, k;

    while (changed) {
        changed = 0;
        for (r = 0; r < g->norder; r++) {
            fl_fn *f = &g->fn[i = g->order[r]];

            if (!f->alive || !(f->kinds & PD_FLOW_FIELD) || fl_cpython(f))
                continue;
            for (j = f->call0; j < f->call0 + f->ncall && !fl_cpython(f); j++) {
                const fl_call *c = &g->call[j];

                for (a = 0; a <= c->nargs && !fl_cpython(f); a++) {
                    /* a == nargs: the callee; else a visitor argument */
                    uint32_t nm = a == c->nargs ? c->callee
                                  : g->arg[c->arg0 + a].type == 'i' &&
                                    fl_callee_defined(g, c) ? g->arg[c->arg0 + a].name
                                  : UINT32_MAX;
                    fl_name *n = nm == UINT32_MAX ? NULL : &g->name[nm];

                    /* only the order of two or more definitions matters */
                    if (n && n->defs.n > 1 && (rc = fl_in_order(g, n, 1)) < 0)
                        return rc;
                    for (k = 0; n && k < n->defs.n; k++) {
                        uint32_t di = n->defs.v[k];
                        const fl_fn *d = &g->fn[di];

                        if (di != i && d->alive && fl_reaches(g, f, di) && fl_cpython(d) &&
                            (d->kinds & PD_FLOW_FIELD) && fl_gives_field(g, c, d, di)) {
                            f->kinds |= PD_FLOW_CPYCHAIN;
                            f->via[1] = (int32_t)di;      /* the chain says why */
                            f->via_line[1] = c->line;
                            changed = 1;
                            break;
                        }
                    }
                }
            }
        }
    }
    return 0;
}
