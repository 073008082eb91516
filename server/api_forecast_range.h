/*
 * api_forecast_range.h: the P50 / P85 range of the forecast, from today,
 * from the port's weekly throughput minus inflow (api_forecast_range.c
 * says the method).
 */
#ifndef API_FORECAST_RANGE_H
#define API_FORECAST_RANGE_H

#include <stdint.h>

#include <jansson.h>
#include <sqlite3.h>

/*
 * The weeks from today by which half (*p50) and 85 % (*p85) of 2,000
 * simulated futures bring `remaining` to zero, each future week taking the
 * net (throughput - inflow) of a week of net[0..window) drawn at random
 * with a fixed seed.  -1 for a percentile not reached within ten years
 * (520 weeks); 0 for both when nothing remains.
 */
void api_forecast_range_weeks(const double *net, int window, double remaining, int *p50,
                              int *p85);

/*
 * The "range" object of a forecast of `measure` (object_paths.object-legacy,
 * functions.not-ported or tokens.capi) for `ref` of repository `repo_id`
 * as of `today` (unix seconds), over the port's own commits of the last
 * `window` calendar weeks: {"as_of", "window_weeks", "weeks_with_work",
 * "remaining", "throughput_per_week", "inflow_per_week", "net_per_week",
 * "p50", "p85" (dates, null: not at this rate), "p50_weeks", "p85_weeks",
 * "basis" (how the port's commits were found, db_fork.h), "note"}.  New
 * reference, or NULL after pd_error_set (PD_EINVAL, PD_ENOTFOUND for an
 * unknown ref, PD_ENOMEM, PD_EDB).
 */
json_t *api_forecast_range(sqlite3 *db, int64_t repo_id, const char *ref, const char *measure,
                           int window, int64_t today);

#endif
