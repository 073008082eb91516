/*
 * pd_flow_res.c: the stored results of a resolved call graph and the graph
 * a reader rebuilds from them (pd_flow.h, "stored results").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define XXH_STATIC_LINKING_ONLY   /* XXH3_state_t on the stack */
#include <xxhash.h>

#include "pd_buf.h"
#include "pd_error.h"
#include "pd_flow_int.h"

int pd_flow_results_encode(const pd_flow *g, pd_buf *b)
{
    size_t r;
    int k;

    if (g->dirty || g->results)
        return pd_error_set(PD_EINVAL, "call graph results: the graph is not resolved");
    for (r = 0; r < g->norder; r++) {
        const fl_fn *x = &g->fn[g->order[r]];
        const fl_file *f = &g->file[x->file];
        char line[96];

        if (x->kinds == (x->local & (PD_FLOW_LEGACY | PD_FLOW_FIELD)))
            continue;
        snprintf(line, sizeof(line), "%016llx\t%u\t%u", (unsigned long long)*f->id,
                 (unsigned)(g->order[r] - f->fn0), x->kinds);
        pd_buf_puts(b, line);
        for (k = 0; k < 2; k++) {
            const fl_fn *d = x->via[k] >= 0 ? &g->fn[x->via[k]] : NULL;

            if (!d) {
                pd_buf_puts(b, "\t-\t\t\t");
                continue;
            }
            snprintf(line, sizeof(line), "\t%016llx\t%u\t%u\t",
                     (unsigned long long)*g->file[d->file].id,
                     (unsigned)((uint32_t)x->via[k] - g->file[d->file].fn0),
                     (unsigned)(x->via_line[k] - x->line));
            pd_buf_puts(b, line);
            pd_buf_puts(b, g->name[d->name].s);
        }
        pd_buf_put(b, "\n", 1);
    }
    return b->err ? pd_error_nomem("in the call graph's results") : 0;
}

/* One "LINE BITS" line [p, nl) of a file's stored functions: its own
 * bits, its first line into *line. */
static unsigned fl_fns_line(const char *p, const char *nl, uint32_t *line)
{
    unsigned local = 0;

    for (*line = 0; p < nl && *p >= '0' && *p <= '9'; p++)
        *line = *line * 10 + (uint32_t)(*p - '0');
    for (; p < nl; p++)
        local |= *p == 'L' ? PD_FLOW_LEGACY : *p == 'F' ? PD_FLOW_FIELD
                 : *p == 'C' ? PD_FLOW_CPYTHON : *p == 'M' ? PD_FLOW_MARKER : 0;
    return local;
}

int pd_flow_results_file(pd_flow *g, int64_t id, const char *path, const char *fns,
                         size_t len)
{
    const char *p = fns, *end = fns ? fns + len : NULL;
    uint32_t noname;
    fl_file *f;

    g->results = 1;
    if (!len)
        return 0;
    if (fl_file_get(g, id))
        return pd_error_set(PD_EINVAL, "call graph results: file %s given twice", path);
    if ((noname = fl_name_id(g, "", 0)) == UINT32_MAX || !(f = fl_file_add(g, id, path)))
        return pd_error_nomem("in the call graph");
    while (p < end) {                      /* "LINE BITS\n" */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        fl_fn *x;

        if (!nl)
            break;
        if (fl_grow((void **)&g->fn, &g->capfn, g->nfn + 1, sizeof(*g->fn)) < 0)
            return pd_error_nomem("in the call graph");
        x = &g->fn[g->nfn];
        memset(x, 0, sizeof(*x));
        x->file = (uint32_t)(f - g->file);
        x->name = noname;
        x->alive = 1;
        x->via[0] = x->via[1] = -1;
        x->local = fl_fns_line(p, nl, &x->line);
        x->kinds = x->local & (PD_FLOW_LEGACY | PD_FLOW_FIELD);
        g->nfn++;
        f->nfn++;
        p = nl + 1;
    }
    return 0;
}

/* Field i (0-based) of a tab-separated line: start and length. */
static int fl_field(const char *p, const char *e, int i, const char **s, size_t *n)
{
    for (; i > 0; i--) {
        const char *t = memchr(p, '\t', (size_t)(e - p));

        if (!t)
            return 0;
        p = t + 1;
    }
    {
        const char *t = memchr(p, '\t', (size_t)(e - p));

        *s = p;
        *n = (size_t)((t ? t : e) - p);
    }
    return 1;
}

/* Unsigned decimal or hex field (base); 0 when it is not one. */
static int fl_num(const char *p, const char *e, int i, int base, uint64_t *v)
{
    const char *s;
    size_t n, k;

    if (!fl_field(p, e, i, &s, &n) || !n || n > 16)
        return 0;
    for (*v = 0, k = 0; k < n; k++) {
        int c = s[k] >= '0' && s[k] <= '9' ? s[k] - '0'
                : base == 16 && s[k] >= 'a' && s[k] <= 'f' ? s[k] - 'a' + 10 : -1;

        if (c < 0)
            return 0;
        *v = *v * (uint64_t)base + (uint64_t)c;
    }
    return 1;
}

/* The function at (file key, idx) of a results graph, or NULL. */
static fl_fn *fl_res_at(pd_flow *g, uint64_t key, uint64_t idx)
{
    fl_file *f = fl_file_get(g, (int64_t)key);

    return f && idx < f->nfn ? &g->fn[f->fn0 + idx] : NULL;
}

