/*
 * tmpl_replay.c: the template's tokens, lexed once, for the replay of its
 * expansion (tmpl_replay.h): building them, taking the replay up again
 * after the lexer read on, and the check against plain lexing.
 *
 * Why a replayed token is the lexer's: lex_next's step from a token's end
 * depends only on lex_state's in_pp and at_bol there and on the bytes it
 * reads (the gap's blanks, comments and continuations, the token, and a
 * few bytes after it that decide where it ends); its line and column are
 * 1 + the newlines before it and its distance from the last one, which
 * the expansion's line table gives.  So the template's step from a
 * boundary where the walk stands in the same context gives the same
 * token when every byte the step reads is a copy of the template's.
 * Steps that change one of the lexer's problem counters are never
 * replayed, so the counters and their first lines are always the
 * lexer's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tmpl_replay.h"

/* How many bytes past the end of token t (of src[0..srclen), lexed with
 * its end there) its step reads, as the first template offset not read;
 * UINT32_MAX when the step is not to be replayed at all.  Every test lex_next_fast and its rarer
 * paths make past a token's last byte is here (lex_fast.h, lex_core.c):
 * an identifier or number ends at a byte that does not continue it, or at
 * a backslash that lex_splice reads two more bytes after, and an
 * identifier and a '"' may open a C++ raw string; a one-byte punctuator
 * that may start a two-byte one (and '.', .5, and '/', a comment) reads
 * the next byte, '<', '%', ':' (digraphs) and '?' (trigraphs) up to
 * three more; a directive's end is its newline; a stray '\\' reads two
 * bytes for a continuation. */
static uint32_t tr_lim(const lex_token *t, const char *src, size_t srclen,
                       unsigned flags)
{
    size_t end = (size_t)(t->start - src) + t->len, la;
    unsigned char a = t->len ? (unsigned char)t->start[0] : 0, c;

    if (end >= srclen)              /* decided by the end of the input */
        return UINT32_MAX;
    c = (unsigned char)src[end];
    switch (t->kind) {
    case LEX_IDENT:
        if ((flags & LEX_F_CPP) && c == '"')
            return UINT32_MAX;
        la = c == '\\' ? 4 : 1;
        break;
    case LEX_NUMBER:
        la = c == '\\' || c == '\'' ? 4 : 1;
        break;
    case LEX_STRING:
    case LEX_CHAR:
        if (a != '"' && a != '\'')  /* a C++ raw string */
            return UINT32_MAX;
        la = 0;                     /* ends at its closing quote */
        break;
    case LEX_PUNCT:             /* ( ) [ ] { } , ; ~ read nothing after */
        la = t->len >= 2 ? 0 : a == '?' || lex_dg[a] ? 4
           : lex_two[a] || a == '.' ? 1 : 0;
        break;
    case LEX_PP_BEGIN:
        la = 0;
        break;
    case LEX_PP_END:
        la = 1;
        break;
    case LEX_OTHER:
        la = 4;
        break;
    default:
        return UINT32_MAX;
    }
    /* past the end, the lexer's tests of it may have gone otherwise */
    return end + la > srclen ? UINT32_MAX : (uint32_t)(end + la);
}

/* The largest template replayed: its memory is 4 bytes a template byte
 * (bmap) and 64 a token of its loops' bodies, about 20 MB at this size
 * (numpy's largest template is 56 KB); past it the expansion is lexed,
 * which gives the same. */
#define TR_MAX_SRC ((size_t)1 << 20)

/* The least times the loops' bodies are in the expansion, on average,
 * for their replay to pay (see tmpl_replay_pays). */
#define TR_MIN_TIMES 6

/* The lexer's problem counters, summed: they only grow (a first line
 * goes from 0 to a line), so a step that counts one changes the sum. */
static uint64_t tr_problems(const lex_state *lx)
{
    return (uint64_t)lx->bad_comment_line + lx->bad_literals + lx->bad_trigraphs +
           lx->other_bytes + lx->digraphs;
}

/* The lexer's context before a step, as in tr_tok.flags. */
static unsigned tr_pre(const lex_state *lx)
{
    return (unsigned)(lx->in_pp != 0) | (unsigned)(lx->at_bol != 0) << 1;
}

/* Lex src[a..e) (the lexer's end at e) from the start of a line or from
 * where lex_state says, and append its tokens to r (cap: the room);
 * 0, or -1 when out of memory. */
