/*
 * test_nograph.c: an_analyze_nograph() (analyze.h) gives an_analyze()'s
 * result without the call-graph facts: every function's calls and flow
 * are "", and everything else (functions, findings with their texts and
 * reasons, totals, notes, HPy types) is equal field by field
 * (an_result_diff).  `portdash analyze --format functions` uses it.
 *
 * Cases: every source of tests/fixtures/analyze/cases (with its NAME.rules
 * when there is one), a function whose facts are not empty (a call, an
 * item site through a parameter, the dereference finding that the flow
 * code itself makes), and, when PORTDASH_NOGRAPH_LIST names a file of
 * paths (one a line), each of those files: the check of a whole tree
 * (doc/benchmarks.md, "The analyzer against Universal Ctags").
 */
#include "testutil.h"

#include "analyzer/analyzer.h"
#include "testcases.h"

#define CASES "tests/fixtures/analyze/cases/"

/* Assert ng is full without its facts; returns how many functions of
 * full had facts (calls or flow), so a case can require some. */
static size_t same_but_facts(const char *name, an_result *full, an_result *ng)
{
    char why[512] = "";
    size_t i, had = 0;

    assert_int_equal(full->nfunctions, ng->nfunctions);
    for (i = 0; i < ng->nfunctions; i++) {
        an_function *f = &full->functions[i], *g = &ng->functions[i];

        if (strcmp(g->calls, "") || strcmp(g->flow, ""))
            fail_msg("%s: function %s has facts without the graph: calls \"%s\" "
                     "flow \"%s\"", name, g->name, g->calls, g->flow);
        had += f->calls[0] || f->flow[0];
        /* the pools stay each result's own: only the pointers move */
        f->calls = g->calls;
        f->flow = g->flow;
    }
    if (an_result_diff(full, ng, why, sizeof(why)))
        fail_msg("%s: without the graph's facts the result differs: %s", name, why);
    return had;
}

static size_t check(const rules *r, const char *name, const char *src, size_t len)
{
    an_result *full = NULL, *ng = NULL;
    size_t had;

    assert_int_equal(an_analyze(&full, r, name, src, len), 0);
    assert_int_equal(an_analyze_nograph(&ng, r, name, src, len), 0);
    had = same_but_facts(name, full, ng);
    an_result_free(full);
    an_result_free(ng);
    return had;
}

static void run_case(void **state)
{
    char src_name[256];
    rules *r;
    size_t len;
    char *src = tc_analyzer_case(CASES, *state, src_name, sizeof(src_name), &r, &len);

    check(r, src_name, src, len);
    free(src);
    rules_free(r);
}

/* Facts that are there with the graph and gone without it; the item
 * finding at `*ip` (made where the flow code sees the dereference) stays. */
static void test_facts_dropped(void **state)
{
    static const char src[] =
        "#include <Python.h>\n"
        "static void helper(PyObject **ip) { Py_INCREF(*ip); }\n"
        "/* object dtype */\n"
        "static void OBJECT_copy(PyArrayObject *a, PyObject **ip)\n"
        "{\n"
        "    PyObject **p = (PyObject **)PyArray_DATA(a);\n"
        "    helper(p);\n"
        "    Py_XDECREF(*ip);\n"
        "}\n";
    rules *r = NULL;
    an_result *ng = NULL;
    size_t i, deref = 0;

    assert_int_equal(rules_load_default(&r), 0);
    assert_true(check(r, "obj.c", src, sizeof(src) - 1) >= 1);
    assert_int_equal(an_analyze_nograph(&ng, r, "obj.c", src, sizeof(src) - 1), 0);
    for (i = 0; i < ng->nfindings; i++)
        deref += strcmp(ng->findings[i].text, "*ip") == 0;
    assert_int_equal(deref, 1);
    an_result_free(ng);
    rules_free(r);
}

/* Every file of the list in PORTDASH_NOGRAPH_LIST (skipped when unset). */
static void test_list(void **state)
{
    const char *list = getenv("PORTDASH_NOGRAPH_LIST");
    char line[4096];
    size_t n = 0, had = 0;
    rules *r = NULL;
    FILE *f;

    if (!list || !*list)
        skip();
    assert_non_null(f = fopen(list, "r"));
    assert_int_equal(rules_load_default(&r), 0);
    while (fgets(line, sizeof(line), f)) {
        size_t len;
        char *src;

        line[strcspn(line, "\n")] = '\0';
        if (!line[0])
            continue;
        if (!(src = tc_slurp(line, &len)))
            fail_msg("cannot read %s", line);
        had += check(r, line, src, len);
        free(src);
        n++;
    }
    fclose(f);
    fprintf(stderr, "nograph: %zu files, %zu functions with facts, all equal\n", n, had);
    rules_free(r);
}

int main(void)
{
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_facts_dropped),
        cmocka_unit_test(test_list),
    };

    return tc_run_cases("nograph", CASES, ".expect", run_case, fixed,
                        sizeof(fixed) / sizeof(fixed[0]));
}
