/*
 * analyze_flow.h: the facts the call-graph step reads (analyze_flow.c).
 */
#ifndef ANALYZE_FLOW_H
#define ANALYZE_FLOW_H

#include "analyze_int.h"

/* analyze_flow.c: the facts the call-graph step reads (see there). */

/* Token t at file level, before pdepth counts it: the parameter names of
 * the declaration being read (for the facts only). */
void an_flow_file_token(an_state *st, const an_tok *t);

/* The body of the open function starts: its parameters are the last
 * parenthesised group's names. */
void an_flow_begin(an_state *st);

/* Token t in a function body, after the item trackers saw it and before
 * pdepth counts it: the calls, assignments, sites and dereferences it
 * takes part in become the function's facts. */
void an_flow_body_token(an_state *st, const an_tok *t);

/* 0 when an_flow_body_token(st, t) would do nothing: no call, assignment
 * or site pending, t neither '(' nor '=', and no dereference to watch (a
 * name only matters when item-typed parameters were declared).  The scanner tests this
 * first: the call's entry and exit cost more (issue 26).  Without the
 * call-graph facts (st->nograph) calls are not followed (nfc and site_wait
 * stay 0): the dereferences and assignments are, for their findings. */
static inline int an_flow_body_wants(const an_state *st, const an_tok *t)
{
    const an_flow *f = &st->flow;

    return f->nfc || f->asg || f->site_wait || (!st->nograph && an_punct_is(t, '(')) ||
           an_punct_is(t, '=') ||
           (!f->deref_valid &&
            (f->deref_pending || (t->kind == LEX_IDENT && st->nitemparams)));
}
/* An item site of class v reached through the name s[0..len): a fact
 * when that name reaches a parameter (L<k>, F<k>), else remembered for
 * the local it is stored in. */
void an_flow_site(an_state *st, rules_verdict v, const char *s, size_t len);

/* An item site of class v whose root is the next name that reaches a
 * parameter (`PyArray_DATA( (PyObject *)arr )`). */
void an_flow_site_wait(an_state *st, rules_verdict v);
/* An item value site (`(char *)&obj`, analyze_items.c) at the token after
 * obj: it reaches the parameter of the first argument of the call it is
 * handed to, directly or through the local it is stored in. */
void an_flow_value_site(an_state *st, rules_verdict v);
/* The open function (st->cur) ends: in a function of the object dtype
 * (named OBJECT_), a `PyObject **` parameter dereferenced is an item
 * site, a finding and a fact. */
void an_flow_end(an_state *st);

/* 1 when nothing of a function's facts is pending (no call, assignment or
 * site open): the chunk memo cuts only then. */
int an_flow_clean(const an_state *st);

/* Fill every function's flow (an_function.flow) from the flow records:
 * its facts in the order they were made, space-separated, in one pool
 * (res->flow_pool).  Out of memory: st->rc. */
void an_flow_build(an_state *st);

#endif
