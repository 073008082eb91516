/*
 * test_api.c: the JSON API against a real server on a free loopback port,
 * serving the toyport fixture.  Figures are checked against the database
 * and git, and each error case against its status and problem document.
 */
#include "testutil.h"

#include "db.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

static tu_site g_site;

static int api_setup(void **state)
{
    tu_site_init(&g_site, "api.db");
    return tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
           tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int api_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static json_t *get(const char *path, long status)
{
    return tu_site_get(&g_site, path, status);
}

static char *git_rev(const char *rev)
{
    char *s = tu_sh_out("git --git-dir='%s' rev-parse %s", tu_fixture("toyport"), rev);

    s[strcspn(s, "\n")] = '\0';
    return s;
}

static void test_repos_lists_refs_with_commit_ids(void **state)
{
    json_t *doc = get("/api/v1/repos", 200), *refs;
    char *hpy = git_rev("hpy"), *conv = git_rev("hpy-convert-object-dtype");

    assert_int_equal(json_array_size(doc), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(doc, 0), "name")),
                        "demo");
    refs = json_object_get(json_array_get(doc, 0), "refs");
    assert_int_equal(json_array_size(refs), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(refs, 0), "name")),
                        "hpy");
    assert_string_equal(json_string_value(json_object_get(json_array_get(refs, 0),
                                                          "commit")), hpy);
    assert_string_equal(json_string_value(json_object_get(json_array_get(refs, 1),
                                                          "commit")), conv);
    json_decref(doc);
    free(hpy);
    free(conv);
}

/* Sum of a count object's values. */
static json_int_t sum(json_t *o)
{
    const char *k;
    json_t *v;
    json_int_t n = 0;

    json_object_foreach(o, k, v)
        n += json_integer_value(v);
    return n;
}

static void test_summary_agrees_with_files_and_abbreviated_ids(void **state)
{
    char *id = git_rev("hpy"), path[256];
    json_t *s = get("/api/v1/repos/demo/commits/hpy/summary", 200), *f, *files, *row;
    json_t *s2;
    json_int_t ready = 0, legacy = 0, ported = 0;
    size_t i;

    assert_string_equal(json_string_value(json_object_get(s, "commit")), id);
    snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%.7s/summary", id);
    s2 = get(path, 200);
    assert_true(json_equal(s, s2));
    f = get("/api/v1/repos/demo/commits/hpy/files", 200);
    files = json_object_get(f, "files");
    assert_int_equal(json_integer_value(json_object_get(s, "files")), json_array_size(files));
    json_array_foreach(files, i, row) {
        ready += json_is_true(json_object_get(row, "universal_ready"));
        legacy += json_integer_value(json_object_get(json_object_get(row, "object_paths"),
                                                     "object-legacy"));
        ported += json_integer_value(json_object_get(json_object_get(row, "functions"),
                                                     "ported"));
    }
    assert_int_equal(json_integer_value(json_object_get(s, "universal_ready_files")), ready);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "object_paths"),
                                                        "object-legacy")), legacy);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(s, "functions"),
                                                        "ported")), ported);
    assert_true(sum(json_object_get(s, "tokens")) > 0);
    assert_string_equal(json_string_value(json_object_get(s, "author_date")),
                        "2021-07-01T08:00:00+00:00");
    assert_string_equal(json_string_value(json_object_get(s, "committer_date")),
                        "2022-02-08T12:00:00+00:00");
    json_decref(s);
    json_decref(s2);
    json_decref(f);
    free(id);
}

static void test_object_dtype_conversion_shows_in_summaries(void **state)
{
    json_t *a = get("/api/v1/repos/demo/commits/hpy/summary", 200);
    json_t *b = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/summary", 200);
    json_t *oa = json_object_get(a, "object_paths"), *ob = json_object_get(b, "object_paths");

    assert_true(json_integer_value(json_object_get(ob, "object-legacy")) <
                json_integer_value(json_object_get(oa, "object-legacy")));
    assert_true(json_integer_value(json_object_get(ob, "object-universal")) >
                json_integer_value(json_object_get(oa, "object-universal")));
    json_decref(a);
    json_decref(b);
}

/* The function called `name` in a file document, or NULL. */
static json_t *function(json_t *file, const char *name)
{
    json_t *fn;
    size_t i;

    json_array_foreach(json_object_get(file, "functions"), i, fn)
        if (strcmp(json_string_value(json_object_get(fn, "name")), name) == 0)
            return fn;
    return NULL;
}

