/*
 * analyze_memo.c: the memo of chunk analyses (analyze.h, an_memo).
 *
 * A cut is the end of a line that is only `}` or `};` (blanks after it
 * allowed) when the scanner, after that token, is at file level with
 * nothing pending (an_clean).  What is then left of the state and still
 * read later is the key's context: the last AN_RING tokens (texts, kinds,
 * lines relative to the cut, columns), the open #if frames, the wrappers
 * (extern "C", namespaces) and their scope, the language; the chunk's
 * bytes run from the start of the cut's line to the next cut.  An entry
 * holds what the chunk added (findings, functions, calls, counters, lexer
 * problems) with lines relative to its first line and strings by value,
 * plus the state at its end.  Strings are interned again in the order the
 * chunk first asked for them, so the text pool, and with it the order of
 * each function's calls, is the one a full analysis builds.
 *
 * Chunk ends are found before analysing (an_next_cut looks for the next
 * such line) so that a chunk can be looked up without reading it; a
 * candidate that turns out not to be a cut (inside a comment, a string, a
 * struct) only means no entry until the next real one.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_feed.h"
#include "analyze_flow.h"
#include "analyze_memo.h"
#include "tmpl_replay.h"
#include "pd_error.h"
#include "pd_xxh.h"

/* A chunk being recorded (st->rec). */
typedef struct an_rec {
    uint64_t k_lo, k_hi;
    const char *base, *q, *qline;
    uint32_t line0;
    size_t nfind0, nfn0, ncall0, nflow0, nring0;
    an_mcount c0;
    an_internlog log;           /* every interned offset, in order */
} an_rec;

/* ---- cuts and keys --------------------------------------------------- */

/* The next candidate cut after p: a line that is `}` or `};` then blanks.
 * Returns the end of its last token (NULL: none); *qline gets the start
 * of the line. */
static const char *an_next_cut(const char *p, const char *end,
                               const char **qline)
{
    /* '}' is rarer than '\n', so memchr finds the line faster than
     * memmem(p, n, "\n}", 2) */
    for (p++; p < end && (p = memchr(p, '}', (size_t)(end - p))) != NULL; p++) {
        const char *q = p + 1, *e;

        if (p[-1] != '\n')
            continue;
        if (q < end && *q == ';')
            q++;
        for (e = q; e < end && (*e == ' ' || *e == '\t' || *e == '\r'); e++)
            ;
        if (e == end || *e == '\n') {
            *qline = p;
            return q;
        }
    }
    return NULL;
}

/* Nothing pending at file level: the scanner state that is not in the key
 * is reset before it is read again. */
static int an_clean(const an_state *st)
{
    return st->cur < 0 && st->depth == 0 && st->pdepth == 0 && !st->in_decl &&
           !st->kr && !st->kr_next && !st->pend_valid && !st->cand_valid &&
           !st->alt_valid && !st->tag_kw_valid && !st->after_group &&
           st->adepth == 0 && st->ncalls == 0 && !st->callpend_valid &&
           !st->pcast.active && an_flow_clean(st) && !st->tpend.valid &&
           st->nshadow == 0;
}

