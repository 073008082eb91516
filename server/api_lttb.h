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

#include <jansson.h>

#include "srv_reply.h"
#include "srv_req.h"

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
 * Reduce history points (a JSON array of {"commit", "author_date",
 * "committer_date", "value"}, oldest first; reference stolen) to at most
 * `n` points, x the `date` ("author_date" or "committer_date") and y the
 * value.  The point of commit `keep` (NULL: none) stays: the series is
 * cut there and each side reduced in proportion.  (A ref's history keeps
 * its port start by api_history.c's own pick, on arrays; the scopes'
 * histories sample with api_fork_sample, which keeps none.)  Returns the
 * new array, or NULL when out of memory.
 */
json_t *api_lttb_points(json_t *points, size_t n, const char *date, const char *keep);

/*
 * The indices (ascending, into *out, malloc'd; *nout of them) of the
 * points api_lttb_points keeps (no `keep`) of the series of dates t[i]
 * (unix seconds, the x as read back from their ISO 8601 text in UTC) and
 * values v[i], len points, for a budget of n: every index when len <= n
 * or n < 3.  The same points, without the series being JSON first: a
 * history answer makes JSON of the kept points only.  0, or -1 when out
 * of memory.
 */
int api_lttb_pick(const int64_t *t, const int64_t *v, size_t len, size_t n,
                  size_t **out, size_t *nout);

#endif
