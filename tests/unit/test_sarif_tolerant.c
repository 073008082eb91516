/*
 * test_sarif_tolerant.c: SARIF logs as they come from the field (issue
 * 14): a bad run, result or property costs only itself and is answered as
 * a warning; result kinds (SARIF 2.1.0 section 3.27.9); logs written on
 * Windows; portdash's own SARIF uploaded again; findings filtered by tool
 * and level.
 */
#include "sarif_tu.h"

#define RUN(results) "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":" \
                     "{\"name\":\"x\"}},\"results\":[" results "]}]}"

/* POST `body` (category "tolerant") and expect 201 with exactly one warning
 * (pointer, problem prefix, action); returns the reply. */
static json_t *expect_warning(const char *body, const char *pointer, const char *problem,
                              const char *action)
{
    tu_http h = post("hpy-convert-object-dtype", "?category=tolerant", g_ci, body,
                     strlen(body));
    json_t *doc = json_loads(h.body, 0, NULL);
    json_t *w = json_array_get(json_object_get(doc, "warnings"), 0);
    const char *got = json_string_value(json_object_get(w, "problem"));

    /* A log whose only run or only result is skipped keeps nothing: 422
     * with the same warnings (issue 27). */
    long want = strcmp(action, "run skipped") == 0 || strcmp(action, "result skipped") == 0
                ? h.status == 422 ? 422 : 201 : 201;

    if (h.status != want || json_array_size(json_object_get(doc, "warnings")) != 1 || !got)
        fail_msg("status %ld, reply %s; want %ld and one warning at %s", h.status, h.body,
                 want, pointer);
    if (h.status == 422)
        assert_null(json_object_get(doc, "runs"));
    assert_string_equal(json_string_value(json_object_get(w, "pointer")), pointer);
    if (strncmp(got, problem, strlen(problem)) != 0)
        fail_msg("problem '%s', want '%s'", got, problem);
    assert_string_equal(json_string_value(json_object_get(w, "action")), action);
    tu_http_free(&h);
    return doc;
}

/* The only run of a reply: its `key` count. */
static json_int_t run0(json_t *rep, const char *key)
{
    assert_int_equal(json_array_size(json_object_get(rep, "runs")), 1);
    return num(json_array_get(json_object_get(rep, "runs"), 0), key);
}

static void test_unreadable_logs_are_refused_naming_the_problem(void **state)
{
    json_t *list;

    expect_400("{\"version\":\"2.0.0\",\"runs\":[]}", "/version: must be \"2.1.0\"", 0);
    expect_400("{\"runs\":[]}", "/version: required property missing", 0);
    expect_400("{\"version\":\"2.1.0\"}", "/runs: required property missing", 0);
    expect_400("{\"version\":\"2.1.0\",\"runs\":{}}", "/runs: must be an array", 0);
    expect_400("[]", "the log must be a JSON object", 0);
    expect_400("{\"version\": \"2.1.0\",\n \"runs\": [", "invalid JSON at line 2, column", 1);
    list = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/sarif", 200);
    assert_int_equal(json_array_size(json_object_get(list, "runs")), 0);
    json_decref(list);
}

/* The log: a null tool name costs that run only; "" is kept. */
static void test_a_bad_run_is_skipped_and_the_others_kept(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"CodeQL command-line toolchain\"}}},{\"tool\":{\"driver\":{\"name\":\"ESLint\"}}},"
        "{\"tool\":{\"driver\":{\"name\":\"\"}}},{\"tool\":{\"driver\":{\"name\":null}}}]}";
    tu_http h = post("hpy-convert-object-dtype", "?category=issue", g_ci, log, strlen(log));
    json_t *doc = json_loads(h.body, 0, NULL), *w = json_object_get(doc, "warnings");
    json_t *runs = json_object_get(doc, "runs");

    assert_int_equal(h.status, 201);
    assert_int_equal(json_array_size(runs), 3);
    assert_non_null(run_of(runs, "CodeQL command-line toolchain", "issue"));
    assert_non_null(run_of(runs, "ESLint", "issue"));
    assert_non_null(run_of(runs, "(unnamed)", "issue"));
    assert_int_equal(json_array_size(w), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0), "pointer")),
                        "/runs/2/tool/driver/name");
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 1), "pointer")),
                        "/runs/3/tool/driver/name");
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 1), "problem")),
                        "must be a string");
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 1), "action")),
                        "run skipped");
    tu_http_free(&h);
    json_decref(doc);
    doc = expect_warning("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{}}}]}",
                         "/runs/0/tool/driver/name", "required property missing",
                         "run skipped");
    assert_int_equal(json_array_size(json_object_get(doc, "runs")), 0);
    json_decref(doc);
    doc = expect_warning("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{}}]}",
                         "/runs/0/tool/driver", "required property missing", "run skipped");
    json_decref(doc);
    doc = expect_warning("{\"version\":\"2.1.0\",\"runs\":[5]}", "/runs/0",
                         "must be an object", "run skipped");
    json_decref(doc);
}

