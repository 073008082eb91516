/*
 * api_forecast.c: GET /api/v1/repos/{repo}/forecast?ref=R[&measure=M]: the
 * pace of a measure of remaining work over the weekly snapshots and the
 * date it would reach zero at that pace, with the range it could fall in.
 *
 * Method: ordinary least squares of the value on calendar time (weeks since
 * the first snapshot, from the snapshots' ISO weeks: a gap of months
 * between two snapshots counts as months, never as one week) over the
 * snapshots of the last `weeks` calendar weeks (default 12: the pace the
 * team has now), or, when those hold fewer than 4 changes, over every
 * snapshot since the series left its starting level.  The slope's standard
 * error gives a range (slope +/- 2 SE, about 95 % for a straight-line
 * trend).  No date is given when the value has not changed for `weeks`
 * calendar weeks or more (then the answer says "no progress for N weeks",
 * issue 11.9; said first, as it is the news), when there are fewer than 4
 * weeks with changes, or when the slope is not clearly below zero.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_forecast.h"
#include "api_forecast_range.h"
#include "db.h"
#include "db_snapshot.h"
#include "pd_error.h"
#include "pd_time.h"

/* Remaining-work measures: value of a snapshot row's counts. */
static const char *const api_fc_measures[] = {
    "object_paths.object-legacy", "functions.not-ported", "tokens.capi"};

static int64_t api_fc_value(int m, const pd_counts *c)
{
    if (m == 0)
        return c->obj[PD_OBJ_LEGACY];
    if (m == 1)
        return c->fn[PD_STATUS_BRIDGED] + c->fn[PD_STATUS_LEGACY];
    return c->tok[PD_CLASS_CAPI];
}

typedef struct {
    double slope, se, intercept;
    int n, changes;
} api_fit;

/* Least squares over points (x = calendar weeks, y = value). */
static void api_fc_fit(const double *x, const double *y, int n, api_fit *f)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0, rss = 0;
    int i;

    memset(f, 0, sizeof(*f));
    f->n = n;
    for (i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
        if (i && y[i] != y[i - 1])
            f->changes++;
    }
    if (n < 3 || n * sxx - sx * sx <= 1e-9)
        return;
    f->slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
    f->intercept = (sy - f->slope * sx) / n;
    for (i = 0; i < n; i++) {
        double e = y[i] - (f->intercept + f->slope * x[i]);

        rss += e * e;
    }
    f->se = sqrt(rss / (n - 2) / (sxx - sx * sx / n));
}

/* ISO date `weeks` after `from` (unix seconds), into buf. */
static void api_fc_date(char *buf, size_t n, int64_t from, double weeks)
{
    pd_iso8601(buf, n, from + (int64_t)(weeks * 7 * 86400), 0);
    buf[10] = '\0';
}

/* No projection: `note` says why. */
static void api_fc_none(json_t *o, const char *note)
{
    json_object_set_new(o, "projection", json_null());
    json_object_set_new(o, "note", json_string(note));
}

/* The largest gap, in weeks, between consecutive points from `start`. */
static int api_fc_gap(const double *x, int start, int n)
{
    double g = 0;
    int i;

    for (i = start + 1; i < n; i++)
        if (x[i] - x[i - 1] > g)
            g = x[i] - x[i - 1];
    return (int)lround(g);
}

/* The projection of a series that api_forecast_project fitted (f, over
 * weeks x, today at `from`), or why there is none, into o: `still` weeks
 * without a change since snapshot `last`, `window` the weeks fitted. */
