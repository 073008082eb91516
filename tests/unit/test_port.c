/*
 * test_port.c: traverse coverage and the porting frontier (issue 6).
 *
 * The analyzer cases feed small sources to an_analyze() and check what it
 * records (an_result.hpy_types, an_function.calls).  The API cases ingest
 * tests/fixtures/gcport (four commits on `hpy`: the Obj type whose member
 * f_b appears in 02 and is visited from 03, the Box type whose f_extra is
 * never visited, a Plain type without HPyField members, and call chains
 * for the frontier) and ask a real server on a loopback port.
 */
#include "testutil.h"

#include "analyzer/analyzer.h"
#include "db.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

static tu_site g_site;
static rules *g_rules;

static int port_setup(void **state)
{
    if (rules_load_default(&g_rules) < 0)
        return -1;
    tu_site_init(&g_site, "port.db");
    return tu_site_ingest(&g_site, "gcport", "gc", "hpy") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int port_teardown(void **state)
{
    tu_site_free(&g_site);
    rules_free(g_rules);
    return 0;
}

static json_t *get(const char *path, long status)
{
    return tu_site_get(&g_site, path, status);
}

/* The commit id of the fixture's `hpy~N`. */
static char *rev(const char *r)
{
    char *s = tu_sh_out("git --git-dir='%s' rev-parse '%s'", tu_fixture("gcport"), r);

    s[strcspn(s, "\n")] = '\0';
    return s;
}

/* Analyse src as file `path`; the caller frees the result. */
static an_result *analyse(const char *path, const char *src)
{
    an_result *res = NULL;

    assert_int_equal(an_analyze(&res, g_rules, path, src, strlen(src)), 0);
    return res;
}

/* The function named `name` in res, or fail. */
static const an_function *fn_named(const an_result *res, const char *name)
{
    size_t i;

    for (i = 0; i < res->nfunctions; i++)
        if (strcmp(res->functions[i].name, name) == 0)
            return &res->functions[i];
    fail_msg("no function %s", name);
    return NULL;
}

/* ---- analyzer ---------------------------------------------------------- */

static void test_calls_are_distinct_names_in_order_without_members_or_keywords(void **state)
{
    an_result *res = analyse("a.c",
        "static int g(int x) { return x; }\n"
        "int f(struct s *p)\n{\n"
        "    if (g(1) && sizeof(int)) { h(2); }\n"
        "    p->cb(3); p->o.m(4); (*fp)(5);\n"
        "    g(6); while (k(7)) ;\n"
        "    return (int)(g(8));\n"
        "}\n");

    assert_string_equal(fn_named(res, "f")->calls, "g h k");
    assert_string_equal(fn_named(res, "g")->calls, "");
    an_result_free(res);
}

static void test_calls_of_template_instances_are_their_own(void **state)
{
    an_result *res = analyse("t.c.src",
        "/**begin repeat\n * #TYPE = INT, OBJECT#\n */\n"
        "static void @TYPE@_copy(void)\n{\n    @TYPE@_helper();\n}\n"
        "/**end repeat**/\n");

    assert_string_equal(fn_named(res, "INT_copy")->calls, "INT_helper");
    assert_string_equal(fn_named(res, "OBJECT_copy")->calls, "OBJECT_helper");
    an_result_free(res);
}

static void test_types_record_spec_struct_fields_defines_and_traverse(void **state)
{
    an_result *res = analyse("o.c",
        "typedef struct tagS {\n    PyObject_HEAD\n    HPyField f_x;\n"
        "    HPyField *items;\n    union { HPyField f_u; long l; } u;\n} S;\n"
        "typedef struct _T T;\n"
        "HPyType_LEGACY_HELPERS(S)\n"
        "HPyDef_SLOT(S_traverse, S_traverse_impl, HPy_tp_traverse)\n"
        "static int S_traverse_impl(void *self, HPyFunc_visitproc visit, void *arg)\n{\n"
        "    S *s = (S *)self;\n    HPy_VISIT(&s->f_x);\n"
        "    HPy_VISIT(&((S *)self)->u.f_u);\n    HPy_VISIT(&tmp);\n"
        "    array_items_visit(s, visit, arg);\n    return 0;\n}\n"
        "static HPyDef *S_defines[] = { &S_traverse, NULL };\n"
        "HPyType_Spec S_spec = {\n    .name = \"m.S\",\n"
        "    .basicsize = sizeof(S),\n    .defines = S_defines,\n};\n");

    assert_non_null(res->hpy_types);
    assert_string_equal(res->hpy_types,
        "{\"specs\":[{\"var\":\"S_spec\",\"line\":20,\"name\":\"m.S\",\"struct\":\"S\","
        "\"defines\":\"S_defines\"}],"
        "\"helpers\":[\"S\"],"
        "\"structs\":[{\"name\":\"S\",\"tag\":\"tagS\",\"line\":1,"
        "\"fields\":[\"f_x\",\"f_u\"]}],"
        "\"aliases\":[[\"_T\",\"T\"]],"
        "\"defines\":[{\"name\":\"S_defines\",\"items\":[\"S_traverse\"]}],"
        "\"traverse\":[{\"def\":\"S_traverse\",\"impl\":\"S_traverse_impl\"}],"
        "\"visits\":[{\"function\":\"S_traverse_impl\",\"members\":[\"f_x\",\"f_u\"],"
        "\"items\":true}]}");
    an_result_free(res);
}

static void test_types_two_argument_slot_and_no_types_in_plain_files(void **state)
{
    an_result *res = analyse("b.c",
        "HPyDef_SLOT(B_traverse, HPy_tp_traverse)\n"
        "static int B_traverse_impl(void *self, HPyFunc_visitproc v, void *a)\n"
        "{ return 0; }\n"
        "HPyDef_SLOT(B_new, B_new_impl, HPy_tp_new)\n");

    assert_string_equal(res->hpy_types,
        "{\"traverse\":[{\"def\":\"B_traverse\",\"impl\":\"B_traverse_impl\"}]}");
    an_result_free(res);
    res = analyse("p.c", "PyObject *f(PyObject *o) { Py_INCREF(o); return o; }\n");
    assert_null(res->hpy_types);
    an_result_free(res);
    /* extern declarations and sizeof uses are not specs or structs */
    res = analyse("h.h", "extern HPyType_Spec S_spec;\n"
                  "int n = sizeof(struct { HPyField *p; });\n");
    assert_null(res->hpy_types);
    an_result_free(res);
}

/* ---- traverse API ------------------------------------------------------ */

/* The type whose spec variable is `spec` in doc, or fail. */
static json_t *type_of(json_t *doc, const char *spec)
{
    json_t *t;
    size_t i;

    json_array_foreach(json_object_get(doc, "types"), i, t)
        if (strcmp(json_string_value(json_object_get(t, "spec")), spec) == 0)
            return t;
    fail_msg("no type %s", spec);
    return NULL;
}

/* Field i of type t: its name, visited flag and the two commits. */
static void check_field(json_t *t, size_t i, const char *name, int visited,
                        const char *intro, const char *since)
{
    json_t *f = json_array_get(json_object_get(t, "fields"), i);

    assert_non_null(f);
    assert_string_equal(json_string_value(json_object_get(f, "name")), name);
    assert_int_equal(json_is_true(json_object_get(f, "visited")), visited);
    if (intro)
        assert_string_equal(json_string_value(json_object_get(f, "introduced_in")), intro);
    else
        assert_true(json_is_null(json_object_get(f, "introduced_in")));
    if (since)
        assert_string_equal(json_string_value(json_object_get(f, "visited_since")), since);
    else
        assert_true(json_is_null(json_object_get(f, "visited_since")));
}

static void test_traverse_joins_header_struct_with_spec_and_dates_members(void **state)
{
    json_t *doc = get("/api/v1/repos/gc/commits/hpy/traverse", 200), *t;
    char *c1 = rev("hpy~3"), *c2 = rev("hpy~2"), *c3 = rev("hpy~1");

    assert_int_equal(json_array_size(json_object_get(doc, "types")), 3);
    t = type_of(doc, "Obj_spec");
    assert_string_equal(json_string_value(json_object_get(t, "name")), "gcport.Obj");
    assert_string_equal(json_string_value(json_object_get(t, "struct")), "ObjObject");
    assert_string_equal(json_string_value(json_object_get(t, "path")), "src/obj.c");
    assert_string_equal(json_string_value(json_object_get(t, "struct_path")), "include/obj.h");
    assert_string_equal(json_string_value(json_object_get(t, "traverse")), "Obj_traverse_impl");
    assert_int_equal(json_array_size(json_object_get(t, "fields")), 2);
    check_field(t, 0, "f_a", 1, c1, c1);
    check_field(t, 1, "f_b", 1, c2, c3);
    assert_true(json_is_true(json_object_get(t, "items_visited")));
    json_decref(doc);
    free(c1);
    free(c2);
    free(c3);
}

static void test_traverse_shows_an_unvisited_member(void **state)
{
    json_t *doc = get("/api/v1/repos/gc/commits/hpy/traverse", 200), *t;
    char *c1 = rev("hpy~3");

    t = type_of(doc, "Box_spec");
    assert_string_equal(json_string_value(json_object_get(t, "struct")), "_BoxObject");
    assert_string_equal(json_string_value(json_object_get(t, "traverse")), "Box_traverse_impl");
    check_field(t, 0, "f_item", 1, c1, c1);
    check_field(t, 1, "f_extra", 0, c1, NULL);
    assert_true(json_is_false(json_object_get(t, "items_visited")));
    t = type_of(doc, "Plain_spec");
    assert_int_equal(json_array_size(json_object_get(t, "fields")), 0);
    assert_true(json_is_null(json_object_get(t, "traverse")));
    assert_true(json_is_null(json_object_get(t, "items_visited")));
    json_decref(doc);
    free(c1);
}

static void test_traverse_at_an_older_commit_before_the_visit(void **state)
{
    char *c2 = rev("hpy~2"), path[256];
    json_t *doc, *t;

    snprintf(path, sizeof(path), "/api/v1/repos/gc/commits/%s/traverse", c2);
    doc = get(path, 200);
    t = type_of(doc, "Obj_spec");
    check_field(t, 1, "f_b", 0, c2, NULL);
    assert_true(json_is_false(json_object_get(t, "items_visited")));
    json_decref(doc);
    free(c2);
    json_decref(get("/api/v1/repos/gc/commits/nope/traverse", 404));
}

/* ---- frontier API ------------------------------------------------------ */

/* Function i of a frontier: path, name, callee counts and callers. */
static void check_frontier(json_t *doc, size_t i, const char *path, const char *name,
                           int ported, int total, int callers)
{
    json_t *f = json_array_get(json_object_get(doc, "functions"), i);

    assert_non_null(f);
    assert_string_equal(json_string_value(json_object_get(f, "path")), path);
    assert_string_equal(json_string_value(json_object_get(f, "name")), name);
    assert_string_equal(json_string_value(json_object_get(f, "status")), "legacy");
    assert_int_equal(json_integer_value(json_object_get(f, "callees_ported")), ported);
    assert_int_equal(json_integer_value(json_object_get(f, "callees_total")), total);
    assert_int_equal(json_integer_value(json_object_get(f, "bridged_callers")), callers);
}

static void test_frontier_ranks_legacy_functions_with_ported_callees(void **state)
{
    json_t *doc = get("/api/v1/repos/gc/commits/hpy/frontier", 200);

    /* legacy_top and more.c's legacy_other call legacy code: not listed;
     * more_ported's legacy_other is more.c's own, not calls.c's. */
    assert_int_equal(json_integer_value(json_object_get(doc, "candidates")), 3);
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 3);
    check_frontier(doc, 0, "src/calls.c", "legacy_helper", 1, 1, 2);
    check_frontier(doc, 1, "src/other.c", "other_file_legacy", 0, 0, 2);
    check_frontier(doc, 2, "src/calls.c", "legacy_other", 0, 0, 1);
    json_decref(doc);
}

