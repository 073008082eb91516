/*
 * test_analyze_tmpl.c: numpy templates (ingest/analyzer/tmpl.c through an_analyze),
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

#include "analyzer/analyzer.h"
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
    /* HPy_Dup makes the OBJECT_ instances ported; their name alone puts
     * them on no object path (issue 21, kind 1): no item is reached. */
    find_in(res, "OBJECT_getitem", 15, 12, "HPy_Dup");
    check_fn(res, "OBJECT_getitem", 12, 13, 16, AN_STATUS_PORTED, AN_OBJ_NONE);
    check_fn(res, "OBJECT_setitem", 12, 13, 16, AN_STATUS_PORTED, AN_OBJ_NONE);
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
    /* a header over lines: each continuation loses its newline, the
     * blanks after it and one '*' (a second stays), as numpy's
     * parse_loop_header joins them; a value runs on over lines */
    expect_expansion("/**begin repeat\n *\n * #a = p,\n *      q r,\n\t**s#\n"
                     " * #b = 1, 2,\n   3#\n */\n@a@|@b@\n/**end repeat**/\n",
                     "p|1\n\nq r|2\n\n*s|3\n\n");
}

/* The expansion's size is computed from the compiled template before it
 * is emitted (tmpl.c's tm_size; the build asserts the two agree): nested
 * loops whose bodies use the outer loop's values, of different lengths,
 * a loop between two runs of text, a value list of one. */
