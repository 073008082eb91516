/*
 * test_analyze_tmpl.c: numpy templates (ingest/tmpl.c through an_analyze),
 * C++ names, and inputs that must not break the analyzer (fixtures in
 * tests/fixtures/analyze/ and byte strings built here).  Timing is never
 * asserted here: linearity is checked by tests/bench/linear.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyze.h"
#include "pd_error.h"
#include "rules.h"
#include "tmpl.h"

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

/* Analyse len bytes of src as `path` with the default rules. */
static an_result *run_mem(const char *path, const char *src, size_t len)
{
    an_result *res = NULL;

    assert_int_equal(an_analyze(&res, defrules, path, src, len), 0);
    assert_non_null(res);
    return res;
}

/* Analyse a fixture file by name. */
static an_result *run_file(const char *name)
{
    char path[256];
    FILE *f;
    char buf[1 << 16];
    size_t len;

    snprintf(path, sizeof(path), FIXTURES "%s", name);
    f = fopen(path, "rb");
    assert_non_null(f);
    len = fread(buf, 1, sizeof(buf), f);
    fclose(f);
    return run_mem(path, buf, len);
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

/* Check a function's lines (first, name, last) and verdicts. */
static void check_fn(const an_result *res, const char *name, uint32_t start,
                     uint32_t name_line, uint32_t end, an_status status,
                     an_objstate state)
{
    const an_function *f = fn(res, name);

    assert_int_equal(f->start_line, start);
    assert_int_equal(f->name_line, name_line);
    assert_int_equal(f->end_line, end);
    assert_string_equal(an_status_name(f->status), an_status_name(status));
    assert_int_equal(f->object_state, state);
}

/* The finding of `fname` at line:column with text `text` (must exist). */
static const an_finding *find_in(const an_result *res, const char *fname,
                                 uint32_t line, uint32_t column,
                                 const char *text)
{
    size_t i;

    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        if (f->line == line && f->column == column &&
            strcmp(f->text, text) == 0 && f->function >= 0 &&
            strcmp(res->functions[f->function].name, fname) == 0)
            return f;
    }
    fail_msg("no finding %s in %s at %u:%u", text, fname, line, column);
    return NULL;
}

/* ---- numpy templates --------------------------------------------------- */

