/*
 * test_lock.c: one writer of commits at a time (issue 27: two ingests at
 * once failed with a raw UNIQUE or migration error, and the shipped hourly
 * ingest and Monday snapshot could overlap).  While the work lock is held,
 * an ingest or a snapshot says "another ingest is running" and writes
 * nothing, or with --wait queues until the holder is done.
 */
#include "testutil.h"

#include <pthread.h>
#include <time.h>

#include "db.h"
#include "db_lock.h"
#include "ingest.h"

static char *g_dir;
static char g_db[4200];

static int setup(void **state)
{
    g_dir = tu_tmpdir();
    snprintf(g_db, sizeof(g_db), "%s/lock.db", g_dir);
    return 0;
}

static int teardown(void **state)
{
    tu_sh("rm -rf '%s'", g_dir);
    free(g_dir);
    return 0;
}

static int ingest(int wait_s)
{
    const char *refs[] = {"hpy"};
    ingest_options o = {0};

    o.db_path = g_db;
    o.repo_path = tu_fixture("toyport");
    o.name = "demo";
    o.refs = refs;
    o.nrefs = 1;
    o.threads = 1;
    o.lock_wait_s = wait_s;
    return ingest_run(&o, NULL);
}

static void *release_later(void *arg)
{
    struct timespec t = {0, 400 * 1000 * 1000};

    nanosleep(&t, NULL);
    db_lock_release(arg);
    return NULL;
}

static void test_a_second_ingest_is_told_and_writes_nothing(void **state)
{
    db_lock *held = NULL;
    const char *fx = getenv("PORTDASH_FIXTURES");
    char *out;

    assert_int_equal(db_lock_take(&held, g_db, "ingest", 0), 0);
    assert_int_equal(ingest(0), PD_EBUSY);
    assert_non_null(strstr(pd_error_last(), "another ingest is running (pid "));
    assert_non_null(strstr(pd_error_last(), ", ingest since "));
    /* nothing was written: not even the database was made */
    assert_int_equal(access(g_db, F_OK), -1);
    /* the CLI says so and fails, ingest and snapshot alike */
    out = tu_sh_out("'%s/../portdash' ingest --quiet --db '%s' --git-dir '%s/toyport.git' "
                    "--name demo --ref hpy 2>&1; echo \"exit $?\"", fx, g_db, fx);
    assert_non_null(strstr(out, "another ingest is running"));
    assert_non_null(strstr(out, "exit 1"));
    free(out);
    out = tu_sh_out("'%s/../portdash' snapshot --db '%s' --name demo 2>&1; echo \"exit $?\"",
                    fx, g_db);
    assert_non_null(strstr(out, "another ingest is running"));
    assert_non_null(strstr(out, "this snapshot did not start"));
    assert_non_null(strstr(out, "exit 1"));
    free(out);
    db_lock_release(held);
    /* free again: the ingest runs */
    assert_int_equal(ingest(0), 0);
}

static void test_wait_queues_behind_the_holder(void **state)
{
    db_lock *held = NULL;
    pthread_t th;
    struct timespec t0, t1;
    long ms;

    assert_int_equal(db_lock_take(&held, g_db, "snapshot", 0), 0);
    pthread_create(&th, NULL, release_later, held);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    assert_int_equal(ingest(30), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(th, NULL);
    ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
    assert_true(ms >= 350);
}

/* The lock dies with its holder: a process killed while holding it (kill
 * -9, as the probe did) leaves no lock behind.  flock waits at most 10 s:
 * a lock an earlier failed case left held makes this case fail, not hang
 * the run. */
static void test_a_killed_holder_leaves_no_lock(void **state)
{
    db_lock *l = NULL;

    assert_int_equal(tu_sh("flock -w 10 '%s.lock' sh -c 'kill -9 $$'; true", g_db), 0);
    assert_int_equal(db_lock_take(&l, g_db, "ingest", 0), 0);
    db_lock_release(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_second_ingest_is_told_and_writes_nothing),
        cmocka_unit_test(test_wait_queues_behind_the_holder),
        cmocka_unit_test(test_a_killed_holder_leaves_no_lock),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
