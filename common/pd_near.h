/*
 * pd_near.h: the closest of a few names to a mistyped one, for "did you
 * mean" in messages (a flag, a command).
 */
#ifndef PD_NEAR_H
#define PD_NEAR_H

#include <stddef.h>

/*
 * The optimal string alignment distance between a[0..na) and b[0..nb):
 * insertions, deletions, substitutions and transpositions of two
 * neighbours each cost 1 (Damerau's 1964 errors of typing: `--incldue` is
 * 1 from `--include`).  Strings longer than 63 bytes count as 64 apart.
 */
size_t pd_near_distance(const char *a, size_t na, const char *b, size_t nb);

/*
 * The name of names[0..n) closest to word[0..len), when it is at most 2
 * apart and less than half the word's length (so that `--x` suggests
 * nothing); the first of equals.  NULL when none is.  The names are
 * NUL-terminated and belong to the caller.
 */
const char *pd_near_pick(const char *word, size_t len, const char *const *names, size_t n);

#endif
