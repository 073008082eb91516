/*
 * test_lttb.c: Largest-Triangle-Three-Buckets downsampling of history
 * series (server/api_lttb.c, ?points=N): sizes, ends, the extreme points a
 * chart must show, series short enough to stay, dates with no readable
 * year; the port's parts and its kept start (server/api_fork.c), the one
 * pick of a ref's history and of a scope's.
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

/* A date whose ISO 8601 text has no readable year sits where its
 * neighbour does (api_lttb_pick): the same points as with the neighbour's
 * date in its place, and other points than its own raw value gives (else
 * the rule would not be tested). */
static void test_unreadable_years_sit_at_their_neighbour(void **state)
{
    enum { LEN = 200 };
    static const size_t budgets[] = {3, 4, 7, 10, 33, 50, 101, 199, 200, 500};
    int64_t t[LEN], t2[LEN], v[LEN];
    double x[LEN], y[LEN];
    size_t *a, na, *c, nc, *d, nd, b, i, differ = 0;

    series(t, v, LEN);
    memcpy(t2, t, sizeof(t));
    t2[40] = t2[41] = t2[39];
    for (i = 0; i < LEN; i++) {
        x[i] = (double)t[i];
        y[i] = (double)v[i];
    }
    for (b = 0; b < sizeof(budgets) / sizeof(*budgets); b++) {
        assert_int_equal(api_lttb_pick(t, v, LEN, budgets[b], &a, &na), 0);
        assert_int_equal(api_lttb_pick(t2, v, LEN, budgets[b], &c, &nc), 0);
        assert_int_equal(na, nc);
        assert_memory_equal(a, c, na * sizeof(*a));
        assert_int_equal(api_lttb_indices(x, y, LEN, budgets[b], &d, &nd), 0);
        for (i = 0; i < na && i < nd; i++)
            differ += a[i] != d[i];
        free(a);
        free(c);
        free(d);
    }
    assert_true(differ > 0);
}

/* api_fork_pick's start: it takes its nearer kept neighbour's place,
 * never the first's or the last's; kept already, nothing moves.  Every
 * start of a 100-point series against every budget from 3 to 12: the
 * count stays, the order ascends, the ends and the start are in, and only
 * one index differs from the pick without a start. */
static void test_start_takes_a_neighbours_place(void **state)
{
    enum { LEN = 100 };
    int64_t t[LEN], v[LEN];
    unsigned char own[LEN];
    size_t *idx, n, *before, n0, r, b, i, moved;

    series(t, v, LEN);
    memset(own, 1, sizeof(own));
    for (b = 3; b <= 12; b++)
        for (r = 0; r < LEN; r++) {
            assert_int_equal(api_fork_pick(own, t, v, LEN, b, SIZE_MAX, &before, &n0), 0);
            assert_int_equal(api_fork_pick(own, t, v, LEN, b, r, &idx, &n), 0);
            assert_int_equal(n, n0);
            assert_int_equal(idx[0], 0);
            assert_int_equal(idx[n - 1], LEN - 1);
            for (i = 1; i < n; i++)
                assert_true(idx[i] > idx[i - 1]);
            for (i = 0; i < n && idx[i] != r; i++)
                ;
            assert_true(i < n);
            for (moved = 0, i = 0; i < n; i++) {
                assert_true(idx[i] == before[i] || idx[i] == r);
                moved += idx[i] != before[i];
            }
            assert_true(moved <= 1);
            free(before);
            free(idx);
        }
}

/* api_fork_pick: upstream's kept points, then the own ones; each part its
 * budget: the own part at least half of N, all of it when it fits. */
static void test_fork_pick_parts(void **state)
{
    enum { LEN = 120 };
    unsigned char own[LEN];
    int64_t t[LEN], v[LEN];
    size_t *idx, n, i, nown = 0;

    series(t, v, LEN);
    for (i = 0; i < LEN; i++)
        own[i] = i >= 100 || i == 50;       /* 21 own points, one among upstream's */
    assert_int_equal(api_fork_pick(own, t, v, LEN, 30, SIZE_MAX, &idx, &n), 0);
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
    assert_int_equal(api_fork_pick(own, t, v, LEN, 60, SIZE_MAX, &idx, &n), 0);
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
        cmocka_unit_test(test_unreadable_years_sit_at_their_neighbour),
        cmocka_unit_test(test_start_takes_a_neighbours_place),
        cmocka_unit_test(test_fork_pick_parts),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