static void api_fc_verdict(json_t *o, const char (*weeks)[16], const double *y,
                           const double *x, int n, int still, int last, int window,
                           const api_fit *fp, int64_t from)
{
    api_fit f = *fp;
    char d0[40], d1[40], d2[40], note[160];

    if (n == 0) {
        api_fc_none(o, "too little history to project: fewer than 4 weeks with a change");
    } else if (y[n - 1] == 0) {
        api_fc_none(o, "already at zero");
    } else if (still >= window) {
        /* Said before "too little history": a standstill is the news. */
        snprintf(note, sizeof(note), "no progress for %d weeks: unchanged since %s", still,
                 weeks[last]);
        api_fc_none(o, note);
    } else if (f.changes < 4) {
        api_fc_none(o, "too little history to project: fewer than 4 weeks with a change");
    } else if (f.slope >= 0 || f.slope + 2 * f.se >= 0) {
        api_fc_none(o, "the pace is too irregular to project: the trend is not clearly falling");
    } else {
        double now = f.intercept + f.slope * x[n - 1];

        if (-now / f.slope > 520) {
            api_fc_none(o, "at this pace zero is more than ten years away");
        } else {
            api_fc_date(d0, sizeof(d0), from, -now / f.slope);
            api_fc_date(d1, sizeof(d1), from, -now / (f.slope - 2 * f.se));
            api_fc_date(d2, sizeof(d2), from, -now / (f.slope + 2 * f.se));
            json_object_set_new(o, "projection", json_pack("{s:s, s:s, s:s}", "zero_on", d0,
                                                           "earliest", d1, "latest", d2));
            json_object_set_new(o, "note", json_string("straight-line fit of the weekly "
                "snapshots over calendar time; range is slope +/- 2 standard errors"));
        }
    }
}

void api_forecast_project(json_t *o, const char (*weeks)[16], const double *y, int n,
                          int window, int64_t today)
{
    double *x = n ? calloc((size_t)n, sizeof(*x)) : NULL, xt;
    int64_t t0 = 0, t, from = 0;
    int i, k = 1, start = 0, last = 0, still;
    api_fit f;
    char d0[40];

    /* Calendar weeks since the first snapshot. */
    for (i = 0; i < n; i++) {
        t = 0;
        db_iso_week_end(weeks[i], &t);
        if (i == 0)
            t0 = t;
        x[i] = (double)(t - t0) / (7 * 86400.0);
        if (i && y[i] != y[i - 1])
            last = i;
    }
    while (start < n && n && x[n - 1] - x[start] >= window)
        start++;                    /* the snapshots of the last `window` weeks */
    api_fc_fit(x + start, y + start, n - start, &f);
    if (f.changes < 4) {
        while (k < n && y[k] == y[0])
            k++;
        start = k > 1 ? k - 1 : 0;   /* the last week still at the starting level */
        api_fc_fit(x + start, y + start, n - start, &f);
    }
    /* The present (issue 23.2): weeks since the value last changed (at the
     * snapshot `last`, or since the first snapshot when it never changed)
     * count up to today, not to the last snapshot, and dates count from
     * today: a backfill that stops years ago is a standstill, not a date
     * years ago. */
    if (n)
        db_iso_week_end(weeks[n - 1], &from);
    xt = n ? x[n - 1] : 0;
    if (n && today > 0)
        xt += (double)(today - from) / (7 * 86400.0);
    if (today > 0)
        from = today;
    still = n ? (int)lround(xt - x[last]) : 0;
    if (today > 0) {
        api_fc_date(d0, sizeof(d0), from, 0);
        json_object_set_new(o, "as_of", json_string(d0));
    }
    json_object_set_new(o, "window_start", n ? json_string(weeks[start]) : json_null());
    json_object_set_new(o, "slope_per_week", json_real(f.slope));
    json_object_set_new(o, "slope_stderr", json_real(f.se));
    json_object_set_new(o, "calendar_weeks", json_integer(n ? (json_int_t)lround(x[n - 1]) : 0));
    json_object_set_new(o, "largest_gap_weeks", json_integer(n ? api_fc_gap(x, start, n) : 0));
    json_object_set_new(o, "no_progress_weeks", json_integer(still));
    json_object_set_new(o, "last_change", n && last ? json_string(weeks[last]) : json_null());
    api_fc_verdict(o, weeks, y, x, n, still, last, window, &f, from);
    free(x);
}

/* Index of `measure` in api_fc_measures; -1 after pd_error_set(PD_EINVAL). */
static int api_fc_index(const char *measure)
{
    int m;

    for (m = 0; m < 3 && strcmp(api_fc_measures[m], measure) != 0; m++)
        ;
    if (m < 3)
        return m;
    return pd_error_set(PD_EINVAL, "no forecast for '%s' (use object_paths.object-legacy, "
                        "functions.not-ported or tokens.capi)", measure), -1;
}