static void test_a_bad_result_is_skipped_and_the_others_kept(void **state)
{
    size_t len;
    char *missing = slurp(FIX "missing_message.sarif", &len);
    json_t *d;

    d = expect_warning(missing, "/runs/0/results/3/message", "required property missing",
                       "result skipped");
    assert_int_equal(run0(d, "results"), 3);
    json_decref(d);
    d = expect_warning(RUN("{\"message\":{}},{\"message\":{\"text\":\"ok\"}}"),
                       "/runs/0/results/0/message", "needs property \"text\" or \"id\"",
                       "result skipped");
    assert_int_equal(run0(d, "results"), 1);
    json_decref(d);
    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"kind\":\"bad\"}"),
                       "/runs/0/results/0/kind", "must be one of", "result skipped");
    assert_null(json_object_get(d, "runs"));    /* 422: nothing kept */
    json_decref(d);
    d = expect_warning(RUN("7"), "/runs/0/results/0", "must be an object", "result skipped");
    json_decref(d);
    free(missing);
}

static void test_a_bad_property_is_ignored_and_the_result_kept(void **state)
{
    json_t *d;

    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"ruleIndex\":3}"),
                       "/runs/0/results/0/ruleIndex",
                       "3 is not an index of /runs/0/tool/driver/rules",
                       "ruleIndex ignored; result kept without a rule");
    assert_int_equal(run0(d, "findings"), 1);
    json_decref(d);
    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"level\":\"fatal\"}"),
                       "/runs/0/results/0/level", "must be one of \"none\", \"note\"",
                       "level ignored; the default level applies");
    assert_int_equal(run0(d, "findings"), 1);
    json_decref(d);
    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"locations\":[{\"physicalLocation\":"
                           "{\"region\":{\"startLine\":0}}}]}"),
                       "/runs/0/results/0/locations/0/physicalLocation/region/startLine",
                       "must be an integer from 1", "region ignored; result kept without a line");
    json_decref(d);
    /* a dangling artifactLocation.index is no longer passed over in silence */
    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"locations\":[{\"physicalLocation\":"
                           "{\"artifactLocation\":{\"index\":2}}}]}"),
                       "/runs/0/results/0/locations/0/physicalLocation/artifactLocation/index",
                       "2 is not an index of /runs/0/artifacts",
                       "artifactLocation ignored; result kept, not at a file");
    assert_int_equal(run0(d, "unmapped"), 1);
    json_decref(d);
    d = expect_warning(RUN("{\"message\":{\"text\":\"m\"},\"partialFingerprints\":{\"a/b\":1}}"),
                       "/runs/0/results/0/partialFingerprints/a~1b", "must be a string",
                       "partialFingerprints ignored");
    json_decref(d);
    d = expect_warning("{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"x\","
                       "\"rules\":[{\"name\":\"no id\"}]}}}]}",
                       "/runs/0/tool/driver/rules/0/id", "required property missing",
                       "rule ignored");
    json_decref(d);
}

