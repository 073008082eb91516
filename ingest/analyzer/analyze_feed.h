/*
 * analyze_feed.h: one lexed token into the walk: the step shared by the plain walk
 * (analyze.c) and the memo's (analyze_memo.c).
 */
#ifndef ANALYZE_FEED_H
#define ANALYZE_FEED_H

#include "analyze_int.h"
#include "analyze_pp.h"
#include "analyze_scan.h"
#include "analyze_shadow.h"
#include "lex_fast.h"

/* Feed one lexed token to the analysis: a directive to the preprocessor,
 * anything else to the scanner unless an #if branch skips it.  The one
 * step of the plain walk and of the memo's walk. */
static inline void an_feed(an_state *st, const lex_token *t)
{
    if (st->tpend.valid)
        an_shadow_next(st, t);        /* a C API type name or a variable */
    if (t->kind == LEX_PP_BEGIN)
        an_directive(st, t);
    else if (!st->skip)
        an_scan_token(st, t);
}

#endif
