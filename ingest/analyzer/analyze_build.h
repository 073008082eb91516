/*
 * analyze_build.h: building the result during the walk (analyze_build.c).
 */
#ifndef ANALYZE_BUILD_H
#define ANALYZE_BUILD_H

#include "analyze_int.h"

int an_intern(an_state *st, const char *s, size_t len, uint32_t *off);
size_t an_add_finding(an_state *st, uint32_t line, uint32_t column,
                      rules_verdict v, const char *text, size_t len,
                      int kind, const rules_name *cond, int define);
void an_set_reason(an_state *st, size_t fi, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void an_assign(an_state *st, size_t fi, int32_t fn);
int32_t an_new_function(an_state *st, const char *name, size_t len,
                        uint32_t start_line);
void an_set_macro(an_state *st, int32_t fn, const char *name, size_t len);

#endif
