/*
 * test_plan.c: planning the port (issue 24): the porting order from the
 * call graph (pd_plan), owners from history (pd_owners, the owners API),
 * and what HPy must add across ports (the hpy-needs API).
 *
 * The API cases ingest tests/fixtures/planport (a chain top -> mid -> leaf
 * whose leaf Bea ports in 02 from a GitHub no-reply address; util.c moved
 * to helpers.c by Ann under another e-mail in 03, with a .mailmap giving
 * both of Ann's addresses one name; Cy edits a constant of side in 04)
 * and tests/fixtures/planport2 (another port: two functions with
 * PyErr_Fetch, one with PyOS_snprintf) into one database.  The
 * pull-request comment reads planport's branches pr-port (Eve ports mid,
 * and side starts using the C API) and pr-docs (a comment reworded).  In
 * 07, wrap.c adds an HPy implementation, its legacy-facing wrapper and a
 * legacy user of the wrapper.
 */
#include "testutil.h"

#include "gate_comment.h"
#include "pd_owners.h"
#include "pd_plan.h"
#include "analyzer/analyzer.h"
#include "pathfilter.h"

static tu_site g_site;

static int plan_setup(void **state)
{
    tu_site_init(&g_site, "plan.db");
    return tu_site_ingest(&g_site, "planport", "planport", "hpy") < 0 ||
           tu_site_ingest(&g_site, "planport2", "other", "main") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int plan_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* ---- pd_plan on graphs given as data ------------------------------------ */

/* A graph: "N:F:B" functions (index order: file F, blocking B), then
 * edges "a>b". */
typedef struct {
    const char *fns;         /* e.g. "0:1 0:1 1:0" (file:blocking) */
    const char *edges;       /* e.g. "0>1 1>2" */
    const char *blocked;     /* files blocked outside functions, e.g. "1" */
} plan_case;

static pd_plan *plan_of(const plan_case *c, size_t *nfn)
{
    pd_plan *p;
    const char *s;
    unsigned f, b, x, y;
    int k;
    size_t n = 0;

    for (s = c->fns; sscanf(s, "%u:%u%n", &f, &b, &k) == 2; s += k)
        n++;
    assert_int_equal(pd_plan_new(&p, n, 8), 0);
    n = 0;
    for (s = c->fns; sscanf(s, "%u:%u%n", &f, &b, &k) == 2; s += k)
        pd_plan_set_fn(p, n++, f, (int)b);
    for (s = c->edges; sscanf(s, "%u>%u%n", &x, &y, &k) == 2; s += k)
        assert_int_equal(pd_plan_add_edge(p, x, y), 0);
    for (s = c->blocked ? c->blocked : ""; sscanf(s, "%u%n", &f, &k) == 1; s += k)
        pd_plan_set_file_blocked(p, f);
    assert_int_equal(pd_plan_finish(p), 0);
    *nfn = n;
    return p;
}

/* The plan for target functions as "fn@level" words, steps in order. */
static void plan_text(const pd_plan *p, const size_t *t, size_t nt, char *out, size_t cap)
{
    pd_plan_result r;
    size_t i, len = 0;

    assert_int_equal(pd_plan_make(p, t, nt, NULL, &r), 0);
    out[0] = '\0';
    for (i = 0; i < r.nsteps; i++)
        tu_append(out, cap, &len, "%s%zu@%u%s", i ? " " : "", r.steps[i].fn,
                  r.steps[i].level, r.steps[i].cycle ? "c" : "");
    pd_plan_result_free(&r);
}

static void test_chain_is_ported_callees_first_and_a_ported_leaf_is_no_step(void **state)
{
    /* 0 top -> 1 mid -> 2 leaf (ported); 3 side calls nothing */
    plan_case c = {"0:1 0:1 0:0 0:1", "0>1 1>2", NULL};
    size_t n, t[] = {0, 1, 2, 3};
    pd_plan *p = plan_of(&c, &n);
    char text[256];
    pd_plan_result r;

    plan_text(p, t, 4, text, sizeof(text));
    assert_string_equal(text, "1@0 3@0 0@1");
    assert_int_equal(pd_plan_blocking_callees(p, 0), 1);
    assert_int_equal(pd_plan_unblocks(p, 1), 1);       /* mid unblocks top */
    assert_int_equal(pd_plan_unblocks(p, 0), 0);       /* top is not portable yet */
    assert_int_equal(pd_plan_files_ready(p, 1), 0);    /* top and side still block */
    assert_int_equal(pd_plan_make(p, t, 4, NULL, &r), 0);
    assert_int_equal(r.ntarget, 3);
    assert_int_equal(r.steps[0].nunblocks, 1);
    assert_int_equal(r.steps[0].unblocks[0], 0);
    assert_int_equal(r.steps[2].nfiles_ready, 1);      /* after top: file 0 is ready */
    pd_plan_result_free(&r);
    pd_plan_free(p);
}

static void test_plan_reaches_callees_in_other_files_and_cycles_are_one_level(void **state)
{
    /* file 0: 0 a -> 1 b; 1 b -> 2 c (file 1); c <-> 3 d (a cycle in
     * file 1); 3 d -> 4 e (file 2, blocking); 5 f of file 1 not reached */
    plan_case c = {"0:1 0:1 1:1 1:1 2:1 1:1", "0>1 1>2 2>3 3>2 3>4", NULL};
    size_t n, t[] = {0, 1};
    pd_plan *p = plan_of(&c, &n);
    char text[256];
    pd_plan_result r;

    plan_text(p, t, 2, text, sizeof(text));
    assert_string_equal(text, "4@0 2@1c 3@1c 1@2 0@3");
    assert_int_equal(pd_plan_make(p, t, 2, NULL, &r), 0);
    assert_int_equal(r.ntarget, 2);
    assert_int_equal(r.nbeyond, 3);
    /* e unblocks d (c waits only on d, its own cycle); file 2 is ready
     * after e, file 1 never (f is not in the plan), file 0 after a */
    assert_int_equal(r.steps[0].nunblocks, 1);
    assert_int_equal(r.steps[0].unblocks[0], 3);
    assert_int_equal(r.steps[0].nfiles_ready, 1);
    assert_int_equal(r.steps[0].files_ready[0], 2);
    assert_int_equal(r.steps[4].nfiles_ready, 1);
    assert_int_equal(r.steps[4].files_ready[0], 0);
    assert_int_equal(r.steps[2].nfiles_ready, 0);
    pd_plan_result_free(&r);
    pd_plan_free(p);
}

static void test_file_blocked_outside_functions_is_never_ready(void **state)
{
    plan_case c = {"0:1 0:0", "0>1", "0"};
    size_t n, t[] = {0};
    pd_plan *p = plan_of(&c, &n);
    pd_plan_result r;

    assert_int_equal(pd_plan_files_ready(p, 0), 0);
    assert_int_equal(pd_plan_make(p, t, 1, NULL, &r), 0);
    assert_int_equal(r.nsteps, 1);
    assert_int_equal(r.steps[0].nfiles_ready, 0);
    pd_plan_result_free(&r);
    pd_plan_free(p);
}

/* ---- pd_owners ----------------------------------------------------------- */

static void test_handles_come_only_from_github_noreply_addresses(void **state)
{
    char b[64];

    assert_string_equal(pd_owners_handle("12345+bea@users.noreply.github.com", b, sizeof(b)),
                        "@bea");
    assert_string_equal(pd_owners_handle("old-style@users.noreply.github.com", b, sizeof(b)),
                        "@old-style");
    assert_null(pd_owners_handle("bea@example.org", b, sizeof(b)));
    assert_null(pd_owners_handle("a+b<x>@users.noreply.github.com", b, sizeof(b)));
    assert_null(pd_owners_handle(NULL, b, sizeof(b)));
}

static void test_porters_added_hpy_tokens_and_changers_are_newest_first(void **state)
{
    pd_own_fn v0[] = {{"f", 0, 1, -1}, {"g", 0, 7, -1}};
    pd_own_fn v1[] = {{"f", 3, 2, -1}, {"g", 0, 7, -1}};
    pd_own_fn v2[] = {{"f", 2, 3, -1}, {"g", 0, 7, 1}, {"g", 1, 9, -1}};
    pd_own_ver v[] = {{"Ann", "ann@x", "c0", 100, v0, 2}, {"Bea", "bea@x", "c1", 200, v1, 2},
                      {"Cy", "cy@x", "c2", 300, v2, 3}};
    pd_own_result *r = NULL;

    assert_int_equal(pd_owners_compute(v, 3, 0, 3, &r), 0);
    /* f: Bea added HPy tokens; Cy removed one (a change, not a port) */
    assert_int_equal(r[0].nporters, 1);
    assert_string_equal(r[0].porters[0].who, "Bea");
    assert_int_equal(r[0].nchangers, 3);
    assert_string_equal(r[0].changers[0].who, "Cy");
    assert_string_equal(r[0].changers[2].who, "Ann");
    /* the first g: a diff says Cy changed it though its print did not */
    assert_int_equal(r[1].nporters, 0);
    assert_string_equal(r[1].changers[0].who, "Cy");
    /* the second g is new in c2, with an HPy token */
    assert_string_equal(r[2].porters[0].who, "Cy");
    pd_owners_free(r, 3);
    /* a cut walk: nothing in its first version is anybody's */
    assert_int_equal(pd_owners_compute(v, 3, 1, 3, &r), 0);
    assert_int_equal(r[0].nchangers, 2);
    assert_int_equal(r[1].nchangers, 1);
    pd_owners_free(r, 3);
}

/* ---- the API on the fixtures ---------------------------------------------- */

static json_t *fn_named(json_t *arr, const char *name)
{
    json_t *f;
    size_t i;

    json_array_foreach(arr, i, f)
        if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0)
            return f;
    fail_msg("no %s", name);
    return NULL;
}