/* The key of chunk [base, q) whose first line is line0 in state st. */
static void an_key(const an_state *st, const char *base, const char *q,
                   uint32_t line0, int at_start, uint64_t *lo, uint64_t *hi)
{
    pd_xxh kb;                   /* ~19 pieces a chunk: gathered (pd_xxh.h) */
    XXH128_hash_t h;
    int64_t v[8];
    size_t i, k = st->nring < AN_RING ? st->nring : AN_RING;
    long nw = st->wrappers < AN_MAXSCOPE ? st->wrappers : AN_MAXSCOPE;

    pd_xxh_start128(&kb);
    v[0] = at_start;
    v[1] = st->cpp;
    v[2] = st->lx.flags;
    v[3] = st->skip;
    v[4] = st->guard;
    v[5] = (int64_t)st->nframes;
    v[6] = st->wrappers;
    v[7] = (int64_t)k;
    pd_xxh_put(&kb, v, sizeof(v));
    pd_xxh_put(&kb, st->scope, st->scope_len);
    if (nw > 0)
        pd_xxh_put(&kb, st->scope_marks, (size_t)nw * sizeof(uint32_t));
    for (i = 0; i < st->nframes; i++) {
        const an_frame *f = &st->frames[i];

        v[0] = f->saved_depth;
        v[1] = f->saved_pdepth;
        v[2] = f->ref_depth;
        v[3] = f->ref_pdepth;
        v[4] = f->ref_set | f->outer_skip << 1 | f->skip << 2 | f->guard << 3 |
               f->else_skip << 4 | f->else_guard << 5 | f->seen_elif << 6;
        pd_xxh_put(&kb, v, 5 * sizeof(v[0]));
    }
    for (i = k; i > 0; i--) {
        const an_tok *t = an_prev(st, i);

        v[0] = t->kind;
        v[1] = t->punct;
        v[2] = t->len;
        v[3] = (int64_t)t->line - (int64_t)line0;
        v[4] = t->column;
        pd_xxh_put(&kb, v, 5 * sizeof(v[0]));
        pd_xxh_put(&kb, t->s, t->len);
    }
    pd_xxh_flush(&kb);
    kb.update(&kb.xs, base, (size_t)(q - base));   /* the chunk, whole */
    h = XXH3_128bits_digest(&kb.xs);
    *lo = h.low64;
    *hi = h.high64;
}

/* ---- counters -------------------------------------------------------- */

static void an_count_get(const an_state *st, an_mcount *c)
{
    memcpy(c->tokens, st->res->tokens, sizeof(c->tokens));
    memcpy(c->unguarded, st->file_unguarded, sizeof(c->unguarded));
    c->triggers = st->triggers_seen;
    c->types_seen = (uint32_t)st->types_seen;
    c->bad_closes = st->bad_closes;
    c->bad_close_line = st->bad_close_line;
    c->bad_pps = st->bad_pps;
    c->bad_pp_line = st->bad_pp_line;
    c->bad_literals = st->lx.bad_literals;
    c->bad_literal_line = st->lx.bad_literal_line;
    c->bad_trigraphs = st->lx.bad_trigraphs;
    c->bad_trigraph_line = st->lx.bad_trigraph_line;
    c->other_bytes = st->lx.other_bytes;
    c->other_line = st->lx.other_line;
    c->digraphs = st->lx.digraphs;
}

/* A first-problem line: relative + 1 when the chunk set it (the count
 * was 0 before and is not after), else 0. */
static uint32_t an_rel_first(uint32_t n0, uint32_t n1, uint32_t line, uint32_t line0)
{
    return !n0 && n1 ? line - line0 + 1 : 0;
}

/* What the chunk added: now - before. */
static void an_count_delta(an_mcount *d, const an_mcount *a, const an_mcount *b,
                           uint32_t line0)
{
    int i;

    for (i = 0; i < AN_CLASS_COUNT; i++) {
        d->tokens[i] = b->tokens[i] - a->tokens[i];
        d->unguarded[i] = b->unguarded[i] - a->unguarded[i];
    }
    d->triggers = b->triggers;
    d->types_seen = b->types_seen;
    d->bad_closes = b->bad_closes - a->bad_closes;
    d->bad_close_line = an_rel_first(a->bad_closes, b->bad_closes, b->bad_close_line, line0);
    d->bad_pps = b->bad_pps - a->bad_pps;
    d->bad_pp_line = an_rel_first(a->bad_pps, b->bad_pps, b->bad_pp_line, line0);
    d->bad_literals = b->bad_literals - a->bad_literals;
    d->bad_literal_line = an_rel_first(a->bad_literals, b->bad_literals,
                                       b->bad_literal_line, line0);
    d->bad_trigraphs = b->bad_trigraphs - a->bad_trigraphs;
    d->bad_trigraph_line = an_rel_first(a->bad_trigraphs, b->bad_trigraphs,
                                        b->bad_trigraph_line, line0);
    d->other_bytes = b->other_bytes - a->other_bytes;
    d->other_line = an_rel_first(a->other_bytes, b->other_bytes, b->other_line, line0);
    d->digraphs = b->digraphs - a->digraphs;
}