static int tr_lex_region(tmpl_replay *r, size_t *cap, const char *src, uint32_t a,
                         uint32_t e, const tmpl_out *t, unsigned flags)
{
    lex_state lx;
    lex_token tk;
    size_t n = r->ntok, dir = SIZE_MAX, lo = 0, hi = t->nsrc_lines;
    uint64_t probs = 0;
    uint32_t dmax = 0;

    while (hi - lo > 1) {           /* the line of a */
        size_t mid = lo + (hi - lo) / 2;

        if (t->src_lines[mid] <= a)
            lo = mid;
        else
            hi = mid;
    }
    lex_init(&lx, src, e, flags);
    lx.p = src + a;
    lx.line = (uint32_t)lo + 1;
    lx.line_start = src + t->src_lines[lo];
    lx.at_bol = t->src_lines[lo] == a;
    for (;;) {
        uint32_t b = (uint32_t)(lx.p - src), pre = tr_pre(&lx);
        uint64_t was = probs;
        tr_tok *k;

        if (n == *cap) {
            tr_tok *v = realloc(r->tok, 2 * *cap * sizeof(*v));

            if (!v)
                return -1;
            r->tok = v;
            *cap *= 2;
        }
        k = &r->tok[n];
        k->pline = lx.line;
        lex_next_fast(&lx, &tk);
        /* The step from b: a later step from the same offset (after a
         * directive's end, which reads nothing) wins, as that is where
         * the lexer stands when analyze_pp.c is done with the line. */
        r->bmap[b] = ((uint32_t)n + 1) << 2 | pre;
        k->t = tk;
        k->t.start = NULL;
        k->t.tmpl_tok = (uint32_t)n + 1;
        k->start = (uint32_t)(tk.start - src);
        k->flags = pre << TR_PRE_SHIFT | (tk.spliced ? TR_SPLICED : 0) |
                   (lx.in_pp ? TR_PP_AFTER : 0);
        probs = tr_problems(&lx);
        k->lim = tk.kind == LEX_EOF || probs != was
                     ? UINT32_MAX : tr_lim(&tk, src, e, flags);
        k->dnext = 0;
        k->dlim = UINT32_MAX;           /* not a directive, or no end seen */
        if (tk.kind == LEX_PP_BEGIN) {
            dir = n;
            dmax = 0;
        } else if (dir != SIZE_MAX) {   /* a directive's token */
            dmax = k->lim > dmax ? k->lim : dmax;
            if (tk.kind == LEX_PP_END) {
                r->tok[dir].dnext = (uint32_t)n + 1;
                r->tok[dir].dlim = dmax;
                dir = SIZE_MAX;
            }
        }
        n++;
        if (tk.kind == LEX_EOF)
            break;
    }
    r->ntok = n;
    return 0;
}

int tmpl_replay_init(tmpl_replay *r, const tmpl_out *t, const char *src,
                     size_t srclen, unsigned flags)
{
    size_t cap = 16, i;

    memset(r, 0, sizeof(*r));
    for (i = 0; i < t->nbodies; i++)
        cap += (t->bodies[2 * i + 1] - t->bodies[2 * i]) / 4;
    if (srclen > TR_MAX_SRC || t->len >= UINT32_MAX / 2 || !t->nsegs ||
        !t->nsrc_lines || !(r->bmap = calloc(srclen + 1, sizeof(*r->bmap))) ||
        !(r->tok = malloc(cap * sizeof(*r->tok)))) {
        tmpl_replay_free(r);
        return -1;
    }
    /* Only the loops' bodies: the text around them is in the expansion
     * once, where lexing it costs less than lexing it here and replaying
     * it.  Each body is lexed from its first line on (the line after its
     * header), each token a fact of the lexer however it got there. */
    for (i = 0; i < t->nbodies; i++)
        if (t->bodies[2 * i] <= t->bodies[2 * i + 1] && t->bodies[2 * i + 1] <= srclen &&
            tr_lex_region(r, &cap, src, t->bodies[2 * i], t->bodies[2 * i + 1], t, flags)) {
            tmpl_replay_free(r);
            return -1;
        }
    r->segs = t->segs;
    r->nsegs = t->nsegs;
    r->src_lines = t->src_lines;
    r->text = t->text;
    r->textlen = t->len;
    return 0;
}

void tmpl_replay_free(tmpl_replay *r)
{
    free(r->tok);
    free(r->bmap);
    r->tok = NULL;
    r->bmap = NULL;
}

