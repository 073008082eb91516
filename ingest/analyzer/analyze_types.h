/*
 * analyze_types.h: HPy types, their fields and traverse (analyze_types.c).
 */
#ifndef ANALYZE_TYPES_H
#define ANALYZE_TYPES_H

#include "analyze_int.h"

/* analyze_types.c: fill st->res->hpy_types from the analysed text (after
 * an_finish, before template lines are mapped back); does nothing unless
 * st->types_seen (set by an_types_word() during the scan). */
void an_types(an_state *st, const char *buf, size_t len);

#endif
