/*
 * test_lttb.c: Largest-Triangle-Three-Buckets downsampling of history
 * series (server/api_lttb.c, ?points=N): sizes, ends, the extreme points a
 * chart must show, the kept port start, and series short enough to stay;
 * the plain-array pick keeps the very points the JSON sampling keeps.
 */
#include "testutil.h"

#include "api_fork.h"
#include "api_lttb.h"
#include "pd_time.h"

static void test_short_series_keep_every_point_tiny_budgets_the_ends(void **state)
{
    double x[5] = {0, 1, 2, 3, 4}, y[5] = {1, 5, 2, 8, 3};
    size_t *keep, n, i;

    assert_int_equal(api_lttb_indices(x, y, 5, 5, &keep, &n), 0);
    assert_int_equal(n, 5);
    for (i = 0; i < n; i++)
        assert_int_equal(keep[i], i);
    free(keep);
    assert_int_equal(api_lttb_indices(x, y, 5, 2, &keep, &n), 0);
    assert_int_equal(n, 2);
    assert_int_equal(keep[0], 0);
    assert_int_equal(keep[1], 4);
    free(keep);
}

static void test_budget_ends_and_spikes(void **state)
{
    enum { LEN = 1000 };
    double x[LEN], y[LEN];
    size_t *keep, n, i, spike = 0, dip = 0;

    for (i = 0; i < LEN; i++) {
        x[i] = (double)i * 60;
        y[i] = 100 - (double)i / 20;    /* a slow decline ... */
    }
    y[377] = 400;                       /* ... one spike and one dip */
    y[801] = -50;
    assert_int_equal(api_lttb_indices(x, y, LEN, 50, &keep, &n), 0);
    assert_int_equal(n, 50);
    assert_int_equal(keep[0], 0);
    assert_int_equal(keep[n - 1], LEN - 1);
    for (i = 0; i < n; i++) {
        if (i)
            assert_true(keep[i] > keep[i - 1]);
        spike |= keep[i] == 377;
        dip |= keep[i] == 801;
    }
    assert_true(spike);
    assert_true(dip);
    free(keep);
}

/* A history point as the API makes it. */
static json_t *point(int i)
{
    char commit[41], date[40];

    snprintf(commit, sizeof(commit), "%040d", i);
    snprintf(date, sizeof(date), "2021-%02d-%02dT12:00:00+00:00", 1 + i / 28 % 12,
             1 + i % 28);
    return json_pack("{s:s, s:s, s:s, s:i}", "commit", commit, "author_date", date,
                     "committer_date", "2022-02-08T12:00:00+00:00", "value", i % 7);
}

static void test_points_keep_the_port_start(void **state)
{
    json_t *pts = json_array(), *out;
    char keep[41];
    size_t i, found = 0;

    for (i = 0; i < 300; i++)
        json_array_append_new(pts, point((int)i));
    snprintf(keep, sizeof(keep), "%040d", 211);
    out = api_lttb_points(pts, 20, "author_date", keep);
    assert_int_equal(json_array_size(out), 20);
    for (i = 0; i < json_array_size(out); i++)
        found += strcmp(json_string_value(json_object_get(json_array_get(out, i), "commit")),
                        keep) == 0;
    assert_int_equal(found, 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(out, 0), "commit")),
                        "0000000000000000000000000000000000000000");
    json_decref(out);
    /* Under the budget: the very same array. */
    pts = json_array();
    json_array_append_new(pts, point(1));
    out = api_lttb_points(pts, 20, "committer_date", NULL);
    assert_ptr_equal(out, pts);
    json_decref(out);
}

/*
 * A series with what can make two samplings part: runs of equal dates,
 * equal values (ties for the largest triangle), a date going back, and
 * dates whose ISO 8601 text has a year of 5 digits (unreadable: the
 * neighbour's x) or a negative one.
 */
static void series(int64_t *t, int64_t *v, size_t len)
{
    size_t i;

    for (i = 0; i < len; i++) {
        t[i] = 1600000000 + (int64_t)(i / 5) * 3600;     /* 5 points a date */
        v[i] = (int64_t)(i % 4 == 0 ? 3 : i % 9);         /* ties */
    }
    t[17] = t[16] - 7200;
    t[40] = 300000000000LL;                              /* year 11476 */
    t[41] = 300000000000LL;
    t[90] = -62198755200LL - 86400 * 400;               /* year -2 */
    t[91] = 253402300799LL;                              /* 9999-12-31T23:59:59 */
}