static void test_file_detail_lists_functions_and_findings(void **state)
{
    json_t *d = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    json_t *d2 = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/files/"
                     "src/refcount.c", 200);
    json_t *fn, *finding;
    size_t i;
    int saw_xincref = 0;

    assert_string_equal(json_string_value(json_object_get(d, "path")), "src/refcount.c");
    fn = function(d, "toy_item_incref");
    assert_non_null(fn);
    assert_string_equal(json_string_value(json_object_get(fn, "status")), "legacy");
    assert_string_equal(json_string_value(json_object_get(fn, "object_state")),
                        "object-legacy");
    assert_int_equal(json_integer_value(json_object_get(fn, "start_line")), 5);
    assert_int_equal(json_integer_value(json_object_get(fn, "end_line")), 19);
    /* why: the deciding findings' rule and line (issue 11, item 8) */
    assert_string_equal(json_string_value(json_object_get(json_object_get(
        json_object_get(fn, "why"), "object"), "rule")), "object-item-legacy");
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        json_object_get(fn, "why"), "object"), "line")), 14);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(
        json_object_get(fn, "why"), "status"), "line")), 8);
    assert_true(json_is_null(json_object_get(fn, "name_from_macro")));
    fn = function(d2, "toy_fill_object");
    assert_string_equal(json_string_value(json_object_get(fn, "status")), "ported");
    assert_string_equal(json_string_value(json_object_get(fn, "object_state")),
                        "object-universal");
    json_array_foreach(json_object_get(d, "findings"), i, finding) {
        if (strcmp(json_string_value(json_object_get(finding, "text")), "Py_XINCREF") == 0) {
            saw_xincref = 1;
            assert_int_equal(json_integer_value(json_object_get(finding, "line")), 16);
            assert_int_equal(json_integer_value(json_object_get(finding, "column")), 9);
            assert_string_equal(json_string_value(json_object_get(finding, "class")), "capi");
            assert_string_equal(json_string_value(json_object_get(finding, "function")),
                                "toy_item_incref");
        }
    }
    assert_true(saw_xincref);
    json_decref(d);
    json_decref(d2);
}

static void test_raw_returns_the_blob_bytes(void **state)
{
    char url[512];
    tu_http h;
    char *want = tu_sh_out("git --git-dir='%s' cat-file blob hpy:src/toyarray.c",
                           tu_fixture("toyport"));

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/raw/src/toyarray.c", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_string_equal(h.ctype, "text/plain; charset=utf-8");
    assert_string_equal(h.body, want);
    tu_http_free(&h);
    free(want);
}

static void test_percent_encoded_path_with_markup(void **state)
{
    json_t *slashes = get("/api/v1/repos/demo/commits/hpy/files/src%2Frefcount.c", 200);
    json_t *d = get("/api/v1/repos/demo/commits/hpy/files/src/"
                    "evil%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E.c", 200);

    /* %2F inside a path segment is a '/' like any other. */
    assert_string_equal(json_string_value(json_object_get(slashes, "path")), "src/refcount.c");
    assert_string_equal(json_string_value(json_object_get(d, "path")),
                        "src/evil<img src=x onerror=window.__xss=1>.c");
    assert_non_null(function(d, "evil_helper"));
    json_decref(slashes);
    json_decref(d);
}

/* An error: status, problem content type, and a detail mentioning `word`. */
static void expect_problem(const char *method, const char *path, long status,
                           const char *word)
{
    char url[2048];
    tu_http h;
    json_t *doc;

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    h = tu_request(method, url);
    if (h.status != status)
        fail_msg("%s %s: status %ld, want %ld (%s)", method, path, h.status, status, h.body);
    assert_string_equal(h.ctype, "application/problem+json");
    doc = json_loads(h.body, 0, NULL);
    assert_non_null(doc);
    assert_int_equal(json_integer_value(json_object_get(doc, "status")), status);
    if (word && !strstr(json_string_value(json_object_get(doc, "detail")), word))
        fail_msg("%s %s: detail lacks '%s': %s", method, path, word, h.body);
    if (status == 405)
        assert_string_equal(h.allow, strcmp(method, "GET") == 0 ? "POST" : "GET");
    json_decref(doc);
    tu_http_free(&h);
}

static void test_errors_are_problem_documents(void **state)
{
    expect_problem("GET", "/api/v1/repos/nope/commits/hpy/summary", 404, "nope");
    expect_problem("GET", "/api/v1/repos/demo/commits/no-such-ref/summary", 404,
                   "no-such-ref");
    expect_problem("GET", "/api/v1/repos/demo/commits/0000000/summary", 404, "0000000");
    expect_problem("GET", "/api/v1/repos/demo/commits/hpy/files/src/missing.c", 404,
                   "missing.c");
    expect_problem("GET", "/api/v1/repos/demo/commits/hpy/frobnicate", 404, NULL);
    expect_problem("POST", "/api/v1/repos", 405, "POST");
    expect_problem("DELETE", "/api/v1/repos/demo/commits/hpy/summary", 405, "DELETE");
    expect_problem("GET", "/api/v1/repos/demo/commits/hp%zz/summary", 400, "percent");
    expect_problem("GET", "/api/v1/repos/demo/commits/hpy%00/summary", 400, NULL);
    expect_problem("GET", "/..%2F..%2Fetc%2Fpasswd", 404, NULL);
    expect_problem("GET", "/api/v1/repos/demo/ingest", 405, "GET");
    expect_problem("GET", "/../Makefile", 404, NULL);
}

static void test_dashboard_is_served(void **state)
{
    char url[256];
    tu_http h;

    snprintf(url, sizeof(url), "%s/", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_string_equal(h.ctype, "text/html; charset=utf-8");
    assert_non_null(strstr(h.body, "<html"));
    tu_http_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repos_lists_refs_with_commit_ids),
        cmocka_unit_test(test_summary_agrees_with_files_and_abbreviated_ids),
        cmocka_unit_test(test_object_dtype_conversion_shows_in_summaries),
        cmocka_unit_test(test_file_detail_lists_functions_and_findings),
        cmocka_unit_test(test_raw_returns_the_blob_bytes),
        cmocka_unit_test(test_percent_encoded_path_with_markup),
        cmocka_unit_test(test_errors_are_problem_documents),
        cmocka_unit_test(test_dashboard_is_served),
    };

    return cmocka_run_group_tests(tests, api_setup, api_teardown);
}
