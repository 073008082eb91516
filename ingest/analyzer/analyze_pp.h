/*
 * analyze_pp.h: preprocessor directives (analyze_pp.c).
 */
#ifndef ANALYZE_PP_H
#define ANALYZE_PP_H

#include "analyze_int.h"

/* The directive whose '#' is `hash` (the lexer stands after it): read to
 * its end and applied (analyze_pp.c); a directive that is the template's
 * bytes (hash->tmpl_tok, the walk's replay st->rp) is applied from what
 * the same directive did in an instance before, without reading it. */
void an_directive(an_state *st, const lex_token *hash);

#endif