static void test_owners_follow_the_rename_and_the_mailmap(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/planport/commits/hpy/owners/src/helpers.c",
                            200);
    json_t *f = fn_named(json_object_get(d, "functions"), "helper_count");
    json_t *c = json_array_get(json_object_get(f, "changed_by"), 0);

    /* 01 (as util.c, ann@old.example) and 03 (ann.old@work.example): one
     * person, both commits, under the .mailmap's name */
    assert_int_equal(json_array_size(json_object_get(f, "changed_by")), 1);
    assert_string_equal(json_string_value(json_object_get(c, "name")), "Ann Canonical");
    assert_int_equal(json_integer_value(json_object_get(c, "commits")), 2);
    assert_int_equal(json_integer_value(json_object_get(d, "versions_read")), 2);
    assert_null(json_object_get(c, "email"));
    assert_true(json_is_false(json_object_get(d, "emails_shown")));
    json_decref(d);
}

static void test_owners_name_the_porter_by_handle_and_see_an_edited_constant(void **state)
{
    char url[256];
    tu_http h;
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/planport/commits/hpy/owners/src/chain.c",
                            200), *fns = json_object_get(d, "functions");
    json_t *leaf = fn_named(fns, "leaf"), *side = fn_named(fns, "side");
    json_t *p = json_array_get(json_object_get(leaf, "ported_by"), 0);

    assert_string_equal(json_string_value(json_object_get(p, "name")), "Bea Porter");
    assert_string_equal(json_string_value(json_object_get(p, "handle")), "@bea");
    assert_int_equal(json_array_size(json_object_get(fn_named(fns, "mid"), "ported_by")), 0);
    /* 04 changed `x + 1` into `x + 2`: same tokens, same length */
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(side, "changed_by"), 0), "name")), "Cy Later");
    json_decref(d);
    /* no address anywhere in a public answer */
    snprintf(url, sizeof(url), "%s/api/v1/repos/planport/commits/hpy/owners/src/chain.c",
             g_site.base);
    h = tu_request("GET", url);
    assert_null(strstr(h.body, "example"));
    assert_null(strstr(h.body, "noreply"));
    tu_http_free(&h);
    assert_int_equal(tu_site_status(&g_site, "/api/v1/repos/planport/commits/hpy/owners/nope.c",
                                    ""), 404);
}

