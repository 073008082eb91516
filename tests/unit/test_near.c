/*
 * test_near.c: the closest name to a mistyped one (common/pd_near.c), as
 * the "did you mean" of a flag or a command picks it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "pd_near.h"

#define D(a, b) pd_near_distance(a, strlen(a), b, strlen(b))

/* Damerau's four errors of typing cost 1 each, a swap of neighbours
 * included (plain Levenshtein counts it 2). */
static void test_near_distance(void **state)
{
    (void)state;
    assert_int_equal(D("include", "include"), 0);
    assert_int_equal(D("incldue", "include"), 1);   /* swap */
    assert_int_equal(D("inlcude", "include"), 1);
    assert_int_equal(D("pth", "path"), 1);          /* dropped */
    assert_int_equal(D("reff", "ref"), 1);          /* doubled */
    assert_int_equal(D("ingset", "ingest"), 1);
    assert_int_equal(D("kitten", "sitting"), 3);
    assert_int_equal(D("", "db"), 2);
    assert_int_equal(D("ca", "abc"), 3);            /* optimal alignment: no edit of a swap */
    /* past 63 bytes: as far as can be */
    assert_int_equal(pd_near_distance("x", 1, "y", 64), 64);
}

static void test_near_pick(void **state)
{
    static const char *const opts[] = {"db", "git-dir", "name", "ref", "include", "exclude",
                                       "quiet", "threads"};
    static const char *const cmds[] = {"ingest", "serve", "snapshot", "gate"};
    const size_t no = sizeof(opts) / sizeof(opts[0]), nc = sizeof(cmds) / sizeof(cmds[0]);

    (void)state;
    assert_string_equal(pd_near_pick("incldue", 7, opts, no), "include");
    assert_string_equal(pd_near_pick("exlcude", 7, opts, no), "exclude");
    assert_string_equal(pd_near_pick("threds", 6, opts, no), "threads");
    assert_string_equal(pd_near_pick("servre", 6, cmds, nc), "serve");
    /* the length given, not the string's: "--ref=hpy" is matched as "reff" */
    assert_string_equal(pd_near_pick("reff=hpy", 4, opts, no), "ref");
    /* too far, or too short to tell: nothing suggested */
    assert_null(pd_near_pick("zzz", 3, opts, no));
    assert_null(pd_near_pick("x", 1, opts, no));
    assert_null(pd_near_pick("dv", 2, opts, no));   /* 1 from db, but half of it */
    assert_null(pd_near_pick("includes-all", 12, opts, no));
    assert_null(pd_near_pick("ingest", 6, opts, 0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_near_distance),
        cmocka_unit_test(test_near_pick),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
