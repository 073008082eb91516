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

/* Append to `dst` the points of src[from..to] that LTTB keeps for budget n. */
static int api_lttb_part(json_t *dst, json_t *src, const double *x, const double *y,
                         size_t from, size_t to, size_t n)
{
    size_t *keep, nkeep, i;

    if (api_lttb_indices(x + from, y + from, to - from + 1, n, &keep, &nkeep) < 0)
        return -1;
    for (i = 0; i < nkeep; i++)
        json_array_append(dst, json_array_get(src, from + keep[i]));
    free(keep);
    return 0;
}

json_t *api_lttb_points(json_t *points, size_t n, const char *date, const char *keep)
{
    size_t len = json_array_size(points), i, cut = 0, n1;
    double *x = NULL, *y = NULL;
    json_t *out = NULL, *p;
    int64_t t = 0;

    if (len <= n || n < 3)
        return points;
    if (!(x = malloc(len * sizeof(*x))) || !(y = malloc(len * sizeof(*y))) ||
        !(out = json_array()))
        goto done;
    json_array_foreach(points, i, p) {
        const char *c = json_string_value(json_object_get(p, "commit"));

        /* A point without a readable date sits where its neighbour does. */
        if (pd_parse_date(json_string_value(json_object_get(p, date)) ?
                          json_string_value(json_object_get(p, date)) : "", &t) < 0 && i)
            t = (int64_t)x[i - 1];
        x[i] = (double)t;
        y[i] = json_number_value(json_object_get(p, "value"));
        if (keep && c && strcmp(c, keep) == 0)
            cut = i;
    }
    /* Both sides of the kept point get budgets in proportion, at least 2
     * each; they share the kept point, so together they are n. */
    n1 = cut ? (size_t)((double)n * (double)(cut + 1) / (double)len) : 0;
    if (cut && n1 < 2)
        n1 = 2;
    if (cut && n1 > n - 1)
        n1 = n - 1;
    if ((cut && api_lttb_part(out, points, x, y, 0, cut, n1) < 0) ||
        (cut && json_array_remove(out, json_array_size(out) - 1) < 0) ||
        api_lttb_part(out, points, x, y, cut, len - 1, cut ? n - n1 + 1 : n) < 0) {
        json_decref(out);
        out = NULL;
    }
done:
    free(x);
    free(y);
    json_decref(points);
    return out;
}

/* x of a point dated t, as api_lttb_points reads it from the ISO 8601
 * text of t: exact for years 1 to 9999 without the text; outside them
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
