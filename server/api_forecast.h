/*
 * api_forecast.h: the pace of remaining work and the date it projects
 * (api_forecast.c).
 */
#ifndef API_FORECAST_H
#define API_FORECAST_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/forecast */
enum MHD_Result api_forecast(srv_req *r);

/*
 * The forecast of `measure` (object_paths.object-legacy,
 * functions.not-ported, tokens.capi) over the snapshots of `ref` up to week
 * `until_week` (NULL: all), fitted over the last `window` weeks (see
 * api_forecast.c for the method), as of `today` (unix seconds): weeks
 * without change and projected dates count to and from today; "range" is
 * api_forecast_range's (P50 / P85 from throughput minus inflow).  New
 * reference, or NULL after
 * pd_error_set (PD_EINVAL: unknown measure; otherwise the database failed,
 * and no partial forecast is made from the rows read before).
 */
json_t *api_forecast_json(srv_req *r, int64_t repo_id, const char *ref,
                          const char *measure, int window, const char *until_week,
                          int64_t today);

/*
 * The fit and projection of one series, added to `o` as fields
 * (window_start, slope_per_week, slope_stderr, calendar_weeks,
 * largest_gap_weeks, no_progress_weeks, last_change, projection, note):
 * y[i] is the value of the snapshot of ISO week weeks[i] ("2021-W05"),
 * ascending; x is calendar time from those weeks, so a gap between two
 * snapshots counts as long as it was.  `window`: the calendar weeks of the
 * recent pace, and the weeks without change that mean "no progress" (no
 * date then).  `today` (unix seconds; 0: the last snapshot's week) is the
 * present: the weeks without change count up to it and the dates from it.
 * The method is in api_forecast.c.
 */
void api_forecast_project(json_t *o, const char (*weeks)[16], const double *y, int n,
                          int window, int64_t today);

#endif
