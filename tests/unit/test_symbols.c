/*
 * test_symbols.c: universal blockers by C API symbol with the HPy
 * replacement (api_symbols.c, api_hpymap.c) and search by name
 * (api_search.c), on the toyport fixture against a real server.  The
 * figures are checked by hand against the fixture's sources and against
 * the blockers endpoint, which counts the same uses per file.  The exact
 * answers of .../symbols and .../search are HTTP cases as data
 * (tests/http/symbol*.case, search-*.case).
 */
#include "testutil.h"

#include "api_hpymap.h"
#include "srv.h"

static tu_site g_site;

static int sym_setup(void **state)
{
    tu_site_init(&g_site, "symbols.db");
    return tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int sym_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static json_t *get(long status, const char *path)
{
    char url[2048];

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    return tu_get_json(url, status);
}

static void expect_json(json_t *got, const char *want_text)
{
    json_t *want = json_loads(want_text, JSON_DECODE_ANY, NULL);

    assert_non_null(want);
    if (!json_equal(got, want)) {
        char *g = json_dumps(got, JSON_COMPACT);

        fail_msg("got %s", g);
    }
    json_decref(want);
}

static void test_the_table_is_hpys_own(void **state)
{
    const char *how = "x";

    /* From the porting guide's table (convert_name of public_api.h). */
    assert_string_equal(api_hpymap_lookup("PyErr_SetString", &how), "HPyErr_SetString");
    assert_string_equal(how, "table");
    /* DOC_MANUAL_API_MAPPING wins over the name rule. */
    assert_string_equal(api_hpymap_lookup("PyObject_Call", NULL), "HPy_CallTupleDict");
    /* SPECIAL_CASES: HPy_GetAttr_s is PyObject_GetAttrString. */
    assert_string_equal(api_hpymap_lookup("PyObject_GetAttrString", NULL), "HPy_GetAttr_s");
    /* A context handle, from the CPython ABI's misc.h. */
    assert_string_equal(api_hpymap_lookup("PyExc_ValueError", &how), "ctx->h_ValueError");
    assert_string_equal(how, "handle");
    assert_string_equal(api_hpymap_lookup("PyLong_Type", NULL), "ctx->h_LongType");
    /* Hand-written in HPy, same name by the rule. */
    assert_string_equal(api_hpymap_lookup("PyErr_Occurred", &how), "HPyErr_Occurred");
    assert_string_equal(how, "name");
    /* HPy's helpers beside the context (HPyAPI_HELPER, runtime/format.h,
     * buildvalue.h, inline_helpers.h): the HPy prefix replaced by Py. */
    assert_string_equal(api_hpymap_lookup("PyErr_Format", &how), "HPyErr_Format");
    assert_string_equal(how, "helper");
    assert_string_equal(api_hpymap_lookup("Py_BuildValue", NULL), "HPy_BuildValue");
    assert_string_equal(api_hpymap_lookup("PyTuple_Pack", NULL), "HPyTuple_Pack");
    /* What HPy's CPython ABI defines its names as (hpy.h). */
    assert_string_equal(api_hpymap_lookup("Py_ssize_t", &how), "HPy_ssize_t");
    assert_string_equal(how, "abi");
    assert_string_equal(api_hpymap_lookup("Py_hash_t", NULL), "HPy_hash_t");
    assert_string_equal(api_hpymap_lookup("PY_SSIZE_T_MAX", NULL), "HPY_SSIZE_T_MAX");
    /* Macros and enum constants (macros.h, hpytype.h). */
    assert_string_equal(api_hpymap_lookup("Py_TPFLAGS_DEFAULT", &how), "HPy_TPFLAGS_DEFAULT");
    assert_string_equal(how, "macro");
    assert_string_equal(api_hpymap_lookup("Py_LT", NULL), "HPy_LT");
    /* Types, where HPy's CPython-ABI code uses the CPython type; the name
     * rule alone would pair HPyContext with CPython's unrelated PyContext. */
    assert_string_equal(api_hpymap_lookup("PyType_Spec", &how), "HPyType_Spec");
    assert_string_equal(how, "type");
    assert_string_equal(api_hpymap_lookup("Py_buffer", NULL), "HPy_buffer");
    assert_string_equal(api_hpymap_lookup("PyModuleDef", NULL), "HPyModuleDef");
    assert_null(api_hpymap_lookup("PyContext", NULL));
    /* No HPy equivalent: reference counting, the type struct. */
    assert_null(api_hpymap_lookup("Py_INCREF", &how));
    assert_null(how);
    assert_null(api_hpymap_lookup("PyTypeObject", NULL));
    assert_null(api_hpymap_lookup("", NULL));
    assert_string_equal(api_hpymap_version(), "0.9.0");
}

/* The uses summed over symbols are the capi + bridge uses of the blockers. */
static void test_uses_add_up_to_the_blockers(void **state)
{
    static const char *const revs[] = {"hpy", "hpy-convert-object-dtype"};
    size_t k, i, j;

    for (k = 0; k < 2; k++) {
        char p[256];
        json_t *s, *b, *f, *fn;
        json_int_t want = 0;

        snprintf(p, sizeof(p), "/api/v1/repos/demo/commits/%s/symbols", revs[k]);
        s = get(200, p);
        snprintf(p, sizeof(p), "/api/v1/repos/demo/commits/%s/blockers", revs[k]);
        b = get(200, p);
        json_array_foreach(json_object_get(b, "files"), i, f) {
            json_t *fs = json_object_get(f, "file_scope");

            want += json_integer_value(json_object_get(fs, "capi")) +
                    json_integer_value(json_object_get(fs, "bridge"));
            json_array_foreach(json_object_get(f, "functions"), j, fn)
                want += json_integer_value(json_object_get(fn, "capi")) +
                        json_integer_value(json_object_get(fn, "bridge"));
        }
        assert_true(want > 0);
        assert_int_equal(json_integer_value(json_object_get(s, "uses_total")), want);
        json_decref(s);
        json_decref(b);
    }
}

/* Every site names a line of the raw file where the symbol stands at the
 * column given. */
static void test_symbol_sites_point_at_the_symbol(void **state)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/symbols/PyObject"), *site;
    size_t i;

    assert_int_equal(json_integer_value(json_object_get(s, "uses")), 5);
    assert_int_equal(json_integer_value(json_object_get(s, "functions")), 2);
    assert_int_equal(json_integer_value(json_object_get(s, "files")), 2);
    assert_true(json_is_null(json_object_get(s, "hpy")));
    assert_int_equal(json_array_size(json_object_get(s, "sites")), 5);
    json_array_foreach(json_object_get(s, "sites"), i, site) {
        char url[1024];
        tu_http h;
        const char *line;
        json_int_t want = json_integer_value(json_object_get(site, "line")), n;

        snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/raw/%s", g_site.base,
                 json_string_value(json_object_get(site, "path")));
        h = tu_request("GET", url);
        assert_int_equal(h.status, 200);
        for (line = h.body, n = 1; n < want && line; n++)
            line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL;
        assert_non_null(line);
        assert_memory_equal(line + json_integer_value(json_object_get(site, "column")) - 1,
                            "PyObject", 8);
        free(h.body);
    }
    expect_json(json_object_get(json_array_get(json_object_get(s, "sites"), 3), "function"),
                "\"LONG_getitem\"");
    json_decref(s);
    s = get(200, "/api/v1/repos/demo/commits/hpy/symbols/PyLong_FromLong");
    assert_string_equal(json_string_value(json_object_get(s, "hpy")), "HPyLong_FromLong");
    json_decref(s);
    /* A name without blocking uses: no sites, the replacement still said. */
    s = get(200, "/api/v1/repos/demo/commits/hpy/symbols/PyErr_SetString");
    assert_int_equal(json_integer_value(json_object_get(s, "uses")), 0);
    assert_true(json_is_null(json_object_get(s, "class")));
    assert_string_equal(json_string_value(json_object_get(s, "hpy")), "HPyErr_SetString");
    json_decref(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_table_is_hpys_own),
        cmocka_unit_test(test_uses_add_up_to_the_blockers),
        cmocka_unit_test(test_symbol_sites_point_at_the_symbol),
    };

    return cmocka_run_group_tests(tests, sym_setup, sym_teardown);
}
