/*
 * tmpl_replay.h: the tokens of a template's expansion (tmpl.h) without
 * lexing the expansion byte by byte (issue 26: numpy/core's templates
 * expand 1.1 MB into 13.4 MB, whose lexing was a quarter of `portdash
 * analyze`).
 *
 * The bodies of the template's loops are lexed once (tmpl_replay_init),
 * each token with the lexer's context before its step (in a directive, at
 * the start of a line) and how far past its end the lexer looked to end
 * it.  Most
 * of the expansion is template bytes copied unchanged (tmpl_seg), so
 * where the walk stands at a token boundary of the template, in a copied
 * segment, in the same context, the template's next tokens are the
 * expansion's as long as what the lexer reads for them lies inside that
 * segment: they are handed out with their offsets moved into the
 * expansion and their lines by the newlines before.  Elsewhere
 * (substituted values, tokens across a segment's edge, the lexer's
 * problem cases, a directive's tokens, which analyze_pp.c reads itself)
 * the real lexer reads the expansion, and the replay takes over again at
 * the next boundary it knows.  Every token and the lexer state after it
 * are those lex_next would give (tmpl_replay_check compares them), but
 * for lex_token.tmpl_tok, which names the template token a replayed one
 * is (the classification keeps its verdict by it, analyze_class.h).
 * doc/analyzer.md ("The expansion's tokens are replayed") describes it.
 */
#ifndef TMPL_REPLAY_H
#define TMPL_REPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "lex_fast.h"
#include "tmpl.h"

/* One token of the template: the token as the lexer gave it there (but
 * for start: NULL), its offset, the first template offset past what its
 * step reads (lim: UINT32_MAX for a token never replayed: the end of
 * input, a problem the lexer counts, a C++ raw string), the line where
 * its step starts (the end of the token before), and flags (TR_*).  The
 * token whole, so that handing it out is one copy and three fields. */
typedef struct {
    lex_token t;
    uint32_t start, lim, pline, flags;
    /* A directive's '#': the token after its LEX_PP_END, and the largest
     * lim of its tokens up to that end (UINT32_MAX: none, or no end). */
    uint32_t dnext, dlim;
} tr_tok;

#define TR_SPLICED   0x1u   /* lex_token.spliced */
#define TR_PP_AFTER  0x2u   /* in a directive after it (lex_state.in_pp) */
#define TR_PRE_SHIFT 2      /* bits 2-3: in_pp | at_bol << 1 before its step */

/*
 * The replay of one expansion (fields are the replay's own).  Between a
 * sync and the next token it cannot give, the tokens handed out follow
 * one another in the template: token j's line is its template line plus
 * linefix (the newlines between are the same bytes), its column the
 * template's unless it lies on the line of the sync, whose start in the
 * expansion is ls.
 */
typedef struct {
    tr_tok *tok;              /* each body's tokens, then its LEX_EOF */
    size_t ntok;
    uint32_t *bmap;           /* per template offset: 0, or the token whose
                               * step starts there, plus 1, shifted left by
                               * 2 over the context before it (as in flags) */
    const tmpl_seg *segs;     /* the expansion's segments */
    size_t nsegs, g;          /* g: the segment of the last sync */
    const uint32_t *src_lines; /* the template's line starts */
    const char *text;         /* the expansion */
    size_t textlen;
    const char *next_p;       /* tmpl_replay_next: lex_state.p after the
                               * last replayed token, NULL after a lexed one */
    const char *ls;           /* lex_state.line_start at the sync */
    size_t j;                 /* next token to hand out */
    uint32_t seg_end;         /* template end of the segment being replayed */
    uint32_t sline;           /* template line at the sync */
    int64_t delta;            /* the segment's expansion minus template offset */
    int64_t linefix;          /* expansion minus template line */
} tmpl_replay;

/*
 * Lex the loops' bodies of template src[0..srclen) (t->bodies; lex_init
 * flags `flags`, those of the walk) and ready the replay of its expansion
 * t, which must outlive r.
 * Returns 0, or -1 when out of memory or the template is over 1 MB (no
 * error is set: the caller lexes the expansion instead, with the same
 * result).
 */
