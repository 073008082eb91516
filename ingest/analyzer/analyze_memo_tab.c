/*
 * analyze_memo_tab.c: the chunk memo's table (analyze_memo_tab.h), in shards
 * by key: lookup by 128-bit key, a bound in bytes kept by dropping each
 * shard's least recently used entries, the counters; and an_result_diff, which the memo's tests and
 * `portdash analyze --blobs` with PORTDASH_MEMO_CHECK use to compare a
 * result through the memo with a plain one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_memo_tab.h"
#include "pd_error.h"

int an_memo_new(an_memo **out, const rules *r, size_t max_bytes)
{
    an_memo *m = calloc(1, sizeof(*m));
    unsigned k;

    *out = NULL;
    if (!m)
        return pd_error_nomem(NULL);
    m->r = r;
    m->nshards = 1;
    while (m->nshards < AN_MEMO_SHARDS && max_bytes / (2 * m->nshards) >= AN_MEMO_SHARD_MIN)
        m->nshards *= 2;
    for (k = 0; k < m->nshards; k++) {
        an_mshard *sh = &m->sh[k];

        if (!(sh->tab = calloc(1024, sizeof(*sh->tab)))) {
            an_memo_free(m);
            return pd_error_nomem(NULL);
        }
        sh->mask = 1023;
        /* the bound split evenly, the remainder to the first shard */
        sh->max = max_bytes / m->nshards + (k ? 0 : max_bytes % m->nshards);
        pthread_mutex_init(&sh->mu, NULL);
    }
    *out = m;
    return 0;
}

void an_memo_free(an_memo *m)
{
    an_mentry *e, *next;
    unsigned k;

    if (!m)
        return;
    for (k = 0; k < m->nshards; k++) {
        an_mshard *sh = &m->sh[k];

        if (!sh->tab)
            continue;
        for (e = sh->head; e; e = next) {
            next = e->next;
            free(e);
        }
        free(sh->tab);
        pthread_mutex_destroy(&sh->mu);
    }
    free(m);
}

void an_memo_stats_get(an_memo *m, an_memo_stats *s)
{
    unsigned k;

    memset(s, 0, sizeof(*s));
    for (k = 0; k < m->nshards; k++) {
        an_mshard *sh = &m->sh[k];

        pthread_mutex_lock(&sh->mu);
        s->lookups += sh->s.lookups;
        s->hits += sh->s.hits;
        s->hit_bytes += sh->s.hit_bytes;
        s->stored += sh->s.stored;
        s->evicted += sh->s.evicted;
        s->bytes += sh->s.bytes;
        pthread_mutex_unlock(&sh->mu);
    }
}

size_t an_memo_env_bytes(void)
{
    const char *v = getenv("PORTDASH_MEMO_MB");
    char *endp;
    unsigned long mb;

    if (!v || !*v)
        return AN_MEMO_DEFAULT_BYTES;
    mb = strtoul(v, &endp, 10);
    return *endp ? AN_MEMO_DEFAULT_BYTES : (size_t)mb << 20;
}

static void an_lru_unlink(an_mshard *sh, an_mentry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        sh->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        sh->tail = e->prev;
    e->prev = e->next = NULL;
}

static void an_lru_front(an_mshard *sh, an_mentry *e)
{
    e->next = sh->head;
    e->prev = NULL;
    if (sh->head)
        sh->head->prev = e;
    sh->head = e;
    if (!sh->tail)
        sh->tail = e;
}

an_mentry *an_memo_find(an_memo *m, uint64_t lo, uint64_t hi)
{
    const an_mshard *sh = an_memo_shard(m, hi);
    an_mentry *e;

    for (e = sh->tab[lo & sh->mask]; e; e = e->hnext)
        if (e->k_lo == lo && e->k_hi == hi)
            return e;
    return NULL;
}

static void an_memo_drop(an_mshard *sh, an_mentry *e)
{
    an_mentry **pp = &sh->tab[e->k_lo & sh->mask];

    while (*pp != e)
        pp = &(*pp)->hnext;
    *pp = e->hnext;
    an_lru_unlink(sh, e);
    sh->s.bytes -= e->bytes;
    sh->n--;
    sh->s.evicted++;
    an_memo_release(NULL, e);  /* the table's reference */
}

void an_memo_release(an_memo *m, an_mentry *e)
{
    (void)m;
    if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) == 0)
        free(e);
}

