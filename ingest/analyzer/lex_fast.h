/*
 * lex_fast.h: the lexer's step (lex_next) as an inline function, for the
 * analyzer's token walks, which call it once per token: inline, the call
 * and the saving of registers on its entry and exit (a sixth of the
 * lexer's instructions, issue 26) are gone.  Internal to the lexer and
 * the analyzer's walks; lex.h is the lexer's interface, lex_int.h what
 * the step shares with its rarer paths (lex_core.c); lex_next
 * (lex_step.c) is this function.
 */
#ifndef LEX_FAST_H
#define LEX_FAST_H

#include <stdint.h>
#include <string.h>

#include "lex.h"
#include "lex_int.h"
/* 1 if the identifier [s, e) is a raw-string prefix (R, LR, uR, UR, u8R). */
static inline int lex_raw_prefix(const char *s, const char *e)
{
    size_t n = (size_t)(e - s);

    return (n == 1 && s[0] == 'R') ||
           (n == 2 && s[1] == 'R' && (s[0] == 'L' || s[0] == 'u' ||
                                      s[0] == 'U')) ||
           (n == 3 && memcmp(s, "u8R", 3) == 0);
}

/* Scan an identifier starting at p; returns the byte after it. */
static inline const char *lex_ident(lex_state *lx, const char *p, int *spliced)
{
    const char *end = lx->end;
    size_t n;

    for (p++;;) {
        if (p < lx->stop)
            while (LEX_IS(*p, LC_ID))
                p++;
        else
            while (p < end && LEX_IS(*p, LC_ID))
                p++;
        if (p < end && *p == '\\' && (n = lex_splice(p, end)) != 0 &&
            p + n < end && LEX_IS(p[n], LC_ID)) {
            p += n;
            lex_newline(lx, p - 1);
            *spliced = 1;
            continue;
        }
        return p;
    }
}

/* The punctuator code at p (see LEX_P2); sets *len to its bytes.  Two
 * table look-ups decide a digraph candidate and a two-byte punctuator. */
static inline uint32_t lex_punct(lex_state *lx, const char *p, const char *end,
                                 size_t *len)
{
    unsigned char a = (unsigned char)p[0];
    unsigned char b = p + 1 < end ? (unsigned char)p[1] : 0;
    unsigned sb = lex_sb[b];
    uint32_t dg;

    if ((lex_dg[a] & sb) && (dg = lex_digraph(lx, p, end, len)) != 0) {
        lx->digraphs++;
        return dg;
    }
    if (lex_two[a] & sb) {
        *len = 2;
        return LEX_P2(a, b);
    }
    /* ??< ??> ??( ... are trigraphs; compilers read them only with
     * -trigraphs (and C23 removed them): counted for the notes. */
    if (a == '?' && b == '?' && p + 2 < end && strchr("=/'()!<>-", p[2]) &&
        p[2] != '\0' && !lx->bad_trigraphs++)
        lx->bad_trigraph_line = lx->line;
    *len = 1;
    return a;
}

/* lex_next (lex.h). */
static inline __attribute__((always_inline)) void
lex_next_fast(lex_state *lx, lex_token *tok)
{
    const char *p = lx->p, *q, *end = lx->end;
    int bol, spliced = 0;
    unsigned k;
    size_t n;

    /* Blanks, newlines, continuations and comments before the token. */
    for (;;) {
        if (p >= end) {
            k = LK_NL;
            break;
        }
        k = lex_kind_of[(unsigned char)*p];
        if (k == LK_SPACE) {
            if (p < lx->stop)
                while (LEX_IS(*++p, LC_SPACE))
                    ;
            else
                p++;
        } else if (k == LK_NL) {
            if (lx->in_pp)
                break;                /* LEX_PP_END below */
            lex_newline(lx, p);
            lx->at_bol = 1;
            p++;
        } else if (k == LK_BSLASH && (n = lex_splice(p, end)) != 0) {
            p += n;
            lex_newline(lx, p - 1);
        } else if (k == LK_SLASH && p + 1 < end &&
                   (p[1] == '*' || p[1] == '/')) {
            if (!(p = lex_comment(lx, p, tok)))
                return;
        } else {
            break;
        }
    }
    tok->start = p;
    tok->line = lx->line;
    tok->column = (uint32_t)(p - lx->line_start) + 1;
    tok->punct = 0;
    if (k == LK_NL) {
        /* End of a directive line, or of the input. */
        tok->kind = lx->in_pp ? LEX_PP_END : LEX_EOF;
        tok->len = 0;
        tok->spliced = 0;
        tok->tmpl_tok = 0;
        lx->in_pp = 0;
        lx->p = p;
        return;
    }
    bol = lx->at_bol;
    lx->at_bol = 0;
    switch (k) {
    case LK_IDST:
        q = lex_ident(lx, p, &spliced);
        tok->kind = LEX_IDENT;
        if ((lx->flags & LEX_F_CPP) && q < end && *q == '"' && !spliced &&
            lex_raw_prefix(p, q)) {
            const char *r = lex_raw_string(lx, q);

            if (r) {
                tok->kind = LEX_STRING;
                q = r;
            }
        }
        break;
    case LK_DOT:   /* a number if a digit follows: .5 */
        if (!(p + 1 < end && LEX_IS(p[1], LC_DIGIT)))
            goto punct;
        /* fall through */
    case LK_DIGIT:
        q = lex_number(lx, p, &spliced);
        tok->kind = LEX_NUMBER;
        break;
    case LK_QUOTE:
        q = lex_quoted(lx, p + 1, *p, &spliced);
        tok->kind = *p == '"' ? LEX_STRING : LEX_CHAR;
        break;
    case LK_PCT:
        /* %: is # (but %:%: is ##) */
        if (!(p + 1 < end && p[1] == ':' &&
              !(p + 3 < end && p[2] == '%' && p[3] == ':')))
            goto punct;
        /* fall through */
    case LK_HASH:
        if (!bol || lx->in_pp)
            goto punct;
        q = p + (*p == '#' ? 1 : 2);   /* # or its digraph %: */
        lx->digraphs += *p == '%';
        tok->kind = LEX_PP_BEGIN;
        tok->punct = '#';
        lx->in_pp = 1;
        break;
    case LK_PUNCT:
    case LK_SLASH:
    punct:
        tok->punct = lex_punct(lx, p, end, &n);
        tok->kind = LEX_PUNCT;
        q = p + n;
        break;
    default:
        q = p + 1;
        tok->kind = LEX_OTHER;
        if (!lx->in_pp && !lx->other_bytes++)
            lx->other_line = lx->line;
        break;
    }
    tok->len = (size_t)(q - p);
    tok->spliced = spliced;
    tok->tmpl_tok = 0;
    lx->p = q;
}

#endif