static void test_template_instances_are_functions(void **state)
{
    an_result *res = run_file("nested.c.src");
    static const char *const names[] = {"BOOL", "LONG", "LONGLONG", "OBJECT"};
    char name[64];
    size_t i, k;

    (void)state;
    /* 4 outer x 2 inner instances, the outer NAME wins over the inner
     * one, then the function after the loops keeps its placeholder. */
    assert_int_equal(res->nfunctions, 9);
    for (i = 0; i < 4; i++)
        for (k = 0; k < 2; k++) {
            snprintf(name, sizeof(name), "%s_%sitem", names[i],
                     k ? "set" : "get");
            assert_string_equal(res->functions[i * 2 + k].name, name);
            assert_int_equal(res->functions[i * 2 + k].start_line, 12);
            assert_int_equal(res->functions[i * 2 + k].name_line, 13);
            assert_int_equal(res->functions[i * 2 + k].end_line, 16);
        }
    check_fn(res, "@NAME@_unknown", 20, 20, 20, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_int_equal(res->lines, 20);
    assert_non_null(res->notes);
    assert_non_null(strstr(res->notes, "template: 1 @name@ without a value"));
    an_result_free(res);
}

static void test_template_substitutions_classified_per_instance(void **state)
{
    an_result *res = run_file("nested.c.src");
    const an_finding *f;
    size_t i, capi = 0;

    (void)state;
    /* `PyLong_FromLong*2` brings the C API into LONG and LONGLONG only,
     * at the '@' of @func1@ (line 15, column 12). */
    f = find_in(res, "LONG_getitem", 15, 12, "PyLong_FromLong");
    assert_int_equal(f->cls, AN_CLASS_CAPI);
    find_in(res, "LONGLONG_setitem", 15, 12, "PyLong_FromLong");
    for (i = 0; i < res->nfindings; i++)
        capi += res->findings[i].cls == AN_CLASS_CAPI;
    assert_int_equal(capi, 4);
    check_fn(res, "BOOL_getitem", 12, 13, 16, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "LONG_setitem", 12, 13, 16, AN_STATUS_LEGACY, AN_OBJ_NONE);
    /* OBJECT_ instances are object paths; HPy_Dup makes them ported. */
    find_in(res, "OBJECT_getitem", 15, 12, "HPy_Dup");
    check_fn(res, "OBJECT_getitem", 12, 13, 16, AN_STATUS_PORTED,
             AN_OBJ_UNIVERSAL);
    check_fn(res, "OBJECT_setitem", 12, 13, 16, AN_STATUS_PORTED,
             AN_OBJ_UNIVERSAL);
    /* findings stay sorted by line and column */
    for (i = 1; i < res->nfindings; i++)
        assert_true(res->findings[i - 1].line < res->findings[i].line ||
                    (res->findings[i - 1].line == res->findings[i].line &&
                     res->findings[i - 1].column <= res->findings[i].column));
    an_result_free(res);
}

/* Expand src and compare with want (whitespace as written). */
static void expect_expansion(const char *src, const char *want)
{
    tmpl_out *t = NULL;
    int big = -1;

    assert_int_equal(tmpl_expand(&t, &big, src, strlen(src)), 0);
    assert_non_null(t);
    assert_int_equal(big, 0);
    assert_int_equal(t->len, strlen(want));
    assert_memory_equal(t->text, want, t->len);
    tmpl_free(t);
}

static void test_template_value_lists_like_numpy(void **state)
{
    (void)state;
    /* (a, b)*2 and x*3 repeat; values are stripped before *N; an empty
     * value is a value; the rest of the end line is dropped. */
    expect_expansion("/**begin repeat\n * #a = (p, q)*2#\n * #b = x*3, y#\n */\n"
                     "@a@=@b@;\n/**end repeat**/ dropped\nz\n",
                     "p=x;\n\nq=x;\n\np=x;\n\nq=y;\n\nz\n");
    expect_expansion("/**begin repeat #v = 1, , 3# */\n[@v@]\n/**end repeat**/\n",
                     "[1]\n\n[]\n\n[3]\n\n");
    /* a header line without names repeats nothing: one literal instance */
    expect_expansion("/**begin repeat */\n@x@\n/**end repeat**/\n", "@x@\n\n");
}

static void test_template_mapping_and_limits(void **state)
{
    const char *src = "/**begin repeat\n#t = int, long#\n*/\n"
                      "  @t@ f_@t@;\n/**end repeat**/\n";
    tmpl_out *t = NULL;
    uint32_t l, c;
    char *big;
    size_t i, n;
    an_result *res;

    (void)state;
    assert_int_equal(tmpl_expand(&t, NULL, src, strlen(src)), 0);
    /* "  long f_long;" is line 3 of the expansion: `long` maps to the
     * '@' of @t@ (4:3), `f_` is copied (4:7), a past-end column clamps. */
    tmpl_map(t, 3, 3, &l, &c);
    assert_int_equal(l, 4), assert_int_equal(c, 3);
    tmpl_map(t, 3, 8, &l, &c);
    assert_int_equal(l, 4), assert_int_equal(c, 7);
    tmpl_map(t, 99, 99, &l, &c);
    assert_true(l >= 1 && l <= 5);
    tmpl_free(t);
    /* no loop: nothing to expand */
    assert_int_equal(tmpl_expand(&t, NULL, "int x;", 6), 0);
    assert_null(t);
    /* three nested loops of 300 values: abandoned, noted, still analysed */
    n = 3 * 64 + 4000;
    big = malloc(n);
    assert_non_null(big);
    i = (size_t)snprintf(big, n, "/**begin repeat #a=x*300# */\n"
                         "/**begin repeat1 #b=y*300# */\n"
                         "/**begin repeat2 #c=z*300# */\n");
    i += (size_t)snprintf(big + i, n - i, "int f@a@@b@@c@(void) { return 0; }\n"
                          "/**end repeat2**/\n/**end repeat1**/\n/**end repeat**/\n");
    res = run_mem("big.c.src", big, i);
    assert_int_equal(res->nfunctions, 1);
    assert_non_null(strstr(res->notes, "expansion larger than"));
    an_result_free(res);
    /* unterminated loop: the rest is analysed as written */
    src = "int a(void) { return 1; }\n/**begin repeat #x=1#*/\n"
          "int b(void) { return 2; }\n";
    res = run_mem("u.h.src", src, strlen(src));
    assert_int_equal(res->nfunctions, 2);
    assert_non_null(strstr(res->notes, "repeat block at line 2 has no end"));
    an_result_free(res);
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_template_instances_are_functions),
        cmocka_unit_test(test_template_substitutions_classified_per_instance),
        cmocka_unit_test(test_template_value_lists_like_numpy),
        cmocka_unit_test(test_template_mapping_and_limits),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
