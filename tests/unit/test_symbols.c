/*
 * test_symbols.c: universal blockers by C API symbol with the HPy
 * replacement (api_symbols.c, api_hpymap.c) and search by name
 * (api_search.c), on the toyport fixture against a real server.  The
 * figures are checked by hand against the fixture's sources and against
 * the blockers endpoint, which counts the same uses per file.  The exact
 * answers of .../symbols and .../search are HTTP cases as data
 * (tests/http/symbol*.case, search-*.case).
 */
#include "api_hpymap.h"
#include "api_search.h"
#include "srv.h"
#include "testutil.h"

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
    const char *how = "x", *kind, *since;

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
    /* What HPy's guide says in prose (tools/hpy_api_manual.tsv), with its
     * kind and the first HPy version that has the names (issue 21.8). */
    assert_string_equal(api_hpymap_lookup_row("Py_INCREF", &how, &kind, &since), "HPy_Dup");
    assert_string_equal(how, "manual");
    assert_string_equal(kind, "pattern");
    assert_string_equal(since, "0.0.4");
    assert_string_equal(api_hpymap_lookup_row("Py_XDECREF", NULL, &kind, NULL), "HPy_Close");
    assert_string_equal(kind, "one-to-one");
    assert_string_equal(api_hpymap_lookup_row("PyTuple_GET_ITEM", NULL, &kind, NULL),
                        "HPy_GetItem_i");
    assert_string_equal(kind, "generic");
    assert_string_equal(api_hpymap_lookup_row("PyCapsule_GetPointer", NULL, NULL, &since),
                        "HPyCapsule_GetPointer");
    assert_string_equal(since, "0.9.0");
    assert_string_equal(api_hpymap_lookup("METH_O", NULL), "HPyFunc_O");
    assert_string_equal(api_hpymap_lookup("PyArg_ParseTupleAndKeywords", NULL),
                        "HPyArg_ParseKeywords");
    assert_string_equal(api_hpymap_lookup("Py_RETURN_NONE", NULL),
                        "return HPy_Dup(ctx, ctx->h_None)");
    /* Names the prefix rule makes that CPython never had are not rows. */
    assert_null(api_hpymap_lookup("PyTupleBuilder_New", NULL));
    assert_null(api_hpymap_lookup("PyCapsule_Get", NULL));
    assert_null(api_hpymap_lookup("PyField_Load", NULL));
    assert_null(api_hpymap_lookup("Py_New", NULL));
    /* What HPy's docs say replaces the object and the type struct, by a
     * change of the code's shape (tools/hpy_api_manual.tsv). */
    assert_string_equal(api_hpymap_lookup("PyObject", &how), "HPy");
    assert_string_equal(how, "manual");
    assert_string_equal(api_hpymap_lookup("PyTypeObject", &how), "HPyType_Spec");
    assert_string_equal(how, "manual");
    /* No HPy equivalent: the object header. */
    assert_null(api_hpymap_lookup("PyObject_HEAD", &how));
    assert_null(how);
    assert_null(api_hpymap_lookup("", NULL));
    assert_string_equal(api_hpymap_version(), "0.9.0");
}