/* Add n problems, the first at relative line rel (plus one), to *count and *line. */
static void an_add_problem(uint32_t *count, uint32_t *line, uint32_t n,
                           uint32_t rel, uint32_t line0)
{
    if (!n)
        return;
    if (!*count && rel)
        *line = line0 + rel - 1;
    *count += n;
}

static void an_count_apply(an_state *st, const an_mcount *d, uint32_t line0)
{
    int i;

    for (i = 0; i < AN_CLASS_COUNT; i++) {
        st->res->tokens[i] += d->tokens[i];
        st->file_unguarded[i] += d->unguarded[i];
    }
    st->triggers_seen |= d->triggers;
    st->types_seen |= (int)d->types_seen;
    an_add_problem(&st->bad_closes, &st->bad_close_line, d->bad_closes,
                   d->bad_close_line, line0);
    an_add_problem(&st->bad_pps, &st->bad_pp_line, d->bad_pps, d->bad_pp_line, line0);
    an_add_problem(&st->lx.bad_literals, &st->lx.bad_literal_line,
                   d->bad_literals, d->bad_literal_line, line0);
    an_add_problem(&st->lx.bad_trigraphs, &st->lx.bad_trigraph_line,
                   d->bad_trigraphs, d->bad_trigraph_line, line0);
    an_add_problem(&st->lx.other_bytes, &st->lx.other_line, d->other_bytes,
                   d->other_line, line0);
    st->lx.digraphs += d->digraphs;
}

/* ---- recording ------------------------------------------------------- */

/* Start recording chunk [base, q) at line0; the OR-ed flags start from 0
 * so that the entry holds the chunk's own. */
static void an_rec_start(an_state *st, an_rec *r, const char *base,
                         const char *q, const char *qline, uint32_t line0)
{
    r->base = base;
    r->q = q;
    r->qline = qline;
    r->line0 = line0;
    r->nfind0 = st->res->nfindings;
    r->nfn0 = st->res->nfunctions;
    r->ncall0 = st->ncallrecs;
    r->nflow0 = st->nflowrecs;
    r->nring0 = st->nring;
    r->log.n = 0;
    r->log.failed = 0;
    an_count_get(st, &r->c0);
    st->triggers_seen = 0;
    st->types_seen = 0;
    st->rec = r;
    st->ilog = &r->log;
}

/* Stop recording: the flags get back what was seen before the chunk. */
static void an_rec_stop(an_state *st, an_rec *r)
{
    st->triggers_seen |= r->c0.triggers;
    st->types_seen |= (int)r->c0.types_seen;
    st->rec = NULL;
    st->ilog = NULL;
}

/* The chunk's distinct strings, in the order it first asked for them:
 * their pool offsets (offs[0..n)), an open-addressing table of their
 * indexes + 1 (slots, mask + 1 of them), and their bytes with NULs. */
typedef struct {
    uint32_t *slots, *offs;
    size_t mask, n, bytes;
} an_strs;

/* Index of pool offset off among the chunk's strings; UINT32_MAX: none. */
static uint32_t an_str_index(const an_strs *x, uint32_t off)
{
    size_t i;

    for (i = (off * 2654435761u) & x->mask; x->slots[i]; i = (i + 1) & x->mask)
        if (x->offs[x->slots[i] - 1] == off)
            return x->slots[i] - 1;
    return UINT32_MAX;
}

/* Gather the distinct strings of recording r's log into x.  0 or -1 (out
 * of memory; x is freed by the caller either way). */
static int an_strs_make(an_strs *x, const an_state *st, const an_rec *r)
{
    size_t i;

    memset(x, 0, sizeof(*x));
    x->mask = 63;
    while (x->mask + 1 < r->log.n * 2)
        x->mask = x->mask * 2 + 1;
    x->slots = calloc(x->mask + 1, sizeof(*x->slots));
    x->offs = malloc((r->log.n + 1) * sizeof(*x->offs));
    if (!x->slots || !x->offs)
        return -1;
    for (i = 0; i < r->log.n; i++) {         /* distinct, in first order */
        uint32_t off = r->log.v[i];
        size_t j;

        if (an_str_index(x, off) != UINT32_MAX)
            continue;
        for (j = (off * 2654435761u) & x->mask; x->slots[j]; j = (j + 1) & x->mask)
            ;
        x->offs[x->n] = off;
        x->slots[j] = (uint32_t)++x->n;
        x->bytes += strlen(st->pool + off) + 1;
    }
    return 0;
}

