/*
 * analyze_ppexpr.h: the value of an #if/#elif condition, where it can be
 * known without the macros (analyze_ppexpr.c).
 */
#ifndef ANALYZE_PPEXPR_H
#define ANALYZE_PPEXPR_H

#include <stdint.h>

#include "lex.h"

/*
 * The value of the #if expression v[0..n) (the tokens after `#if`, without
 * the directive's end), computed as the C preprocessor does (C11 6.10.1p4,
 * C++17 [cpp.cond]): integers in intmax_t/uintmax_t, every operator of a
 * constant expression, `defined`, `false`, and `true` in C++ (in C it is
 * 1 only with <stdbool.h> or C23).  Macros are not known,
 * so an identifier, a macro call or `defined NAME` has no value, and an
 * operator with an operand of no value has none either, except where the
 * other operand decides it: `0 && X`, `1 || X`, `X * 0`, `X & 0`, and a
 * `?:` with a known condition.  The one macro known is __cplusplus, from
 * the file's language (cpp: 1 for C++): `defined __cplusplus` is cpp, and
 * __cplusplus alone is 0 in C.  Character constants have no value.
 *
 * This decides the conditions a template expansion writes (`#if 2 == 1`,
 * `#if (3 <= 3 && !0)`, numpy's `.c.src` files) and those written as
 * plain numbers.
 *
 * Returns 1 and sets *value (0 or not) when the value is known; 0 when it
 * is not, or when v is not an expression (an unbalanced parenthesis, a
 * float, a division by zero in an operand that decides, a token that is
 * no operator); *value is then unchanged.  v is only read.
 */
int an_ppexpr_eval(const lex_token *v, int n, int cpp, int64_t *value);

#endif