int tmpl_replay_init(tmpl_replay *r, const tmpl_out *t, const char *src,
                     size_t srclen, unsigned flags);

/*
 * The replay for the walk over expansion t of template src[0..srclen) of
 * `path` (lex flags `flags`), as tmpl_replay_mode asks: r, ready, or
 * NULL when the expansion is to be lexed (t NULL, mode 0, the replay not
 * paying, out of memory, or the check failed, which is said on stderr).  r is zeroed first, so
 * tmpl_replay_free(r) is right either way.
 */
tmpl_replay *tmpl_replay_start(tmpl_replay *r, const tmpl_out *t,
                               const char *src, size_t srclen, unsigned flags,
                               const char *path);

/* Free what init allocated; accepts a zeroed r. */
void tmpl_replay_free(tmpl_replay *r);

/*
 * Take up the replay where lx stands (lx reads t->text): 1 when lx is at
 * a template token boundary in a copied segment, in the same context,
 * else 0.  Called by tmpl_replay_next.
 */
int tmpl_replay_sync(tmpl_replay *r, const lex_state *lx);

/*
 * Template token j reads past the segment being replayed: when it is an
 * identifier that runs over placeholders whose values are identifier
 * characters (npy_@name@, @TYPE@_get, @type@), the expansion has one
 * identifier there too, which is put in *t; the replay goes on in the
 * segment after its last value (1).  Else 0, nothing changed.
 */
int tmpl_replay_cross(tmpl_replay *r, lex_token *t);

/* lx after template token j - 1 was handed out (since the sync). */
static inline void tmpl_replay_put(const tmpl_replay *r, lex_state *lx)
{
    const tr_tok *k = &r->tok[r->j - 1], *n = &r->tok[r->j];

    lx->p = r->text + ((int64_t)k->start + k->t.len + r->delta);
    lx->line = (uint32_t)((int64_t)n->pline + r->linefix);
    lx->line_start = n->pline == r->sline
        ? r->ls : r->text + ((int64_t)r->src_lines[n->pline - 1] + r->delta);
    lx->at_bol = 0;
    lx->in_pp = (k->flags & TR_PP_AFTER) != 0;
}

/*
 * The expansion mode asked for by PORTDASH_TMPL_REPLAY: 0 ("0": lex the
 * expansion, as before the replay), 2 ("check": compare the replay with
 * the lexer first, see tmpl_replay_check, then replay), 3 ("all": replay
 * every template), else 1 (replay where tmpl_replay_pays).
 */
int tmpl_replay_mode(void);

/* 1 when the replay of expansion t of a template of srclen bytes is
 * likely to cost less than lexing it: its loops' bodies are in it at
 * least 6 times on average. */
int tmpl_replay_pays(const tmpl_out *t, size_t srclen);

/*
 * Lex t->text once plainly and once through the replay (directives read
 * by lex_next after their '#', as analyze_pp.c does) and compare every
 * token and the lexer state after it, and the bytes of a replayed token
 * with those of the template token its lex_token.tmpl_tok names.
 * Returns 0 when all agree, else the 1-based number of the first token
 * that differs, or (size_t)-1 when out of memory.  *replayed (may be
 * NULL) gets the number of tokens the replay handed out without lexing.
 * For the tests and the check mode.
 */
size_t tmpl_replay_check(const tmpl_out *t, const char *src, size_t srclen,
                         unsigned flags, size_t *replayed);

/*
 * lex_next for a walk over expansion r->text that reads lx between tokens
 * (the memo's, analyze_memo.c), lexer lx lex_init'ed on it: the next
 * token, replayed from the template when that gives the same, else
 * lexed; lx is written after every token as lex_next leaves it, and a
 * move of lx by the caller (a reused chunk, a directive) is seen.
 */