/* ruleIndex past an empty rules array, ruleId there: the rule is the id. */
static void test_rule_index_past_the_rules_falls_back_to_rule_id(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"lintR\",\"rules\":[]}},\"results\":[{\"ruleId\":\"R1\",\"ruleIndex\":0,"
        "\"message\":{\"text\":\"by rule id\"},\"locations\":[{\"physicalLocation\":"
        "{\"artifactLocation\":{\"uri\":\"src/refcount.c\"},\"region\":{\"startLine\":16}}}]}]}]}";
    json_t *rep = expect_warning(log, "/runs/0/results/0/ruleIndex",
                                 "0 is not an index of /runs/0/tool/driver/rules",
                                 "ruleIndex ignored; the rule is the result's ruleId");
    json_t *d = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/files/src/refcount.c",
                    200), *f = NULL;

    assert_int_equal(findings(d, "lintR", "by rule id", &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "rule")), "R1");
    assert_string_equal(json_string_value(json_object_get(f, "level")), "warning");
    json_decref(d);
    json_decref(rep);
}

static void test_warnings_past_a_hundred_are_counted(void **state)
{
    size_t n = 150, i, k = 0;
    size_t cap = n * 20 + 300;
    char *body = malloc(cap);
    tu_http h;
    json_t *doc;

    k += (size_t)snprintf(body, cap, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                         "{\"name\":\"many\"}},\"results\":[");
    for (i = 0; i < n; i++)
        k += (size_t)snprintf(body + k, cap - k, "%s{\"message\":{}}", i ? "," : "");
    /* one good result, so something is kept (else 422) */
    snprintf(body + k, cap - k, ",{\"message\":{\"text\":\"ok\"}}]}]}");
    h = post("hpy-convert-object-dtype", "?category=many", g_ci, body, strlen(body));
    doc = json_loads(h.body, 0, NULL);
    assert_int_equal(h.status, 201);
    assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 100);
    assert_int_equal(num(doc, "warnings_omitted"), 50);
    assert_int_equal(run0(doc, "results"), 1);
    json_decref(doc);
    tu_http_free(&h);
    free(body);
}

/* A log of tool `tool` with one result per entry of `results` (each a
 * JSON result member list, without braces) at src/refcount.c line 16. */
static char *log_at(const char *tool, const char *uri, const char *const *members, size_t n)
{
    size_t cap = 4096 + n * 512, k;
    char *b = malloc(cap);

    k = (size_t)snprintf(b, cap, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                         "{\"name\":\"%s\"}},\"results\":[", tool);
    for (size_t i = 0; i < n; i++)
        k += (size_t)snprintf(b + k, cap - k, "%s{%s,\"locations\":[{\"physicalLocation\":"
                              "{\"artifactLocation\":{\"uri\":\"%s\"},\"region\":"
                              "{\"startLine\":16}}}]}", i ? "," : "", members[i], uri);
    snprintf(b + k, cap - k, "]}]}");
    return b;
}

/* SARIF 2.1.0 3.27.9: open and review ask a person to look, informational
 * tells; pass and notApplicable say nothing is to be done. */
static void test_result_kinds_decide_what_is_a_finding(void **state)
{
    static const char *const kinds[] = {
        "\"kind\":\"fail\",\"message\":{\"text\":\"k-fail\"}",
        "\"kind\":\"open\",\"message\":{\"text\":\"k-open\"}",
        "\"kind\":\"review\",\"message\":{\"text\":\"k-review\"}",
        "\"kind\":\"informational\",\"message\":{\"text\":\"k-info\"}",
        "\"kind\":\"pass\",\"message\":{\"text\":\"k-pass\"}",
        "\"kind\":\"notApplicable\",\"message\":{\"text\":\"k-na\"}",
        "\"kind\":\"open\",\"level\":\"error\",\"message\":{\"text\":\"k-open-error\"}",
        "\"kind\":\"review\",\"level\":\"none\",\"message\":{\"text\":\"k-review-none\"}",
    };
    char *body = log_at("kinds", "src/refcount.c", kinds, 8);
    tu_http h = post("hpy", NULL, g_ci, body, strlen(body));
    json_t *rep = json_loads(h.body, 0, NULL), *d, *f = NULL, *s;
    static const char *const want[][2] = {
        {"k-fail", "warning"}, {"k-open", "warning"}, {"k-review", "warning"},
        {"k-info", "note"}, {"k-open-error", "error"}, {"k-review-none", "warning"}};

    assert_int_equal(h.status, 201);
    assert_int_equal(run0(rep, "results"), 8);
    assert_int_equal(run0(rep, "findings"), 6);
    d = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    assert_int_equal(findings(d, "kinds", NULL, NULL), 6);
    for (size_t i = 0; i < 6; i++) {
        assert_int_equal(findings(d, "kinds", want[i][0], &f), 1);
        assert_string_equal(json_string_value(json_object_get(f, "level")), want[i][1]);
    }
    assert_int_equal(findings(d, "kinds", "k-pass", NULL), 0);
    assert_int_equal(findings(d, "kinds", "k-na", NULL), 0);
    s = get("/api/v1/repos/demo/commits/hpy/summary", 200);
    assert_int_equal(num(json_object_get(json_object_get(s, "tools"), "kinds"), "results"), 6);
    assert_int_equal(num(json_object_get(json_object_get(s, "tools"), "kinds"), "note"), 1);
    json_decref(s);
    json_decref(d);
    json_decref(rep);
    tu_http_free(&h);
    free(body);
}