static void test_plan_of_the_chain_ports_mid_then_top(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/planport/commits/hpy/plan?path=src/chain.c",
                            200), *steps = json_object_get(d, "steps"), *s0, *s1, *b0;

    s0 = json_array_get(steps, 0);
    s1 = json_array_get(steps, 1);
    assert_int_equal(json_array_size(steps), 2);           /* leaf is ported: no step */
    assert_int_equal(json_integer_value(json_object_get(d, "blocking_in_target")), 2);
    assert_string_equal(json_string_value(json_object_get(s0, "name")), "mid");
    assert_int_equal(json_integer_value(json_object_get(s0, "level")), 0);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(s0, "unblocks"), 0), "name")), "top");
    assert_string_equal(json_string_value(json_object_get(s0, "owner")), "Ann Canonical");
    assert_string_equal(json_string_value(json_object_get(s1, "name")), "top");
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(s1, "universal_ready_after"), 0)), "src/chain.c");
    /* one batch per level, the next names mid as what unblocks most */
    b0 = json_array_get(json_object_get(d, "batches"), 0);
    assert_int_equal(json_array_size(json_object_get(d, "batches")), 2);
    assert_string_equal(json_string_value(json_array_get(json_object_get(b0, "functions"), 0)),
                        "mid");
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(d, "next"), 0), "name")), "mid");
    json_decref(d);
    assert_int_equal(tu_site_status(&g_site, "/api/v1/repos/planport/commits/hpy/plan?batch=0",
                                    ""), 400);
    assert_int_equal(tu_site_status(&g_site, "/api/v1/repos/planport/commits/hpy/plan?path=x.c",
                                    ""), 404);
}

