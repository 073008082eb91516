/*
 * pd_flow_chain.c: what the call graph's resolve (pd_flow.c) does once its
 * worklist is done: the functions a chain passes through, and the chains
 * that are CPython-only.
 */
#include <limits.h>

#include "pd_flow_int.h"

/* ---- a chain's functions are on it -------------------------------------- */

/* The argument of f's call at `line` of d's name that carries kind k into
 * d least deep; UINT_MAX when f has no such call (d was passed to a
 * callee as a visitor: fl_apply_cb). */
static unsigned fl_via_arg(const pd_flow *g, const fl_fn *f, uint32_t d, int k, uint32_t line)
{
    const fl_fn *e = &g->fn[d];
    const uint8_t *ed = k ? e->dF : e->dL;
    unsigned best = UINT_MAX, depth = FL_FAR;
    size_t j, a;

    for (j = f->call0; j < f->call0 + f->ncall; j++) {
        const fl_call *c = &g->call[j];

        if (c->callee != e->name || c->line != line)
            continue;
        for (a = 0; a < c->nargs && a < 16; a++)
            if (ed[a] < depth) {
                depth = ed[a];
                best = (unsigned)a;
            }
    }
    return best;
}

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

/*
 * A function whose chain to the items passes through a callee that has
 * not gained the kind itself (a helper more than one call from the item
 * site, which a caller with an object-dtype marker reaches through:
 * PyArray_TakeFrom -> npy_fasttake -> npy_fasttake_impl ->
 * array_clear_hpyfields_Item -> visit_item) makes that callee gain it, and
 * so on down the chain: the helper moves items whenever its caller is on
 * the object path, and a why that names it should find it there.  Each
 * step is one less deep, so the walk ends.
 */
int fl_close_chains(pd_flow *g)
{
    size_t r;
    int k, rc;

    for (r = 0; r < g->norder; r++) {
        uint32_t i = g->order[r];

        for (k = 0; k < 2; k++) {
            unsigned bit = k ? PD_FLOW_FIELD : PD_FLOW_LEGACY, p;
            const fl_fn *f = &g->fn[i];
            uint32_t d;

            if (!f->alive || !(f->kinds & bit) || f->via[k] < 0)
                continue;
            d = (uint32_t)f->via[k];
            if ((p = fl_via_arg(g, f, d, k, f->via_line[k])) == UINT_MAX)
                p = fl_least_param(k ? g->fn[d].dF : g->fn[d].dL);
            while (!(g->fn[d].kinds & bit)) {
                uint32_t next = 0, line = 0;
                unsigned a = 0;

                if ((rc = fl_param_source(g, d, k, p, &next, &line, &a)) < 0)
                    return rc;
                if (rc == 1) {
                    g->fn[d].kinds |= bit;      /* its own item site */
                    break;
                }
                fl_gain(&g->fn[d], k, next, line);
                d = next;
                p = a;
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