/* A log written on Windows: drive letters of either case, '\' or '/',
 * file:///C:/ and file:///c%3A/ all name the same checkout. */
static void test_windows_paths_map_under_the_checkout(void **state)
{
    static const struct { const char *uri, *checkout; int mapped; } cases[] = {
        {"C:/co/src/refcount.c", "C:/co", 1},
        {"C:\\\\co\\\\src\\\\refcount.c", "C:/co", 1},
        {"c:/CO/src/refcount.c", "C:\\co\\", 1},
        {"file:///C:/co/src/refcount.c", "C:/co", 1},
        {"file:///c%3A/co/src/refcount.c", "file:///C:/co/", 1},
        {"C:/co/src/refcount.c", "file:///C:/co", 1},
        {"src\\\\refcount.c", NULL, 1},
        {"D:/co/src/refcount.c", "C:/co", 0},
        {"C:/co2/src/refcount.c", "C:/co", 0},
        {"C:/co/../src/refcount.c", "C:/co", 0},
    };
    char query[256], enc[128], *body;
    const char *member = "\"message\":{\"text\":\"win\"}";

    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        tu_http h;
        json_t *rep;
        size_t k = 0;

        for (const char *c = cases[i].checkout; c && *c; c++)
            k += (size_t)snprintf(enc + k, sizeof(enc) - k, "%%%02X", (unsigned char)*c);
        enc[k] = '\0';
        snprintf(query, sizeof(query), "?category=win%zu%s%s", i,
                 cases[i].checkout ? "&checkout_uri=" : "", cases[i].checkout ? enc : "");
        body = log_at("win", cases[i].uri, &member, 1);
        h = post("hpy", query, g_ci, body, strlen(body));
        rep = json_loads(h.body, 0, NULL);
        assert_int_equal(h.status, 201);
        if (run0(rep, "unmapped") != !cases[i].mapped)
            fail_msg("%s under %s: unmapped %lld", cases[i].uri,
                     cases[i].checkout ? cases[i].checkout : "(none)",
                     (long long)run0(rep, "unmapped"));
        json_decref(rep);
        tu_http_free(&h);
        free(body);
    }
}

/* portdash's own SARIF uploaded again adds no findings (refcount.c 227 ->
 * 378 on numpy before); the run is listed with a warning. */
static void test_own_sarif_does_not_double_the_findings(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    json_t *before = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    json_t *after, *rep, *w;
    char *out = tu_sh_out("mkdir -p '%s/own' && git --git-dir='%s' archive hpy | tar -x -C "
                          "'%s/own' && '%s/../portdash' analyze --format sarif '%s/own' > "
                          "'%s/own.sarif' && echo ok", g_site.dir, tu_fixture("toyport"),
                          g_site.dir, fx ? fx : "build-san/fixtures", g_site.dir, g_site.dir);
    char path[4096];

    assert_string_equal(out, "ok\n");
    free(out);
    snprintf(path, sizeof(path), "%.4000s/own.sarif", g_site.dir);
    rep = post_file("hpy", NULL, path, 201);
    assert_true(run0(rep, "results") > 0);
    assert_int_equal(run0(rep, "findings"), 0);
    w = json_array_get(json_object_get(rep, "warnings"), 0);
    assert_string_equal(json_string_value(json_object_get(w, "pointer")),
                        "/runs/0/tool/driver/name");
    assert_string_equal(json_string_value(json_object_get(w, "action")),
                        "results not stored again");
    after = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    assert_int_equal(json_array_size(json_object_get(after, "findings")),
                     json_array_size(json_object_get(before, "findings")));
    json_decref(before);
    json_decref(after);
    json_decref(rep);
}

