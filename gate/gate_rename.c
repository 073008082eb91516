/*
 * gate_rename.c: pairing the functions of two versions of a file when some
 * were renamed (see gate_match_renames in gate.h).
 *
 * The port renames functions as it converts them (array_dealloc becomes
 * array_finalize_impl behind HPyDef_SLOT(array_finalize, ...)).  Matched by
 * name alone, the new name is a new function: an object-legacy path that
 * was there all along reads as a new one, and the gate fails.  The history
 * view follows a file that git saw renamed; here the same idea for a
 * function: between the same two functions that kept their names, the one
 * base function whose name is gone lives on as the first new name there.
 */
#include <stdlib.h>
#include <string.h>

#include "gate.h"

/* The index in `a` matched to head function j, or -1; the base index
 * before the first function is -1, after the last a->n. */
static long gate_rn_base_at(const long *m, size_t nb, long j, size_t na)
{
    if (j < 0)
        return -1;
    if ((size_t)j >= nb)
        return (long)na;
    return m[j];
}

void gate_match_renames(gate_fnlist *a, gate_fnlist *b,
                        void (*fn)(void *arg, const gate_fn *a, const gate_fn *b),
                        void *arg)
{
    long *m = b->n ? malloc(b->n * sizeof(*m)) : NULL;
    size_t i, j;

    if (b->n && !m) {           /* out of memory: names alone, still a verdict */
        gate_match(a, b, fn, arg);
        return;
    }
    for (i = 0; i < a->n; i++)
        a->v[i].matched = 0;
    /* By name and occurrence, as gate_match does. */
    for (j = 0; j < b->n; j++) {
        m[j] = -1;
        for (i = 0; i < a->n; i++)
            if (!a->v[i].matched && strcmp(a->v[i].name, b->v[j].name) == 0) {
                a->v[i].matched = 1;
                m[j] = (long)i;
                break;
            }
    }
    /* Renames: a gap between two name-matched neighbours (or a file's
     * start or end) where one base function lost its name: the first new
     * name in the gap is it (a port adds helpers after the function it
     * converts: array_finalize_impl, then array_traverse_impl). */
    for (j = 0; j < b->n; j++) {
        long p, n, lo, hi, k, only = -1;
        size_t left = 0;

        if (m[j] >= 0)
            continue;
        for (p = (long)j - 1; p >= 0 && m[p] < 0; p--)
            ;
        if (p + 1 != (long)j)           /* not the first new name in its gap */
            continue;
        for (n = (long)j + 1; (size_t)n < b->n && m[n] < 0; n++)
            ;
        lo = gate_rn_base_at(m, b->n, p, a->n);
        hi = gate_rn_base_at(m, b->n, n, a->n);
        if (lo >= hi)                   /* the neighbours were reordered */
            continue;
        for (k = lo + 1; k < hi; k++)
            if (!a->v[k].matched) {
                left++;
                only = k;
            }
        if (left == 1) {
            a->v[only].matched = 1;
            m[j] = only;
        }
    }
    for (j = 0; j < b->n; j++)
        fn(arg, m[j] >= 0 ? &a->v[m[j]] : NULL, &b->v[j]);
    for (i = 0; i < a->n; i++)
        if (!a->v[i].matched)
            fn(arg, &a->v[i], NULL);
    free(m);
}