/* The symbol's object in the ranking, or NULL. */
static json_t *sym_named(json_t *d, const char *name)
{
    json_t *s;
    size_t i;

    json_array_foreach(json_object_get(d, "symbols"), i, s)
        if (strcmp(json_string_value(json_object_get(s, "symbol")), name) == 0)
            return s;
    return NULL;
}

static void test_hpy_needs_counts_a_symbol_across_both_ports(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/hpy-needs", 200), *s, *t;
    char url[256];
    tu_http h;

    assert_int_equal(json_array_size(json_object_get(d, "ports")), 2);
    s = sym_named(d, "PyErr_Fetch");
    t = json_object_get(s, "total");
    assert_int_equal(json_integer_value(json_object_get(t, "functions")), 3);
    assert_int_equal(json_integer_value(json_object_get(t, "files")), 2);
    assert_int_equal(json_integer_value(json_object_get(t, "ports")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(s,
        "ports"), "other"), "functions")), 2);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(s,
        "ports"), "planport"), "functions")), 1);
    /* one port only; and what HPy has (PyNumber_Long: HPy_Long) is not listed */
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sym_named(d,
        "PyOS_snprintf"), "total"), "ports")), 1);
    assert_null(sym_named(d, "PyNumber_Long"));
    assert_null(sym_named(d, "Py_XINCREF"));
    json_decref(d);
    /* functions only: the type PyObject goes, PyErr_Fetch leads; fmt uses
     * PyOS_snprintf and nothing else missing, so it counts as sole */
    d = tu_site_get(&g_site, "/api/v1/hpy-needs?kind=function", 200);
    assert_null(sym_named(d, "PyObject"));
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(d, "symbols"), 0), "symbol")), "PyErr_Fetch");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(sym_named(d,
        "PyOS_snprintf"), "total"), "sole")), 1);
    json_decref(d);
    snprintf(url, sizeof(url), "%s/api/v1/hpy-needs?format=csv&kind=function", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_non_null(strstr(h.ctype, "text/csv"));
    assert_non_null(strstr(h.body, "\r\n1,\"PyErr_Fetch\",function,3,2,3,"));
    tu_http_free(&h);
    {
        /* ?refs= picks the port's commit: the first one has util.c */
        char *first = tu_sh_out("git --git-dir='%s' rev-parse hpy~4", tu_fixture("planport"));

        first[strcspn(first, "\n")] = '\0';
        snprintf(url, sizeof(url), "%s/api/v1/hpy-needs?refs=planport:%s", g_site.base, first);
        d = tu_get_json(url, 200);
        assert_string_equal(json_string_value(json_object_get(json_array_get(
            json_object_get(d, "ports"), 1), "commit")), first);
        json_decref(d);
        free(first);
    }
    snprintf(url, sizeof(url), "%s/api/v1/hpy-needs?format=markdown", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_non_null(strstr(h.body, "| `PyErr_Fetch` | function | 3 | 2 | 3 |"));
    tu_http_free(&h);
    assert_int_equal(tu_site_status(&g_site, "/api/v1/hpy-needs?format=xml", ""), 400);
}

/* The comment for base...head of planport, and its figures. */
static char *comment_of(const char *head, json_t **facts)
{
    rules *r = NULL;
    pathfilter sc = {NULL, 0, NULL, 0};
    gate_comment_opts o = {"https://dash.example/pd", "plan port", NULL};
    char *md = NULL;

    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(gate_comment_run(&md, facts, tu_fixture("planport"), "hpy", head, r, &sc,
                                      &o), 0);
    rules_free(r);
    return md;
}

static void test_comment_counts_the_pull_requests_lines_and_names_whom_to_ask(void **state)
{
    json_t *facts = NULL, *fn;
    char *md = comment_of("pr-port", &facts), *head;
    size_t i;

    assert_int_equal(json_integer_value(json_object_get(facts, "ported")), 1);        /* mid */
    assert_int_equal(json_integer_value(json_object_get(facts, "less_ported")), 1);   /* side */
    /* side's PyObject and Py_XINCREF added; mid's PyObject x3 and Py_XINCREF gone */
    assert_int_equal(json_integer_value(json_object_get(facts, "uses_added")), 2);
    assert_int_equal(json_integer_value(json_object_get(facts, "uses_removed")), 4);
    json_array_foreach(json_object_get(facts, "functions"), i, fn) {
        const char *name = json_string_value(json_object_get(fn, "name"));
        const char *ask = json_string_value(json_object_get(fn, "ask"));

        /* top and leaf are untouched; mid's owner through the .mailmap,
         * side's the last to change it */
        assert_true(strcmp(name, "mid") == 0 || strcmp(name, "side") == 0);
        assert_string_equal(ask, strcmp(name, "mid") == 0 ? "Ann Canonical" : "Cy Later");
    }
    assert_int_equal(json_array_size(json_object_get(facts, "functions")), 2);
    /* the one who made it less ported first */
    assert_string_equal(json_string_value(json_array_get(json_object_get(facts, "ask"), 0)),
                        "Cy Later");
    head = tu_sh_out("git --git-dir='%s' rev-parse pr-port", tu_fixture("planport"));
    head[strcspn(head, "\n")] = '\0';
    assert_true(strncmp(md, GATE_COMMENT_MARKER "\n", strlen(GATE_COMMENT_MARKER) + 1) == 0);
    {
        char link[512];

        snprintf(link, sizeof(link),
                 "(https://dash.example/pd/file.html?repo=plan%%20port&rev=%s&path=src/chain.c)",
                 head);
        assert_non_null(strstr(md, link));
    }
    assert_null(strstr(md, "example.org"));           /* no address */
    free(head);
    free(md);
    json_decref(facts);
}

static void test_comment_is_empty_when_the_lines_move_nothing(void **state)
{
    json_t *facts = NULL;
    char *md = comment_of("pr-docs", &facts);

    assert_string_equal(md, "");
    assert_int_equal(json_integer_value(json_object_get(facts, "uses_added")), 0);
    free(md);
    json_decref(facts);
}

static void test_a_legacy_facing_wrapper_is_no_step_and_nobody_waits_for_it(void **state)
{
    json_t *d = tu_site_get(&g_site, "/api/v1/repos/planport/commits/hpy/plan?path=src/wrap.c",
                            200), *ex = json_array_get(json_object_get(d, "excluded"), 0);
    json_t *s0 = json_array_get(json_object_get(d, "steps"), 0);

    /* user calls get_legacy, a wrapper of get_impl: user is portable now;
     * so is user2, whose accessor acc needs no CPython */
    assert_int_equal(json_array_size(json_object_get(d, "steps")), 2);
    assert_string_equal(json_string_value(json_object_get(s0, "name")), "user");
    assert_int_equal(json_integer_value(json_object_get(s0, "level")), 0);
    assert_string_equal(json_string_value(json_object_get(json_array_get(
        json_object_get(d, "steps"), 1), "name")), "user2");
    assert_string_equal(json_string_value(json_object_get(ex, "name")), "get_legacy");
    assert_non_null(strstr(json_string_value(json_object_get(ex, "reason")), "wrapper"));
    json_decref(d);
    /* the frontier: user is a candidate, the wrapper is excluded */
    d = tu_site_get(&g_site, "/api/v1/repos/planport/commits/hpy/frontier?all=1", 200);
    {
        json_t *f;
        size_t i;
        int user = 0, wrapper = 0, acc = 0;

        json_array_foreach(json_object_get(d, "functions"), i, f) {
            const char *name = json_string_value(json_object_get(f, "name"));

            user |= strcmp(name, "user") == 0;
            /* user2 waits only for acc, but acc needs no CPython: porting
             * it unblocks nothing (issue 23: trivial accessors led) */
            if (strcmp(name, "acc") == 0) {
                assert_int_equal(json_integer_value(json_object_get(f, "unblocks")), 0);
                acc = 1;
            }
        }
        assert_true(acc);
        json_array_foreach(json_object_get(d, "excluded"), i, f)
            wrapper |= strcmp(json_string_value(json_object_get(f, "name")), "get_legacy") == 0;
        assert_true(user);
        assert_true(wrapper);
    }
    json_decref(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain_is_ported_callees_first_and_a_ported_leaf_is_no_step),
        cmocka_unit_test(test_plan_reaches_callees_in_other_files_and_cycles_are_one_level),
        cmocka_unit_test(test_file_blocked_outside_functions_is_never_ready),
        cmocka_unit_test(test_handles_come_only_from_github_noreply_addresses),
        cmocka_unit_test(test_porters_added_hpy_tokens_and_changers_are_newest_first),
        cmocka_unit_test(test_owners_follow_the_rename_and_the_mailmap),
        cmocka_unit_test(test_owners_name_the_porter_by_handle_and_see_an_edited_constant),
        cmocka_unit_test(test_plan_of_the_chain_ports_mid_then_top),
        cmocka_unit_test(test_a_legacy_facing_wrapper_is_no_step_and_nobody_waits_for_it),
        cmocka_unit_test(test_hpy_needs_counts_a_symbol_across_both_ports),
        cmocka_unit_test(test_comment_counts_the_pull_requests_lines_and_names_whom_to_ask),
        cmocka_unit_test(test_comment_is_empty_when_the_lines_move_nothing),
    };

    curl_global_init(CURL_GLOBAL_DEFAULT);
    return cmocka_run_group_tests(tests, plan_setup, plan_teardown);
}
