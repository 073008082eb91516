/*
 * test_ingest_progress.c: the terminal progress line of `portdash ingest`
 * (ingest_progress.h) is always ended before anything else is said: a run
 * stopped or failed in the middle of a ref printed its message right after
 * "... 0m08s left".  The time left is measured from the first commit
 * done, whose whole-tree analysis made the first minutes' estimate several
 * times too long.
 */
#include "testutil.h"

#include "ingest_progress.h"
#include "pd_file.h"

/* What standard error received while fn ran (malloc). */
static char *stderr_of(void (*fn)(void))
{
    char path[] = "/tmp/pd-progress-XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    char *text = NULL;
    size_t n;

    assert_true(fd >= 0 && saved >= 0);
    fflush(stderr);
    assert_int_equal(dup2(fd, 2), 2);
    fn();
    fflush(stderr);
    assert_int_equal(dup2(saved, 2), 2);
    close(saved);
    close(fd);
    assert_int_equal(pd_file_read(path, 1 << 20, "standard error", &text, &n), 0);
    unlink(path);
    return text;
}

static void stopped_mid_ref(void)
{
    ingest_progress *p = ingest_progress_new(1);

    ingest_progress_ref(p, "hpy", 100);
    ingest_progress_update(p, 40, 7, 4096);   /* the first update draws */
    ingest_progress_free(p);                  /* the run stopped here */
}

static void ended(void)
{
    ingest_progress *p = ingest_progress_new(1);

    ingest_progress_ref(p, "hpy", 100);
    ingest_progress_update(p, 40, 7, 4096);
    ingest_progress_done(p);
    ingest_progress_free(p);
}

static void quiet(void)
{
    ingest_progress *p = ingest_progress_new(0);

    ingest_progress_ref(p, "hpy", 100);
    ingest_progress_update(p, 40, 7, 4096);
    ingest_progress_free(p);
}

static void sleep_s(double s)
{
    struct timespec ts = {(time_t)s, (long)((s - (time_t)s) * 1e9)};

    nanosleep(&ts, NULL);
}

/* The oldest commit takes a second (the whole tree), the next hundred a
 * second: 899 left at 100 a second is about 9 s, where the rate since the
 * start (50 a second) said 18 s. */
static void slow_first_commit(void)
{
    ingest_progress *p = ingest_progress_new(1);

    ingest_progress_ref(p, "hpy", 1000);
    sleep_s(1.0);
    ingest_progress_update(p, 1, 900, 1 << 20);
    sleep_s(1.0);
    ingest_progress_update(p, 101, 1000, 2 << 20);
    ingest_progress_free(p);
}

static void note_mid_ref(void)
{
    ingest_progress *p = ingest_progress_new(1);

    ingest_progress_ref(p, "hpy", 100);
    ingest_progress_update(p, 40, 7, 4096);
    ingest_progress_note(p, "numpy-hpy: a note of %d words", 4);
    ingest_progress_free(p);
}

static void test_time_left_counts_from_the_first_commit(void **state)
{
    char *out = stderr_of(slow_first_commit), *last;
    int m = -1, sec = -1, rate = -1;

    (void)state;
    assert_non_null(strstr(out, "commits 1/1000, blobs 900 (1.0 MB), 1 commits/s, "
                            "time left: estimating"));
    assert_non_null(last = strstr(out, "commits 101/1000"));
    assert_non_null(last = strstr(last, "MB), "));
    assert_int_equal(sscanf(last, "MB), %d commits/s, %dm%ds left", &rate, &m, &sec), 3);
    assert_in_range(rate, 80, 110);      /* 100 a second since the first */
    assert_int_equal(m, 0);
    assert_in_range(sec, 6, 10);
    free(out);
}

static void test_a_note_has_a_line_of_its_own(void **state)
{
    char *out = stderr_of(note_mid_ref);

    (void)state;
    assert_non_null(strstr(out, "estimating\nnumpy-hpy: a note of 4 words\n"));
    free(out);
}

static void test_a_stopped_run_ends_its_line(void **state)
{
    char *out = stderr_of(stopped_mid_ref);
    size_t n = strlen(out);

    (void)state;
    assert_non_null(strstr(out, "hpy: commits 40/100, blobs 7"));
    assert_true(n > 0 && out[n - 1] == '\n');
    free(out);
}

static void test_an_ended_ref_ends_its_line_once(void **state)
{
    char *out = stderr_of(ended), *q;
    size_t n = strlen(out), lines = 0;

    (void)state;
    for (q = out; (q = strchr(q, '\n')) != NULL; q++)
        lines++;
    assert_int_equal(lines, 1);
    assert_true(n > 0 && out[n - 1] == '\n');
    free(out);
}

static void test_without_a_terminal_nothing_is_drawn(void **state)
{
    char *out = stderr_of(quiet);

    (void)state;
    assert_string_equal(out, "");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_stopped_run_ends_its_line),
        cmocka_unit_test(test_an_ended_ref_ends_its_line_once),
        cmocka_unit_test(test_without_a_terminal_nothing_is_drawn),
        cmocka_unit_test(test_time_left_counts_from_the_first_commit),
        cmocka_unit_test(test_a_note_has_a_line_of_its_own),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
