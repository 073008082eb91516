/*
 * lex_step.c: lex_next (lex.h), the lexer's step for callers outside the
 * analyzer's walks, which inline it (lex_fast.h).
 */
#include "lex.h"
#include "lex_fast.h"

void lex_next(lex_state *lx, lex_token *tok)
{
    lex_next_fast(lx, tok);
}
