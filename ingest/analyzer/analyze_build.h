/*
 * analyze_build.h: building the result during the walk (analyze_build.c).
 */
#ifndef ANALYZE_BUILD_H
#define ANALYZE_BUILD_H

#include "analyze_int.h"

/* Intern s[0..len) (len > 0) in the walk's text pool (st->pool, which
 * the result keeps): *off gets its offset, the same for the same bytes.
 * 0, or PD_ENOMEM (also set in st->rc). */
int an_intern(an_state *st, const char *s, size_t len, uint32_t *off);

/* Add a finding of verdict v (its class and rule) at line:column (1-based)
 * with text[0..len), interned.  kind is an AN_FK_* kind, cond the rule
 * whose condition may change its class at the end of the file (NULL:
 * none).  The findings stay in (line, column) order: an item finding can
 * come after the tokens it precedes, so it is inserted.  It is counted
 * for the open function unless define (it comes from a #define).  Returns
 * its index, or SIZE_MAX when st->rc is set or memory ran out (no
 * finding then). */
size_t an_add_finding(an_state *st, uint32_t line, uint32_t column,
                      rules_verdict v, const char *text, size_t len,
                      int kind, const rules_name *cond, int define);

/* Give finding fi (the index an_add_finding returned just now, or
 * SIZE_MAX: nothing is done) a reason, printf-made and cut at 255 bytes.
 * Out of memory, the finding keeps none. */
void an_set_reason(an_state *st, size_t fi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Count finding fi for function fn: its tokens, its unguarded counts and
 * its object-item flags. */
void an_assign(an_state *st, size_t fi, int32_t fn);

/* Start function name[0..len) at start_line: its row and accumulators,
 * its name interned.  Returns its index, or -1 when st->rc is set or
 * memory ran out. */
int32_t an_new_function(an_state *st, const char *name, size_t len,
                        uint32_t start_line);

/* Function fn's name was made by the macro name[0..len) (analyze.h:
 * an_function.name_from_macro), interned. */
void an_set_macro(an_state *st, int32_t fn, const char *name, size_t len);

#endif
