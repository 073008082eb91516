/*
 * test_api_calls.c: which functions a call names (server/api_calls.h), the
 * resolution the frontier and the plan share: the caller's file first, a
 * C++ name qualified where it is defined named by its unqualified tail
 * when that is one function (a trial: ultrajson-hpy's C calls of its
 * `extern "C"` helpers inside namespace double_conversion, and kiwi's
 * methods, linked to nothing).
 */
#include "testutil.h"

#include "api_calls.h"

static tu_site g_site;

static int site_setup(void **state)
{
    tu_site_init(&g_site, "calls.db");
    return tu_site_ingest(&g_site, "cppport", "cpp", "hpy") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int site_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* The functions of a small repository: name and file. */
static const char *const names[] = {
    "helper",                   /* 0: file 0 */
    "helper",                   /* 1: file 1 (a static of the same name) */
    "ns::g",                    /* 2: file 2 (extern "C" in a namespace) */
    "kw::S::legacy_helper",     /* 3: file 3 */
    "a::Solver::init",          /* 4: file 3 */
    "b::Term::init",            /* 5: file 4 */
    "mod_f",                    /* 6: file 0 */
    "S::legacy_helper",         /* 7: file 5: another S, outside kw */
};
static const uint32_t files[] = {0, 1, 2, 3, 3, 4, 0, 5};

/* Collects what a call names, in order, as "i,j,". */
static void collect(void *arg, uint32_t i)
{
    char *out = arg;

    snprintf(out + strlen(out), 8, "%u,", (unsigned)i);
}

static const char *resolve(const api_calls *c, const char *name, uint32_t file, size_t *n)
{
    static char out[64];

    out[0] = '\0';
    *n = api_calls_resolve(c, name, strlen(name), file, collect, out);
    return out;
}

/* Calls as data: name, the caller's file, what it names, how many. */
static const struct {
    const char *name;
    uint32_t file;
    const char *want;
    size_t n;
} cases[] = {
    /* the definition in the caller's file, else every one */
    {"helper", 0, "0,", 1},
    {"helper", 1, "1,", 1},
    {"helper", 2, "1,0,", 2},
    /* a C call of a C++ function with C linkage: its one tail */
    {"g", 0, "2,", 1},
    {"ns::g", 0, "2,", 1},
    /* a member by its class: an exact name first (another S outside kw) */
    {"S::legacy_helper", 3, "7,", 1},
    /* the tail alone has two (kw::S:: and S::): in the caller's file, the
     * one there; from elsewhere a guess, so nothing */
    {"legacy_helper", 3, "3,", 1},
    {"legacy_helper", 0, "", 0},
    /* init of two classes: a guess, so nothing */
    {"init", 0, "", 0},
    /* names defined nowhere: nothing */
    {"PyErr_Clear", 0, "", 0},
    {"::", 0, "", 0},
};

static void test_calls_name_what_the_rules_say(void **state)
{
    api_calls *c = NULL;
    size_t i, n;

    assert_int_equal(api_calls_new(&c, names, files, sizeof(names) / sizeof(names[0])), 0);
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *got = resolve(c, cases[i].name, cases[i].file, &n);

        if (strcmp(got, cases[i].want) != 0 || n != cases[i].n)
            fail_msg("%s from file %u: '%s' (%zu), want '%s' (%zu)", cases[i].name,
                     (unsigned)cases[i].file, got, n, cases[i].want, cases[i].n);
    }
    api_calls_free(c);
}

/* The fixture cppport: a C function calls g (extern "C" in namespace ns)
 * and h (at file scope) of src/helpers.cc; kw::caller calls
 * S::legacy_helper.  Each legacy helper has its one ported caller. */
static void test_frontier_links_qualified_cpp_callees(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/cpp/commits/hpy/frontier?all=1", 200);
    json_t *fns = json_object_get(d, "functions"), *f;
    size_t i;
    int seen = 0;

    assert_int_equal(json_array_size(fns), 3);
    json_array_foreach(fns, i, f) {
        const char *name = json_string_value(json_object_get(f, "name"));

        if (strcmp(name, "h") && strcmp(name, "ns::g") && strcmp(name, "kw::S::legacy_helper"))
            fail_msg("unexpected candidate %s", name);
        if (json_integer_value(json_object_get(f, "bridged_callers")) != 1)
            fail_msg("%s: %lld bridged callers, want 1", name,
                     (long long)json_integer_value(json_object_get(f, "bridged_callers")));
        seen++;
    }
    assert_int_equal(seen, 3);
    json_decref(d);
}

/* The plan follows the same calls: src/solver.cpp's one blocking function,
 * kw::S::legacy_helper, has its ported caller kw::caller (0 when the call
 * S::legacy_helper named nothing). */
static void test_plan_follows_qualified_cpp_callees(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/cpp/commits/hpy/plan?path=src/solver.cpp", 200);
    json_t *next = json_array_get(json_object_get(d, "next"), 0);

    assert_string_equal(json_string_value(json_object_get(next, "name")), "kw::S::legacy_helper");
    assert_int_equal(json_integer_value(json_object_get(next, "bridged_callers")), 1);
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calls_name_what_the_rules_say),
    };
    const struct CMUnitTest site[] = {
        cmocka_unit_test(test_frontier_links_qualified_cpp_callees),
        cmocka_unit_test(test_plan_follows_qualified_cpp_callees),
    };

    return cmocka_run_group_tests(tests, NULL, NULL) |
           cmocka_run_group_tests(site, site_setup, site_teardown);
}