static void test_template_size_known_before_emission(void **state)
{
    (void)state;
    expect_expansion("a\n/**begin repeat #o = xx, y, # */\n"
                     "<@o@\n/**begin repeat1 #i = 1, 2222# */\n@o@@i@@o@\n"
                     "/**end repeat1**/\n@o@>\n/**end repeat**/\nb\n",
                     "a\n<xx\nxx1xx\n\nxx2222xx\n\nxx>\n\n"
                     "<y\ny1y\n\ny2222y\n\ny>\n\n"
                     "<\n1\n\n2222\n\n>\n\nb\n");
    expect_expansion("/**begin repeat #v = only# */\n@v@\n/**end repeat**/\n"
                     "/**begin repeat #w = (a, bb)*3# */\n@w@\n/**end repeat**/\n",
                     "only\n\na\n\nbb\n\na\n\nbb\n\na\n\nbb\n\n");
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

static void test_template_lines_stay_ordered(void **state)
{
    /* found by the fuzzer: a declaration that starts with the last words
     * of one instance (before the end marker) and names the function in
     * the next one used to start below its name */
    static const char *const files[] = {"fuzz_end_above_start.c.src",
                                        "fuzz_kr_restart.c"};
    size_t i, k;

    (void)state;
    /* and a K&R restart on malformed bytes used to start a C function
     * below its name */
    for (k = 0; k < 2; k++) {
        an_result *res = run_file(files[k]);

        assert_true(res->nfunctions >= 2);
        for (i = 0; i < res->nfunctions; i++) {
            assert_true(res->functions[i].start_line <= res->functions[i].name_line);
            assert_true(res->functions[i].name_line <= res->functions[i].end_line);
            assert_true(res->functions[i].end_line <= res->lines);
        }
        an_result_free(res);
    }
}

/* ---- C++ names ---------------------------------------------------------- */

static void test_cxx_qualified_names_like_ctags(void **state)
{
    const char *src =
        "namespace ns {\n"                                   /* 1 */
        "class Cls : public Base<int> {\n"                   /* 2 */
        "  int m() { return 1; }\n"                          /* 3 */
        "  template <typename T, class U = T> T t(T x) { return x; }\n"
        "  bool operator==(const Cls &o) const { return 1; }\n"
        "  int operator()(int i) { return i; }\n"           /* 6 */
        "  ~Cls() {}\n"                                      /* 7 */
        "};\n"                                               /* 8 */
        "int Cls::n(int a) { return a; }\n"                  /* 9 */
        "}\n"                                                /* 10 */
        "template <typename T>\n"                            /* 11 */
        "T ns::Cls::q(T x)\n{\n  return x;\n}\n"              /* 12-15 */
        "ns::Other::~Other() { }\n"                          /* 16 */
        "template <>\nstruct Idx<true> {\n"                  /* 17-18 */
        "  Idx(int *p) : p_(p) {}\n};\n"                     /* 19-20 */
        "static int plain(void) { return 0; }\n";            /* 21 */
    an_result *res = run_mem("a.cpp", src, strlen(src));

    (void)state;
    assert_true(res->cpp);
    check_fn(res, "ns::Cls::m", 3, 3, 3, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::t", 4, 4, 4, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::operator ==", 5, 5, 5, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::operator ()", 6, 6, 6, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::~Cls", 7, 7, 7, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::n", 9, 9, 9, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Cls::q", 11, 12, 15, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "ns::Other::~Other", 16, 16, 16, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "Idx::Idx", 19, 19, 19, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    check_fn(res, "plain", 21, 21, 21, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    assert_int_equal(res->nfunctions, 10);
    assert_null(res->notes);
    an_result_free(res);
}

static void test_kr_and_ansi_headers_are_one_function(void **state)
{
    const char *src = "#ifdef KR_headers\n"
                      "double f__cabs(real, imag) double real, imag;\n"
                      "#else\n"
                      "double f__cabs(double real, double imag)\n"
                      "#endif\n{\n    return real;\n}\n";
    an_result *res = run_mem("f2c.c", src, strlen(src));

    (void)state;
    assert_int_equal(res->nfunctions, 1);
    check_fn(res, "f__cabs", 2, 2, 8, AN_STATUS_NEUTRAL, AN_OBJ_NONE);
    an_result_free(res);
}

/* ---- preprocessor -------------------------------------------------------- */

/* Guard state of the Py_INCREF findings of f (#if branch) and g (#else
 * branch) under `#if cond`, as "f:1 g:0"; a skipped branch is absent. */
static void expect_guards(const char *cond, const char *want)
{
    char src[512], got[64] = "";
    an_result *res;
    size_t i;

    snprintf(src, sizeof(src), "#if %s\nint f(void) { Py_INCREF(x); }\n#else\n"
             "int g(void) { Py_INCREF(x); }\n#endif\n", cond);
    res = run_mem("g.c", src, strlen(src));
    for (i = 0; i < res->nfindings; i++)
        snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s:%d",
                 i ? " " : "", res->functions[res->findings[i].function].name,
                 res->findings[i].guarded);
    assert_string_equal(got, want);
    an_result_free(res);
}

static void test_or_conditions_in_guards(void **state)
{
    (void)state;
    expect_guards("!defined(HPY_UNIVERSAL_ABI) || defined(HPY_ABI_CPYTHON)",
                  "f:1 g:0");
    expect_guards("!defined(HPY_UNIVERSAL_ABI) || defined(OTHER)", "f:0 g:0");
    expect_guards("defined(HPY_UNIVERSAL_ABI) || defined(OTHER)", "f:0 g:1");
    expect_guards("0 || !defined(HPY_UNIVERSAL_ABI)", "f:1 g:0");
    expect_guards("(1) || defined(X)", "f:0");
    expect_guards("0 || 0", "g:0");
    expect_guards("defined(X) && 0", "g:0");
    expect_guards("!defined(HPY_UNIVERSAL_ABI) && defined(X) || 0", "f:1 g:0");
}

/* ---- inputs that must not break anything -------------------------------- */

/* n bytes of `unit` repeated. */
static char *repeat(const char *unit, size_t n)
{
    size_t ulen = strlen(unit), i;
    char *s = malloc(n + 1);

    assert_non_null(s);
    for (i = 0; i < n; i++)
        s[i] = unit[i % ulen];
    s[n] = '\0';
    return s;
}

static void test_hostile_inputs_are_noted_not_fatal(void **state)
{
    static const char *const paths[] = {"x.c", "x.cpp", "x.c.src", "x.h.src"};
    const char bytes[] = "int f(void) { return '\xff\xfe'; }\n\0\x80 \"open\n"
                         "/* never closed \r\n{{{";
    size_t n = 100000, i;
    char *deep_paren = repeat("(", n), *deep_if = repeat("#if X\n", 6 * n);
    char *deep_ns = repeat("namespace a { ", 14 * n);
    char *tmpl10 = repeat("/**begin repeat #T=A,B# */\nint @T@_f(void){return 0;}\n"
                          "/**end repeat**/\n", 10 << 20);
    an_result *res;

    (void)state;
    for (i = 0; i < 4; i++) {
        res = run_mem(paths[i], bytes, sizeof(bytes) - 1);
        assert_non_null(res->notes);
        assert_non_null(strstr(res->notes, "unterminated comment from line 3"));
        assert_non_null(strstr(res->notes, "unterminated string or char literal"));
        an_result_free(res);
        res = run_mem(paths[i], deep_paren, n);
        assert_int_equal(res->nfunctions, 0);
        an_result_free(res);
        res = run_mem(paths[i], deep_if, 6 * n);
        assert_non_null(strstr(res->notes, "100000 #if blocks not closed"));
        an_result_free(res);
        res = run_mem(paths[i], deep_ns, 14 * n);
        assert_int_equal(res->nfunctions, 0);
        an_result_free(res);
    }
    /* 10 MB of template: every instance found, lines mapped back */
    res = run_mem("big.c.src", tmpl10, 10 << 20);
    assert_true(res->nfunctions > 200000);
    assert_string_equal(res->functions[1].name, "B_f");
    assert_int_equal(res->functions[1].start_line, 2);
    assert_true(res->functions[res->nfunctions - 1].end_line <= res->lines);
    an_result_free(res);
    free(deep_paren);
    free(deep_if);
    free(deep_ns);
    free(tmpl10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_template_instances_are_functions),
        cmocka_unit_test(test_template_substitutions_classified_per_instance),
        cmocka_unit_test(test_template_value_lists_like_numpy),
        cmocka_unit_test(test_template_size_known_before_emission),
        cmocka_unit_test(test_template_mapping_and_limits),
        cmocka_unit_test(test_template_lines_stay_ordered),
        cmocka_unit_test(test_cxx_qualified_names_like_ctags),
        cmocka_unit_test(test_kr_and_ansi_headers_are_one_function),
        cmocka_unit_test(test_or_conditions_in_guards),
        cmocka_unit_test(test_hostile_inputs_are_noted_not_fatal),
    };

    return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