/* ?tool= and ?level= keep only those findings of a file. */
static void test_file_findings_filter_by_tool_and_level(void **state)
{
    const char *base = "/api/v1/repos/demo/commits/hpy/files/src/refcount.c";
    char url[512];
    json_t *all = get(base, 200), *d, *f;
    size_t i, n_kinds = findings(all, "kinds", NULL, NULL), n_err = 0;

    json_array_foreach(json_object_get(all, "findings"), i, f) {
        assert_non_null(json_object_get(f, "level"));
        n_err += strcmp(json_string_value(json_object_get(f, "level")), "error") == 0;
    }
    assert_true(n_kinds > 0 && n_err > 0);
    snprintf(url, sizeof(url), "%s?tool=kinds", base);
    d = get(url, 200);
    assert_int_equal(json_array_size(json_object_get(d, "findings")), n_kinds);
    json_decref(d);
    snprintf(url, sizeof(url), "%s?level=error", base);
    d = get(url, 200);
    assert_int_equal(json_array_size(json_object_get(d, "findings")), n_err);
    json_decref(d);
    snprintf(url, sizeof(url), "%s?tool=portdash,kinds&level=note,warning", base);
    d = get(url, 200);
    json_array_foreach(json_object_get(d, "findings"), i, f) {
        const char *lv = json_string_value(json_object_get(f, "level"));

        assert_true(strcmp(lv, "note") == 0 || strcmp(lv, "warning") == 0);
    }
    assert_true(json_array_size(json_object_get(d, "findings")) > 0);
    json_decref(d);
    snprintf(url, sizeof(url), "%s?level=fatal", base);
    d = get(url, 400);
    json_decref(d);
    json_decref(all);
}

/* The CLI reads the same: kinds, a Windows log under --checkout-uri, and
 * the log with a bad run. */
static void test_cli_reads_kinds_windows_paths_and_bad_runs(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    char *out;

    out = tu_sh_out("printf '%%s' '{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
        "{\"name\":\"cliK\"}},\"results\":[{\"kind\":\"open\",\"message\":{\"text\":\"a\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
        "\"C:\\\\co\\\\src\\\\refcount.c\"}}}]},{\"kind\":\"pass\",\"message\":"
        "{\"text\":\"b\"}},{\"kind\":\"informational\",\"message\":{\"text\":\"c\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
        "\"file:///c:/CO/src/toyarray.c\"}}}]}]},{\"tool\":{\"driver\":{\"name\":null}}}]}' | "
        "'%s/../portdash' import-sarif --db '%s' --name demo --rev hpy --checkout-uri 'C:/co' "
        "--category cli-win - 2>&1; echo \"rc=$?\"", fx ? fx : "build-san/fixtures", g_site.db);
    assert_string_equal(out, "cliK / cli-win: 3 results, 2 findings, 1 unmapped\n"
                        "portdash import-sarif: warning: /runs/1/tool/driver/name: must be "
                        "a string (run skipped)\nrc=0\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unreadable_logs_are_refused_naming_the_problem),
        cmocka_unit_test(test_a_bad_run_is_skipped_and_the_others_kept),
        cmocka_unit_test(test_a_bad_result_is_skipped_and_the_others_kept),
        cmocka_unit_test(test_a_bad_property_is_ignored_and_the_result_kept),
        cmocka_unit_test(test_rule_index_past_the_rules_falls_back_to_rule_id),
        cmocka_unit_test(test_warnings_past_a_hundred_are_counted),
        cmocka_unit_test(test_result_kinds_decide_what_is_a_finding),
        cmocka_unit_test(test_windows_paths_map_under_the_checkout),
        cmocka_unit_test(test_own_sarif_does_not_double_the_findings),
        cmocka_unit_test(test_file_findings_filter_by_tool_and_level),
        cmocka_unit_test(test_cli_reads_kinds_windows_paths_and_bad_runs),
    };

    return cmocka_run_group_tests(tests, sarif_setup, sarif_teardown);
}
