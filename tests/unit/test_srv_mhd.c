/*
 * test_srv_mhd.c: libmicrohttpd is opened by the server, not linked
 * (server/srv_mhd.h): a process that never serves does not load it nor
 * its dependencies (GnuTLS and the rest), which every `portdash ingest`
 * of a push paid for at start-up; the server loads it and answers; a
 * missing library is a clear error that names it.
 */
#include <dlfcn.h>

#include "testutil.h"

#include "srv_mhd.h"

/* Before anything served: not in the process (the program, and this test
 * linked the same way, do not name it); after srv_mhd_load: there.  (Its
 * dependencies are not checked here: the test's libcurl brings GnuTLS.) */
static void test_loaded_only_when_the_server_needs_it(void **state)
{
    void *h;

    (void)state;
    h = dlopen(SRV_MHD_SONAME, RTLD_NOW | RTLD_NOLOAD);
    assert_null(h);
    assert_int_equal(srv_mhd_load(), 0);
    h = dlopen(SRV_MHD_SONAME, RTLD_NOW | RTLD_NOLOAD);
    assert_non_null(h);
    dlclose(h);
    /* Once per process: the second call gives the first one's answer. */
    assert_int_equal(srv_mhd_load(), 0);
}

/* The functions reach the library: a response built, given a header,
 * freed. */
static void test_calls_reach_the_library(void **state)
{
    struct MHD_Response *r;

    (void)state;
    r = MHD_create_response_from_buffer(2, (void *)"ok", MHD_RESPMEM_PERSISTENT);
    assert_non_null(r);
    assert_int_equal(MHD_add_response_header(r, "X-Test", "1"), MHD_YES);
    /* A header name with a newline is refused by the library itself. */
    assert_int_equal(MHD_add_response_header(r, "X-Bad\n", "1"), MHD_NO);
    MHD_destroy_response(r);
}

static void test_a_missing_library_is_named(void **state)
{
    (void)state;
    assert_true(srv_mhd_load_from("libportdash-no-such-http.so.0") < 0);
    assert_non_null(strstr(pd_error_last(), "libportdash-no-such-http.so.0"));
    assert_non_null(strstr(pd_error_last(), "portdash serve"));
    /* A library without the functions: libc has none of them. */
    assert_true(srv_mhd_load_from("libc.so.6") < 0);
    assert_non_null(strstr(pd_error_last(), "has no function MHD_"));
}

/* A server started and stopped through the loaded library answers. */
static void test_a_server_answers(void **state)
{
    tu_site s;

    (void)state;
    tu_site_init(&s, "mhd.db");
    assert_int_equal(tu_site_ingest(&s, "toyport", "demo", "hpy"), 0);
    assert_int_equal(tu_site_serve(&s, NULL), 0);
    assert_int_equal(tu_site_status(&s, "/api/v1/repos", ""), 200);
    assert_int_equal(tu_site_status(&s, "/api/v1/no-such-route", ""), 404);
    tu_site_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_loaded_only_when_the_server_needs_it),
        cmocka_unit_test(test_calls_reach_the_library),
        cmocka_unit_test(test_a_missing_library_is_named),
        cmocka_unit_test(test_a_server_answers),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
