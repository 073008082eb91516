/*
 * api_lttb.h: ?points=N on the history endpoints: the series reduced for a
 * chart of about N pixels by Largest-Triangle-Three-Buckets (S. Steinarsson,
 * "Downsampling Time Series for Visual Representation", MSc thesis,
 * University of Iceland, 2013, section 4.2), the algorithm Chart.js's own
 * decimation uses, so the dashboard draws what it would have drawn from the
 * full series while downloading a fraction of it.
 */
#ifndef API_LTTB_H
#define API_LTTB_H

#include <stddef.h>
#include <stdint.h>

/*
 * The indices (ascending, into *out, malloc'd; *nout of them) of the
 * points LTTB keeps of the series x[i], y[i] (len points) for a budget of n
 * points: the first and the last and one per bucket between.  When n >= len
 * every index; a budget under 3 keeps the two ends.  0, or -1 when out of
 * memory.
 */
int api_lttb_indices(const double *x, const double *y, size_t len, size_t n,
                     size_t **out, size_t *nout);

/*
 * The indices (ascending, into *out, malloc'd; *nout of them) of the
 * points LTTB keeps of the series of dates t[i] (unix seconds, the x as
 * read back from their ISO 8601 text in UTC, so that a date whose text
 * has no readable year sits where its neighbour does) and values v[i], len
 * points, for a budget of n: every index when len <= n or n < 3.  A
 * history answer makes JSON of the kept points only.  0, or -1 when out
 * of memory.
 */
int api_lttb_pick(const int64_t *t, const int64_t *v, size_t len, size_t n,
                  size_t **out, size_t *nout);

#endif