static void test_frontier_at_an_older_commit_limit_and_all(void **state)
{
    char *c1 = rev("hpy~3"), path[256];
    json_t *doc;

    snprintf(path, sizeof(path), "/api/v1/repos/gc/commits/%s/frontier", c1);
    doc = get(path, 200);
    assert_int_equal(json_integer_value(json_object_get(doc, "candidates")), 3);
    /* before more.c: one ported caller each; ties go by path */
    check_frontier(doc, 0, "src/calls.c", "legacy_helper", 1, 1, 2);
    check_frontier(doc, 1, "src/calls.c", "legacy_other", 0, 0, 1);
    check_frontier(doc, 2, "src/other.c", "other_file_legacy", 0, 0, 1);
    json_decref(doc);
    doc = get("/api/v1/repos/gc/commits/hpy/frontier?limit=1", 200);
    assert_int_equal(json_integer_value(json_object_get(doc, "candidates")), 3);
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 1);
    json_decref(doc);
    /* all=1 adds more.c's legacy_other?  No: it calls legacy_top.  It adds
     * nothing else either: every other legacy function calls legacy code. */
    doc = get("/api/v1/repos/gc/commits/hpy/frontier?all=1", 200);
    assert_int_equal(json_integer_value(json_object_get(doc, "candidates")), 3);
    json_decref(doc);
    json_decref(get("/api/v1/repos/gc/commits/hpy/frontier?limit=0", 400));
    free(c1);
}

