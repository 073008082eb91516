/*
 * pd_flow_keep.c: when pd_flow_set_file replaces a file, the functions
 * whose name and facts are those of one of the file's old functions take
 * the old function's parsed facts instead of reading their text again.
 *
 * Why: an ingest replaces a file in the graph at every commit that
 * changes its facts, and such a commit changes one function or a few;
 * reading every function's facts again (a SipHash lookup for each callee
 * and named argument) was 7 % of the CPU of an ingest of numpy/core
 * (issue 26).  A copy gives what reading the same text gives: the facts
 * depend on the text alone but for the calls' lines, which are stored as
 * offsets from the function's first line in the text and so move with it.
 * Equal keys stand for equal texts: XXH3-128 of both, seeded per graph.
 */
#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY   /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "pd_error.h"
#include "pd_flow_int.h"

/* Most keys in one call: a seeded streaming hash sets up its secret and
 * state, about 650 instructions a function (0.6 % of an ingest's,
 * 2026-12-07), where the one-shot hash of the same bytes, the same value,
 * takes a copy of them. */
#define FL_KEY_ONESHOT 512

void fl_fn_key(const pd_flow_fn *fn, uint64_t seed, uint64_t key[2])
{
    XXH3_state_t xs;
    XXH128_hash_t h;
    const char *name = fn->name ? fn->name : "", *flow = fn->flow ? fn->flow : "";
    size_t nl = strlen(name) + 1, fl = strlen(flow);    /* the NUL parts them */

    if (nl + fl <= FL_KEY_ONESHOT) {
        char b[FL_KEY_ONESHOT];

        memcpy(b, name, nl);
        memcpy(b + nl, flow, fl);
        h = XXH3_128bits_withSeed(b, nl + fl, seed);
    } else {
        XXH3_128bits_reset_withSeed(&xs, seed);
        XXH3_128bits_update(&xs, name, nl);
        XXH3_128bits_update(&xs, flow, fl);
        h = XXH3_128bits_digest(&xs);
    }
    key[0] = h.low64;
    key[1] = h.high64;
}

void fl_old_free(fl_old *o)
{
    free(o->fn);
    free(o->call);
    free(o->arg);
    free(o->slot);
    memset(o, 0, sizeof(*o));
}

int fl_old_take(const pd_flow *g, const fl_file *f, fl_old *o)
{
    size_t nc = 0, na = 0, i, size = 16;
    uint32_t k;

    memset(o, 0, sizeof(*o));
    for (k = f->fn0; k < f->fn0 + f->nfn; k++) {
        const fl_fn *y = &g->fn[k];

        if (!y->alive)
            continue;
        o->nfn++;
        nc += y->ncall;
        for (i = y->call0; i < y->call0 + y->ncall; i++)
            na += g->call[i].nargs;
    }
    if (!o->nfn)
        return 0;
    while (size < 2 * o->nfn)
        size *= 2;
    if (!(o->fn = malloc(o->nfn * sizeof(*o->fn))) ||
        !(o->call = malloc((nc ? nc : 1) * sizeof(*o->call))) ||
        !(o->arg = malloc((na ? na : 1) * sizeof(*o->arg))) ||
        !(o->slot = calloc(size, sizeof(*o->slot))))
        return pd_error_nomem("in the call graph");
    o->mask = size - 1;
    o->nfn = nc = na = 0;
    for (k = f->fn0; k < f->fn0 + f->nfn; k++) {
        const fl_fn *y = &g->fn[k];
        fl_fn *c;

        if (!y->alive)
            continue;
        c = &o->fn[o->nfn];
        *c = *y;
        c->call0 = (uint32_t)nc;
        for (i = y->call0; i < y->call0 + y->ncall; i++) {
            fl_call *d = &o->call[nc++];

            *d = g->call[i];
            memcpy(&o->arg[na], &g->arg[d->arg0], d->nargs * sizeof(*o->arg));
            d->arg0 = (uint32_t)na;
            na += d->nargs;
        }
        for (i = (size_t)c->key[0] & o->mask; o->slot[i]; i = (i + 1) & o->mask)
            ;
        o->slot[i] = (uint32_t)++o->nfn;
    }
    return 0;
}

int32_t fl_old_find(const fl_old *o, const uint64_t key[2])
{
    size_t i;

    if (!o->nfn)
        return -1;
    for (i = (size_t)key[0] & o->mask; o->slot[i]; i = (i + 1) & o->mask) {
        const fl_fn *y = &o->fn[o->slot[i] - 1];

        if (y->key[0] == key[0] && y->key[1] == key[1])
            return (int32_t)(o->slot[i] - 1);
    }
    return -1;
}

/* The order of fl_read_facts: the function's definition, then for each
 * call its named arguments' callback entries and its callee's call
 * entry. */
int fl_old_copy(pd_flow *g, const fl_old *o, int32_t j, fl_fn *x, uint32_t fi)
{
    const fl_fn *y = &o->fn[j];
    uint32_t k, a;

    x->name = y->name;
    x->eL = y->eL;
    x->eF = y->eF;
    x->own = y->own;
    if (fl_push(&g->name[x->name].defs, fi) < 0)
        return PD_ENOMEM;
    x->call0 = (uint32_t)g->ncall;
    for (k = 0; k < y->ncall; k++) {
        const fl_call *oc = &o->call[y->call0 + k];
        fl_call *c;

        if (fl_grow((void **)&g->call, &g->capcall, g->ncall + 1, sizeof(*g->call)) < 0 ||
            fl_grow((void **)&g->arg, &g->caparg, g->narg + oc->nargs, sizeof(*g->arg)) < 0)
            return PD_ENOMEM;
        c = &g->call[g->ncall];
        memset(c, 0, sizeof(*c));
        c->callee = oc->callee;
        c->line = x->line + (oc->line - y->line);      /* modulo 2^32, as read */
        c->arg0 = (uint32_t)g->narg;
        for (a = 0; a < oc->nargs; a++) {
            g->arg[g->narg] = o->arg[oc->arg0 + a];
            if (fl_add_arg(g, c, fi) < 0)
                return PD_ENOMEM;
        }
        if (fl_add_call(g, x, fi) < 0)
            return PD_ENOMEM;
    }
    return 0;
}
