/*
 * mexp.h: the functions a macro of the file makes.
 *
 * numpy writes families of functions as one function-like macro and a list
 * of its uses at file level:
 *
 *     #define DECLARE_TO_INT(intw, ...) NPY_NO_EXPORT int to_##intw(...) { ... }
 *     DECLARE_TO_INT(int8, INT8_MIN, INT8_MAX, byteswap_nothing)
 *
 * (textreading/str_to_int.c's to_int8 ... to_uint64, flagsobject.c's
 * getters, the SIMD headers' wrappers).  Read as written they are no
 * function at all, so no page listed them.  mexp_expand() writes each such
 * use as the macro's body with its arguments in place (`##` pasted, `#`
 * made a string), in the form of a template expansion (tmpl.h): the
 * analysis walks the text, and tmpl_map() puts every line back, the body's
 * into the #define (where the code is written, as a template's instances
 * share their loop's lines), an argument's to the parameter it fills.
 *
 * Only what the analysis can trust is expanded: a macro defined in the
 * same file, before the use, whose body defines a function (a parameter
 * list then a '{'); a use that starts a line, at file level as far as a
 * line tells (numpy's are in column 0), with as many arguments as the
 * macro has parameters.  A variadic macro, a macro used inside a function
 * body, or one from a header is left as written.
 */
#ifndef MEXP_H
#define MEXP_H

#include <stddef.h>

#include "tmpl.h"

/*
 * Expand the uses of buf[0..len)'s own function-making macros.  Returns 0
 * and *out, a new expansion freed with tmpl_free(), or NULL when there is
 * nothing to expand (most files: one pass over their '#' lines decides);
 * PD_ENOMEM on allocation failure.  The expansion is at most 16 times the
 * file, plus 1 MB: past that *out is NULL and the file is analysed as
 * written.
 */
int mexp_expand(tmpl_out **out, const char *buf, size_t len);

#endif