/* Round n up to a multiple of 8. */
#define AN_AL(n) (((n) + 7) & ~(size_t)7)

/* One block for an entry of the given counts, its arrays pointing into
 * it and its counts set (the rest zero); NULL when out of memory. */
static an_mentry *an_entry_alloc(size_t nfind, size_t nfn, size_t ncall, size_t nflow,
                                 size_t nring, size_t nframes, size_t nw, size_t nstr,
                                 size_t scope_len, size_t strb)
{
    size_t o_find = AN_AL(sizeof(an_mentry));
    size_t o_fn = o_find + AN_AL(nfind * sizeof(an_mfind));
    size_t o_call = o_fn + AN_AL(nfn * sizeof(an_mfunc));
    size_t o_flow = o_call + AN_AL(ncall * sizeof(an_mcall));
    size_t o_ring = o_flow + AN_AL(nflow * sizeof(an_mcall));
    size_t o_fr = o_ring + AN_AL(nring * sizeof(an_mtok));
    size_t o_marks = o_fr + AN_AL(nframes * sizeof(an_frame));
    size_t o_off = o_marks + AN_AL(nw * sizeof(uint32_t));
    size_t o_scope = o_off + AN_AL((nstr + 1) * sizeof(uint32_t));
    size_t o_str = o_scope + AN_AL(scope_len + 1);
    char *blk = calloc(1, o_str + strb);
    an_mentry *e = (an_mentry *)blk;

    if (!blk)
        return NULL;
    e->bytes = o_str + strb;
    e->find = (an_mfind *)(blk + o_find);
    e->fn = (an_mfunc *)(blk + o_fn);
    e->call = (an_mcall *)(blk + o_call);
    e->flow = (an_mcall *)(blk + o_flow);
    e->ring = (an_mtok *)(blk + o_ring);
    e->frames = (an_frame *)(blk + o_fr);
    e->scope_marks = (uint32_t *)(blk + o_marks);
    e->stroff = (uint32_t *)(blk + o_off);
    e->scope = blk + o_scope;
    e->strs = blk + o_str;
    e->nstr = (uint32_t)nstr;
    e->nfind = (uint32_t)nfind;
    e->nfn = (uint32_t)nfn;
    e->ncall = (uint32_t)ncall;
    e->nflow = (uint32_t)nflow;
    e->nring = (uint32_t)nring;
    return e;
}

/* The strings' bytes and offsets into e. */
static void an_rec_put_strs(an_mentry *e, const an_state *st, const an_strs *x)
{
    size_t i, strb = 0;

    for (i = 0; i < x->n; i++) {
        size_t n = strlen(st->pool + x->offs[i]) + 1;

        e->stroff[i] = (uint32_t)strb;
        memcpy(e->strs + strb, st->pool + x->offs[i], n);
        strb += n;
    }
    e->stroff[x->n] = (uint32_t)strb;
}

/* The chunk's findings into e, lines relative to its first.  0, or -1
 * when a string is not the chunk's. */
static int an_rec_put_finds(an_mentry *e, const an_state *st, const an_rec *r,
                            const an_strs *x)
{
    size_t i;

    for (i = 0; i < e->nfind; i++) {
        const an_finding *f = &st->res->findings[r->nfind0 + i];
        const an_fmeta *fm = &st->fmeta[r->nfind0 + i];
        an_mfind *d = &e->find[i];

        d->rule = f->rule;
        d->cond = fm->cond;
        d->line = f->line - r->line0;
        d->column = f->column;
        d->function = f->function < 0 ? -1 : f->function - (int32_t)r->nfn0;
        d->cls = (uint8_t)f->cls;
        d->guarded = (uint8_t)f->guarded;
        d->kind = fm->kind;
        d->define = fm->define;
        d->reason = UINT32_MAX;
        if ((d->text = an_str_index(x, fm->text_off)) == UINT32_MAX || d->function < -1 ||
            (fm->reason_off != UINT32_MAX &&
             (d->reason = an_str_index(x, fm->reason_off)) == UINT32_MAX))
            return -1;
    }
    return 0;
}