static void test_symbols_are_listed_exactly(void **state)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/symbols?scope=no-object-dtype");
    json_t *dflt = get(200, "/api/v1/repos/demo/commits/hpy/symbols");

    /* include/toyarray.h line 16 has PyObject three times at file scope,
     * PyObject_HEAD, PyTypeObject and Py_ssize_t; LONG_getitem and
     * DOUBLE_getitem (one template definition) return PyObject * and call
     * PyLong_FromLong / PyFloat_FromDouble.  OBJECT_getitem is an
     * object-dtype path, which the scope leaves out. */
    expect_json(json_object_get(s, "symbols"),
        "[{\"symbol\": \"PyObject\", \"class\": \"capi\", \"uses\": 5, \"functions\": 2,"
        "  \"files\": 2, \"hpy\": \"HPy\", \"hpy_source\": \"manual\", \"hpy_kind\": \"pattern\","
        "  \"hpy_since\": \"0.0.4\"},"
        " {\"symbol\": \"PyFloat_FromDouble\", \"class\": \"capi\", \"uses\": 1,"
        "  \"functions\": 1, \"files\": 1, \"hpy\": \"HPyFloat_FromDouble\","
        "  \"hpy_source\": \"table\", \"hpy_kind\": \"one-to-one\", \"hpy_since\": \"0.0.4\"},"
        " {\"symbol\": \"PyLong_FromLong\", \"class\": \"capi\", \"uses\": 1,"
        "  \"functions\": 1, \"files\": 1, \"hpy\": \"HPyLong_FromLong\","
        "  \"hpy_source\": \"table\", \"hpy_kind\": \"one-to-one\", \"hpy_since\": \"0.0.4\"},"
        " {\"symbol\": \"PyObject_HEAD\", \"class\": \"capi\", \"uses\": 1, \"functions\": 0,"
        "  \"files\": 1, \"hpy\": null, \"hpy_source\": null, \"hpy_kind\": null,"
        "  \"hpy_since\": null},"
        " {\"symbol\": \"PyTypeObject\", \"class\": \"capi\", \"uses\": 1, \"functions\": 0,"
        "  \"files\": 1, \"hpy\": \"HPyType_Spec\", \"hpy_source\": \"manual\","
        "  \"hpy_kind\": \"pattern\", \"hpy_since\": \"0.0.4\"},"
        " {\"symbol\": \"Py_ssize_t\", \"class\": \"capi\", \"uses\": 1, \"functions\": 0,"
        "  \"files\": 1, \"hpy\": \"HPy_ssize_t\", \"hpy_source\": \"abi\","
        "  \"hpy_kind\": \"one-to-one\", \"hpy_since\": \"0.0.4\"}]");
    assert_int_equal(json_integer_value(json_object_get(s, "total")), 6);
    assert_int_equal(json_integer_value(json_object_get(s, "without_hpy")), 1);
    assert_int_equal(json_integer_value(json_object_get(s, "without_hpy_bridge")), 0);
    assert_string_equal(json_string_value(json_object_get(s, "hpy_version")), "0.9.0");
    assert_true(json_equal(s, dflt));
    json_decref(s);
    json_decref(dflt);
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
    assert_string_equal(json_string_value(json_object_get(s, "hpy")), "HPy");
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
    /* A name without blocking uses: no sites, the class the rules give it,
     * the replacement still said; a name the rules do not know: 404. */
    s = get(200, "/api/v1/repos/demo/commits/hpy/symbols/PyErr_SetString");
    assert_int_equal(json_integer_value(json_object_get(s, "uses")), 0);
    assert_string_equal(json_string_value(json_object_get(s, "class")), "capi");
    assert_string_equal(json_string_value(json_object_get(s, "hpy")), "HPyErr_SetString");
    json_decref(s);
    s = get(200, "/api/v1/repos/demo/commits/hpy/symbols/HPy_AsPyObject");
    assert_string_equal(json_string_value(json_object_get(s, "class")), "bridge");
    json_decref(s);
    json_decref(get(404, "/api/v1/repos/demo/commits/hpy/symbols/PyErr_SetStrin"));
}

static void test_a_scope_without_the_files_has_no_symbols(void **state)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/symbols?scope=umath");

    assert_int_equal(json_integer_value(json_object_get(s, "total")), 0);
    assert_int_equal(json_integer_value(json_object_get(s, "uses_total")), 0);
    json_decref(s);
    json_decref(get(400, "/api/v1/repos/demo/commits/hpy/symbols?scope=nope"));
    json_decref(get(404, "/api/v1/repos/demo/commits/nosuchref/symbols"));
}

