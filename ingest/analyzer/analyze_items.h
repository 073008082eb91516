/*
 * analyze_items.h: object-dtype item access inside functions (analyze_items.c).
 */
#ifndef ANALYZE_ITEMS_H
#define ANALYZE_ITEMS_H

#include "analyze_int.h"

/* analyze_items.c: object-dtype item access (see there) */
void an_local_decl(an_state *st, const an_tok *t);
void an_check_cast(an_state *st);
void an_call_token(an_state *st, const an_tok *t);
void an_cast_operand(an_state *st, const an_tok *t);
void an_item_call(an_state *st, const an_tok *name);

#endif