/* Double the shard's table when it holds as many entries as slots. */
static void an_memo_grow(an_mshard *sh)
{
    size_t cap = (sh->mask + 1) * 2, i;
    an_mentry **t = calloc(cap, sizeof(*t)), *x, *nx;

    if (!t)
        return;                 /* longer chains: slower, still right */
    for (i = 0; i <= sh->mask; i++)
        for (x = sh->tab[i]; x; x = nx) {
            nx = x->hnext;
            x->hnext = t[x->k_lo & (cap - 1)];
            t[x->k_lo & (cap - 1)] = x;
        }
    free(sh->tab);
    sh->tab = t;
    sh->mask = cap - 1;
}

void an_memo_insert(an_memo *m, an_mentry *e)
{
    an_mshard *sh = an_memo_shard(m, e->k_hi);

    if (an_memo_find(m, e->k_lo, e->k_hi) || e->bytes > sh->max) {
        free(e);
        return;
    }
    while (sh->tail && sh->s.bytes + e->bytes > sh->max)
        an_memo_drop(sh, sh->tail);
    if (sh->n >= sh->mask + 1)
        an_memo_grow(sh);
    e->refs = 1;            /* the table's */
    e->hnext = sh->tab[e->k_lo & sh->mask];
    sh->tab[e->k_lo & sh->mask] = e;
    an_lru_front(sh, e);
    sh->s.bytes += e->bytes;
    sh->n++;
    sh->s.stored++;
}

void an_memo_touch(an_memo *m, an_mentry *e)
{
    an_mshard *sh = an_memo_shard(m, e->k_hi);

    an_lru_unlink(sh, e);
    an_lru_front(sh, e);
}

/* ---- comparing results ----------------------------------------------- */

/* 1 when the strings differ (NULL equals only NULL). */
static int an_sdiff(const char *a, const char *b)
{
    return (!a || !b) ? a != b : strcmp(a, b) != 0;
}

/* Write a difference between functions x and y of a and b, or return 0. */
static int an_fn_diff(const an_function *x, const an_function *y, size_t i,
                      char *why, size_t cap)
{
    const char *what = an_sdiff(x->name, y->name) ? "name"
        : x->start_line != y->start_line || x->end_line != y->end_line ||
          x->name_line != y->name_line ? "lines"
        : x->status != y->status || x->object_state != y->object_state ? "status"
        : memcmp(x->tokens, y->tokens, sizeof(x->tokens)) ? "tokens"
        : an_sdiff(x->calls, y->calls) ? "calls"
        : an_sdiff(x->flow, y->flow) ? "flow"
        : x->status_finding != y->status_finding || x->object_finding != y->object_finding ||
          x->object_also != y->object_also ? "why"
        : an_sdiff(x->object_marker, y->object_marker) ||
          x->object_marker_line != y->object_marker_line ? "marker"
        : an_sdiff(x->name_from_macro, y->name_from_macro) ? "name_from_macro" : NULL;

    if (!what)
        return 0;
    snprintf(why, cap, "function %zu (%s, line %u): %s", i, x->name ? x->name : "?",
             (unsigned)x->start_line, what);
    return 1;
}

int an_result_diff(const an_result *a, const an_result *b, char *why, size_t cap)
{
    size_t i;

    if (a->nfunctions != b->nfunctions || a->nfindings != b->nfindings) {
        snprintf(why, cap, "%zu/%zu functions, %zu/%zu findings", a->nfunctions,
                 b->nfunctions, a->nfindings, b->nfindings);
        return 1;
    }
    for (i = 0; i < a->nfunctions; i++)
        if (an_fn_diff(&a->functions[i], &b->functions[i], i, why, cap))
            return 1;
    for (i = 0; i < a->nfindings; i++) {
        const an_finding *x = &a->findings[i], *y = &b->findings[i];

        if (x->line != y->line || x->column != y->column || x->cls != y->cls ||
            an_sdiff(x->rule, y->rule) || an_sdiff(x->text, y->text) ||
            x->function != y->function || x->guarded != y->guarded ||
            an_sdiff(x->reason, y->reason)) {
            snprintf(why, cap, "finding %zu: %s %u:%u / %s %u:%u", i, x->text,
                     (unsigned)x->line, (unsigned)x->column, y->text,
                     (unsigned)y->line, (unsigned)y->column);
            return 1;
        }
    }
    if (memcmp(a->tokens, b->tokens, sizeof(a->tokens)) || a->status != b->status ||
        a->universal_ready != b->universal_ready || a->lines != b->lines ||
        a->cpp != b->cpp) {
        snprintf(why, cap, "file totals, status, lines or language");
        return 1;
    }
    if (an_sdiff(a->notes, b->notes) || an_sdiff(a->hpy_types, b->hpy_types)) {
        snprintf(why, cap, "notes or HPy types: %s / %s", a->notes ? a->notes : "-",
                 b->notes ? b->notes : "-");
        return 1;
    }
    return 0;
}
