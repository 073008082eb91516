/*
 * api_lttb.c: Largest-Triangle-Three-Buckets downsampling (see api_lttb.h).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api_lttb.h"
#include "pd_error.h"
#include "pd_time.h"

int api_lttb_indices(const double *x, const double *y, size_t len, size_t n,
                     size_t **out, size_t *nout)
{
    size_t *keep, i, k = 0, a = 0;
    double every;

    if (!(keep = malloc((len ? len : 1) * sizeof(*keep))))
        return -1;
    *out = keep;
    if (n >= len) {
        for (i = 0; i < len; i++)
            keep[i] = i;
        *nout = len;
        return 0;
    }
    if (n < 3) {
        keep[0] = 0;
        keep[1] = len - 1;
        *nout = 2;
        return 0;
    }
    /* The first and last points stay; the n - 2 others are one per bucket
     * of the points between, the one making the largest triangle with the
     * point kept before and the mean of the next bucket. */
    every = (double)(len - 2) / (double)(n - 2);
    keep[k++] = 0;
    for (i = 0; i < n - 2; i++) {
        size_t lo = (size_t)floor((double)i * every) + 1;
        size_t hi = (size_t)floor((double)(i + 1) * every) + 1;
        size_t nlo = hi, nhi = (size_t)floor((double)(i + 2) * every) + 1, j, best = lo;
        double ax = 0, ay = 0, max = -1;

        if (nhi > len)
            nhi = len;
        if (hi > len - 1)
            hi = len - 1;
        for (j = nlo; j < nhi; j++) {
            ax += x[j];
            ay += y[j];
        }
        if (nhi > nlo) {
            ax /= (double)(nhi - nlo);
            ay /= (double)(nhi - nlo);
        } else {
            ax = x[len - 1];
            ay = y[len - 1];
        }
        for (j = lo; j < hi; j++) {
            double area = fabs((x[a] - ax) * (y[j] - y[a]) - (x[a] - x[j]) * (ay - y[a]));

            if (area > max) {
                max = area;
                best = j;
            }
        }
        keep[k++] = a = best;
    }
    keep[k++] = len - 1;
    *nout = k;
    return 0;
}

/* x of a point dated t, as a reader of its ISO 8601 text (pd_parse_date)
 * gets it: exact for years 1 to 9999 without the text; outside them
 * the text decides (a year it cannot read: the neighbour's x, *t kept). */
static double api_lttb_x(int64_t t, int64_t *last)
{
    char d[40];

    if (t >= -62135596800LL && t < 253402300800LL)
        *last = t;
    else {
        pd_iso8601(d, sizeof(d), t, 0);
        (void)pd_parse_date(d, last);
    }
    return (double)*last;
}

int api_lttb_pick(const int64_t *t, const int64_t *v, size_t len, size_t n,
                  size_t **out, size_t *nout)
{
    double *x = NULL, *y = NULL;
    int64_t last = 0;
    size_t i;
    int rc = -1;

    if (len <= n || n < 3)
        return api_lttb_indices(NULL, NULL, len, len, out, nout);
    if (!(x = malloc(len * sizeof(*x))) || !(y = malloc(len * sizeof(*y))))
        goto done;
    for (i = 0; i < len; i++) {
        x[i] = api_lttb_x(t[i], &last);
        y[i] = (double)v[i];
    }
    rc = api_lttb_indices(x, y, len, n, out, nout);
done:
    free(x);
    free(y);
    return rc;
}
