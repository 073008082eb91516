/*
 * analyze_scan.h: the token walk (analyze_scan.c).
 */
#ifndef ANALYZE_SCAN_H
#define ANALYZE_SCAN_H

#include "analyze_int.h"

/* The walk's step: one significant token t (the lexer's, or a replayed
 * template's), classified if an identifier, then handled by where it is
 * (a function body, file level, a struct body or initializer), then put
 * in the ring of the last tokens. */
void an_scan_token(an_state *st, const lex_token *t);

/* Forget the declaration being read at file level (its tokens, keyword,
 * candidates); outside a function, the shadowing names of a prototype's
 * parameters too. */
void an_reset_decl(an_state *st);

/* Drop the tracked calls whose parentheses are closed (their depth is
 * back to what it was before them). */
void an_clip_calls(an_state *st);

#endif