/* npy_get_context (src/ctx.c) is bridged, has no callees and a bridged
 * caller, so it would top the frontier; it is the bridge mechanism, to be
 * removed, so it is named under "excluded" instead and not counted. */
static void test_frontier_never_proposes_the_bridge_mechanism(void **state)
{
    json_t *doc = get("/api/v1/repos/gc/commits/hpy/frontier?all=1", 200), *f, *ex;
    size_t i;

    json_array_foreach(json_object_get(doc, "functions"), i, f)
        assert_string_not_equal(json_string_value(json_object_get(f, "name")),
                                "npy_get_context");
    ex = json_object_get(doc, "excluded");
    assert_int_equal(json_array_size(ex), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(ex, 0), "name")),
                        "npy_get_context");
    assert_string_equal(json_string_value(json_object_get(json_array_get(ex, 0), "path")),
                        "src/ctx.c");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(ex, 0), "start_line")),
                     8);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calls_are_distinct_names_in_order_without_members_or_keywords),
        cmocka_unit_test(test_calls_of_template_instances_are_their_own),
        cmocka_unit_test(test_frontier_never_proposes_the_bridge_mechanism),
        cmocka_unit_test(test_types_record_spec_struct_fields_defines_and_traverse),
        cmocka_unit_test(test_types_two_argument_slot_and_no_types_in_plain_files),
        cmocka_unit_test(test_traverse_joins_header_struct_with_spec_and_dates_members),
        cmocka_unit_test(test_traverse_shows_an_unvisited_member),
        cmocka_unit_test(test_traverse_at_an_older_commit_before_the_visit),
        cmocka_unit_test(test_frontier_ranks_legacy_functions_with_ported_callees),
        cmocka_unit_test(test_frontier_at_an_older_commit_limit_and_all),
    };

    return cmocka_run_group_tests(tests, port_setup, port_teardown);
}
