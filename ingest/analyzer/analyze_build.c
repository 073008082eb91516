/*
 * analyze_build.c: building the result while the tokens go by
 * (analyze_build.h): the text pool, findings, functions and their macros.
 * Every step of the walk calls these; they call nothing of the walk.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "pd_error.h"

/* Note interned offset off for the chunk the memo records. */
static void an_ilog_add(an_internlog *l, uint32_t off)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        uint32_t *p = realloc(l->v, cap * sizeof(*p));

        if (!p) {
            l->failed = 1;
            return;
        }
        l->v = p;
        l->cap = cap;
    }
    l->v[l->n++] = off;
}

static int an_grow(an_state *st, void **arr, size_t *cap, size_t n, size_t sz)
{
    void *p;
    size_t c;

    if (n < *cap)
        return 0;
    c = *cap ? *cap * 2 : 64;
    if (!(p = realloc(*arr, c * sz)))
        return st->rc = pd_error_nomem("analysing");
    *arr = p;
    *cap = c;
    return 0;
}

/* Double the intern table; 0 or PD_ENOMEM. */
static int an_itab_grow(an_state *st)
{
    size_t cap = st->itab ? (st->itab_mask + 1) * 2 : 256, i, j;
    struct an_itab *t = calloc(cap, sizeof(*t));

    if (!t)
        return st->rc = pd_error_nomem("analysing");
    for (i = 0; st->itab && i <= st->itab_mask; i++) {
        if (!st->itab[i].len)
            continue;
        for (j = st->itab[i].hash & (cap - 1); t[j].len; j = (j + 1) & (cap - 1))
            ;
        t[j] = st->itab[i];
    }
    free(st->itab);
    st->itab = t;
    st->itab_mask = cap - 1;
    return 0;
}

/* Intern s[0..len) (len > 0) in the pool; *off gets its offset.  Returns 0
 * or PD_ENOMEM. */
int an_intern(an_state *st, const char *s, size_t len, uint32_t *off)
{
    uint32_t h = rules_hash_name(s, len);
    size_t i;

    if ((st->itab_n + 1) * 2 > (st->itab ? st->itab_mask + 1 : 0) &&
        an_itab_grow(st))
        return st->rc;
    for (i = h & st->itab_mask; st->itab[i].len; i = (i + 1) & st->itab_mask) {
        if (st->itab[i].hash == h && st->itab[i].len == len &&
            memcmp(st->pool + st->itab[i].off, s, len) == 0) {
            *off = st->itab[i].off;
            if (st->ilog)
                an_ilog_add(st->ilog, *off);
            return 0;
        }
    }
    while (st->pool_cap - st->pool_len < len + 1) {
        size_t cap = st->pool_cap ? st->pool_cap * 2 : 4096;
        char *p = realloc(st->pool, cap);

        if (!p)
            return st->rc = pd_error_nomem("analysing");
        st->pool = p;
        st->pool_cap = cap;
    }
    memcpy(st->pool + st->pool_len, s, len);
    st->pool[st->pool_len + len] = '\0';
    st->itab[i].off = *off = (uint32_t)st->pool_len;
    st->itab[i].len = (uint32_t)len;
    st->itab[i].hash = h;
    st->itab_n++;
    st->pool_len += len + 1;
    if (st->ilog)
        an_ilog_add(st->ilog, *off);
    return 0;
}

/* Count finding fi for function fn (tokens, unguarded, item flags). */
void an_assign(an_state *st, size_t fi, int32_t fn)
{
    an_finding *f = &st->res->findings[fi];
    an_facc *a = &st->facc[fn];

    /* A finding belongs to at most one function, which exists already. */
    assert(fi < st->res->nfindings && fn >= 0 && (size_t)fn < st->res->nfunctions);
    assert(f->function < 0 && f->cls < AN_CLASS_COUNT);
    f->function = fn;
    st->res->functions[fn].tokens[f->cls]++;
    if (f->guarded)
        return;
    a->unguarded[f->cls]++;
    if (st->fmeta[fi].kind == AN_FK_ITEM) {
        if (f->cls == AN_CLASS_CAPI || f->cls == AN_CLASS_NPY_LEGACY)
            a->item_legacy = 1;
        else
            a->item_field = 1;
    }
}

