/*
 * pd_near.c: the closest name to a mistyped one (pd_near.h).
 */
#include <string.h>

#include "pd_near.h"

#define PD_NEAR_MAX 63

size_t pd_near_distance(const char *a, size_t na, const char *b, size_t nb)
{
    /* three rows of the dynamic programme: two back for transpositions */
    size_t rows[3][PD_NEAR_MAX + 1], i, j;
    size_t *pp = rows[0], *p = rows[1], *c = rows[2], *t;

    if (na > PD_NEAR_MAX || nb > PD_NEAR_MAX)
        return PD_NEAR_MAX + 1;
    for (j = 0; j <= nb; j++)
        p[j] = j;
    for (i = 1; i <= na; i++) {
        c[0] = i;
        for (j = 1; j <= nb; j++) {
            size_t sub = p[j - 1] + (a[i - 1] != b[j - 1]), best = sub;

            if (p[j] + 1 < best)
                best = p[j] + 1;
            if (c[j - 1] + 1 < best)
                best = c[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                pp[j - 2] + 1 < best)
                best = pp[j - 2] + 1;
            c[j] = best;
        }
        t = pp;
        pp = p;
        p = c;
        c = t;
    }
    return p[nb];
}

const char *pd_near_pick(const char *word, size_t len, const char *const *names, size_t n)
{
    const char *pick = NULL;
    size_t i, best = 3;

    for (i = 0; i < n; i++) {
        size_t d = pd_near_distance(word, len, names[i], strlen(names[i]));

        if (d < best && 2 * d < len) {
            best = d;
            pick = names[i];
        }
    }
    return pick;
}