/* The chunk's functions into e, as an_rec_put_finds. */
static int an_rec_put_fns(an_mentry *e, const an_state *st, const an_rec *r,
                          const an_strs *x)
{
    size_t i;

    for (i = 0; i < e->nfn; i++) {
        const an_function *f = &st->res->functions[r->nfn0 + i];
        an_mfunc *d = &e->fn[i];

        d->facc = st->facc[r->nfn0 + i];
        d->start_line = f->start_line - r->line0;
        d->end_line = f->end_line - r->line0;
        d->name_line = f->name_line - r->line0;
        memcpy(d->tokens, f->tokens, sizeof(d->tokens));
        d->facc.marker_line = d->facc.marker_line ? d->facc.marker_line - r->line0 + 1 : 0;
        if ((d->facc.name_off = an_str_index(x, d->facc.name_off)) == UINT32_MAX ||
            (d->facc.marker_line &&
             (d->facc.marker_off = an_str_index(x, d->facc.marker_off)) == UINT32_MAX) ||
            (d->facc.macro_off != UINT32_MAX &&
             (d->facc.macro_off = an_str_index(x, d->facc.macro_off)) == UINT32_MAX))
            return -1;
    }
    return 0;
}

/* Call records recs[0..n) (the chunk's calls or flow facts, of functions
 * from fn0 on) into d, as an_rec_put_finds. */
static int an_rec_put_calls(an_mcall *d, const struct an_callrec *recs, size_t n,
                            size_t fn0, const an_strs *x)
{
    size_t i;

    for (i = 0; i < n; i++) {
        d[i].fn = recs[i].fn - (int32_t)fn0;
        d[i].len = recs[i].len;
        if (recs[i].fn < (int32_t)fn0 || (d[i].str = an_str_index(x, recs[i].off)) == UINT32_MAX)
            return -1;
    }
    return 0;
}

/* The last e->nring tokens into e, offsets relative to the chunk; -1 when
 * one lies outside it. */
static int an_rec_put_ring(an_mentry *e, const an_state *st, const an_rec *r)
{
    size_t i;

    for (i = 0; i < e->nring; i++) {
        const an_tok *t = an_prev(st, e->nring - i);
        an_mtok *d = &e->ring[i];

        if (t->s < r->base || t->s + t->len > r->q)
            return -1;
        d->e = t->e;
        d->kind = t->kind;
        d->punct = t->punct;
        d->off = (uint32_t)(t->s - r->base);
        d->len = t->len;
        d->line = t->line - r->line0;
        d->column = t->column;
    }
    return 0;
}

/* The counters the chunk added and the state at its end (an_put_state
 * puts it back) into e; nw wrappers' marks are kept. */
static void an_rec_put_state(an_mentry *e, an_state *st, const an_rec *r, size_t nw)
{
    an_mcount now;

    an_count_get(st, &now);
    an_count_delta(&e->c, &r->c0, &now, r->line0);
    e->c.triggers = st->triggers_seen;     /* the chunk's own */
    e->c.types_seen = (uint32_t)st->types_seen;
    e->len = (uint32_t)(r->q - r->base);
    e->lines = st->lx.line - r->line0;
    e->qline_off = (uint32_t)(r->qline - r->base);
    e->cpp = st->cpp;
    e->skip = st->skip;
    e->guard = st->guard;
    e->wrappers = st->wrappers;
    e->scope_len = st->scope_len;
    memcpy(e->scope, st->scope, st->scope_len);
    if (nw > 0)
        memcpy(e->scope_marks, st->scope_marks, nw * sizeof(uint32_t));
    e->nframes = st->nframes;
    if (st->nframes)
        memcpy(e->frames, st->frames, st->nframes * sizeof(an_frame));
}

/* Build the entry of the chunk just analysed (state st at its cut);
 * NULL when out of memory or a string cannot be placed. */