/* One line [p, e) of the set. */
static int fl_res_line(pd_flow *g, const char *p, const char *e)
{
    uint64_t key, idx, kinds, v[3];
    fl_fn *x;
    int k;

    if (!fl_num(p, e, 0, 16, &key) || !fl_num(p, e, 1, 10, &idx) ||
        !fl_num(p, e, 2, 10, &kinds) || !(x = fl_res_at(g, key, idx)))
        return pd_error_set(PD_EINVAL, "call graph results: a line names no function");
    x->kinds = (unsigned)kinds;
    for (k = 0; k < 2; k++) {
        const char *name;
        size_t n;
        fl_fn *d;

        if (fl_field(p, e, 3 + 4 * k, &name, &n) && n == 1 && *name == '-')
            continue;
        if (!fl_num(p, e, 3 + 4 * k, 16, &v[0]) || !fl_num(p, e, 4 + 4 * k, 10, &v[1]) ||
            !fl_num(p, e, 5 + 4 * k, 10, &v[2]) || !fl_field(p, e, 6 + 4 * k, &name, &n) ||
            !(d = fl_res_at(g, v[0], v[1])))
            return pd_error_set(PD_EINVAL, "call graph results: a chain names no function");
        x->via[k] = (int32_t)(d - g->fn);
        x->via_line[k] = x->line + (uint32_t)v[2];
        if ((d->name = fl_name_id(g, name, n)) == UINT32_MAX)
            return pd_error_nomem("in the call graph");
    }
    return 0;
}

int pd_flow_results_apply(pd_flow *g, const char *text, size_t len)
{
    const char *p = text, *end = text ? text + len : NULL;
    int rc;

    g->results = 1;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));

        if (!nl)
            nl = end;
        if (nl > p && (rc = fl_res_line(g, p, nl)) < 0)
            return rc;
        p = nl + 1;
    }
    return 0;
}

int pd_flow_results_file_states(const char *fns, size_t fnslen, int64_t key,
                                const char *set, size_t setlen,
                                int64_t delta[PD_OBJ_COUNT], pd_objstate **states,
                                size_t *nstates)
{
    const char *p = fns, *end = fns ? fns + fnslen : NULL;
    fl_fn *x = NULL;
    size_t n = 0, cap = 0, i;

    memset(delta, 0, PD_OBJ_COUNT * sizeof(*delta));
    if (states) {
        *states = NULL;
        *nstates = 0;
    }
    while (p < end) {                      /* each function's own bits, by index */
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        uint32_t line;

        if (!nl)
            break;
        if (fl_grow((void **)&x, &cap, n + 1, sizeof(*x)) < 0) {
            free(x);
            return pd_error_nomem("in the call graph");
        }
        memset(&x[n], 0, sizeof(*x));
        x[n].local = fl_fns_line(p, nl, &line);
        x[n].kinds = x[n].local & (PD_FLOW_LEGACY | PD_FLOW_FIELD);   /* as a results graph */
        n++;
        p = nl + 1;
    }
    for (p = set, end = set ? set + setlen : NULL; p < end;) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        uint64_t k, idx, kinds;

        if (!nl)
            nl = end;
        /* The set names functions by index: one past the file's is a set
         * that does not fit these functions, skipped like a foreign line. */
        if (fl_num(p, nl, 0, 16, &k) && k == (uint64_t)key && fl_num(p, nl, 1, 10, &idx) &&
            idx < n && fl_num(p, nl, 2, 10, &kinds))
            x[idx].kinds = (unsigned)kinds;
        p = nl + 1;
    }
    for (i = 0; i < n; i++)
        fl_add_delta(&x[i], delta);
    if (states && n) {
        if (!(*states = malloc(n * sizeof(**states)))) {
            free(x);
            return pd_error_nomem("in the call graph");
        }
        for (i = 0; i < n; i++)
            (*states)[i] = fl_state(&x[i]);
        *nstates = n;
    }
    free(x);
    return 0;
}

int pd_flow_results_file_delta(const char *fns, size_t fnslen, int64_t key,
                               const char *set, size_t setlen, int64_t delta[PD_OBJ_COUNT])
{
    return pd_flow_results_file_states(fns, fnslen, key, set, setlen, delta, NULL, NULL);
}

uint64_t pd_flow_facts_hash(const char *text)
{
    XXH3_state_t xs;
    const char *p = text;

    /* XXH3 a few bytes a cycle; FNV-1a's byte-serial multiply was 1.4 % of
     * an ingest's CPU (issue 26).  The value never leaves the process. */
    XXH3_64bits_reset(&xs);
    while (p && *p) {                 /* one line: NAME \t LINE \t rest */
        const char *t1 = strchr(p, '\t'), *nl = strchr(p, '\n');
        const char *t2 = t1 && (!nl || t1 < nl) ? strchr(t1 + 1, '\t') : NULL;
        const char *end = nl ? nl + 1 : p + strlen(p);

        if (t2 && t2 < end) {         /* the name, then all after LINE */
            XXH3_64bits_update(&xs, p, (size_t)(t1 - p));
            XXH3_64bits_update(&xs, t2, (size_t)(end - t2));
        } else {
            XXH3_64bits_update(&xs, p, (size_t)(end - p));
        }
        p = end;
    }
    return XXH3_64bits_digest(&xs);
}
