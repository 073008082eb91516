/*
 * q_symbols.c: the symbols with blocking uses at a commit, and one
 * symbol's sites (q_symbols.h), from the walk in q_symbols_walk.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "q_symbols.h"
#include "analyzer/analyzer.h"

/* One use kept for counting: its symbol, file, function, walk order. */
typedef struct {
    char *text;
    const char *cls;             /* static: "capi" or "bridge" */
    int64_t file_seq, fn;
    size_t idx;
} q_sym_one;

/* The uses of a walk. */
typedef struct {
    q_sym_one *v;
    size_t n, cap;
} q_sym_uses;

/* q_sym_cb: one use kept. */
static int q_sym_keep(void *arg, const q_sym_use *u)
{
    q_sym_uses *l = arg;
    q_sym_one *o;

    if (l->n == l->cap) {
        q_sym_one *p = realloc(l->v, (l->cap = l->cap ? l->cap * 2 : 256) * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        l->v = p;
    }
    o = &l->v[l->n];
    if (!(o->text = strdup(u->text)))
        return pd_error_nomem(NULL);
    o->cls = strcmp(u->cls, "capi") == 0 ? "capi" : "bridge";
    o->file_seq = u->file_seq;
    o->fn = u->fn;
    o->idx = l->n++;
    return 0;
}

/* By symbol, file, function, then walk order. */
static int q_sym_one_order(const void *a, const void *b)
{
    const q_sym_one *x = a, *y = b;
    int c = strcmp(x->text, y->text);

    if (c)
        return c;
    if (x->file_seq != y->file_seq)
        return x->file_seq < y->file_seq ? -1 : 1;
    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Most uses first, then by name, so the order is stable. */
static int q_sym_row_order(const void *a, const void *b)
{
    const q_symbol_row *x = a, *y = b;

    if (x->uses != y->uses)
        return x->uses > y->uses ? -1 : 1;
    return strcmp(x->symbol, y->symbol);
}

/* Count the sorted uses [i, j) of one symbol into row r (the text moves). */
static void q_sym_count(q_sym_one *v, size_t i, size_t j, q_symbol_row *r)
{
    size_t k, first = i;

    memset(r, 0, sizeof(*r));
    r->symbol = v[i].text;
    v[i].text = NULL;
    for (k = i; k < j; k++) {
        int new_file = k == i || v[k].file_seq != v[k - 1].file_seq;

        r->uses++;
        r->files += new_file;
        if (v[k].fn >= 0 && (new_file || v[k].fn != v[k - 1].fn))
            r->functions++;
        if (v[k].idx < v[first].idx)
            first = k;
    }
    r->cls = v[first].cls;
}

/* The kept uses grouped into s->v, sorted. */
static int q_sym_group(q_sym_uses *l, q_symbols *s)
{
    size_t i, j;

    if (l->n)                   /* qsort takes no NULL, even for none */
        qsort(l->v, l->n, sizeof(*l->v), q_sym_one_order);
    if (!(s->v = calloc(l->n ? l->n : 1, sizeof(*s->v))))
        return pd_error_nomem(NULL);
    for (i = 0; i < l->n; i = j) {
        for (j = i + 1; j < l->n && strcmp(l->v[j].text, l->v[i].text) == 0; j++)
            ;
        q_sym_count(l->v, i, j, &s->v[s->n]);
        s->uses_total += s->v[s->n++].uses;
    }
    if (s->n)
        qsort(s->v, s->n, sizeof(*s->v), q_sym_row_order);
    return 0;
}

void q_symbols_free(q_symbols *s)
{
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->n; i++)
        free(s->v[i].symbol);
    free(s->v);
    free(s->scope);
    free(s);
}

int q_symbols_get(sqlite3 *db, const q_at *at, const db_scope *sc, q_symbols **out)
{
    q_symbols *s = calloc(1, sizeof(*s));
    q_sym_uses l = {NULL, 0, 0};
    size_t i;
    int rc;

    *out = NULL;
    if (!s || !(s->scope = strdup(sc->name))) {
        q_symbols_free(s);
        return pd_error_nomem(NULL);
    }
    memcpy(s->commit, at->oid, sizeof(s->commit));
    if ((rc = q_symbols_walk(db, at, sc, 0, q_sym_keep, &l)) == 0)
        rc = q_sym_group(&l, s);
    for (i = 0; i < l.n; i++)
        free(l.v[i].text);
    free(l.v);
    if (rc < 0) {
        q_symbols_free(s);
        return rc;
    }
    *out = s;
    return 0;
}

/* ---------- one symbol ---------- */

/* One symbol's walk: which file and function were seen last. */
typedef struct {
    q_symbol *s;
    int64_t last_seq;
    int64_t *fns;                /* function indices seen in this file */
    size_t nfns, capfns;
} q_sym_site_walk;

/* Whether function fn was seen in this file; noted if not.  -1 on ENOMEM. */
static int q_sym_fn_seen(q_sym_site_walk *w, int64_t fn)
{
    size_t i;

    for (i = 0; i < w->nfns; i++)
        if (w->fns[i] == fn)
            return 1;
    if (w->nfns == w->capfns) {
        int64_t *p = realloc(w->fns, (w->capfns = w->capfns ? w->capfns * 2 : 16)
                             * sizeof(*p));

        if (!p)
            return -1;
        w->fns = p;
    }
    w->fns[w->nfns++] = fn;
    return 0;
}

/* Room for one more site. */
static q_site *q_sym_site_slot(q_symbol *s)
{
    if (s->nsites == s->capsites) {
        q_site *p = realloc(s->sites, (s->capsites = s->capsites ? s->capsites * 2 : 64)
                            * sizeof(*p));

        if (!p)
            return NULL;
        s->sites = p;
    }
    memset(&s->sites[s->nsites], 0, sizeof(q_site));
    return &s->sites[s->nsites++];
}

/* q_sym_cb: a use of the symbol kept as a site, and counted. */
static int q_sym_site(void *arg, const q_sym_use *u)
{
    q_sym_site_walk *w = arg;
    q_symbol *s = w->s;
    q_site *site;
    int seen;

    if (strcmp(u->text, s->symbol) != 0)
        return 0;
    if (!s->cls)
        s->cls = strcmp(u->cls, "capi") == 0 ? "capi" : "bridge";
    if (u->file_seq != w->last_seq) {
        s->files++;
        w->last_seq = u->file_seq;
        w->nfns = 0;
    }
    if (u->fn >= 0) {
        if ((seen = q_sym_fn_seen(w, u->fn)) < 0)
            return pd_error_nomem(NULL);
        s->functions += !seen;
    }
    if (!(site = q_sym_site_slot(s)) || !(site->path = strdup(u->path)) ||
        (u->fn_name && !(site->function = strdup(u->fn_name))))
        return pd_error_nomem(NULL);
    site->line = u->line;
    site->column = u->column;
    site->function_line = u->fn_line;
    return 0;
}

void q_symbol_free(q_symbol *s)
{
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->nsites; i++) {
        free(s->sites[i].path);
        free(s->sites[i].function);
    }
    free(s->sites);
    free(s->scope);
    free(s->symbol);
    free(s);
}