static inline __attribute__((always_inline)) void
tmpl_replay_next(tmpl_replay *r, lex_state *lx, lex_token *tok)
{
    const tr_tok *k;
    int64_t e;

    if (lx->p != r->next_p && !tmpl_replay_sync(r, lx))
        goto real;
    k = &r->tok[r->j];
    if (k->lim > r->seg_end) {     /* reads past the segment, or never */
        if (!tmpl_replay_cross(r, tok))
            goto real;
        tmpl_replay_put(r, lx);
        r->next_p = lx->p;
        return;
    }
    e = (int64_t)k->start + r->delta;
    *tok = k->t;
    if (tok->kind == LEX_PP_BEGIN && k->dlim > r->seg_end)
        tok->tmpl_tok = 0;            /* as tmpl_replay_walk */
    tok->start = r->text + e;
    tok->line = (uint32_t)((int64_t)k->t.line + r->linefix);
    tok->column = k->t.line == r->sline ? (uint32_t)(r->text + e - r->ls) + 1 : k->t.column;
    r->j++;
    tmpl_replay_put(r, lx);
    r->next_p = lx->p;
    return;
real:
    r->next_p = NULL;
    lex_next_fast(lx, tok);
}

/* What tmpl_replay_walk hands each token to: nonzero stops the walk. */
typedef int (*tmpl_replay_feed)(void *ctx, const lex_token *t);

/*
 * Walk expansion r->text with lexer lx (lex_init'ed on it): every token
 * but the final LEX_EOF to feed(ctx, token), in order, until it returns
 * nonzero.  lx is written as lex_next leaves it before a token is lexed,
 * before a directive's '#' is fed (feed lexes the directive on with lx)
 * and at the end; in between, while tokens are replayed, it lags behind,
 * so feed reads nothing of lx but after a '#'.  Inline, so that feed
 * (a constant) is inlined into the loop: the plain analysis's walk.
 */
static inline __attribute__((always_inline)) void
tmpl_replay_walk(tmpl_replay *r, lex_state *lx, tmpl_replay_feed feed, void *ctx)
{
    lex_token t;

    for (;;) {
        if (tmpl_replay_sync(r, lx)) {
            /* in locals: the stores into t could alias r's fields */
            const tr_tok *k = r->tok + r->j, *k0 = k;
            uint32_t seg_end = r->seg_end, sline = r->sline;
            int64_t delta = r->delta;
            const int64_t linefix = r->linefix;
            const char *text = r->text, *ls = r->ls;

            for (;; k++) {
                int64_t e = (int64_t)k->start + delta;

                if (k->lim > seg_end) {
                    r->j = (size_t)(k - r->tok);
                    if (k->t.kind != LEX_IDENT || !tmpl_replay_cross(r, &t))
                        break;
                    seg_end = r->seg_end;
                    sline = r->sline;
                    delta = r->delta;
                    ls = r->ls;
                    if (feed(ctx, &t))
                        return;
                    continue;
                }
                t = k->t;
                t.start = text + e;
                t.line = (uint32_t)((int64_t)k->t.line + linefix);
                t.column = k->t.line == sline ? (uint32_t)(text + e - ls) + 1 : k->t.column;
                if (t.kind == LEX_PP_BEGIN) {
                    if (k->dlim > seg_end)    /* not all of it the template's */
                        t.tmpl_tok = 0;
                    r->j = (size_t)(k + 1 - r->tok);
                    tmpl_replay_put(r, lx);
                    if (feed(ctx, &t))
                        return;
                    /* The directive, lexed by feed, was template bytes
                     * of the segment: the lexer stands at its end, the
                     * template's too; else it moved elsewhere. */
                    if (k->dlim > seg_end || lx->in_pp ||
                        lx->p != text + ((int64_t)r->tok[k->dnext - 1].start + delta))
                        goto next;
                    k = r->tok + k->dnext - 1;
                    continue;
                }
                if (feed(ctx, &t))
                    return;
            }
            if (k > k0) {
                r->j = (size_t)(k - r->tok);
                tmpl_replay_put(r, lx);
            }
        }
        lex_next_fast(lx, &t);
        if (t.kind == LEX_EOF || feed(ctx, &t))
            return;
    next:;
    }
}

#endif