static an_mentry *an_rec_entry(an_state *st, an_rec *r)
{
    const an_result *res = st->res;
    size_t ntok = st->nring - r->nring0, nring = ntok < AN_RING ? ntok : AN_RING;
    size_t nw = st->wrappers < AN_MAXSCOPE ? (size_t)(st->wrappers > 0 ? st->wrappers : 0)
                                           : AN_MAXSCOPE;
    an_mentry *e = NULL;
    an_strs x;

    if (an_strs_make(&x, st, r) < 0 ||
        !(e = an_entry_alloc(res->nfindings - r->nfind0, res->nfunctions - r->nfn0,
                             st->ncallrecs - r->ncall0, st->nflowrecs - r->nflow0, nring,
                             st->nframes, nw, x.n, st->scope_len, x.bytes)))
        goto done;
    e->k_lo = r->k_lo;
    e->k_hi = r->k_hi;
    e->ntok = ntok;
    an_rec_put_strs(e, st, &x);
    if (an_rec_put_finds(e, st, r, &x) < 0 || an_rec_put_fns(e, st, r, &x) < 0 ||
        an_rec_put_calls(e->call, st->callrecs + r->ncall0, e->ncall, r->nfn0, &x) < 0 ||
        an_rec_put_calls(e->flow, st->flowrecs + r->nflow0, e->nflow, r->nfn0, &x) < 0 ||
        an_rec_put_ring(e, st, r) < 0) {
        free(e);
        e = NULL;
        goto done;
    }
    an_rec_put_state(e, st, r, nw);
done:
    free(x.slots);
    free(x.offs);
    return e;
}

/* Store the chunk just recorded when the state at its end is a cut. */
static void an_rec_store(an_state *st, an_memo *m, an_rec *r)
{
    an_mentry *e;
    an_mshard *sh;

    if (r->log.failed || st->rc || !(e = an_rec_entry(st, r)))
        return;
    sh = an_memo_shard(m, e->k_hi);
    pthread_mutex_lock(&sh->mu);
    an_memo_insert(m, e);
    pthread_mutex_unlock(&sh->mu);
}

/* ---- replaying ------------------------------------------------------- */

/* Room for n more findings, k more functions and c more calls; 0 or
 * PD_ENOMEM. */
static int an_reserve(an_state *st, size_t n, size_t k, size_t c, size_t fl)
{
    an_result *res = st->res;
    size_t cap;
    void *p;

    if (res->nfindings + n > st->capf) {
        for (cap = st->capf ? st->capf : 64; cap < res->nfindings + n; cap *= 2)
            ;
        if (!(p = realloc(res->findings, cap * sizeof(*res->findings))))
            return st->rc = pd_error_nomem("analysing");
        res->findings = p;
        if (!(p = realloc(st->fmeta, cap * sizeof(*st->fmeta))))
            return st->rc = pd_error_nomem("analysing");
        st->fmeta = p;
        st->capf = cap;
    }
    if (res->nfunctions + k > st->capfn) {
        for (cap = st->capfn ? st->capfn : 64; cap < res->nfunctions + k; cap *= 2)
            ;
        if (!(p = realloc(res->functions, cap * sizeof(*res->functions))))
            return st->rc = pd_error_nomem("analysing");
        res->functions = p;
        if (!(p = realloc(st->facc, cap * sizeof(*st->facc))))
            return st->rc = pd_error_nomem("analysing");
        st->facc = p;
        st->capfn = cap;
    }
    if (st->ncallrecs + c > st->capcallrecs) {
        for (cap = st->capcallrecs ? st->capcallrecs : 256; cap < st->ncallrecs + c; cap *= 2)
            ;
        if (!(p = realloc(st->callrecs, cap * sizeof(*st->callrecs))))
            return st->rc = pd_error_nomem("analysing");
        st->callrecs = p;
        st->capcallrecs = cap;
    }
    if (st->nflowrecs + fl > st->capflowrecs) {
        for (cap = st->capflowrecs ? st->capflowrecs : 256; cap < st->nflowrecs + fl; cap *= 2)
            ;
        if (!(p = realloc(st->flowrecs, cap * sizeof(*st->flowrecs))))
            return st->rc = pd_error_nomem("analysing");
        st->flowrecs = p;
        st->capflowrecs = cap;
    }
    return 0;
}