json_t *api_forecast_json(srv_req *r, int64_t repo_id, const char *ref,
                          const char *measure, int window, const char *until_week,
                          int64_t today)
{
    json_t *range;
    db_snaps *snaps = NULL;
    db_snap_row row;
    char (*weeks)[16] = NULL;
    double *y = NULL;
    int m, n = 0, cap = 0, rc;
    json_t *o, *points;

    if ((m = api_fc_index(measure)) < 0 ||
        db_snaps_open_ref(r->db, &snaps, repo_id, ref, until_week) < 0)
        return NULL;
    points = json_array();
    while ((rc = db_snaps_next(snaps, &row)) > 0) {
        if (n == cap) {
            double *ny = realloc(y, (size_t)(cap = cap ? cap * 2 : 64) * sizeof(*y));
            char (*nw)[16] = ny ? realloc(weeks, (size_t)cap * sizeof(*weeks)) : NULL;

            y = ny ? ny : y;
            weeks = nw ? nw : weeks;
            if (!ny || !nw) {
                rc = pd_error_nomem(NULL);
                break;
            }
        }
        y[n] = (double)api_fc_value(m, &row.counts);
        snprintf(weeks[n], sizeof(weeks[n]), "%s", row.week);
        json_array_append_new(points, json_pack("{s:s, s:I}", "week", weeks[n],
                                                "value", (json_int_t)y[n]));
        n++;
    }
    db_snaps_close(snaps);
    if (rc < 0) {
        json_decref(points);
        free(y);
        free(weeks);
        return NULL;
    }
    o = json_pack("{s:o, s:s, s:i, s:o}", "ref", api_text(ref), "measure", measure,
                  "weeks", n, "points", points);
    api_forecast_project(o, (const char (*)[16])weeks, y, n, window, today);
    free(y);
    free(weeks);
    /* The range from the port's weekly throughput and inflow; a ref whose
     * chain cannot be read has none, said as null. */
    range = api_forecast_range(r->db, repo_id, ref, measure, window, today);
    json_object_set_new(o, "range", range ? range : json_null());
    return o;
}

enum MHD_Result api_forecast(srv_req *r)
{
    char ref[256], measure[64] = "object_paths.object-legacy", wbuf[16], tbuf[40], oid[41];
    char *end, tweek[16];
    int64_t repo_id, commit_id, today = (int64_t)time(NULL);
    int window = 12, rc;
    json_t *o;

    if ((rc = srv_query(r, "ref", ref, sizeof(ref))) == PD_ENOTFOUND)
        return srv_reply_problem(r, 400, "Bad Request", "the forecast needs ?ref=REF");
    /* A malformed or over-long argument is an error, never ignored. */
    if (rc < 0 || ((rc = srv_query(r, "measure", measure, sizeof(measure))) < 0 &&
                   rc != PD_ENOTFOUND))
        return srv_reply_error(r, rc);
    if ((rc = srv_query(r, "weeks", wbuf, sizeof(wbuf))) == 0) {
        long w = strtol(wbuf, &end, 10);

        if (*end || end == wbuf || w < 3 || w > 520)
            return srv_reply_problem(r, 400, "Bad Request", "weeks must be a whole "
                                     "number from 3 to 520");
        window = (int)w;
    } else if (rc != PD_ENOTFOUND) {
        return srv_reply_error(r, rc);
    }
    /* ?today=DATE: the forecast as it was (or will be) on that day. */
    if ((rc = srv_query(r, "today", tbuf, sizeof(tbuf))) == 0) {
        if ((rc = pd_parse_date(tbuf, &today)) < 0)
            return srv_reply_error(r, rc);
    } else if (rc != PD_ENOTFOUND) {
        return srv_reply_error(r, rc);
    }
    /* An unknown ref has no forecast: 404, not an empty one. */
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(r->db, repo_id, ref, &commit_id, oid)) < 0)
        return srv_reply_error(r, rc);
    if (api_fc_index(measure) < 0)
        return srv_reply_error(r, PD_EINVAL);
    /* The measure is known: NULL now is the database's failure. */
    /* The snapshots up to today's week: a forecast as of a past day does
     * not see the weeks after it. */
    db_iso_week(tweek, sizeof(tweek), today);
    if (!(o = api_forecast_json(r, repo_id, ref, measure, window, tweek, today)))
        return srv_reply_error(r, PD_EDB);
    return srv_reply_json(r, 200, o);
}