int tmpl_replay_sync(tmpl_replay *r, const lex_state *lx)
{
    const tmpl_seg *sg = r->segs + r->g;
    uint32_t e = (uint32_t)(lx->p - r->text), s, v;

    if (e >= r->textlen)            /* the segments end at textlen */
        return 0;
    if (sg->exp_off > e)
        sg = r->segs;               /* the walk never goes back; in case */
    while (sg->exp_off + sg->len <= e)
        sg++;
    r->g = (size_t)(sg - r->segs);
    if (sg->subst)
        return 0;
    s = sg->src_off + (e - sg->exp_off);
    v = r->bmap[s];
    if (!v || (v & 3u) != tr_pre(lx))
        return 0;
    r->j = (v >> 2) - 1;
    r->sline = r->tok[r->j].pline;
    r->linefix = (int64_t)lx->line - r->sline;
    r->ls = lx->line_start;
    r->delta = (int64_t)sg->exp_off - (int64_t)sg->src_off;
    r->seg_end = sg->src_off + sg->len;
    r->next_p = lx->p;
    return 1;
}

int tmpl_replay_cross(tmpl_replay *r, lex_token *t)
{
    const tr_tok *k = &r->tok[r->j];
    const tmpl_seg *sg = r->segs, *sub, *nx;
    uint32_t a = k->start, b = a + k->t.len, pos = r->seg_end, i;
    size_t h;
    int64_t e = (int64_t)a + r->delta;

    if (k->t.kind != LEX_IDENT || (k->flags & TR_SPLICED) || k->lim == UINT32_MAX ||
        a > pos)
        return 0;
    for (h = r->g + 1; h + 1 < r->nsegs; h += 2) {
        const char *v;

        sub = &sg[h];
        nx = &sg[h + 1];
        /* a placeholder [pos, nx->src_off) inside the identifier */
        if (!sub->subst || nx->subst || sub->src_off != pos || nx->src_off <= pos ||
            nx->src_off > b)
            return 0;
        v = r->text + sub->exp_off;
        if (a == pos && !LEX_IS(v[0], LC_IDST))
            return 0;               /* a digit first: a number */
        for (i = 0; i < sub->len; i++)
            if (!LEX_IS(v[i], LC_ID))
                return 0;
        if (k->lim <= nx->src_off + nx->len)
            break;                  /* ends in nx, with what it reads */
        if (nx->src_off + nx->len >= b)
            return 0;
        pos = nx->src_off + nx->len;
    }
    if (h + 1 >= r->nsegs)
        return 0;
    t->kind = LEX_IDENT;
    t->punct = 0;
    t->start = r->text + e;
    t->line = (uint32_t)((int64_t)k->t.line + r->linefix);
    t->column = k->t.line == r->sline ? (uint32_t)(r->text + e - r->ls) + 1 : k->t.column;
    t->spliced = 0;
    t->tmpl_tok = 0;                  /* bytes of values in it */
    if (k->t.line != r->sline) {      /* columns from here on: this line's */
        r->ls = r->text + ((int64_t)r->src_lines[k->t.line - 1] + r->delta);
        r->sline = k->t.line;
    }
    r->g = h + 1;
    r->delta = (int64_t)nx->exp_off - (int64_t)nx->src_off;
    r->seg_end = nx->src_off + nx->len;
    t->len = (size_t)((int64_t)b + r->delta - e);
    r->j++;
    return 1;
}

int tmpl_replay_mode(void)
{
    const char *v = getenv("PORTDASH_TMPL_REPLAY");

    if (v && !strcmp(v, "0"))
        return 0;
    if (v && !strcmp(v, "check"))
        return 2;
    if (v && !strcmp(v, "all"))
        return 3;
    return 1;
}

int tmpl_replay_pays(const tmpl_out *t, size_t srclen)
{
    size_t body = 0, i;

    /* Lexing the bodies once for the replay and keeping their tokens
     * costs about what lexing four instances of them does (numpy/core:
     * of its 38 templates, the 12 under 6 times were each slower). */
    for (i = 0; i < t->nbodies; i++)
        body += t->bodies[2 * i + 1] - t->bodies[2 * i];
    return body <= srclen && t->len >= srclen - body + TR_MIN_TIMES * body;
}

/* 1 when two tokens are the same, to the byte. */
static int tr_same_tok(const lex_token *a, const lex_token *b)
{
    return a->kind == b->kind && a->punct == b->punct && a->start == b->start &&
           a->len == b->len && a->line == b->line && a->column == b->column &&
           !a->spliced == !b->spliced;
}

/* 1 when two lexer states over the same text are the same. */
static int tr_same_state(const lex_state *a, const lex_state *b)
{
    return a->p == b->p && a->line == b->line && a->line_start == b->line_start &&
           !a->in_pp == !b->in_pp && !a->at_bol == !b->at_bol &&
           a->bad_comment_line == b->bad_comment_line &&
           a->bad_literal_line == b->bad_literal_line &&
           a->bad_literals == b->bad_literals &&
           a->bad_trigraph_line == b->bad_trigraph_line &&
           a->bad_trigraphs == b->bad_trigraphs && a->other_line == b->other_line &&
           a->other_bytes == b->other_bytes && a->digraphs == b->digraphs;
}

