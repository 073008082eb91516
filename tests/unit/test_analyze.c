/*
 * test_analyze.c: the source analyzer (ingest/analyzer/lex_core.c, ingest/analyzer/rules.c,
 * ingest/analyzer/analyze*.c) on small C files written for these tests
 * (tests/fixtures/analyze/) and on byte strings built here.  Every case
 * checks exact names, lines, columns, classes, statuses and states.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/analyzer.h"
#include "analyzer/lex.h"
#include "pd_domain.h"
#include "pd_error.h"

#define FIXTURES "tests/fixtures/analyze/"

static rules *defrules;

static int group_setup(void **state)
{
    (void)state;
    return rules_load_default(&defrules);
}

static int group_teardown(void **state)
{
    (void)state;
    rules_free(defrules);
    return 0;
}

/* Analyse len bytes of src as `path` with rules r (default rules if NULL). */
static an_result *run_mem(const rules *r, const char *path, const char *src,
                          size_t len)
{
    an_result *res = NULL;

    assert_int_equal(an_analyze(&res, r ? r : defrules, path, src, len), 0);
    assert_non_null(res);
    return res;
}

static an_result *run_str(const char *src)
{
    return run_mem(NULL, "t.c", src, strlen(src));
}

/* Analyse a fixture file by name. */
static an_result *run_file(const char *name)
{
    char path[256];
    FILE *f;
    char *buf;
    long len;
    an_result *res;

    snprintf(path, sizeof(path), FIXTURES "%s", name);
    f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fseek(f, 0, SEEK_END), 0);
    len = ftell(f);
    rewind(f);
    buf = malloc((size_t)len + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)len, f), (size_t)len);
    fclose(f);
    res = run_mem(NULL, path, buf, (size_t)len);
    free(buf);
    return res;
}

/* The function called name (must exist once). */
static const an_function *fn(const an_result *res, const char *name)
{
    const an_function *found = NULL;
    size_t i;

    for (i = 0; i < res->nfunctions; i++) {
        if (strcmp(res->functions[i].name, name) == 0) {
            assert_null(found);
            found = &res->functions[i];
        }
    }
    if (!found)
        fail_msg("no function %s", name);
    return found;
}

/* Index of a function, for an_finding.function. */
static int32_t fn_index(const an_result *res, const char *name)
{
    return (int32_t)(fn(res, name) - res->functions);
}

/* The finding at line:column with rule `rule` (must exist). */
static const an_finding *at(const an_result *res, uint32_t line,
                            uint32_t column, const char *rule)
{
    size_t i;

    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        if (f->line == line && f->column == column &&
            strcmp(f->rule, rule) == 0)
            return f;
    }
    fail_msg("no finding %s at %u:%u", rule, line, column);
    return NULL;
}

/* Number of findings with rule id `rule`. */
static size_t count_rule(const an_result *res, const char *rule)
{
    size_t i, n = 0;

    for (i = 0; i < res->nfindings; i++)
        n += strcmp(res->findings[i].rule, rule) == 0;
    return n;
}

static void check_fn(const an_result *res, const char *name, uint32_t start,
                     uint32_t end, an_status status, an_objstate state)
{
    const an_function *f = fn(res, name);

    assert_int_equal(f->start_line, start);
    assert_int_equal(f->end_line, end);
    assert_string_equal(an_status_name(f->status), an_status_name(status));
    assert_int_equal(f->object_state, state);
}

/* ---- function detection ------------------------------------------------ */

static void test_hpydef_meth_line_is_not_a_function(void **state)
{
    an_result *res = run_file("hpydef.c");
    const an_finding *f;

    (void)state;
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "frobnicate_impl", 5, 9, AN_STATUS_PORTED, AN_OBJ_NONE);
    check_fn(res, "point_new_impl", 12, 16, AN_STATUS_PORTED, AN_OBJ_NONE);
    f = at(res, 4, 1, "hpy-prefix-HPy");
    assert_string_equal(f->text, "HPyDef_METH");
    assert_int_equal(f->function, -1);
    assert_int_equal(at(res, 11, 40, "hpy-prefix-HPy")->function, -1);
    assert_int_equal(at(res, 5, 8, "hpy-prefix-HPy")->function,
                     fn_index(res, "frobnicate_impl"));
    assert_int_equal(fn(res, "frobnicate_impl")->tokens[AN_CLASS_HPY], 6);
    assert_int_equal(fn(res, "point_new_impl")->tokens[AN_CLASS_HPY], 7);
    assert_int_equal(res->tokens[AN_CLASS_HPY], 18);
    assert_int_equal(res->lines, 18);
    assert_int_equal(res->status, AN_STATUS_PORTED);
    assert_int_equal(res->universal_ready, 1);
    assert_null(res->notes);
    an_result_free(res);
}

