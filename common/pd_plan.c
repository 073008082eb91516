/*
 * pd_plan.c: a porting order from the call graph (see pd_plan.h).
 */
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_plan.h"

typedef struct {
    uint32_t a, b;          /* caller, callee */
} pl_edge;

struct pd_plan {
    size_t nfn, nfiles;
    uint32_t *file;         /* per function */
    unsigned char *blocking;
    unsigned char *file_blocked;
    uint32_t *fblock;       /* blocking functions per file */
    pl_edge *e;
    size_t ne, cap;
    /* after finish: callees and callers in CSR form */
    size_t *out0, *in0;     /* nfn + 1 offsets */
    uint32_t *out, *in;
    uint32_t *nblock;       /* blocking callees per function */
};

int pd_plan_new(pd_plan **out, size_t nfn, size_t nfiles)
{
    pd_plan *p = calloc(1, sizeof(*p));

    *out = NULL;
    if (!p)
        return pd_error_nomem(NULL);
    p->nfn = nfn;
    p->nfiles = nfiles;
    p->file = calloc(nfn + 1, sizeof(*p->file));
    p->blocking = calloc(nfn + 1, 1);
    p->file_blocked = calloc(nfiles + 1, 1);
    p->fblock = calloc(nfiles + 1, sizeof(*p->fblock));
    if (!p->file || !p->blocking || !p->file_blocked || !p->fblock) {
        pd_plan_free(p);
        return pd_error_nomem(NULL);
    }
    *out = p;
    return 0;
}

void pd_plan_free(pd_plan *p)
{
    if (!p)
        return;
    free(p->file);
    free(p->blocking);
    free(p->file_blocked);
    free(p->fblock);
    free(p->e);
    free(p->out0);
    free(p->in0);
    free(p->out);
    free(p->in);
    free(p->nblock);
    free(p);
}

void pd_plan_set_fn(pd_plan *p, size_t i, uint32_t file, int blocking)
{
    if (i >= p->nfn || file >= p->nfiles)
        return;
    if (p->blocking[i])
        p->fblock[p->file[i]]--;
    p->file[i] = file;
    p->blocking[i] = blocking != 0;
    p->fblock[file] += p->blocking[i];
}

void pd_plan_set_file_blocked(pd_plan *p, uint32_t file)
{
    if (file < p->nfiles)
        p->file_blocked[file] = 1;
}

int pd_plan_add_edge(pd_plan *p, size_t caller, size_t callee)
{
    if (caller == callee || caller >= p->nfn || callee >= p->nfn)
        return 0;
    if (p->ne == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 1024;
        pl_edge *v = realloc(p->e, cap * sizeof(*v));

        if (!v)
            return pd_error_nomem(NULL);
        p->e = v;
        p->cap = cap;
    }
    p->e[p->ne].a = (uint32_t)caller;
    p->e[p->ne++].b = (uint32_t)callee;
    return 0;
}