/* Findings and functions of e at line0, strings at offs. */
static void an_put_results(an_state *st, const an_mentry *e, const uint32_t *offs,
                           uint32_t line0)
{
    an_result *res = st->res;
    int32_t fn0 = (int32_t)res->nfunctions;
    size_t i;

    for (i = 0; i < e->nfind; i++) {
        const an_mfind *s = &e->find[i];
        an_finding *f = &res->findings[res->nfindings + i];
        an_fmeta *fm = &st->fmeta[res->nfindings + i];

        memset(f, 0, sizeof(*f));
        f->line = line0 + s->line;
        f->column = s->column;
        f->cls = (an_class)s->cls;
        f->rule = s->rule;
        f->function = s->function < 0 ? -1 : fn0 + s->function;
        f->guarded = s->guarded;
        fm->text_off = offs[s->text];
        fm->kind = s->kind;
        fm->define = s->define;
        fm->cond = s->cond;
        fm->reason_off = s->reason == UINT32_MAX ? UINT32_MAX : offs[s->reason];
    }
    res->nfindings += e->nfind;
    for (i = 0; i < e->nfn; i++) {
        const an_mfunc *s = &e->fn[i];
        an_function *f = &res->functions[res->nfunctions + i];
        an_facc *a = &st->facc[res->nfunctions + i];

        memset(f, 0, sizeof(*f));
        f->start_line = line0 + s->start_line;
        f->end_line = line0 + s->end_line;
        f->name_line = line0 + s->name_line;
        f->object_state = AN_OBJ_NONE;
        memcpy(f->tokens, s->tokens, sizeof(f->tokens));
        *a = s->facc;
        a->name_off = offs[s->facc.name_off];
        if (s->facc.marker_line) {
            a->marker_off = offs[s->facc.marker_off];
            a->marker_line = line0 + s->facc.marker_line - 1;
        }
        if (s->facc.macro_off != UINT32_MAX)
            a->macro_off = offs[s->facc.macro_off];
    }
    res->nfunctions += e->nfn;
    for (i = 0; i < e->ncall; i++) {
        struct an_callrec *c = &st->callrecs[st->ncallrecs + i];

        c->fn = fn0 + e->call[i].fn;
        c->off = offs[e->call[i].str];
        c->len = e->call[i].len;
    }
    st->ncallrecs += e->ncall;
    for (i = 0; i < e->nflow; i++) {
        struct an_callrec *c = &st->flowrecs[st->nflowrecs + i];

        c->fn = fn0 + e->flow[i].fn;
        c->off = offs[e->flow[i].str];
        c->len = e->flow[i].len;
    }
    st->nflowrecs += e->nflow;
}

/* Put the state at the end of e's chunk, which starts at base. */
static void an_put_state(an_state *st, const an_mentry *e, const char *base,
                         uint32_t line0)
{
    size_t i;

    an_count_apply(st, &e->c, line0);
    st->lx.p = base + e->len;
    st->lx.line = line0 + e->lines;
    st->lx.line_start = base + e->qline_off;
    st->lx.at_bol = 0;
    st->lx.in_pp = 0;
    st->cpp = e->cpp;
    st->skip = e->skip;
    st->guard = e->guard;
    st->wrappers = e->wrappers;
    st->scope_len = e->scope_len;
    memcpy(st->scope, e->scope, e->scope_len);
    st->scope[e->scope_len] = '\0';
    if (e->wrappers > 0)
        memcpy(st->scope_marks, e->scope_marks,
               (size_t)(e->wrappers < AN_MAXSCOPE ? e->wrappers : AN_MAXSCOPE) *
                   sizeof(uint32_t));
    st->nframes = e->nframes;
    if (e->nframes)
        memcpy(st->frames, e->frames, e->nframes * sizeof(an_frame));
    st->nring += e->ntok - e->nring;
    for (i = 0; i < e->nring; i++) {
        an_tok *t = &st->ring[st->nring++ & (AN_RING - 1)];

        t->e = e->ring[i].e;
        t->kind = e->ring[i].kind;
        t->punct = e->ring[i].punct;
        t->s = base + e->ring[i].off;
        t->len = e->ring[i].len;
        t->line = line0 + e->ring[i].line;
        t->column = e->ring[i].column;
    }
}

