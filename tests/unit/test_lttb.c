/*
 * test_lttb.c: Largest-Triangle-Three-Buckets downsampling of history
 * series (server/api_lttb.c, ?points=N): sizes, ends, the extreme points a
 * chart must show, and series short enough to stay; the port's parts and
 * its kept start (server/api_fork.c): the plain-array pick of a ref's
 * history keeps the very points the JSON sampling of a scope's keeps.
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

/* An internal request (no connection) with query string `args`. */
static void req_init(srv_req *r, const char *args)
{
    memset(r, 0, sizeof(*r));
    r->url = "/api/v1/x";
    r->args = args;
}

/* The commits api_fork_sample keeps of series() as JSON points (own from
 * index `own_from` on), with commit `keep` (index; SIZE_MAX: none) kept,
 * into `names`. */
static size_t json_pick(const int64_t *t, const int64_t *v, size_t len, size_t own_from,
                        size_t n, size_t keep, char names[][41])
{
    json_t *pts = json_array();
    char args[32], kc[41];
    size_t i, k, total = 0;
    srv_req r;

    for (i = 0; i < len; i++) {
        char c[41], d[40];
        json_t *p;

        snprintf(c, sizeof(c), "%040zu", i);
        pd_iso8601(d, sizeof(d), t[i], 0);
        p = json_pack("{s:s, s:s, s:I}", "commit", c, "effective_date", d,
                      "value", (json_int_t)v[i]);
        if (i >= own_from)
            json_object_set_new(p, "own", json_true());
        json_array_append_new(pts, p);
    }
    snprintf(args, sizeof(args), "points=%zu", n);
    snprintf(kc, sizeof(kc), "%040zu", keep);
    req_init(&r, args);
    assert_int_equal(api_fork_sample(&r, &pts, &total, keep == SIZE_MAX ? NULL : kc), 1);
    assert_int_equal(total, len);
    for (k = 0; k < json_array_size(pts); k++)
        snprintf(names[k], 41, "%s",
                 json_string_value(json_object_get(json_array_get(pts, k), "commit")));
    json_decref(pts);
    return k;
}

/* The JSON sampling (the scopes' histories) keeps the very points the
 * plain-array pick (a ref's history) keeps, the port's start put in by
 * api_fork_keep in both; unreadable dates, ties and a date going back
 * included. */
static void test_pick_on_arrays_keeps_the_json_points(void **state)
{
    enum { LEN = 200 };
    static char names[LEN][41];
    static const size_t budgets[] = {3, 4, 7, 10, 33, 50, 101, 199, 200, 500};
    static const size_t own_from[] = {0, 150, LEN};
    static const size_t keeps[] = {SIZE_MAX, 0, 151, 160, 177, LEN - 1};
    int64_t t[LEN], v[LEN];
    unsigned char own[LEN];
    size_t *keep, nkeep, b, i, k, o, q;

    series(t, v, LEN);
    for (o = 0; o < 3; o++)
        for (q = 0; q < sizeof(keeps) / sizeof(*keeps); q++)
            for (b = 0; b < sizeof(budgets) / sizeof(*budgets); b++) {
                for (i = 0; i < LEN; i++)
                    own[i] = i >= own_from[o];
                k = json_pick(t, v, LEN, own_from[o], budgets[b], keeps[q], names);
                assert_int_equal(api_fork_pick(own, t, v, LEN, budgets[b], &keep, &nkeep), 0);
                api_fork_keep(keep, nkeep, keeps[q]);
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
        size_t *a, na, differ = 0;

        for (i = 0; i < LEN; i++) {
            x[i] = (double)t[i];
            y[i] = (double)v[i];
        }
        for (b = 0; b < 7; b++) {
            k = json_pick(t, v, LEN, LEN, budgets[b], SIZE_MAX, names);
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

/* api_fork_keep: the start takes its nearer kept neighbour's place, never
 * the first's or the last's; kept already, outside the span or with too
 * few kept, nothing moves.  Every r of a 100-point series against every
 * budget: the count stays, the order ascends, the ends and r are in. */
static void test_keep_takes_a_neighbours_place(void **state)
{
    enum { LEN = 100 };
    int64_t t[LEN], v[LEN];
    unsigned char own[LEN];
    size_t *idx, n, n0, r, b, i, *before;

    series(t, v, LEN);
    memset(own, 1, sizeof(own));
    for (b = 3; b <= 12; b++)
        for (r = 0; r < LEN; r++) {
            assert_int_equal(api_fork_pick(own, t, v, LEN, b, &idx, &n), 0);
            n0 = n;
            before = malloc(n * sizeof(*before));
            memcpy(before, idx, n * sizeof(*idx));
            api_fork_keep(idx, n, r);
            assert_int_equal(n, n0);
            assert_int_equal(idx[0], 0);
            assert_int_equal(idx[n - 1], LEN - 1);
            for (i = 1; i < n; i++)
                assert_true(idx[i] > idx[i - 1]);
            for (i = 0; i < n && idx[i] != r; i++)
                ;
            assert_true(i < n);
            /* at most one index moved, and only to r */
            for (i = 0; i < n; i++)
                assert_true(idx[i] == before[i] || idx[i] == r);
            free(before);
            free(idx);
        }
    /* Nothing to do: none asked, or two kept only. */
    {
        size_t two[2] = {0, 9}, three[3] = {0, 5, 9};

        api_fork_keep(three, 3, SIZE_MAX);
        assert_int_equal(three[1], 5);
        api_fork_keep(two, 2, 4);
        assert_int_equal(two[0], 0);
        assert_int_equal(two[1], 9);
        api_fork_keep(three, 3, 2);         /* nearer 0, which stays: 5 goes */
        assert_int_equal(three[1], 2);
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
        cmocka_unit_test(test_pick_on_arrays_keeps_the_json_points),
        cmocka_unit_test(test_keep_takes_a_neighbours_place),
        cmocka_unit_test(test_fork_pick_parts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