static int pl_edge_cmp(const void *x, const void *y)
{
    const pl_edge *a = x, *b = y;

    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

int pd_plan_finish(pd_plan *p)
{
    size_t i, n = 0;

    if (p->ne)
        qsort(p->e, p->ne, sizeof(*p->e), pl_edge_cmp);
    for (i = 0; i < p->ne; i++)          /* a repeated edge counts once */
        if (!n || p->e[n - 1].a != p->e[i].a || p->e[n - 1].b != p->e[i].b)
            p->e[n++] = p->e[i];
    p->ne = n;
    p->out0 = calloc(p->nfn + 1, sizeof(*p->out0));
    p->in0 = calloc(p->nfn + 1, sizeof(*p->in0));
    p->out = malloc((n + 1) * sizeof(*p->out));
    p->in = malloc((n + 1) * sizeof(*p->in));
    p->nblock = calloc(p->nfn + 1, sizeof(*p->nblock));
    if (!p->out0 || !p->in0 || !p->out || !p->in || !p->nblock)
        return pd_error_nomem(NULL);
    for (i = 0; i < n; i++) {
        p->out0[p->e[i].a + 1]++;
        p->in0[p->e[i].b + 1]++;
        p->nblock[p->e[i].a] += p->blocking[p->e[i].b];
    }
    for (i = 0; i < p->nfn; i++) {
        p->out0[i + 1] += p->out0[i];
        p->in0[i + 1] += p->in0[i];
    }
    {
        size_t *fill = calloc(p->nfn + 1, sizeof(*fill));

        if (!fill)
            return pd_error_nomem(NULL);
        for (i = 0; i < n; i++) {
            p->out[i] = p->e[i].b;          /* sorted by caller */
            p->in[p->in0[p->e[i].b] + fill[p->e[i].b]++] = p->e[i].a;
        }
        free(fill);
    }
    return 0;
}

size_t pd_plan_blocking_callees(const pd_plan *p, size_t i)
{
    return i < p->nfn && p->nblock ? p->nblock[i] : 0;
}

size_t pd_plan_unblocks(const pd_plan *p, size_t f)
{
    size_t k, n = 0;

    if (f >= p->nfn || !p->blocking[f] || p->nblock[f])
        return 0;
    for (k = p->in0[f]; k < p->in0[f + 1]; k++)
        n += p->blocking[p->in[k]] && p->nblock[p->in[k]] == 1;
    return n;
}

size_t pd_plan_files_ready(const pd_plan *p, size_t f)
{
    if (f >= p->nfn || !p->blocking[f] || p->nblock[f])
        return 0;
    return p->fblock[p->file[f]] == 1 && !p->file_blocked[p->file[f]];
}

/* ---- plans ------------------------------------------------------------- */

/* Tarjan's strongly connected components over the blocking functions that
 * `in` marks, iteratively (call chains can be long).  comp[v] gets the
 * component, numbered callees first (Tarjan's order); returns how many. */
typedef struct {
    const pd_plan *p;
    const unsigned char *in;
    uint32_t *idx, *low, *comp, *stack, *cstack;
    size_t *edge;
    unsigned char *on;
    uint32_t next, ncomp;
    size_t sp, csp;
} pl_tarjan;

static void pl_strong(pl_tarjan *t, uint32_t root)
{
    const pd_plan *p = t->p;

    t->idx[root] = t->low[root] = ++t->next;
    t->stack[t->sp++] = root;
    t->on[root] = 1;
    t->cstack[t->csp++] = root;
    t->edge[root] = p->out0[root];
    while (t->csp) {
        uint32_t v = t->cstack[t->csp - 1];

        if (t->edge[v] < p->out0[v + 1]) {
            uint32_t w = p->out[t->edge[v]++];

            if (!t->in[w])
                continue;
            if (!t->idx[w]) {
                t->idx[w] = t->low[w] = ++t->next;
                t->stack[t->sp++] = w;
                t->on[w] = 1;
                t->cstack[t->csp++] = w;
                t->edge[w] = p->out0[w];
            } else if (t->on[w] && t->idx[w] < t->low[v]) {
                t->low[v] = t->idx[w];
            }
            continue;
        }
        t->csp--;
        if (t->csp && t->low[v] < t->low[t->cstack[t->csp - 1]])
            t->low[t->cstack[t->csp - 1]] = t->low[v];
        if (t->low[v] == t->idx[v]) {
            uint32_t w;

            do {
                w = t->stack[--t->sp];
                t->on[w] = 0;
                t->comp[w] = t->ncomp;
            } while (w != v);
            t->ncomp++;
        }
    }
}

/* Sorting steps: level, then rank, then index. */
typedef struct {
    uint32_t fn, level;
    uint64_t rank;
} pl_key;

static int pl_key_cmp(const void *x, const void *y)
{
    const pl_key *a = x, *b = y;

    if (a->level != b->level)
        return a->level < b->level ? -1 : 1;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return a->fn < b->fn ? -1 : a->fn > b->fn;
}

void pd_plan_result_free(pd_plan_result *r)
{
    size_t i;

    for (i = 0; r->steps && i < r->nsteps; i++) {
        free(r->steps[i].unblocks);
        free(r->steps[i].files_ready);
    }
    free(r->steps);
    memset(r, 0, sizeof(*r));
}

/* Mark the target's blocking functions and every blocking function they
 * reach into in[]; the list of them into list (returns how many). */
static size_t pl_closure(const pd_plan *p, const size_t *target, size_t n, unsigned char *in,
                         uint32_t *list, size_t *ntarget)
{
    size_t i, k, len = 0, head = 0;

    *ntarget = 0;
    for (i = 0; i < n; i++)
        if (target[i] < p->nfn && p->blocking[target[i]] && !in[target[i]]) {
            in[target[i]] = 1;
            list[len++] = (uint32_t)target[i];
        }
    *ntarget = len;
    while (head < len) {
        uint32_t v = list[head++];

        for (k = p->out0[v]; k < p->out0[v + 1]; k++)
            if (p->blocking[p->out[k]] && !in[p->out[k]]) {
                in[p->out[k]] = 1;
                list[len++] = p->out[k];
            }
    }
    return len;
}

/* Append x to a growing array of n elements of size sz. */
static int pl_append(void *arrp, size_t *n, size_t sz, const void *x)
{
    char **arr = arrp;
    char *v = realloc(*arr, (*n + 1) * sz);

    if (!v)
        return pd_error_nomem(NULL);
    memcpy(v + *n * sz, x, sz);
    *arr = v;
    (*n)++;
    return 0;
}

/* Walk the sorted steps: what each one unblocks and makes ready. */
static int pl_simulate(const pd_plan *p, pd_plan_result *r, const unsigned char *in,
                       const uint32_t *comp)
{
    uint32_t *rem = calloc(p->nfn + 1, sizeof(*rem)), *fleft = malloc((p->nfiles + 1) *
                                                                       sizeof(*fleft));
    unsigned char *done = calloc(p->nfn + 1, 1);
    size_t s, k;
    int rc = 0;

    if (!rem || !fleft || !done)
        rc = pd_error_nomem(NULL);
    for (s = 0; rc == 0 && s < r->nsteps; s++) {
        uint32_t v = (uint32_t)r->steps[s].fn;

        for (k = p->out0[v]; k < p->out0[v + 1]; k++)
            rem[v] += p->blocking[p->out[k]] && comp[p->out[k]] != comp[v];
    }
    if (rc == 0)
        memcpy(fleft, p->fblock, p->nfiles * sizeof(*fleft));
    for (s = 0; rc == 0 && s < r->nsteps; s++) {
        pd_plan_step *st = &r->steps[s];
        uint32_t v = (uint32_t)st->fn, f = p->file[v];

        done[v] = 1;
        for (k = p->in0[v]; rc == 0 && k < p->in0[v + 1]; k++) {
            uint32_t c = p->in[k];
            size_t cc = c;

            if (!in[c] || done[c] || comp[c] == comp[v])
                continue;
            if (--rem[c] == 0)
                rc = pl_append(&st->unblocks, &st->nunblocks, sizeof(size_t), &cc);
        }
        if (rc == 0 && --fleft[f] == 0 && !p->file_blocked[f])
            rc = pl_append(&st->files_ready, &st->nfiles_ready, sizeof(uint32_t), &f);
    }
    free(rem);
    free(fleft);
    free(done);
    return rc;
}

/* The level of each component (components come callees first: a level
 * is one more than the highest level of a callee in another component),
 * visiting functions by component number so a callee's level is final
 * before any caller reads it.  0 or -1 (out of memory). */
static int pl_levels(const pd_plan *p, const pl_tarjan *t, const uint32_t *list, size_t len,
                     uint32_t *clevel)
{
    uint32_t *byc = malloc((len + 1) * sizeof(*byc));
    size_t *cnt = calloc(t->ncomp + 2, sizeof(*cnt)), i, k;

    if (!byc || !cnt) {
        free(byc);
        free(cnt);
        return -1;
    }
    for (i = 0; i < len; i++)
        cnt[t->comp[list[i]] + 1]++;
    for (i = 0; i < t->ncomp; i++)
        cnt[i + 1] += cnt[i];
    for (i = 0; i < len; i++)
        byc[cnt[t->comp[list[i]]]++] = list[i];
    for (i = 0; i < len; i++) {
        uint32_t v = byc[i];

        for (k = p->out0[v]; k < p->out0[v + 1]; k++) {
            uint32_t w = p->out[k];

            if (t->in[w] && t->comp[w] != t->comp[v] && clevel[t->comp[w]] + 1 > clevel[t->comp[v]])
                clevel[t->comp[v]] = clevel[t->comp[w]] + 1;
        }
    }
    free(byc);
    free(cnt);
    return 0;
}

int pd_plan_make(const pd_plan *p, const size_t *target, size_t n, const uint64_t *rank,
                 pd_plan_result *out)
{
    pl_tarjan t;
    unsigned char *in = calloc(p->nfn + 1, 1);
    uint32_t *list = malloc((p->nfn + 1) * sizeof(*list)), *clevel = NULL;
    pl_key *keys = NULL;
    size_t len = 0, i, k;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    memset(&t, 0, sizeof(t));
    t.p = p;
    t.in = in;
    t.idx = calloc(p->nfn + 1, sizeof(uint32_t));
    t.low = calloc(p->nfn + 1, sizeof(uint32_t));
    t.comp = calloc(p->nfn + 1, sizeof(uint32_t));
    t.stack = malloc((p->nfn + 1) * sizeof(uint32_t));
    t.cstack = malloc((p->nfn + 1) * sizeof(uint32_t));
    t.edge = malloc((p->nfn + 1) * sizeof(size_t));
    t.on = calloc(p->nfn + 1, 1);
    if (!in || !list || !t.idx || !t.low || !t.comp || !t.stack || !t.cstack || !t.edge ||
        !t.on) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    len = pl_closure(p, target, n, in, list, &out->ntarget);
    out->nbeyond = len - out->ntarget;
    for (i = 0; i < len; i++)
        if (!t.idx[list[i]])
            pl_strong(&t, list[i]);
    clevel = calloc(t.ncomp + 1, sizeof(*clevel));
    keys = malloc((len + 1) * sizeof(*keys));
    if (!clevel || !keys || pl_levels(p, &t, list, len, clevel) < 0) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    for (i = 0; i < len; i++) {
        keys[i].fn = list[i];
        keys[i].level = clevel[t.comp[list[i]]];
        keys[i].rank = rank ? rank[list[i]] : list[i];
    }
    qsort(keys, len, sizeof(*keys), pl_key_cmp);
    if (!(out->steps = calloc(len + 1, sizeof(*out->steps)))) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    out->nsteps = len;
    for (i = 0; i < len; i++) {
        out->steps[i].fn = keys[i].fn;
        out->steps[i].level = keys[i].level;
        /* in a cycle: its component has another member */
        for (k = p->out0[keys[i].fn]; k < p->out0[keys[i].fn + 1]; k++)
            if (in[p->out[k]] && t.comp[p->out[k]] == t.comp[keys[i].fn])
                out->steps[i].cycle = 1;
    }
    rc = pl_simulate(p, out, in, t.comp);
done:
    if (rc < 0)
        pd_plan_result_free(out);
    free(in);
    free(list);
    free(clevel);
    free(keys);
    free(t.idx);
    free(t.low);
    free(t.comp);
    free(t.stack);
    free(t.cstack);
    free(t.edge);
    free(t.on);
    return rc;
}