/* "capi" or "bridge" when the built-in rules class `name` so, else NULL. */
static const char *q_sym_known(const char *name)
{
    const rules *rl = rules_default();
    rules_verdict v = {RULES_CLS_UNSET, NULL};

    if (rl)
        rules_classify(rl, name, strlen(name), &v);
    return v.cls == AN_CLASS_CAPI ? "capi" : v.cls == AN_CLASS_BRIDGE ? "bridge" : NULL;
}

int q_symbol_get(sqlite3 *db, const q_at *at, const db_scope *sc, const char *symbol,
                 q_symbol **out)
{
    q_symbol *s = calloc(1, sizeof(*s));
    q_sym_site_walk w = {s, -1, NULL, 0, 0};
    int rc;

    *out = NULL;
    if (!s || !(s->scope = strdup(sc->name)) || !(s->symbol = strdup(symbol))) {
        q_symbol_free(s);
        return pd_error_nomem(NULL);
    }
    memcpy(s->commit, at->oid, sizeof(s->commit));
    rc = q_symbols_walk(db, at, sc, 0, q_sym_site, &w);
    free(w.fns);
    /* no use: the class the rules give the name, or no such name */
    if (rc == 0 && !s->nsites && !(s->cls = q_sym_known(symbol)))
        rc = pd_error_set(PD_ENOTFOUND, "no blocking use of '%.200s' here, and the "
                          "built-in rules class no C API or bridge name so (the list "
                          "without a symbol gives the names in use)", symbol);
    if (rc < 0) {
        q_symbol_free(s);
        return rc;
    }
    *out = s;
    return 0;
}
