/*
 * api_forecast_range.c: the forecast's range (issue 23.2): when the work
 * left would reach zero, as a P50 / P85 pair of dates counted from today,
 * from the port's weekly throughput minus the inflow of new work.
 *
 * Method (a Monte Carlo throughput forecast, the way Kanban teams forecast
 * from their own past weeks, with inflow subtracted):
 *   - the port's own commits (db_fork.h) over the last `window` calendar
 *     weeks up to today, dated as the trend dates them;
 *   - each commit's change of the measure against the commit before it on
 *     the chain: a fall is throughput, a rise is inflow (new legacy code,
 *     an upstream merge bringing some);
 *   - each of the window's weeks has a net = throughput - inflow (a week
 *     without commits is a 0: a standstill is in the sample);
 *   - 2,000 futures: from today's remaining value, each future week takes
 *     the net of a week of the window drawn at random (a fixed seed: the
 *     same data gives the same answer) until nothing is left or ten years
 *     pass;
 *   - P50 / P85: the weeks by which half / 85 % of the futures reached
 *     zero.  A percentile that is not reached within ten years is
 *     unbounded: "not at this rate".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_forecast_range.h"
#include "db.h"
#include "db_fork.h"
#include "pd_domain.h"
#include "pd_error.h"
#include "pd_time.h"

#define FR_WEEK (7 * 86400)
#define FR_TRIALS 2000
#define FR_HORIZON 520       /* weeks: ten years */

/* xorshift64*: small, fast and the same on every machine. */
static uint64_t fr_rand(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static int fr_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;

    return (x > y) - (x < y);
}

void api_forecast_range_weeks(const double *net, int window, double remaining, int *p50,
                              int *p85)
{
    static int weeks[FR_TRIALS];
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int t, w;

    *p50 = *p85 = -1;
    if (remaining <= 0) {
        *p50 = *p85 = 0;
        return;
    }
    if (window < 1)
        return;
    for (t = 0; t < FR_TRIALS; t++) {
        double left = remaining;

        for (w = 1; w <= FR_HORIZON; w++) {
            left -= net[fr_rand(&seed) % (uint64_t)window];
            if (left <= 0)
                break;
        }
        weeks[t] = w;        /* FR_HORIZON + 1: not within ten years */
    }
    qsort(weeks, FR_TRIALS, sizeof(*weeks), fr_cmp);
    if (weeks[FR_TRIALS / 2] <= FR_HORIZON)
        *p50 = weeks[FR_TRIALS / 2];
    if (weeks[FR_TRIALS * 85 / 100] <= FR_HORIZON)
        *p85 = weeks[FR_TRIALS * 85 / 100];
}

/* The measures summed for forecast measure `key`. */
static int fr_measures(const char *key, int *m)
{
    if (strcmp(key, "functions.not-ported") == 0) {
        m[0] = pd_measure_find("functions.bridged");
        m[1] = pd_measure_find("functions.legacy");
        return 2;
    }
    m[0] = pd_measure_find(key);
    return m[0] < 0 ? 0 : 1;
}

/* A date `weeks` after `today`, or null when unbounded. */
static json_t *fr_date(int64_t today, int weeks)
{
    char d[40];

    if (weeks < 0)
        return json_null();
    pd_iso8601(d, sizeof(d), today + (int64_t)weeks * FR_WEEK, 0);
    d[10] = '\0';
    return json_string(d);
}

/* Weekly throughput and inflow of the own commits in the window. */
static void fr_weeks(const db_port_chain *c, int64_t today, int window, double *thr,
                     double *inf, int *active)
{
    size_t i;

    *active = 0;
    for (i = c->first_own; i < c->n; i++) {
        int64_t before = i ? c->value[i - 1] : 0, d = c->value[i] - before;
        int64_t k = (today - c->eff[i]) / FR_WEEK;

        if (c->eff[i] >= today || k < 0 || k >= window || d == 0)
            continue;
        if (thr[k] == 0 && inf[k] == 0)
            (*active)++;
        if (d < 0)
            thr[k] += (double)-d;
        else
            inf[k] += (double)d;
    }
}

json_t *api_forecast_range(sqlite3 *db, int64_t repo_id, const char *ref, const char *measure,
                           int window, int64_t today)
{
    db_port_chain c;
    int64_t tip = 0, at;
    double *thr = NULL, *inf = NULL, *net = NULL, sthr = 0, sinf = 0, remaining = 0;
    int m[2], nm, i, active = 0, p50, p85;
    char oid[41], rules[64], asof[40], note[200];
    json_t *o;
    size_t k;

    if (!(nm = fr_measures(measure, m)))
        return pd_error_set(PD_EINVAL, "no forecast for '%s'", measure), NULL;
    if (db_rev_resolve(db, repo_id, ref, &tip, oid) < 0 ||
        db_meta_get(db, "rules_hash", rules, sizeof(rules)) < 0 ||
        db_port_chain_load(db, repo_id, ref, tip, rules, 1, m, nm, &c) < 0)
        return NULL;
    thr = calloc((size_t)window, sizeof(*thr));
    inf = calloc((size_t)window, sizeof(*inf));
    net = calloc((size_t)window, sizeof(*net));
    if (!thr || !inf || !net) {
        free(thr), free(inf), free(net);
        db_port_chain_free(&c);
        return pd_error_nomem(NULL), NULL;
    }
    /* Today's remaining value: the newest commit dated before today. */
    at = db_port_chain_at(&c, today);
    for (k = 0; k < c.n; k++)
        if (c.id[k] == at)
            remaining = (double)c.value[k];
    fr_weeks(&c, today, window, thr, inf, &active);
    for (i = 0; i < window; i++) {
        net[i] = thr[i] - inf[i];
        sthr += thr[i];
        sinf += inf[i];
    }
    api_forecast_range_weeks(net, window, remaining, &p50, &p85);
    pd_iso8601(asof, sizeof(asof), today, 0);
    asof[10] = '\0';
    if (remaining <= 0)
        snprintf(note, sizeof(note), "already at zero");
    else if (!active)
        snprintf(note, sizeof(note), "not at this rate: no work on it by the port in the "
                 "last %d weeks", window);
    else if (p50 < 0)
        snprintf(note, sizeof(note), "not at this rate: the weekly net (throughput minus "
                 "inflow) does not reach zero within ten years");
    else if (p85 < 0)
        snprintf(note, sizeof(note), "P50 within reach, P85 not at this rate (beyond ten "
                 "years)");
    else
        snprintf(note, sizeof(note), "half of the simulated futures reach zero by P50, "
                 "85 %% by P85");
    o = json_pack("{s:s, s:i, s:i, s:I, s:f, s:f, s:f, s:o, s:o, s:o, s:o, s:s, s:s}",
        "as_of", asof, "window_weeks", window, "weeks_with_work", active,
        "remaining", (json_int_t)remaining, "throughput_per_week", sthr / window,
        "inflow_per_week", sinf / window, "net_per_week", (sthr - sinf) / window,
        "p50", fr_date(today, p50), "p85", fr_date(today, p85),
        "p50_weeks", p50 < 0 ? json_null() : json_integer(p50),
        "p85_weeks", p85 < 0 ? json_null() : json_integer(p85),
        "basis", db_fork_basis_name(c.fork.basis), "note", note);
    free(thr), free(inf), free(net);
    db_port_chain_free(&c);
    return o;
}