/*
 * Add a finding of class v at line:column with the given text, kept in
 * (line, column) order: item findings can come after the tokens they
 * precede, so they are inserted, not appended.  It belongs to the open
 * function unless it comes from a #define (define = 1).
 */
size_t an_add_finding(an_state *st, uint32_t line, uint32_t column,
                      rules_verdict v, const char *text, size_t len,
                      int kind, const rules_name *cond, int define)
{
    an_result *res = st->res;
    size_t i = res->nfindings;
    size_t capf = st->capf;
    uint32_t off;
    an_finding *f;

    if (st->rc || an_intern(st, text, len, &off) ||
        an_grow(st, (void **)&res->findings, &st->capf, i, sizeof(*f)) ||
        an_grow(st, (void **)&st->fmeta, &capf, i, sizeof(*st->fmeta)))
        return SIZE_MAX;
    while (i > 0 && (res->findings[i - 1].line > line ||
                     (res->findings[i - 1].line == line &&
                      res->findings[i - 1].column > column)))
        i--;
    if (i < res->nfindings) {
        memmove(&res->findings[i + 1], &res->findings[i],
                (res->nfindings - i) * sizeof(*f));
        memmove(&st->fmeta[i + 1], &st->fmeta[i],
                (res->nfindings - i) * sizeof(*st->fmeta));
    }
    res->nfindings++;
    f = &res->findings[i];
    f->line = line;
    f->column = column;
    f->cls = (an_class)v.cls;
    f->rule = v.id;
    f->text = NULL;
    f->function = -1;
    f->guarded = st->guard > 0;
    st->fmeta[i].text_off = off;
    st->fmeta[i].kind = (uint8_t)kind;
    st->fmeta[i].define = (uint8_t)define;
    st->fmeta[i].cond = cond;
    st->fmeta[i].reason_off = UINT32_MAX;
    f->reason = NULL;
    res->tokens[v.cls]++;
    if (!f->guarded)
        st->file_unguarded[v.cls]++;
    if (st->cur >= 0 && !define)
        an_assign(st, i, st->cur);
    return i;
}

/* Give finding fi (an index an_add_finding returned just now) a reason. */
void an_set_reason(an_state *st, size_t fi, const char *fmt, ...)
{
    char buf[256];
    va_list ap;
    int n;
    uint32_t off;

    if (fi >= st->res->nfindings)
        return;
    va_start(ap, fmt);
    n = vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= sizeof(buf))
        n = (int)sizeof(buf) - 1;
    if (!an_intern(st, buf, (size_t)n, &off))
        st->fmeta[fi].reason_off = off;
}

/* Start function `name` at start_line; returns its index or -1. */
int32_t an_new_function(an_state *st, const char *name, size_t len,
                        uint32_t start_line)
{
    an_result *res = st->res;
    size_t capfn = st->capfn;
    an_function *fn;
    an_facc *a;
    uint32_t off;

    if (st->rc || an_intern(st, name, len, &off) ||
        an_grow(st, (void **)&res->functions, &st->capfn, res->nfunctions,
                sizeof(*fn)) ||
        an_grow(st, (void **)&st->facc, &capfn, res->nfunctions,
                sizeof(*a)))
        return -1;
    fn = &res->functions[res->nfunctions];
    memset(fn, 0, sizeof(*fn));
    fn->start_line = start_line;
    fn->object_state = AN_OBJ_NONE;
    a = &st->facc[res->nfunctions];
    memset(a, 0, sizeof(*a));
    a->name_off = off;
    a->objname = (uint8_t)rules_objfunc(st->r, st->pool + off);
    a->macro_off = UINT32_MAX;
    return (int32_t)res->nfunctions++;
}

/* Function fn's name was made by macro name[0..len) (see analyze.h). */
void an_set_macro(an_state *st, int32_t fn, const char *name, size_t len)
{
    uint32_t off;

    if (fn >= 0 && !an_intern(st, name, len, &off))
        st->facc[fn].macro_off = off;
}

/* Status from class counts: the domain core's rule. */