/* The commits api_lttb_points keeps of series() as JSON, into `names`. */
static size_t json_pick(const int64_t *t, const int64_t *v, size_t len, size_t n,
                        char names[][41])
{
    json_t *pts = json_array(), *out;
    size_t i, k;

    for (i = 0; i < len; i++) {
        char c[41], d[40];

        snprintf(c, sizeof(c), "%040zu", i);
        pd_iso8601(d, sizeof(d), t[i], 0);
        json_array_append_new(pts, json_pack("{s:s, s:s, s:I}", "commit", c,
                                             "effective_date", d, "value", (json_int_t)v[i]));
    }
    out = api_lttb_points(pts, n, "effective_date", NULL);
    for (k = 0; k < json_array_size(out); k++)
        snprintf(names[k], 41, "%s",
                 json_string_value(json_object_get(json_array_get(out, k), "commit")));
    json_decref(out);
    return k;
}

static void test_pick_on_arrays_keeps_the_json_points(void **state)
{
    enum { LEN = 200 };
    static char names[LEN][41];
    static const size_t budgets[] = {2, 3, 4, 7, 10, 33, 50, 101, 199, 200, 500};
    int64_t t[LEN], v[LEN];
    size_t *keep, nkeep, b, i, k, differ = 0;

    series(t, v, LEN);
    for (b = 0; b < sizeof(budgets) / sizeof(*budgets); b++) {
        k = json_pick(t, v, LEN, budgets[b], names);
        assert_int_equal(api_lttb_pick(t, v, LEN, budgets[b], &keep, &nkeep), 0);
        assert_int_equal(nkeep, k);
        for (i = 0; i < k; i++) {
            char c[41];

            snprintf(c, sizeof(c), "%040zu", keep[i]);
            assert_string_equal(c, names[i]);
        }
        free(keep);
    }
    /* The unreadable dates matter: read as their own x, a budget keeps
     * other points (else the test above could not fail on them). */
    {
        double x[LEN], y[LEN];
        size_t *a, na;

        for (i = 0; i < LEN; i++) {
            x[i] = (double)t[i];
            y[i] = (double)v[i];
        }
        for (b = 1; b < 9; b++) {
            k = json_pick(t, v, LEN, budgets[b], names);
            assert_int_equal(api_lttb_indices(x, y, LEN, budgets[b], &a, &na), 0);
            for (i = 0; i < na && i < k; i++) {
                char c[41];

                snprintf(c, sizeof(c), "%040zu", a[i]);
                differ += strcmp(c, names[i]) != 0;
            }
            free(a);
        }
        assert_true(differ > 0);
    }
}

/* api_fork_pick: upstream's kept points, then the own ones; each part its
 * budget as api_fork_sample gives it. */
static void test_fork_pick_parts(void **state)
{
    enum { LEN = 120 };
    unsigned char own[LEN];
    int64_t t[LEN], v[LEN];
    size_t *idx, n, i, nown = 0;

    series(t, v, LEN);
    for (i = 0; i < LEN; i++)
        own[i] = i >= 100 || i == 50;       /* 21 own points, one among upstream's */
    assert_int_equal(api_fork_pick(own, t, v, LEN, 30, &idx, &n), 0);
    /* Own keep half of 30 (15 of 21), upstream the other 15 of 99. */
    assert_int_equal(n, 30);
    for (i = 0; i < n; i++) {
        nown += own[idx[i]];
        if (i && own[idx[i]] == own[idx[i - 1]])
            assert_true(idx[i] > idx[i - 1]);
        if (i >= 15)
            assert_true(own[idx[i]]);
    }
    assert_int_equal(nown, 15);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[14], 99);         /* upstream's last */
    free(idx);
    /* A budget all the own points fit in keeps them all. */
    assert_int_equal(api_fork_pick(own, t, v, LEN, 60, &idx, &n), 0);
    for (nown = 0, i = 0; i < n; i++)
        nown += own[idx[i]];
    assert_int_equal(nown, 21);
    assert_int_equal(n, 60);
    free(idx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_series_keep_every_point_tiny_budgets_the_ends),
        cmocka_unit_test(test_budget_ends_and_spikes),
        cmocka_unit_test(test_points_keep_the_port_start),
        cmocka_unit_test(test_pick_on_arrays_keeps_the_json_points),
        cmocka_unit_test(test_fork_pick_parts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
