/*
 * analyze_shadow.h: variables named like a C API type (analyze_shadow.c).
 *
 * CPython's headers declare type names that are also ordinary words:
 * `digit` (cpython/longintrepr.h), `getter`, `setter`, `destructor`,
 * `inquiry`, `visitproc`.  C lets a variable take such a name, and the
 * variable then hides the type in its scope: in `uint16_t digit;
 * digit = n % 10;` neither `digit` is the C API.  Only the names a names
 * set lists with kind `type` (RULES_F_TYPE) are read this way; a macro
 * cannot be hidden by a variable, and CPython's functions and variables
 * all carry a Py prefix no local takes.
 *
 * Three rules, each decided by the token after the name (so its finding
 * waits one token, st->tpend):
 *  - the token after it cannot follow a type: `=`, `;`, `[`, `++`, `.`,
 *    an operator that is only binary (`+`, `<=`, `&&`, ...), `?`, `:`;
 *    in C++ `>` and `>>` can close template arguments and do not count;
 *  - it stands where a declarator stands: after a name that is not a
 *    keyword (`uint16_t digit`), a type keyword (`int digit`), `*`, `&`,
 *    and before `,` or `)` (a parameter, a declarator list); after
 *    `const` or `static` it is the type of an unnamed parameter;
 *  - a name found to be a variable inside a function, or a parameter,
 *    hides the type for the rest of its block (the function's body for
 *    a parameter): st->shadow.
 * After `struct`, `union`, `enum`, `class`, `typename` and `new` the name
 * is always a type, and in a `typedef` it is the C API's name defined
 * again (`typedef ssize_t Py_ssize_t;` for old Pythons).  A variable at
 * file scope hides nothing beyond its own declarator: the set lives
 * inside one function, which the memo's chunks never cut (an_clean
 * requires it empty).
 */
#ifndef ANALYZE_SHADOW_H
#define ANALYZE_SHADOW_H

#include "analyze_int.h"

/* For identifier s[0..len) at token t whose rules entry e has
 * RULES_F_TYPE and verdict v: 1 when its finding is not made now, either
 * because a variable of that name is visible (no finding at all) or
 * because the next token decides (st->tpend, an_shadow_next).  0: make
 * the finding as usual.  `define`: t is in a #define body (never
 * deferred). */
int an_shadow_defer(an_state *st, const lex_token *t, const char *s, size_t len,
                    const rules_name *e, rules_verdict v, int define);

/* The token after a deferred name (NULL at the end of the input): make
 * its finding, or record the variable.  Call before the token is read
 * by anything else. */
void an_shadow_next(an_state *st, const lex_token *next);

/* After a '}' inside a function: variables declared in blocks now closed
 * stop hiding their type. */
void an_shadow_close(an_state *st);

/* Forget every variable (a function ended, a declaration ended). */
static inline void an_shadow_clear(an_state *st)
{
    st->nshadow = 0;
}

#endif
