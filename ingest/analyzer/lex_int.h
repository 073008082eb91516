/*
 * lex_int.h: what the lexer's inline step (lex_fast.h) and its rarer
 * paths (lex_core.c) share: the byte-class tables, the dispatch kinds and
 * the small helpers for continuations and newlines.  Internal to the
 * lexer; lex.h is its interface.  Split so that the rarer paths do not
 * include the step that calls them.
 */
#ifndef LEX_INT_H
#define LEX_INT_H

#include <stddef.h>
#include <stdint.h>

#include "lex.h"

/* Byte classes. */
#define LC_SPACE 0x01u  /* blank other than newline */
#define LC_IDST  0x02u  /* may start an identifier: A-Z a-z _ @ */
#define LC_ID    0x04u  /* may continue an identifier: also 0-9 */
#define LC_DIGIT 0x08u
#define LC_PUNCT 0x10u  /* a punctuator byte */

/* What the first byte of a token, or of what lies between tokens, starts:
 * lex_next dispatches on it with one table look-up (issue 26: the chain
 * of tests before a punctuator cost about twenty instructions). */
enum {
    LK_OTHER = 0, /* LEX_OTHER */
    LK_SPACE,     /* a blank run */
    LK_NL,        /* a newline */
    LK_SLASH,     /* '/': a comment or a punctuator */
    LK_BSLASH,    /* '\\': a continuation or LEX_OTHER */
    LK_IDST,      /* an identifier */
    LK_DIGIT,     /* a number */
    LK_DOT,       /* a number (.5) or a punctuator */
    LK_QUOTE,     /* a string or char literal */
    LK_HASH,      /* a directive or a punctuator */
    LK_PCT,       /* %: (a directive's digraph) or a punctuator */
    LK_PUNCT      /* any other punctuator byte */
};

/* Second bytes that make a two-byte punctuator, as bits (lex_sb), and per
 * first byte the set of them that does (lex_two): -> -- -= ++ += << <=
 * >> >= && &= || |= :: ## and the X= of = ! * / % ^. */
#define LS_GT 0x01u
#define LS_MINUS 0x02u
#define LS_EQ 0x04u
#define LS_PLUS 0x08u
#define LS_LT 0x10u
#define LS_AMP 0x20u
#define LS_BAR 0x40u
#define LS_COLON 0x80u
#define LS_HASH 0x100u
#define LS_PCT 0x200u   /* only for the digraph candidates */

/* The tables (lex_core.c), filled by lex_tables_init before any token is read. */
extern unsigned char lex_cls[256];
extern unsigned char lex_kind_of[256];
extern uint16_t lex_sb[256], lex_two[256], lex_dg[256];

#define LEX_IS(c, cls) (lex_cls[(unsigned char)(c)] & (cls))

/* The rarer paths stay out of lex_next, which then keeps fewer registers
 * to save and restore per token (issue 26: a tenth of the lexer's
 * instructions were its entry and exit). */
#define LEX_COLD __attribute__((noinline))

/* Length of a backslash-newline at p ("\\\n" or "\\\r\n"), or 0. */
static inline size_t lex_splice(const char *p, const char *end)
{
    if (p + 1 < end && p[1] == '\n')
        return 2;
    if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
        return 3;
    return 0;
}

/* Account for a newline whose last byte is at nl. */
static inline void lex_newline(lex_state *lx, const char *nl)
{
    lx->line++;
    lx->line_start = nl + 1;
}

/* The rarer paths (lex_core.c), each returning the byte after what it read. */
const char *lex_quoted(lex_state *lx, const char *p, char quote, int *spliced);
const char *lex_raw_string(lex_state *lx, const char *q);
const char *lex_number(lex_state *lx, const char *p, int *spliced);
uint32_t lex_digraph(const lex_state *lx, const char *p, const char *end,
                     size_t *len);
const char *lex_comment(lex_state *lx, const char *p, lex_token *tok);

/* Fill the tables above, once per process (pthread_once); lex_init calls it. */
void lex_tables_init(void);

#endif