/* The check's walk: the plain lexer a beside the replay's b. */
typedef struct {
    lex_state a, *b;
    size_t n, bad;
    const tmpl_replay *r;       /* the replay and its template, for */
    const char *src;            /* lex_token.tmpl_tok's bytes */
} tr_check;

/* 1 when t, if it says it is template token tmpl_tok - 1, has that
 * token's bytes (the classification keeps verdicts by it, an_tv). */
static int tr_same_bytes(const tr_check *c, const lex_token *t)
{
    const tr_tok *k;

    if (!t->tmpl_tok)
        return 1;
    if (t->tmpl_tok > c->r->ntok)
        return 0;
    k = &c->r->tok[t->tmpl_tok - 1];
    return k->t.len == t->len && memcmp(c->src + k->start, t->start, t->len) == 0;
}

/* Compare token t of the replay's walk (and, after a '#', the directive
 * that b lexes on) with the plain lexer's; nonzero at the first that
 * differs. */
static int tr_check_feed(void *ctx, const lex_token *t)
{
    tr_check *c = ctx;
    lex_token ta, tb = *t;

    for (;;) {
        c->n++;
        lex_next(&c->a, &ta);
        /* lx is the lexer's where feed may read it: after a '#' */
        if (!tr_same_tok(&ta, &tb) || !tr_same_bytes(c, &tb) ||
            ((tb.kind == LEX_PP_BEGIN || c->b->in_pp) && !tr_same_state(&c->a, c->b))) {
            c->bad = c->n;
            return 1;
        }
        if (tb.kind != LEX_PP_BEGIN && !c->b->in_pp)
            return 0;
        lex_next(c->b, &tb);            /* as analyze_pp.c does */
        if (tb.kind == LEX_EOF)
            return 0;
    }
}

size_t tmpl_replay_check(const tmpl_out *t, const char *src, size_t srclen,
                         unsigned flags, size_t *replayed)
{
    tmpl_replay r;
    tr_check c;
    lex_state b;
    lex_token ta, tb;
    size_t n = 0, i = 0;

    if (tmpl_replay_init(&r, t, src, srclen, flags))
        return (size_t)-1;
    memset(&c, 0, sizeof(c));
    lex_init(&c.a, t->text, t->len, flags);
    lex_init(&b, t->text, t->len, flags);
    c.b = &b;
    c.r = &r;
    c.src = src;
    tmpl_replay_walk(&r, &b, tr_check_feed, &c);
    if (!c.bad) {                   /* both at the end, in the same state */
        lex_next(&c.a, &ta);
        c.n++;
        if (ta.kind != LEX_EOF || !tr_same_state(&c.a, &b))
            c.bad = c.n;
    }
    /* tmpl_replay_next, as the memo's walk uses it: every state */
    lex_init(&c.a, t->text, t->len, flags);
    lex_init(&b, t->text, t->len, flags);
    for (r.next_p = NULL, r.g = 0; !c.bad;) {
        i++;
        lex_next(&c.a, &ta);
        tmpl_replay_next(&r, &b, &tb);
        n += r.next_p != NULL;
        if (!tr_same_tok(&ta, &tb) || !tr_same_bytes(&c, &tb) ||
            !tr_same_state(&c.a, &b))
            c.bad = i;
        if (ta.kind == LEX_EOF)
            break;
    }
    tmpl_replay_free(&r);
    if (replayed)
        *replayed = n;
    return c.bad;
}

tmpl_replay *tmpl_replay_start(tmpl_replay *r, const tmpl_out *t,
                               const char *src, size_t srclen, unsigned flags,
                               const char *path)
{
    int mode = tmpl_replay_mode();
    size_t bad;

    memset(r, 0, sizeof(*r));
    if (!t || mode == 0 || (mode == 1 && !tmpl_replay_pays(t, srclen)))
        return NULL;
    if (mode == 2 && (bad = tmpl_replay_check(t, src, srclen, flags, NULL)) != 0) {
        if (bad == (size_t)-1)
            return NULL;            /* out of memory: lex the expansion */
        fprintf(stderr, "portdash: %s: the template replay differs from the "
                "lexer at token %zu; lexing the expansion\n", path ? path : "", bad);
        return NULL;
    }
    return tmpl_replay_init(r, t, src, srclen, flags) ? NULL : r;
}