/* Reuse entry e (the caller holds a reference to it) for the chunk at base. */
static void an_replay(an_state *st, const an_mentry *e, const char *base,
                      uint32_t line0)
{
    uint32_t offs_small[256], *offs = offs_small;
    size_t i;

    if (e->nstr > 256 && !(offs = malloc(e->nstr * sizeof(*offs)))) {
        st->rc = pd_error_nomem("analysing");
        return;
    }
    if (e->nframes > st->capframes) {
        an_frame *f = realloc(st->frames, e->nframes * sizeof(*f));

        if (!f) {
            st->rc = pd_error_nomem("analysing");
            goto done;
        }
        st->frames = f;
        st->capframes = e->nframes;
    }
    for (i = 0; i < e->nstr && !st->rc; i++)
        an_intern(st, e->strs + e->stroff[i], e->stroff[i + 1] - e->stroff[i] - 1,
                  &offs[i]);
    if (st->rc || an_reserve(st, e->nfind, e->nfn, e->ncall, e->nflow))
        goto done;
    an_put_results(st, e, offs, line0);
    an_put_state(st, e, base, line0);
done:
    if (offs != offs_small)
        free(offs);
}

/* Look chunk [base, q) up; 1 when it was reused.  The replay runs
 * outside the memo's lock, the entry held by a reference: under the lock
 * the other analysis thread waited for every replay (futex calls and
 * switches were 3 % of an ingest's CPU, issue 26).  The reference is given
 * back without the lock (an atomic decrement): taking it again for that
 * was half the lock's traffic, and its waits were 3 % of an ingest's CPU
 * again. */
static int an_lookup(an_state *st, an_memo *m, an_rec *r, uint32_t line0)
{
    an_mshard *sh = an_memo_shard(m, r->k_hi);
    an_mentry *e;

    pthread_mutex_lock(&sh->mu);
    sh->s.lookups++;
    if ((e = an_memo_find(m, r->k_lo, r->k_hi)) != NULL) {
        an_memo_touch(m, e);
        sh->s.hits++;
        sh->s.hit_bytes += e->len;
        __atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&sh->mu);
    if (!e)
        return 0;
    an_replay(st, e, r->base, line0);       /* reads e, which stays as it is */
    an_memo_release(m, e);
    return 1;
}

void an_walk_memo(an_state *st, an_memo *m, const char *buf, size_t len,
                  tmpl_replay *rp)
{
    const char *end = buf + len, *base = buf, *q, *qline = NULL;
    uint32_t line0 = 1;
    int at_start = 1;
    an_rec r;
    lex_token t;

    memset(&r, 0, sizeof(r));
    lex_init(&st->lx, buf, len, st->cpp ? LEX_F_CPP : 0);
    q = m->r == st->r ? an_next_cut(buf, end, &qline) : NULL;
    for (;;) {
        if (base && q && !st->rec) {
            r.base = base;
            r.q = q;
            an_key(st, base, q, line0, at_start, &r.k_lo, &r.k_hi);
            if (an_lookup(st, m, &r, line0)) {
                if (st->rc)
                    break;
                base = qline;
                line0 = st->lx.line;
                at_start = 0;
                q = an_next_cut(q, end, &qline);
                continue;
            }
            an_rec_start(st, &r, base, q, qline, line0);
        }
        if (rp)      /* lx moved by a reused chunk: the replay syncs */
            tmpl_replay_next(rp, &st->lx, &t);
        else
            lex_next_fast(&st->lx, &t);   /* inline: once per token */
        if (t.kind == LEX_EOF || st->rc)
            break;
        an_feed(st, &t);
        if (q && st->lx.p >= q) {
            int cut = t.kind != LEX_PP_BEGIN && t.start + t.len == q && an_clean(st);

            if (st->rec) {
                if (cut)
                    an_rec_store(st, m, &r);
                an_rec_stop(st, &r);
            }
            base = cut ? qline : NULL;
            line0 = t.line;
            at_start = 0;
            q = an_next_cut(st->lx.p, end, &qline);
        }
    }
    if (st->rec)
        an_rec_stop(st, &r);
    free(r.log.v);
    /* newlines seen, plus a last line without one */
    st->res->lines = st->lx.line - 1 + (len > 0 && buf[len - 1] != '\n');
}

