/*
 * test_demo.c: the demo of `make run` (issue 23, point 11) is a believable
 * small port, not the hostile fixture: tests/run_demo.sh builds it from
 * tests/fixtures/demo; its history has several authors over months, no
 * markup in names, messages or paths, and the states a newcomer should
 * see (ported, bridged, legacy and guarded functions; legacy object items
 * on hpy, universal ones on the branch that converts them).
 */
#include "testutil.h"

#include "db.h"
#include "ingest.h"
#include "pd_error.h"

static tu_site g_site;

static int setup(void **state)
{
    tu_site_init(&g_site, "demo.db");
    return tu_site_ingest(&g_site, "demo", "gridlib", "hpy hpy-object-items") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static void test_make_run_builds_the_demo_fixture(void **state)
{
    char *out = tu_sh_out("sed -n 's/.*make_repo.sh \\(tests\\/fixtures\\/[a-z]*\\) .*/\\1/p' "
                          "tests/run_demo.sh");

    assert_string_equal(out, "tests/fixtures/demo\n");
    free(out);
}

static void test_the_history_reads_like_a_port(void **state)
{
    char *out = tu_sh_out("sqlite3 '%s' \"SELECT count(*), count(DISTINCT author_name), "
                          "(max(author_time) - min(author_time)) / 86400 > 120 FROM commits; "
                          "SELECT count(*) FROM commits WHERE author_name GLOB '*[<>]*' OR "
                          "author_email GLOB '*[<>]*' OR summary GLOB '*[<>]*'; "
                          "SELECT count(*) FROM paths WHERE path GLOB '*[<>]*'\"", g_site.db);

    /* seven commits, four authors, over more than four months; no markup */
    assert_string_equal(out, "7|4|1\n0\n0\n");
    free(out);
}

/* Member `key` of object `o`'s member `group`. */
static json_int_t num(json_t *o, const char *group, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(o, group), key));
}

static void test_it_shows_every_state_a_newcomer_meets(void **state)
{
    json_t *hpy = tu_site_get(&g_site, "/api/v1/repos/gridlib/commits/hpy/summary", 200);
    json_t *items = tu_site_get(&g_site, "/api/v1/repos/gridlib/commits/hpy-object-items/"
                                "summary", 200);

    assert_true(num(hpy, "functions", "ported") > 0);
    assert_true(num(hpy, "functions", "bridged") > 0);
    assert_true(num(hpy, "functions", "legacy") > 0);
    assert_true(num(hpy, "functions", "capi-guarded") > 0);
    assert_true(num(hpy, "object_paths", "object-legacy") > 0);
    assert_int_equal(num(items, "object_paths", "object-legacy"), 0);
    assert_true(num(items, "object_paths", "object-universal") > 0);
    assert_true(num(items, "functions", "legacy") < num(hpy, "functions", "legacy"));
    json_decref(hpy);
    json_decref(items);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_make_run_builds_the_demo_fixture),
        cmocka_unit_test(test_the_history_reads_like_a_port),
        cmocka_unit_test(test_it_shows_every_state_a_newcomer_meets),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