static void test_declarations_that_are_not_functions(void **state)
{
    an_result *res = run_file("decls.c");
    const an_finding *f;

    (void)state;
    assert_int_equal(res->nfunctions, 4);
    check_fn(res, "real", 10, 15, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    /* attributes between the parameters and the body */
    check_fn(res, "fast", 17, 21, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    /* K&R parameter declarations; DECLARE(x); int y; is not one */
    check_fn(res, "old", 23, 29, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "z", 32, 32, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    f = at(res, 7, 27, "capi-names-cpython");
    assert_int_equal(f->function, -1);
    assert_int_equal(f->cls, AN_CLASS_CAPI);
    assert_int_equal(res->status, AN_STATUS_LEGACY);
    assert_null(res->notes);
    an_result_free(res);
}
static void test_cxx_wrappers_and_class_bodies(void **state)
{
    an_result *res = run_file("wrappers.cpp");

    (void)state;
    assert_int_equal(res->nfunctions, 4);
    /* qualified like ctags: namespaces and classes around the name */
    check_fn(res, "np::cxx", 3, 8, AN_STATUS_LEGACY, AN_OBJ_NONE);
    check_fn(res, "after", 11, 11, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "tag::less", 14, 14, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "tag::tag", 15, 15, AN_STATUS_LEGACY, AN_OBJ_NONE);
    assert_null(res->notes);
    an_result_free(res);
}
/* ---- classification ---------------------------------------------------- */

static void test_exact_beats_prefix(void **state)
{
    static const char text[] =
        "prefix Py capi\n"
        "prefix PyArray npy-legacy\n"
        "prefix HPy hpy\n"
        "exact HPy_AsPyObject bridge\n"
        "exact Py_ssize_t none\n";
    const char *src = "void f(void) { PyArray_DATA; Py_INCREF; HPyField_Store;"
                      " HPy_AsPyObject; HPyArray_AsFields; Py_ssize_t; Pz; }";
    rules *r;
    an_result *res;

    (void)state;
    assert_int_equal(rules_parse(&r, "t.rules", text, strlen(text)), 0);
    res = run_mem(r, "t.c", src, strlen(src));
    assert_int_equal(res->nfindings, 5);
    assert_int_equal(at(res, 1, 16, "npy-legacy-prefix-PyArray")->cls,
                     AN_CLASS_NPY_LEGACY);
    assert_string_equal(at(res, 1, 30, "capi-prefix-Py")->text, "Py_INCREF");
    assert_string_equal(at(res, 1, 41, "hpy-prefix-HPy")->text,
                        "HPyField_Store");
    assert_int_equal(at(res, 1, 57, "bridge-HPy_AsPyObject")->cls,
                     AN_CLASS_BRIDGE);
    assert_string_equal(at(res, 1, 73, "hpy-prefix-HPy")->text,
                        "HPyArray_AsFields");
    check_fn(res, "f", 1, 1, AN_STATUS_BRIDGED, AN_OBJ_NONE);
    assert_int_equal(res->functions[0].tokens[AN_CLASS_HPY], 2);
    assert_int_equal(res->functions[0].tokens[AN_CLASS_CAPI], 1);
    assert_int_equal(res->functions[0].tokens[AN_CLASS_NPY_LEGACY], 1);
    assert_int_equal(res->functions[0].tokens[AN_CLASS_BRIDGE], 1);
    an_result_free(res);
    rules_free(r);
}

static void test_suffix_rule_beats_shorter_prefix(void **state)
{
    an_result *res = run_str("PyTypeObject *t = &PyGenericArrType_Type;\n"
                             "Py@NAME@ScalarObject *s;\n");

    (void)state;
    assert_int_equal(res->nfindings, 3);
    assert_int_equal(at(res, 1, 1, "capi-names-cpython")->cls, AN_CLASS_CAPI);
    assert_int_equal(at(res, 1, 20, "npy-legacy-suffix-ArrType_Type")->cls,
                     AN_CLASS_NPY_LEGACY);
    assert_string_equal(at(res, 2, 1, "npy-legacy-suffix-ScalarObject")->text,
                        "Py@NAME@ScalarObject");
    an_result_free(res);
}

static void test_default_rules_numpy_names(void **state)
{
    an_result *res = run_str(
        "x(void) { NPY_OBJECT; PY_SSIZE_T_CLEAN; npy_intp; PyArray_Descr;"
        " _Py_NoneStruct; HPY_SSIZE_T_MAX; npy_get_context(); "
        "HPyType_LEGACY_HELPERS; PyTypeNum_ISOBJECT; }");
    const char *want[][2] = {
        {"PyArray_Descr", "npy-legacy-prefix-PyArray"},
        {"_Py_NoneStruct", "capi-names-cpython"},
        {"HPY_SSIZE_T_MAX", "hpy-prefix-HPY_"},
        {"npy_get_context", "bridge-npy_get_context"},
        {"HPyType_LEGACY_HELPERS", "bridge-HPyType_LEGACY_HELPERS"},
        {"PyTypeNum_ISOBJECT", "npy-legacy-prefix-PyTypeNum"},
    };
    size_t i;

    (void)state;
    assert_int_equal(res->nfindings, 6);
    for (i = 0; i < 6; i++) {
        assert_string_equal(res->findings[i].text, want[i][0]);
        assert_string_equal(res->findings[i].rule, want[i][1]);
    }
    an_result_free(res);
}

static void test_member_designator_is_bridge(void **state)
{
    an_result *res = run_str(
        "static HPyType_Spec spec = {\n"         /* 1 */
        "    .name = \"x\",\n"                   /* 2 */
        "    .legacy_slots = slots,\n"           /* 3 */
        "};\n"                                   /* 4 */
        /* numpy's own DType->legacy flag is not HPy's .legacy designator */
        "int f(S s, D *d) { return s.legacy_methods + d->legacy + s.Py_x; }\n"); /* 5 */
    const an_finding *f;

    (void)state;
    assert_int_equal(res->nfindings, 3);
    f = at(res, 3, 6, "bridge-member-legacy_slots");
    assert_string_equal(f->text, "legacy_slots");
    assert_int_equal(f->function, -1);
    f = at(res, 5, 29, "bridge-member-legacy_methods");
    assert_int_equal(f->function, 0);
    check_fn(res, "f", 5, 5, AN_STATUS_BRIDGED, AN_OBJ_NONE);
    assert_int_equal(res->universal_ready, 0);
    an_result_free(res);
}

static void test_pyobject_head_in_hpy_type_is_bridge(void **state)
{
    const char *plain = "typedef struct { PyObject_HEAD int x; } Obj;\n";
    const char *hpy = "typedef struct { PyObject_HEAD int x; } Obj;\n"
                      "static HPyType_Spec Obj_spec = { .name = \"o\" };\n";
    an_result *res = run_str(plain);

    (void)state;
    assert_int_equal(at(res, 1, 18, "capi-names-cpython")->cls, AN_CLASS_CAPI);
    assert_int_equal(res->tokens[AN_CLASS_CAPI], 1);
    an_result_free(res);
    res = run_str(hpy);
    assert_int_equal(at(res, 1, 18, "bridge-pyobject-head-in-hpy-type")->cls,
                     AN_CLASS_BRIDGE);
    assert_int_equal(res->tokens[AN_CLASS_CAPI], 0);
    assert_int_equal(res->tokens[AN_CLASS_BRIDGE], 1);
    assert_int_equal(res->status, AN_STATUS_BRIDGED);
    assert_int_equal(res->universal_ready, 0);
    an_result_free(res);
}

static void test_define_body_is_file_scope(void **state)
{
    an_result *res = run_str(
        "int f(void)\n"                                  /* 1 */
        "{\n"                                            /* 2 */
        "#define DECREF_ALL(o) \\\n"                     /* 3 */
        "    Py_DECREF(o); \\\n"                         /* 4 */
        "    HPy_Close(ctx, o)\n"                        /* 5 */
        "#include <Python.h>\n"                          /* 6 */
        "    return 0;\n"                                /* 7 */
        "}\n");                                          /* 8 */

    (void)state;
    assert_int_equal(res->nfindings, 2);
    assert_int_equal(at(res, 4, 5, "capi-names-cpython")->function, -1);
    assert_int_equal(at(res, 5, 5, "hpy-prefix-HPy")->function, -1);
    check_fn(res, "f", 1, 8, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_int_equal(res->status, AN_STATUS_BRIDGED);
    an_result_free(res);
}

/* ---- preprocessor ------------------------------------------------------ */

static void test_guarded_capi_keeps_file_universal_ready(void **state)
{
    an_result *res = run_file("guarded.c");
    const an_function *f;

    (void)state;
    assert_int_equal(res->nfunctions, 3);
    check_fn(res, "to_handle", 4, 12, AN_STATUS_PORTED, AN_OBJ_NONE);
    check_fn(res, "legacy_only", 15, 19, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "universal_only", 21, 25, AN_STATUS_PORTED, AN_OBJ_NONE);
    f = fn(res, "to_handle");
    assert_int_equal(f->tokens[AN_CLASS_CAPI], 2);
    assert_int_equal(f->tokens[AN_CLASS_BRIDGE], 1);
    assert_int_equal(f->tokens[AN_CLASS_HPY], 4);
    assert_int_equal(at(res, 8, 19, "bridge-HPy_AsPyObject")->guarded, 1);
    assert_int_equal(at(res, 9, 5, "capi-names-cpython")->guarded, 1);
    assert_int_equal(at(res, 18, 5, "capi-names-cpython")->guarded, 1);
    /* the #else of a guard is not guarded */
    assert_int_equal(at(res, 24, 12, "hpy-prefix-HPy")->guarded, 0);
    assert_int_equal(res->tokens[AN_CLASS_CAPI], 5);
    assert_int_equal(res->status, AN_STATUS_PORTED);
    assert_int_equal(res->universal_ready, 1);
    an_result_free(res);
}

static void test_if0_skipped_and_opposite_guard(void **state)
{
    an_result *res = run_file("conditionals.c");

    (void)state;
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "live", 7, 7, AN_STATUS_PORTED, AN_OBJ_NONE);
    check_fn(res, "one", 10, 10, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_int_equal(res->nfindings, 4);
    assert_int_equal(at(res, 15, 1, "hpy-prefix-HPy")->guarded, 0);
    /* #else of #ifdef HPY_UNIVERSAL_ABI is CPython-only */
    assert_int_equal(at(res, 17, 1, "capi-names-cpython")->guarded, 1);
    assert_int_equal(at(res, 20, 1, "capi-names-cpython")->guarded, 0);
    assert_int_equal(res->universal_ready, 0);
    /* the '}' under #if defined(__cplusplus) is not C */
    assert_null(res->notes);
    an_result_free(res);
}
static void test_unbalanced_conditionals_and_braces_are_noted(void **state)
{
    an_result *res = run_str("#endif\n"
                             "}\n"
                             "#if X\n"
                             "int open(void) {\n"
                             "  if (x) {\n");

    (void)state;
    assert_int_equal(res->nfunctions, 1);
    check_fn(res, "open", 4, 5, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_string_equal(res->notes,
                        "1 unmatched '}' (first at line 2); "
                        "1 #else/#elif/#endif without #if (first at line 1); "
                        "1 #if block not closed at end of file; "
                        "unbalanced braces at end of file: function open "
                        "(line 4) not closed");
    an_result_free(res);
}

/* ---- object-dtype paths ------------------------------------------------ */

static void test_memcpy_pyobject_local_is_object_legacy(void **state)
{
    an_result *res = run_file("object_paths.c");
    const an_finding *f;
    int32_t idx = fn_index(res, "incref_items");

    (void)state;
    check_fn(res, "incref_items", 4, 14, AN_STATUS_LEGACY, AN_OBJ_LEGACY);
    f = at(res, 7, 30, "object-item-legacy");
    assert_string_equal(f->text, "(PyObject **)");
    assert_int_equal(f->cls, AN_CLASS_CAPI);
    assert_int_equal(f->function, idx);
    f = at(res, 10, 9, "object-item-legacy");
    assert_string_equal(f->text, "memcpy(&tmp)");
    assert_int_equal(f->function, idx);
    assert_int_equal(count_rule(res, "object-item-legacy"), 3);
    an_result_free(res);
}

static void test_field_null_owner_is_bridge_and_cpython_only(void **state)
{
    an_result *res = run_file("object_paths.c");
    const an_finding *f;

    (void)state;
    check_fn(res, "store_null_owner", 16, 24, AN_STATUS_BRIDGED,
             AN_OBJ_CPYTHON_ONLY);
    f = at(res, 22, 5, "field-null-owner");
    assert_int_equal(f->cls, AN_CLASS_BRIDGE);
    assert_string_equal(f->text, "HPyField_Store");
    assert_string_equal(at(res, 21, 5, "object-item-field")->text,
                        "memcpy(&f_item)");
    assert_string_equal(at(res, 23, 5, "object-item-field")->text,
                        "memcpy(&f_item)");
    /* store_null_owner, npy_store_py, npy_hf2h */
    assert_int_equal(count_rule(res, "field-null-owner"), 3);
    an_result_free(res);
}

static void test_hpyfield_cast_with_owner_is_object_universal(void **state)
{
    an_result *res = run_file("object_paths.c");
    const an_finding *f;

    (void)state;
    check_fn(res, "fill_fields", 26, 35, AN_STATUS_PORTED, AN_OBJ_UNIVERSAL);
    f = at(res, 30, 22, "object-item-field");
    assert_string_equal(f->text, "(HPyField *)");
    assert_int_equal(f->cls, AN_CLASS_HPY);
    /* HPyField_Store(ctx, h_arr, fptr++, h_obj): fptr is HPyField * */
    f = at(res, 33, 9, "object-item-field");
    assert_string_equal(f->text, "HPyField_Store(fptr)");
    assert_int_equal(f->cls, AN_CLASS_HPY);
    assert_int_equal(f->function, fn_index(res, "fill_fields"));
    /* 21 23 30 33, then 70 80 87 97 98 99 100 101 (fieldarg cases) */
    assert_int_equal(count_rule(res, "object-item-field"), 12);
    an_result_free(res);
}

static void test_hpyfield_items_with_capi_calls_are_cpython_only(void **state)
{
    an_result *res = run_file("object_fields_capi.c");

    (void)state;
    check_fn(res, "visit_fields", 2, 13, AN_STATUS_BRIDGED, AN_OBJ_CPYTHON_ONLY);
    assert_int_equal(count_rule(res, "field-null-owner"), 0);
    an_result_free(res);
}

static void test_struct_member_field_is_not_object_path(void **state)
{
    an_result *res = run_file("object_paths.c");

    (void)state;
    check_fn(res, "get_descr", 37, 41, AN_STATUS_PORTED, AN_OBJ_NONE);
    an_result_free(res);
}

static void test_marker_only_neutral_function_is_not_object_path(void **state)
{
    an_result *res = run_file("object_paths.c");

    (void)state;
    check_fn(res, "is_object_type", 43, 47, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "OBJECT_clear", 49, 57, AN_STATUS_LEGACY, AN_OBJ_LEGACY);
    /* sizeof(HPyField *) and sizeof(PyObject *) are not item access */
    check_fn(res, "field_size", 59, 63, AN_STATUS_BRIDGED, AN_OBJ_NONE);
    assert_int_equal(res->nfunctions, 12);
    assert_int_equal(res->status, AN_STATUS_BRIDGED);
    assert_int_equal(res->universal_ready, 0);
    an_result_free(res);
}

/* fieldarg: HPyField_Store/Load whose field argument is a pointer
 * parameter or local (HPyField *hf), as numpy-hpy's npy_store_py. */
static void test_fieldarg_pointer_param_null_owner_is_cpython_only(void **state)
{
    an_result *res = run_file("object_paths.c");
    int32_t idx = fn_index(res, "npy_store_py");
    const an_finding *f;

    (void)state;
    check_fn(res, "npy_store_py", 65, 72, AN_STATUS_BRIDGED,
             AN_OBJ_CPYTHON_ONLY);
    f = at(res, 70, 5, "object-item-field");
    assert_string_equal(f->text, "HPyField_Store(hf)");
    assert_int_equal(f->cls, AN_CLASS_HPY);
    assert_int_equal(f->function, idx);
    f = at(res, 70, 5, "field-null-owner");
    assert_int_equal(f->cls, AN_CLASS_BRIDGE);
    assert_int_equal(f->function, idx);
    /* an item passed by value as a parameter (HPyField hf) */
    check_fn(res, "npy_hf2h", 74, 81, AN_STATUS_BRIDGED, AN_OBJ_CPYTHON_ONLY);
    f = at(res, 80, 12, "object-item-field");
    assert_string_equal(f->text, "HPyField_Load(hf)");
    assert_int_equal(f->function, fn_index(res, "npy_hf2h"));
    assert_string_equal(at(res, 80, 12, "field-null-owner")->text,
                        "HPyField_Load");
    an_result_free(res);
}

static void test_fieldarg_forms_with_owner_are_object_universal(void **state)
{
    an_result *res = run_file("object_paths.c");
    int32_t idx = fn_index(res, "walk_fields");
    static const struct {
        uint32_t line, column;
        const char *text;
    } hits[] = {
        {97, 17, "HPyField_Load(items)"},     /* items[i] */
        {98, 9, "HPyField_Store(&items)"},    /* &items[i] */
        {99, 9, "HPyField_Store(items)"},     /* items + i */
        {100, 9, "HPyField_Store(p)"},        /* p++, p a local */
        {101, 24, "HPyField_Load(*p)"},       /* *p */
    };
    const an_finding *f;
    size_t i;

    (void)state;
    /* a visitor callback storing through its HPyField *pf */
    check_fn(res, "clear_fields_visitor", 83, 89, AN_STATUS_PORTED,
             AN_OBJ_UNIVERSAL);
    f = at(res, 87, 5, "object-item-field");
    assert_string_equal(f->text, "HPyField_Store(pf)");
    assert_int_equal(f->function, fn_index(res, "clear_fields_visitor"));
    check_fn(res, "walk_fields", 91, 104, AN_STATUS_PORTED, AN_OBJ_UNIVERSAL);
    for (i = 0; i < sizeof(hits) / sizeof(hits[0]); i++) {
        f = at(res, hits[i].line, hits[i].column, "object-item-field");
        assert_string_equal(f->text, hits[i].text);
        assert_int_equal(f->cls, AN_CLASS_HPY);
        assert_int_equal(f->function, idx);
    }
    an_result_free(res);
}

/* Struct members (&fa->f_base, pf->f_next) and a non-pointer local
 * (HPyField f_local) given to HPyField_Store/Load are not item access. */
static void test_fieldarg_member_and_value_local_are_not_items(void **state)
{
    an_result *res = run_file("object_paths.c");
    int32_t idx = fn_index(res, "member_fields");
    size_t i;

    (void)state;
    check_fn(res, "member_fields", 106, 116, AN_STATUS_PORTED, AN_OBJ_NONE);
    for (i = 0; i < res->nfindings; i++)
        if (res->findings[i].function == idx)
            assert_string_not_equal(res->findings[i].rule, "object-item-field");
    check_fn(res, "get_descr", 37, 41, AN_STATUS_PORTED, AN_OBJ_NONE);
    an_result_free(res);
}

static void test_fieldarg_rule_errors_and_custom_rules(void **state)
{
    const char *text = "prefix HPy hpy\n"
                       "itemcast hpy HPyField *\n"
                       "fieldarg MyStore 1\n";
    const char *src = "void f(HPyField *a, HPyField *b)\n"
                      "{\n"
                      "    MyStore(a, b);\n"
                      "    MyStore(b, a->x);\n"
                      "}\n";
    rules *r;
    an_result *res;

    (void)state;
    assert_int_equal(rules_parse(&r, "m.rules", "fieldarg F -1\n", 14),
                     PD_EINVAL);
    assert_string_equal(pd_error_last(), "m.rules:1: bad argument index '-1' "
                                         "(expected 0..64)");
    assert_int_equal(rules_parse(&r, "m.rules", "fieldarg F 1\nfieldarg F 2\n",
                                 26), PD_EINVAL);
    assert_string_equal(pd_error_last(),
                        "m.rules:2: duplicate fieldarg rule for 'F'");
    assert_int_equal(rules_parse(&r, "t.rules", text, strlen(text)), 0);
    res = run_mem(r, "t.c", src, strlen(src));
    assert_string_equal(at(res, 3, 5, "object-item-field")->text, "MyStore(b)");
    assert_int_equal(count_rule(res, "object-item-field"), 1);
    check_fn(res, "f", 1, 5, AN_STATUS_PORTED, AN_OBJ_UNIVERSAL);
    an_result_free(res);
    rules_free(r);
}

static void test_marker_is_no_state(void **state)
{
    an_result *res = run_file("markers.c");

    (void)state;
    /* a marker explains item access but is none (issue 21, kind 1): no
     * state, whatever the status; the lesser fact "mentions" */
    check_fn(res, "a", 1, 3, AN_STATUS_PORTED, AN_OBJ_NONE);
    check_fn(res, "b", 4, 6, AN_STATUS_BRIDGED, AN_OBJ_NONE);
    check_fn(res, "c", 7, 7, AN_STATUS_LEGACY, AN_OBJ_NONE);
    assert_true(res->functions[0].mentions && res->functions[1].mentions &&
                res->functions[2].mentions);
    assert_string_equal(res->functions[1].object_marker, "NPY_OBJECT");
    /* a guarded marker is not even mentioned */
    check_fn(res, "d", 8, 12, AN_STATUS_PORTED, AN_OBJ_NONE);
    assert_false(res->functions[3].mentions);
    an_result_free(res);
}
/* ---- lexer robustness -------------------------------------------------- */

static void test_crlf_and_no_trailing_newline(void **state)
{
    const char src[] = "static int\r\nf(void)\r\n{\r\n\treturn Py_True != 0;"
                       "\r\n}\r\nint g(void) { return HPy_IsNull(h); }";
    an_result *res = run_mem(NULL, "t.c", src, sizeof(src) - 1);

    (void)state;
    assert_int_equal(res->lines, 6);
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "f", 1, 5, AN_STATUS_LEGACY, AN_OBJ_NONE);
    check_fn(res, "g", 6, 6, AN_STATUS_PORTED, AN_OBJ_NONE);
    assert_string_equal(at(res, 4, 9, "capi-names-cpython")->text, "Py_True");
    assert_string_equal(at(res, 6, 22, "hpy-prefix-HPy")->text, "HPy_IsNull");
    assert_null(res->notes);
    an_result_free(res);
}

static void test_nul_bytes_and_unterminated_comment(void **state)
{
    const char src[] = "int f(void) { \0 Py_None; \xff\xfe }\n"
                       "\0\0int g(void) { return \"abc\n"
                       "; }\n"
                       "/* never closed { Py_INCREF(x);\n";
    an_result *res = run_mem(NULL, "t.c", src, sizeof(src) - 1);

    (void)state;
    assert_int_equal(res->lines, 4);
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "f", 1, 1, AN_STATUS_LEGACY, AN_OBJ_NONE);
    check_fn(res, "g", 2, 3, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_int_equal(at(res, 1, 17, "capi-names-cpython")->function, 0);
    assert_int_equal(res->nfindings, 1);
    assert_string_equal(res->notes,
                        "unterminated comment from line 4; "
                        "1 unterminated string or char literal (first at "
                        "line 2); 5 bytes outside literals and comments not "
                        "read as C (NUL, '$', '`', a stray '\\' or non-ASCII; "
                        "first at line 1)");
    an_result_free(res);
}

static void test_string_with_braces_and_comment_markers(void **state)
{
    an_result *res = run_file("strings.c");

    (void)state;
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "count", 5, 12, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "second", 14, 18, AN_STATUS_LEGACY, AN_OBJ_NONE);
    assert_int_equal(res->nfindings, 1);
    assert_string_equal(at(res, 17, 12, "capi-names-cpython")->text, "Py_None");
    assert_null(res->notes);
    an_result_free(res);
}

static void test_line_continuations(void **state)
{
    const char *src = "int f(void) { Py_\\\nDECREF(o); return \"a\\\nb{\"; }\n"
                      "  # define X \\\n   HPy_Close\n"
                      "int g(void) { return 0; }\n";
    an_result *res = run_str(src);
    const an_finding *f;

    (void)state;
    assert_int_equal(res->nfunctions, 2);
    check_fn(res, "f", 1, 3, AN_STATUS_LEGACY, AN_OBJ_NONE);
    check_fn(res, "g", 6, 6, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    f = at(res, 1, 15, "capi-names-cpython");
    assert_string_equal(f->text, "Py_DECREF");
    f = at(res, 5, 4, "hpy-prefix-HPy");
    assert_int_equal(f->function, -1);
    an_result_free(res);
}

static void test_template_identifiers(void **state)
{
    an_result *res = run_file("template.c.src");
    lex_state lx;
    lex_token t;
    const char *src = "@TYPE@_getitem npy_@name@ @NAME@ x@";
    const char *want[] = {"@TYPE@_getitem", "npy_@name@", "@NAME@", "x@"};
    int i;

    (void)state;
    /* one function per instance (see test_analyze_tmpl.c) */
    assert_int_equal(res->nfunctions, 3);
    check_fn(res, "BYTE_getitem", 5, 11, AN_STATUS_LEGACY, AN_OBJ_NONE);
    /* an OBJECT_ name is no evidence: neither touches an item through
     * array data (issue 21, kind 1) */
    check_fn(res, "OBJECT_getitem", 5, 11, AN_STATUS_LEGACY, AN_OBJ_NONE);
    check_fn(res, "OBJECT_compare", 14, 18, AN_STATUS_LEGACY, AN_OBJ_LEGACY);
    lex_init(&lx, src, strlen(src), 0);
    for (i = 0; i < 4; i++) {
        lex_next(&lx, &t);
        assert_int_equal(t.kind, LEX_IDENT);
        assert_int_equal(t.len, strlen(want[i]));
        assert_memory_equal(t.start, want[i], t.len);
    }
    lex_next(&lx, &t);
    assert_int_equal(t.kind, LEX_EOF);
    an_result_free(res);
}

static void test_deep_braces_100000(void **state)
{
    size_t depth = 100000, i, n = 0;
    char *src = malloc(depth * 2 + 64);
    an_result *res;

    (void)state;
    assert_non_null(src);
    memcpy(src, "int deep(void)\n", 15);
    n = 15;
    for (i = 0; i < depth; i++)
        src[n++] = '{';
    src[n++] = '\n';
    for (i = 0; i < depth; i++)
        src[n++] = '}';
    src[n++] = '\n';
    res = run_mem(NULL, "t.c", src, n);
    assert_int_equal(res->nfunctions, 1);
    check_fn(res, "deep", 1, 3, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_null(res->notes);
    an_result_free(res);
    /* and 100,000 unclosed ones */
    res = run_mem(NULL, "t.c", src, depth + 16);
    assert_string_equal(res->notes, "unbalanced braces at end of file: "
                        "function deep (line 1) not closed");
    an_result_free(res);
    free(src);
}

static void test_ten_megabytes(void **state)
{
    const char *unit = "static PyObject *\nf(HPyContext *ctx)\n{\n"
                       "    /* { */ return HPy_AsPyObject(ctx, \"}\");\n}\n";
    size_t ulen = strlen(unit), reps = 10 * 1024 * 1024 / ulen + 1, i;
    char *src = malloc(ulen * reps);
    an_result *res;

    (void)state;
    assert_non_null(src);
    for (i = 0; i < reps; i++)
        memcpy(src + i * ulen, unit, ulen);
    res = run_mem(NULL, "big.c", src, ulen * reps);
    assert_int_equal(res->nfunctions, reps);
    assert_int_equal(res->lines, 5 * reps);
    assert_int_equal(res->functions[reps - 1].start_line, 5 * reps - 4);
    assert_int_equal(res->functions[reps - 1].end_line, 5 * reps);
    assert_int_equal(res->functions[reps - 1].status, AN_STATUS_BRIDGED);
    assert_int_equal(res->nfindings, 3 * reps);
    an_result_free(res);
    free(src);
}

/* ---- rule ids ---------------------------------------------------------- */

static void test_rule_ids_and_comments(void **state)
{
    static const char text[] =
        "  # indented comment\n"
        "exact HPy_AsPyObject bridge id=to-pyobject # trailing comment\n"
        "itemcast capi PyObject * * id=legacy-items\n"
        "itemsource PyArray_DATA\n";
    const char *src = "void f(void) { x = (PyObject **)PyArray_DATA(a); HPy_AsPyObject; }";
    rules *r;
    an_result *res;

    (void)state;
    assert_int_equal(rules_parse(&r, "ids.rules", text, strlen(text)), 0);
    res = run_mem(r, "t.c", src, strlen(src));
    assert_int_equal(res->nfindings, 2);
    assert_string_equal(at(res, 1, 20, "legacy-items")->text, "(PyObject **)");
    assert_int_equal(at(res, 1, 50, "to-pyobject")->cls, AN_CLASS_BRIDGE);
    check_fn(res, "f", 1, 1, AN_STATUS_BRIDGED, AN_OBJ_LEGACY);
    an_result_free(res);
    rules_free(r);
}

/* ---- names ------------------------------------------------------------- */

static void test_names_and_source_kinds(void **state)
{
    (void)state;
    assert_string_equal(an_class_name(AN_CLASS_NPY_LEGACY), "npy-legacy");
    assert_string_equal(an_status_name(AN_STATUS_BRIDGED), "bridged");
    assert_string_equal(an_objstate_name(AN_OBJ_CPYTHON_ONLY),
                        "object-cpython-only");
    assert_null(an_objstate_name(AN_OBJ_NONE));
    assert_int_equal(an_path_is_source("numpy/core/src/a.c.src"), 1);
    assert_int_equal(an_path_is_source("x.hpp"), 1);
    assert_int_equal(an_path_is_source("x.cc"), 1);
    assert_int_equal(an_path_is_source("x.py"), 0);
    assert_int_equal(an_path_is_source("x.src"), 0);
    /* numpy's funcs.inc.src (npy_ObjectMax), _simd .inc files, tools/swig's .cxx */
    assert_int_equal(pd_path_kind("numpy/core/src/umath/funcs.inc.src"), PD_SRC_TEMPLATE);
    assert_int_equal(pd_path_kind("numpy/core/src/_simd/_simd_arg.inc"), PD_SRC_C);
    assert_int_equal(pd_path_kind("tools/swig/test/Array1.cxx"), PD_SRC_CPP);
    assert_int_equal(pd_path_kind("a.hh"), PD_SRC_CPP);
    assert_int_equal(pd_path_kind("a.hxx"), PD_SRC_CPP);
    assert_int_equal(pd_path_kind("a.h"), PD_SRC_C);
    assert_int_equal(pd_path_kind(".c"), PD_SRC_NONE);
    assert_int_equal(pd_path_kind("a.C"), PD_SRC_NONE);
    assert_int_equal(pd_path_kind("a.inc.py"), PD_SRC_NONE);
    assert_int_equal(pd_path_kind(NULL), PD_SRC_NONE);
    an_result_free(NULL);
    rules_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hpydef_meth_line_is_not_a_function),
        cmocka_unit_test(test_declarations_that_are_not_functions),
        cmocka_unit_test(test_cxx_wrappers_and_class_bodies),
        cmocka_unit_test(test_exact_beats_prefix),
        cmocka_unit_test(test_suffix_rule_beats_shorter_prefix),
        cmocka_unit_test(test_default_rules_numpy_names),
        cmocka_unit_test(test_member_designator_is_bridge),
        cmocka_unit_test(test_pyobject_head_in_hpy_type_is_bridge),
        cmocka_unit_test(test_define_body_is_file_scope),
        cmocka_unit_test(test_guarded_capi_keeps_file_universal_ready),
        cmocka_unit_test(test_if0_skipped_and_opposite_guard),
        cmocka_unit_test(test_unbalanced_conditionals_and_braces_are_noted),
        cmocka_unit_test(test_memcpy_pyobject_local_is_object_legacy),
        cmocka_unit_test(test_field_null_owner_is_bridge_and_cpython_only),
        cmocka_unit_test(test_hpyfield_items_with_capi_calls_are_cpython_only),
        cmocka_unit_test(test_hpyfield_cast_with_owner_is_object_universal),
        cmocka_unit_test(test_struct_member_field_is_not_object_path),
        cmocka_unit_test(test_fieldarg_pointer_param_null_owner_is_cpython_only),
        cmocka_unit_test(test_fieldarg_forms_with_owner_are_object_universal),
        cmocka_unit_test(test_fieldarg_member_and_value_local_are_not_items),
        cmocka_unit_test(test_fieldarg_rule_errors_and_custom_rules),
        cmocka_unit_test(test_marker_only_neutral_function_is_not_object_path),
        cmocka_unit_test(test_marker_is_no_state),
        cmocka_unit_test(test_crlf_and_no_trailing_newline),
        cmocka_unit_test(test_nul_bytes_and_unterminated_comment),
        cmocka_unit_test(test_string_with_braces_and_comment_markers),
        cmocka_unit_test(test_line_continuations),
        cmocka_unit_test(test_template_identifiers),
        cmocka_unit_test(test_deep_braces_100000),
        cmocka_unit_test(test_ten_megabytes),
        cmocka_unit_test(test_rule_ids_and_comments),
        cmocka_unit_test(test_names_and_source_kinds),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
