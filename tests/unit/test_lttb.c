/*
 * test_lttb.c: Largest-Triangle-Three-Buckets downsampling of history
 * series (server/api_lttb.c, ?points=N): sizes, ends, the extreme points a
 * chart must show, the kept port start, and series short enough to stay.
 */
#include "testutil.h"

#include "api_lttb.h"

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_short_series_keep_every_point_tiny_budgets_the_ends),
        cmocka_unit_test(test_budget_ends_and_spikes),
        cmocka_unit_test(test_points_keep_the_port_start),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