static void test_search_finds_functions_and_names(void **state)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=GETITEM");

    assert_int_equal(json_integer_value(json_object_get(s, "functions_total")), 3);
    expect_json(json_object_get(s, "functions"),
        "[{\"name\": \"DOUBLE_getitem\", \"path\": \"src/arraytypes.c.src\","
        "  \"start_line\": 9, \"end_line\": 15, \"status\": \"legacy\","
        "  \"object_state\": null},"
        " {\"name\": \"LONG_getitem\", \"path\": \"src/arraytypes.c.src\","
        "  \"start_line\": 9, \"end_line\": 15, \"status\": \"legacy\","
        "  \"object_state\": null},"
        " {\"name\": \"OBJECT_getitem\", \"path\": \"src/arraytypes.c.src\","
        "  \"start_line\": 18, \"end_line\": 25, \"status\": \"legacy\","
        "  \"object_state\": \"object-legacy\"}]");
    /* names of HPy's table (unused here: uses 0), by the CPython or the HPy
     * name: PyObject_GetItem, and the type-specific names whose generic HPy
     * replacement is HPy_GetItem / HPy_GetItem_i / HPy_GetItem_s */
    assert_int_equal(json_array_size(json_object_get(s, "symbols")), 9);
    expect_json(json_array_get(json_object_get(s, "symbols"), 5),
        "{\"name\": \"PyObject_GetItem\", \"hpy\": \"HPy_GetItem\", \"hpy_source\": \"table\","
        " \"hpy_kind\": \"one-to-one\", \"hpy_since\": \"0.0.4\", \"uses\": 0, \"class\": null}");
    expect_json(json_array_get(json_object_get(s, "symbols"), 7),
        "{\"name\": \"PyTuple_GET_ITEM\", \"hpy\": \"HPy_GetItem_i\", \"hpy_source\": \"manual\","
        " \"hpy_kind\": \"generic\", \"hpy_since\": \"0.0.4\", \"uses\": 0, \"class\": null}");
    json_decref(s);
    /* The exact name first, then the names it starts. */
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=PyLong_FromLong");
    expect_json(json_array_get(json_object_get(s, "symbols"), 0),
        "{\"name\": \"PyLong_FromLong\", \"class\": \"capi\", \"uses\": 1,"
        " \"hpy\": \"HPyLong_FromLong\", \"hpy_source\": \"table\", \"hpy_kind\": \"one-to-one\","
        " \"hpy_since\": \"0.0.4\"}");
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(json_object_get(s, "symbols"), 1), "name")), "PyLong_FromLongLong");
    json_decref(s);
    /* LIKE's wildcards are text: '%' and '_' match only themselves. */
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=%25");
    assert_int_equal(json_integer_value(json_object_get(s, "functions_total")), 0);
    json_decref(s);
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=G_g");
    assert_int_equal(json_integer_value(json_object_get(s, "functions_total")), 1);
    json_decref(s);
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=getitem&limit=1");
    assert_int_equal(json_array_size(json_object_get(s, "functions")), 1);
    assert_int_equal(json_integer_value(json_object_get(s, "functions_total")), 3);
    json_decref(s);
    json_decref(get(400, "/api/v1/repos/demo/commits/hpy/search"));
    json_decref(get(400, "/api/v1/repos/demo/commits/hpy/search?q="));
    json_decref(get(400, "/api/v1/repos/demo/commits/hpy/search?q=a&limit=0"));
    json_decref(get(400, "/api/v1/repos/demo/commits/hpy/search?q=a&limit=x"));
}

/* Issue 21.9: every C API name the code uses is found, whether HPy's table
 * has it or not, guarded or not, in an object-dtype path or not; item
 * findings (`memcpy(&obj)`, casts) are not names. */
static void test_search_finds_every_symbol_in_use(void **state)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=PyObject_HEAD");

    /* no HPy replacement: before, only the table was searched */
    expect_json(json_object_get(s, "symbols"),
        "[{\"name\": \"PyObject_HEAD\", \"class\": \"capi\", \"uses\": 1, \"hpy\": null,"
        "  \"hpy_source\": null, \"hpy_kind\": null, \"hpy_since\": null}]");
    json_decref(s);
    /* only in guarded code (toy_debug_dump under #ifndef HPY_ABI_UNIVERSAL) */
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=PyObject_Print");
    expect_json(json_object_get(s, "symbols"),
        "[{\"name\": \"PyObject_Print\", \"class\": \"capi\", \"uses\": 1, \"hpy\": null,"
        "  \"hpy_source\": null, \"hpy_kind\": null, \"hpy_since\": null}]");
    json_decref(s);
    /* only in object-dtype paths, which the symbols' default scope leaves out */
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=Py_XINCREF");
    expect_json(json_object_get(s, "symbols"),
        "[{\"name\": \"Py_XINCREF\", \"class\": \"capi\", \"uses\": 2, \"hpy\": \"HPy_Dup\","
        "  \"hpy_source\": \"manual\", \"hpy_kind\": \"pattern\", \"hpy_since\": \"0.0.4\"}]");
    json_decref(s);
    s = get(200, "/api/v1/repos/demo/commits/hpy/search?q=memcpy");
    expect_json(json_object_get(s, "symbols"), "[]");
    json_decref(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_table_is_hpys_own),
        cmocka_unit_test(test_symbols_are_listed_exactly),
        cmocka_unit_test(test_uses_add_up_to_the_blockers),
        cmocka_unit_test(test_symbol_sites_point_at_the_symbol),
        cmocka_unit_test(test_a_scope_without_the_files_has_no_symbols),
        cmocka_unit_test(test_search_finds_functions_and_names),
        cmocka_unit_test(test_search_finds_every_symbol_in_use),
    };

    return cmocka_run_group_tests(tests, sym_setup, sym_teardown);
}
