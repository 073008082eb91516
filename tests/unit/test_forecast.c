/*
 * test_forecast.c: forecasts in calendar time (issue 11.9).  The fit of
 * api_forecast_project is checked on made-up weekly series whose right
 * answer is known: snapshots every other week, a 250-week standstill after
 * a backfill (then "no progress for N weeks", never a date), a change
 * across a long gap, and a short pause that still projects.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "api_forecast.h"
#include "db_snapshot.h"
#include "pd_time.h"

#define WEEK (7 * 86400)
#define MAXP 128

typedef struct {
    char weeks[MAXP][16];
    double y[MAXP];
    int n;
} series;

/* Monday 2020-12-07 00:00 UTC (ISO week 2020-W50). */
static const int64_t T0 = 1607299200;

static void add(series *s, int64_t t, double v)
{
    db_iso_week(s->weeks[s->n], sizeof(s->weeks[0]), t);
    s->y[s->n++] = v;
}

static json_t *project(const series *s, int window)
{
    json_t *o = json_object();

    api_forecast_project(o, (const char (*)[16])s->weeks, s->y, s->n, window, 0);
    return o;
}

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static json_int_t num(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* The weeks from week `a` to week `b` by their ISO week ends. */
static json_int_t weeks_between(const char *a, const char *b)
{
    int64_t ta = 0, tb = 0;

    assert_int_equal(db_iso_week_end(a, &ta), 0);
    assert_int_equal(db_iso_week_end(b, &tb), 0);
    return (json_int_t)((tb - ta) / WEEK);
}

/* The case: weekly backfill of a steady fall up to 2022-02-13,
 * then one live snapshot in 2026-W49 at the same value.  Fitting the last
 * 12 snapshots as consecutive weeks gave "zero around 2027-05-18"; in
 * calendar time it is a standstill of about 250 weeks. */
static void test_standstill_after_backfill_is_no_progress(void **state)
{
    static series s;
    json_t *o;
    char note[160];
    int i;

    s.n = 0;
    for (i = 0; T0 + (int64_t)i * WEEK < 1644710400; i++)    /* until 2022-02-13 */
        add(&s, T0 + (int64_t)i * WEEK, 400 - 3 * i);
    add(&s, 1795996800, s.y[s.n - 1]);                       /* 2026-11-30, W49 */
    assert_string_equal(s.weeks[s.n - 1], "2026-W49");
    assert_string_equal(s.weeks[s.n - 2], "2022-W06");
    o = project(&s, 12);
    assert_true(json_is_null(json_object_get(o, "projection")));
    assert_int_equal(num(o, "no_progress_weeks"), weeks_between("2022-W06", "2026-W49"));
    assert_true(num(o, "no_progress_weeks") > 240);
    assert_string_equal(str(o, "last_change"), "2022-W06");
    snprintf(note, sizeof(note), "no progress for %lld weeks: unchanged since 2022-W06",
             (long long)num(o, "no_progress_weeks"));
    assert_string_equal(str(o, "note"), note);
    assert_int_equal(num(o, "largest_gap_weeks"), weeks_between("2022-W06", "2026-W49"));
    json_decref(o);

    /* Variant: the same standstill with a shorter window still says so;
     * and as soon as the live value moves, there is no standstill. */
    o = project(&s, 4);
    assert_true(json_is_null(json_object_get(o, "projection")));
    assert_non_null(strstr(str(o, "note"), "no progress for"));
    json_decref(o);
    s.y[s.n - 1] -= 10;
    o = project(&s, 12);
    assert_int_equal(num(o, "no_progress_weeks"), 0);
    assert_null(strstr(str(o, "note"), "no progress"));
    json_decref(o);
}

/* Least-squares slope of y on x, for the expected values. */
static double ols_slope(const double *x, const double *y, int n)
{
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int i;

    for (i = 0; i < n; i++) {
        sx += x[i];
        sy += y[i];
        sxx += x[i] * x[i];
        sxy += x[i] * y[i];
    }
    return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

/* A change across a long gap: the fit's x is calendar weeks, so its slope
 * is the least-squares slope over real dates, not over snapshot indexes. */
static void test_change_across_a_gap_is_fitted_over_real_dates(void **state)
{
    static series s;
    double x[MAXP], idx[MAXP];
    json_t *o;
    int i;

    s.n = 0;
    for (i = 0; i < 30; i++)
        add(&s, T0 + (int64_t)i * WEEK, 300 - 2 * i);
    add(&s, T0 + (int64_t)(29 + 100) * WEEK, 200);      /* 100 weeks later, 42 fewer */
    for (i = 0; i < s.n; i++) {
        x[i] = i < 30 ? i : 129;
        idx[i] = i;
    }
    o = project(&s, 12);
    assert_int_equal(num(o, "largest_gap_weeks"), 100);
    assert_int_equal(num(o, "calendar_weeks"), 129);
    assert_true(fabs(json_real_value(json_object_get(o, "slope_per_week")) -
                     ols_slope(x, s.y, s.n)) < 1e-9);
    assert_true(fabs(ols_slope(x, s.y, s.n) - ols_slope(idx, s.y, s.n)) > 0.1);
    json_decref(o);
}

/* Snapshots every other week falling 4 each: 2 a week in calendar time, so
 * zero is value/2 weeks after the last snapshot (index-based: twice as soon). */
static void test_snapshots_every_other_week(void **state)
{
    static series s;
    json_t *o, *p;
    char want[40];
    int64_t end = 0;
    int i;

    s.n = 0;
    for (i = 0; i < 20; i++)
        add(&s, T0 + (int64_t)i * 2 * WEEK, 200 - 4 * i);     /* last value 124 */
    o = project(&s, 12);
    assert_true(fabs(json_real_value(json_object_get(o, "slope_per_week")) + 2) < 1e-9);
    assert_int_equal(num(o, "largest_gap_weeks"), 2);
    p = json_object_get(o, "projection");
    assert_true(json_is_object(p));
    assert_int_equal(db_iso_week_end(s.weeks[s.n - 1], &end), 0);
    pd_iso8601(want, sizeof(want), end + (int64_t)62 * WEEK, 0);   /* 124 / 2 weeks */
    want[10] = '\0';
    assert_string_equal(json_string_value(json_object_get(p, "zero_on")), want);
    json_decref(o);
}

/* A pause shorter than the window is not a standstill: it still projects. */
static void test_short_pause_still_projects(void **state)
{
    static series s;
    json_t *o;
    int i;

    s.n = 0;
    for (i = 0; i < 20; i++)
        add(&s, T0 + (int64_t)i * WEEK, 100 - 3 * i);
    for (i = 20; i < 25; i++)
        add(&s, T0 + (int64_t)i * WEEK, s.y[19]);
    o = project(&s, 12);
    assert_int_equal(num(o, "no_progress_weeks"), 5);
    assert_true(json_is_object(json_object_get(o, "projection")));
    json_decref(o);
    /* Variant: no snapshots at all. */
    s.n = 0;
    o = project(&s, 12);
    assert_true(json_is_null(json_object_get(o, "projection")));
    assert_int_equal(num(o, "no_progress_weeks"), 0);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_standstill_after_backfill_is_no_progress),
        cmocka_unit_test(test_change_across_a_gap_is_fitted_over_real_dates),
        cmocka_unit_test(test_snapshots_every_other_week),
        cmocka_unit_test(test_short_pause_still_projects),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
