/*
 * analyze_items.h: object-dtype item access inside functions (analyze_items.c).
 */
#ifndef ANALYZE_ITEMS_H
#define ANALYZE_ITEMS_H

#include "analyze_int.h"

/* analyze_items.c: object-dtype item access (see there). */

/* Token t in a function: follows declarations `TYPE *...name` of the
 * rules' itemlocal types, whose names then reach items. */
void an_local_decl(an_state *st, const an_tok *t);

/* At ')': a cast `( TYPE *... )` of an itemcast or itemdata type waits for
 * its operand (an_cast_operand). */
void an_check_cast(an_state *st);

/* Token t (not yet counted in pdepth) fed to the tracked calls: the
 * itemcopy and itemarg calls whose arguments are items, and the nullowner
 * calls whose owner is HPy_NULL. */
void an_call_token(an_state *st, const an_tok *t);

/* Token t after a pending cast (an_check_cast): its operand, an item site
 * when it reaches items (a local of an item type, PyArray_DATA(...), an
 * address cast to a data pointer). */
void an_cast_operand(an_state *st, const an_tok *t);

/* '(' after `name` in a function: an itemcall (numpy's item helpers such
 * as PyArray_XDECREF) reads or writes object items: a finding and a
 * site. */
void an_item_call(an_state *st, const an_tok *name);

/* The callers' tests before the three per-token steps above: 0 when the
 * step would do nothing with t (most tokens), so that the call, whose
 * entry and exit cost more than the test, is not made (issue 26). */
static inline int an_local_decl_wants(const an_state *st, const an_tok *t)
{
    return st->ld_state != 0 ||
           (t->kind == LEX_IDENT && t->e &&
            (t->e->flags & (RULES_F_HAS_LOCAL | RULES_F_HAS_CAST | RULES_F_HAS_DATA)));
}

static inline int an_call_token_wants(const an_state *st, const an_tok *t)
{
    return st->ncalls || st->callpend_valid ||
           (t->kind == LEX_IDENT && t->e &&
            (t->e->flags & (RULES_F_ITEMCOPY | RULES_F_ITEMARG)));
}

static inline int an_cast_operand_wants(const an_state *st)
{
    return st->pcast.active;
}

#endif
