/*
 * test_pool.c: the ordered pool (pd_pool.h).  Items worked on by several
 * threads in any order come back in the order they were submitted; no
 * more than the window is outstanding; the first failure in submission
 * order is the one reported, whatever order the threads failed in, and
 * nothing after it is taken as a result.
 */
#include "testutil.h"

#include <pthread.h>
#include <time.h>

#include "pd_error.h"
#include "pd_pool.h"

#define N_ITEMS 200

typedef struct {
    int n;              /* the item's number */
    int fail;           /* the work fails with PD_EIO and "item N" */
    int sleep_us;       /* the work takes this long */
    int worked;
} item;

typedef struct {
    pthread_mutex_t mu;
    int taken[N_ITEMS];     /* numbers in the order taken */
    int rcs[N_ITEMS];       /* the rc each was taken with */
    int ntaken;
    int outstanding, max_outstanding;   /* submitted, not yet taken */
    int take_fails_at;      /* the take of this number fails (-1: none) */
    pthread_t submitter;
    int taken_elsewhere;    /* a take ran on another thread */
} run;

static void nap(int us)
{
    struct timespec ts = { 0, (long)us * 1000 };

    if (us > 0)
        nanosleep(&ts, NULL);
}

static int work(void *ctx, void *p)
{
    item *it = p;

    (void)ctx;
    nap(it->sleep_us);
    it->worked = 1;
    return it->fail ? pd_error_set(PD_EIO, "item %d", it->n) : 0;
}

static int take(void *ctx, void *p, int rc)
{
    run *r = ctx;
    item *it = p;

    if (!pthread_equal(pthread_self(), r->submitter))
        r->taken_elsewhere = 1;
    pthread_mutex_lock(&r->mu);
    r->taken[r->ntaken] = it->n;
    r->rcs[r->ntaken++] = rc;
    r->outstanding--;
    pthread_mutex_unlock(&r->mu);
    if (rc < 0)         /* the work's message is this thread's now */
        assert_non_null(strstr(pd_error_last(), "item"));
    if (it->n == r->take_fails_at)
        return pd_error_set(PD_EINVAL, "take of %d", it->n);
    return 0;
}

static void run_init(run *r)
{
    memset(r, 0, sizeof(*r));
    pthread_mutex_init(&r->mu, NULL);
    r->take_fails_at = -1;
    r->submitter = pthread_self();
}

/* Submit items[0..n) to a pool of `threads` and `window`; the result. */
static int run_pool(run *r, item *items, int n, unsigned threads, unsigned window)
{
    pd_pool *p = NULL;
    int i, rc = 0, src;

    assert_int_equal(pd_pool_new(&p, threads, window, work, take, r), 0);
    for (i = 0; i < n; i++) {
        pthread_mutex_lock(&r->mu);
        if (++r->outstanding > r->max_outstanding)
            r->max_outstanding = r->outstanding;
        pthread_mutex_unlock(&r->mu);
        if ((src = pd_pool_submit(p, &items[i])) < 0 && rc == 0)
            rc = src;
    }
    src = pd_pool_finish(p);
    /* after a failure every submit and the finish say the same */
    if (rc < 0)
        assert_int_equal(src, rc);
    pd_pool_free(p);
    return src;
}

static void items_init(item *items, int n, unsigned seed)
{
    int i;

    for (i = 0; i < n; i++) {
        memset(&items[i], 0, sizeof(items[i]));
        items[i].n = i;
        seed = seed * 1103515245u + 12345u;
        items[i].sleep_us = (int)((seed >> 16) % 300);
    }
}

static void test_items_come_back_in_submission_order(void **state)
{
    static const unsigned threads[] = { 1, 2, 3, 8 };
    item items[N_ITEMS];
    size_t t;
    int i;

    (void)state;
    for (t = 0; t < sizeof(threads) / sizeof(threads[0]); t++) {
        run r;

        run_init(&r);
        items_init(items, N_ITEMS, 7 + (unsigned)t);
        assert_int_equal(run_pool(&r, items, N_ITEMS, threads[t], 0), 0);
        assert_int_equal(r.ntaken, N_ITEMS);
        for (i = 0; i < N_ITEMS; i++) {
            assert_int_equal(r.taken[i], i);
            assert_int_equal(r.rcs[i], 0);
            assert_true(items[i].worked);
        }
        assert_false(r.taken_elsewhere);
        /* the default window is 4 items a thread */
        assert_true(r.max_outstanding <= (int)(4 * threads[t]) + 1);
    }
}

static void test_the_window_bounds_what_is_outstanding(void **state)
{
    item items[N_ITEMS];
    run r;

    (void)state;
    run_init(&r);
    items_init(items, N_ITEMS, 3);
    items[5].sleep_us = 20000;      /* a slow head holds the others back */
    assert_int_equal(run_pool(&r, items, N_ITEMS, 4, 6), 0);
    assert_int_equal(r.ntaken, N_ITEMS);
    /* counted before the submit that waits: one more than the window */
    assert_true(r.max_outstanding <= 7);
    assert_true(r.max_outstanding >= 6);
}

static void test_the_first_failure_in_order_is_reported(void **state)
{
    item items[N_ITEMS];
    run r;
    int i;

    (void)state;
    run_init(&r);
    items_init(items, 40, 11);
    /* item 12 fails late, item 15 fails at once: 12 is the one reported */
    items[12].fail = 1;
    items[12].sleep_us = 30000;
    items[15].fail = 1;
    items[15].sleep_us = 0;
    assert_int_equal(run_pool(&r, items, 40, 3, 8), PD_EIO);
    assert_string_equal(pd_error_last(), "item 12");
    assert_int_equal(r.ntaken, 40);     /* every item is handed back, to be freed */
    for (i = 0; i < 12; i++)
        assert_int_equal(r.rcs[i], 0);
    assert_int_equal(r.rcs[12], PD_EIO);
    for (i = 13; i < 40; i++)           /* nothing after it is a result */
        assert_int_equal(r.rcs[i], PD_POOL_SKIPPED);
    for (i = 0; i < 40; i++)
        assert_int_equal(r.taken[i], i);
    /* items submitted after the failure was taken are not worked on */
    assert_false(items[39].worked);
}

static void test_a_failed_take_stops_the_pool(void **state)
{
    item items[N_ITEMS];
    run r;
    int i;

    (void)state;
    run_init(&r);
    items_init(items, 30, 5);
    r.take_fails_at = 9;
    assert_int_equal(run_pool(&r, items, 30, 2, 4), PD_EINVAL);
    assert_string_equal(pd_error_last(), "take of 9");
    assert_int_equal(r.ntaken, 30);
    for (i = 0; i <= 9; i++)
        assert_int_equal(r.rcs[i], 0);
    for (i = 10; i < 30; i++)
        assert_int_equal(r.rcs[i], PD_POOL_SKIPPED);
}

static void test_bad_counts_are_refused(void **state)
{
    pd_pool *p = (pd_pool *)&p;
    run r;

    (void)state;
    run_init(&r);
    assert_int_equal(pd_pool_new(&p, 0, 0, work, take, &r), PD_EINVAL);
    assert_null(p);
    assert_int_equal(pd_pool_new(&p, 257, 0, work, take, &r), PD_EINVAL);
    assert_int_equal(pd_pool_new(&p, 2, 0, NULL, take, &r), PD_EINVAL);
    pd_pool_free(NULL);
}

static void test_a_pool_freed_unfinished_takes_everything(void **state)
{
    item items[8];
    pd_pool *p = NULL;
    run r;
    int i;

    (void)state;
    run_init(&r);
    items_init(items, 8, 1);
    assert_int_equal(pd_pool_new(&p, 2, 0, work, take, &r), 0);
    for (i = 0; i < 8; i++)
        assert_int_equal(pd_pool_submit(p, &items[i]), 0);
    pd_pool_free(p);
    assert_int_equal(r.ntaken, 8);
    for (i = 0; i < 8; i++)
        assert_int_equal(r.taken[i], i);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_items_come_back_in_submission_order),
        cmocka_unit_test(test_the_window_bounds_what_is_outstanding),
        cmocka_unit_test(test_the_first_failure_in_order_is_reported),
        cmocka_unit_test(test_a_failed_take_stops_the_pool),
        cmocka_unit_test(test_bad_counts_are_refused),
        cmocka_unit_test(test_a_pool_freed_unfinished_takes_everything),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
