/*
 * test_sarif.c: SARIF uploads (POST .../commits/{rev}/sarif) against a real
 * server on a free loopback port serving the toyport fixture, with the
 * logs of tests/fixtures/sarif/.  Each case checks one rule of the import:
 * tokens, the mapping of locations to files and functions, kinds and
 * levels, replacement, size limits, gzip, and the exact JSON pointer of
 * the first problem in a malformed log.
 */
#include "testutil.h"

#include <zlib.h>

#include "db.h"
#include "db_token.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

#define FIX "tests/fixtures/sarif/"
#define BODY_LIMIT ((size_t)1 << 20)

static tu_site g_site;
static char g_ci[DB_TOKEN_LEN + 1], g_reader[DB_TOKEN_LEN + 1];

static int sarif_setup(void **state)
{
    srv_options so = {0};
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "sarif.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_ci, "ci", "sarif") < 0 ||
         db_token_create(db, g_reader, "reader", "read") < 0;
    if (rc)
        fprintf(stderr, "setup: %s\n", pd_error_last());
    db_close(db);
    so.max_body = BODY_LIMIT;
    return rc || tu_site_serve(&g_site, &so) < 0 ? -1 : 0;
}

static int sarif_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* A whole fixture file (caller frees). */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* POST a body to .../commits/{rev}/sarif{query} with `token` (NULL: none). */
static tu_http post(const char *rev, const char *query, const char *token,
                    const void *body, size_t len)
{
    char url[1024], auth[128];
    const char *hdrs[] = {auth, "Content-Type: application/sarif+json", NULL};

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/%s/sarif%s", g_site.base, rev,
             query ? query : "");
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token ? token : "");
    return tu_post(url, token ? hdrs : hdrs + 1, body, len);
}

/* POST a fixture with the CI token; returns the parsed reply, asserting status. */
static json_t *post_file(const char *rev, const char *query, const char *file, long status)
{
    size_t len;
    char *body = slurp(file, &len);
    tu_http h = post(rev, query, g_ci, body, len);
    json_t *doc = json_loads(h.body, 0, NULL);

    if (h.status != status)
        fail_msg("POST %s: status %ld, want %ld: %s", file, h.status, status, h.body);
    assert_non_null(doc);
    tu_http_free(&h);
    free(body);
    return doc;
}

static json_t *get(const char *path, long status)
{
    char url[2048];

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    return tu_get_json(url, status);
}

/* The run of a POST reply or list with this tool and category. */
static json_t *run_of(json_t *runs, const char *tool, const char *category)
{
    json_t *r;
    size_t i;

    json_array_foreach(runs, i, r)
        if (strcmp(json_string_value(json_object_get(r, "tool")), tool) == 0 &&
            strcmp(json_string_value(json_object_get(r, "category")), category) == 0)
            return r;
    return NULL;
}

static json_int_t num(json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

/* The findings of one file of tool `tool` with text `text` (NULL: any). */
static size_t findings(json_t *file, const char *tool, const char *text, json_t **last)
{
    json_t *f;
    size_t i, n = 0;

    json_array_foreach(json_object_get(file, "findings"), i, f) {
        if (strcmp(json_string_value(json_object_get(f, "tool")), tool) == 0 &&
            (!text || strcmp(json_string_value(json_object_get(f, "text")), text) == 0)) {
            n++;
            if (last)
                *last = f;
        }
    }
    return n;
}

/* Header capture for the one case that needs WWW-Authenticate. */
static size_t www_auth_header(char *p, size_t size, size_t n, void *arg)
{
    if (size * n > 17 && strncasecmp(p, "WWW-Authenticate:", 17) == 0)
        *(int *)arg = 1;
    return size * n;
}

static void test_upload_needs_a_token_with_scope_sarif(void **state)
{
    char url[512];
    tu_http h;
    json_t *list;
    int saw = 0;
    CURL *c = curl_easy_init();

    h = post("hpy", NULL, NULL, "{}", 2);
    assert_int_equal(h.status, 401);
    assert_string_equal(h.ctype, "application/problem+json");
    tu_http_free(&h);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, "{}");
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, www_auth_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &saw);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, www_auth_header);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &(int){0});
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    assert_int_equal(curl_easy_perform(c), CURLE_OK);
    curl_easy_cleanup(c);
    assert_true(saw);
    h = post("hpy", NULL, "pd_0000000000000000000000000000000000000000000000000000000000000000",
             "{}", 2);
    assert_int_equal(h.status, 401);
    tu_http_free(&h);
    h = post("hpy", NULL, g_reader, "{}", 2);
    assert_int_equal(h.status, 403);
    assert_non_null(strstr(h.body, "sarif"));
    tu_http_free(&h);
    list = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/sarif", 200);
    assert_int_equal(json_array_size(json_object_get(list, "runs")), 0);
    json_decref(list);
}

static void test_several_runs_are_kept_by_tool_and_category(void **state)
{
    json_t *rep = post_file("hpy", "?checkout_uri=file%3A%2F%2F%2Fwork%2Fcheckout",
                            FIX "multi.sarif", 201);
    json_t *runs = json_object_get(rep, "runs"), *r, *list;

    assert_int_equal(json_array_size(runs), 3);
    r = run_of(runs, "lintA", "nightly/lint");
    assert_non_null(r);
    assert_int_equal(num(r, "results"), 7);
    assert_int_equal(num(r, "findings"), 6);        /* one is kind "pass" */
    assert_int_equal(num(r, "unmapped"), 1);        /* /usr/include/stdio.h */
    r = run_of(runs, "clang", "");
    assert_int_equal(num(r, "results"), 1);
    assert_int_equal(num(r, "unmapped"), 0);
    r = run_of(runs, "lintA", "");                  /* a one-component id has no category */
    assert_non_null(r);
    assert_int_equal(num(r, "results"), 0);
    list = get("/api/v1/repos/demo/commits/hpy/sarif", 200);
    r = run_of(json_object_get(list, "runs"), "lintA", "nightly/lint");
    assert_non_null(r);
    assert_string_equal(json_string_value(json_object_get(r, "version")), "1.4.2");
    assert_int_equal(num(r, "results"), 7);
    assert_non_null(json_string_value(json_object_get(r, "uploaded_at")));
    json_decref(list);
    json_decref(rep);
}

static void test_locations_map_to_files_and_functions(void **state)
{
    json_t *d = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    json_t *t = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    json_t *f = NULL;

    assert_int_equal(findings(d, "lintA", "refcount by hand", &f), 1);
    assert_int_equal(num(f, "line"), 16);
    assert_int_equal(num(f, "column"), 9);
    assert_string_equal(json_string_value(json_object_get(f, "rule")), "A1");
    assert_string_equal(json_string_value(json_object_get(f, "level")), "error");
    assert_string_equal(json_string_value(json_object_get(f, "class")), "sarif");
    assert_string_equal(json_string_value(json_object_get(f, "function")), "toy_item_incref");
    /* index into run.artifacts */
    assert_int_equal(findings(d, "lintA", "by artifact index", &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "function")), "toy_is_object");
    /* message id + arguments, rule level by default */
    assert_int_equal(findings(d, "lintA", "'Py_XINCREF' is deprecated", &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "level")), "note");
    /* built-in findings carry their tool too */
    assert_true(findings(d, "portdash", "Py_XINCREF", NULL) >= 1);
    /* uriBaseId SRC -> ROOT (file:///work/checkout/) under checkout_uri; ruleIndex */
    assert_int_equal(findings(t, "lintA", "base id chain", &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "rule")), "A2");
    assert_string_equal(json_string_value(json_object_get(f, "level")), "note");
    assert_string_equal(json_string_value(json_object_get(f, "function")), "toyarray_new_impl");
    assert_string_equal(json_string_value(json_object_get(f, "category")), "nightly/lint");
    /* a bare absolute path under checkout_uri */
    assert_int_equal(findings(t, "clang", NULL, &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "function")), "toy_check_size");
    json_decref(d);
    json_decref(t);
}

static void test_percent_encoded_path_maps_to_the_file(void **state)
{
    json_t *d = get("/api/v1/repos/demo/commits/hpy/files/src/"
                    "evil%3Cimg%20src%3Dx%20onerror%3Dwindow.__xss%3D1%3E.c", 200);
    json_t *f = NULL;

    assert_int_equal(findings(d, "lintA", "markup in a path", &f), 1);
    assert_string_equal(json_string_value(json_object_get(f, "function")), "evil_helper");
    json_decref(d);
}

static void test_kind_pass_is_not_a_finding(void **state)
{
    json_t *d = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);

    assert_int_equal(findings(d, "lintA", "checked and fine", NULL), 0);
    json_decref(d);
}

static void test_summary_counts_findings_per_tool(void **state)
{
    json_t *s = get("/api/v1/repos/demo/commits/hpy/summary", 200);
    json_t *tools = json_object_get(s, "tools"), *tok = json_object_get(s, "tokens");
    json_t *a = json_object_get(tools, "lintA"), *p = json_object_get(tools, "portdash");

    assert_non_null(a);
    assert_int_equal(num(a, "results"), 6);
    assert_int_equal(num(a, "error"), 2);    /* A1 default, unmapped one included */
    assert_int_equal(num(a, "warning"), 2);
    assert_int_equal(num(a, "note"), 2);
    assert_int_equal(num(a, "none"), 0);
    assert_int_equal(num(json_object_get(tools, "clang"), "warning"), 1);
    assert_int_equal(num(p, "results"), num(tok, "hpy") + num(tok, "capi") +
                                        num(tok, "npy-legacy") + num(tok, "bridge"));
    assert_int_equal(num(p, "warning"), num(tok, "capi") + num(tok, "bridge"));
    json_decref(s);
}

/* POST `body` and expect 400 with exactly `detail` (prefix when `prefix`). */
static void expect_400(const char *body, const char *detail, int prefix)
{
    tu_http h = post("hpy-convert-object-dtype", NULL, g_ci, body, strlen(body));
    json_t *doc = json_loads(h.body, 0, NULL);
    const char *got = json_string_value(json_object_get(doc, "detail"));

    if (h.status != 400 || !got ||
        (prefix ? strncmp(got, detail, strlen(detail)) : strcmp(got, detail)))
        fail_msg("status %ld, detail %s; want 400, %s", h.status, got ? got : h.body, detail);
    assert_string_equal(h.ctype, "application/problem+json");
    json_decref(doc);
    tu_http_free(&h);
}

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

    if (h.status != 201 || json_array_size(json_object_get(doc, "warnings")) != 1 || !got)
        fail_msg("status %ld, reply %s; want 201 and one warning at %s", h.status, h.body,
                 pointer);
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
    assert_int_equal(run0(d, "results"), 0);
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
    char *body = malloc(n * 20 + 200);
    tu_http h;
    json_t *doc;

    k += (size_t)sprintf(body, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                         "{\"name\":\"many\"}},\"results\":[");
    for (i = 0; i < n; i++)
        k += (size_t)sprintf(body + k, "%s{\"message\":{}}", i ? "," : "");
    strcpy(body + k, "]}]}");
    h = post("hpy-convert-object-dtype", "?category=many", g_ci, body, strlen(body));
    doc = json_loads(h.body, 0, NULL);
    assert_int_equal(h.status, 201);
    assert_int_equal(json_array_size(json_object_get(doc, "warnings")), 100);
    assert_int_equal(num(doc, "warnings_omitted"), 50);
    assert_int_equal(run0(doc, "results"), 0);
    json_decref(doc);
    tu_http_free(&h);
    free(body);
}

/* gzip (RFC 1952) of `len` bytes of `in`, or of `len` zero bytes if in is
 * NULL; caller frees. */
static unsigned char *gzip(const void *in, size_t len, size_t *out_len)
{
    static const char zeros[1 << 16];
    z_stream zs = {0};
    size_t cap = len / 500 + (1 << 16), left = len;
    unsigned char *out = malloc(cap);

    assert_int_equal(deflateInit2(&zs, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    zs.next_out = out;
    zs.avail_out = (uInt)cap;
    while (left) {
        size_t n = in ? left : left < sizeof(zeros) ? left : sizeof(zeros);

        zs.next_in = (Bytef *)(in ? (const char *)in + (len - left) : zeros);
        zs.avail_in = (uInt)n;
        left -= n;
        assert_int_equal(deflate(&zs, left ? Z_NO_FLUSH : Z_FINISH), left ? Z_OK
                                                                           : Z_STREAM_END);
        assert_true(zs.avail_out > 0);
    }
    *out_len = zs.total_out;
    deflateEnd(&zs);
    return out;
}

static void test_oversize_bodies_get_413(void **state)
{
    size_t n = BODY_LIMIT + 4096, glen;
    char *big = malloc(n);
    unsigned char *bomb = gzip(NULL, ((size_t)128 << 20) + 1, &glen);
    tu_http h;

    memset(big, ' ', n);
    h = post("hpy", NULL, g_ci, big, n);
    assert_int_equal(h.status, 413);
    tu_http_free(&h);
    assert_true(glen < BODY_LIMIT);
    h = post("hpy", NULL, g_ci, bomb, glen);
    assert_int_equal(h.status, 413);
    assert_non_null(strstr(h.body, "inflates to more than"));
    tu_http_free(&h);
    free(big);
    free(bomb);
}

static void test_gzip_body_is_inflated(void **state)
{
    size_t len, glen;
    char *body = slurp(FIX "one.sarif", &len);
    unsigned char *gz = gzip(body, len, &glen);
    tu_http h = post("hpy", "?category=gz", g_ci, gz, glen);
    json_t *doc = json_loads(h.body, 0, NULL), *r;

    assert_int_equal(h.status, 201);
    r = run_of(json_object_get(doc, "runs"), "lintB", "gz");
    assert_non_null(r);
    assert_int_equal(num(r, "findings"), 2);
    assert_int_equal(num(r, "unmapped"), 0);
    tu_http_free(&h);
    h = post("hpy", NULL, g_ci, gz, glen / 2);           /* truncated */
    assert_int_equal(h.status, 400);
    assert_non_null(strstr(h.body, "gzip"));
    tu_http_free(&h);
    json_decref(doc);
    free(gz);
    free(body);
}

static void test_second_upload_of_tool_and_category_replaces_the_first(void **state)
{
    json_t *a = post_file("hpy", NULL, FIX "one.sarif", 201);
    json_t *b, *list, *d, *r;

    assert_int_equal(num(run_of(json_object_get(a, "runs"), "lintB", ""), "results"), 2);
    d = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    assert_int_equal(findings(d, "lintB", NULL, NULL), 2 + 2);   /* and category gz */
    json_decref(d);
    b = post_file("hpy", NULL, FIX "one_v2.sarif", 201);
    list = get("/api/v1/repos/demo/commits/hpy/sarif", 200);
    r = run_of(json_object_get(list, "runs"), "lintB", "");
    assert_non_null(r);
    assert_int_equal(num(r, "results"), 1);
    assert_int_equal(num(run_of(json_object_get(list, "runs"), "lintB", "gz"), "results"), 2);
    assert_int_equal(json_array_size(json_object_get(list, "runs")), 3 + 2);
    d = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    assert_int_equal(findings(d, "lintB", NULL, NULL), 1 + 2);
    json_decref(d);
    json_decref(list);
    json_decref(a);
    json_decref(b);
}

/* The stored fingerprints of the result of `tool` with `message` at `rev`. */
static json_t *stored_fingerprints(const char *tool, const char *message, const char *rev)
{
    char *s = tu_sh_out("sqlite3 '%s' \"SELECT r.fingerprints FROM sarif_results r JOIN "
                        "sarif_runs s ON s.id = r.run_id JOIN refs f ON f.commit_id = "
                        "s.commit_id WHERE s.tool = '%s' AND r.message = '%s' AND "
                        "f.name = '%s' AND s.category = ''\"", g_site.db, tool, message, rev);
    json_t *doc = json_loads(s, 0, NULL);

    if (!doc)
        fail_msg("no fingerprints for %s/%s at %s: '%s'", tool, message, rev, s);
    free(s);
    return doc;
}

static void test_fingerprints_are_kept_and_follow_line_moves(void **state)
{
    json_t *c = stored_fingerprints("clang", "Dereference of null pointer", "hpy");
    json_t *v1, *v2, *rep;

    assert_string_equal(json_string_value(json_object_get(c, "hash/v1")), "abc123");
    assert_int_equal(strlen(json_string_value(json_object_get(c, "portdash/v1"))), 32);
    /* one_v2 at line 39, one at line 38 of the same function: same fingerprint */
    rep = post_file("hpy-convert-object-dtype", NULL, FIX "one.sarif", 201);
    v1 = stored_fingerprints("lintB", "second", "hpy-convert-object-dtype");
    v2 = stored_fingerprints("lintB", "second", "hpy");
    assert_string_equal(json_string_value(json_object_get(v1, "portdash/v1")),
                        json_string_value(json_object_get(v2, "portdash/v1")));
    json_decref(rep);
    json_decref(c);
    json_decref(v1);
    json_decref(v2);
}

static void test_cli_imports_from_stdin(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    char *out = tu_sh_out("gzip -c " FIX "one.sarif | '%s/../portdash' import-sarif "
                          "--db '%s' --repo demo --rev hpy --category cli - 2>&1",
                          fx ? fx : "build-san/fixtures", g_site.db);

    assert_string_equal(out, "lintB / cli: 2 results, 2 findings, 0 unmapped\n");
    free(out);
    out = tu_sh_out("'%s/../portdash' import-sarif --db '%s' --repo demo --rev nope "
                    FIX "one.sarif 2>&1; echo \"rc=$?\"", fx ? fx : "build-san/fixtures",
                    g_site.db);
    assert_non_null(strstr(out, "nope"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
    /* a bad run: kept what it could, warned on stderr, exit status 0 */
    out = tu_sh_out("printf '%%s' '{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                    "{\"name\":\"cliT\"}}},{\"tool\":{\"driver\":{\"name\":null}}}]}' | "
                    "'%s/../portdash' import-sarif --db '%s' --repo demo --rev hpy - 2>&1; "
                    "echo \"rc=$?\"", fx ? fx : "build-san/fixtures", g_site.db);
    assert_string_equal(out, "cliT: 0 results, 0 findings, 0 unmapped\n"
                        "portdash import-sarif: warning: /runs/1/tool/driver/name: must be "
                        "a string (run skipped)\nrc=0\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_upload_needs_a_token_with_scope_sarif),
        cmocka_unit_test(test_several_runs_are_kept_by_tool_and_category),
        cmocka_unit_test(test_locations_map_to_files_and_functions),
        cmocka_unit_test(test_percent_encoded_path_maps_to_the_file),
        cmocka_unit_test(test_kind_pass_is_not_a_finding),
        cmocka_unit_test(test_summary_counts_findings_per_tool),
        cmocka_unit_test(test_unreadable_logs_are_refused_naming_the_problem),
        cmocka_unit_test(test_a_bad_run_is_skipped_and_the_others_kept),
        cmocka_unit_test(test_a_bad_result_is_skipped_and_the_others_kept),
        cmocka_unit_test(test_a_bad_property_is_ignored_and_the_result_kept),
        cmocka_unit_test(test_rule_index_past_the_rules_falls_back_to_rule_id),
        cmocka_unit_test(test_warnings_past_a_hundred_are_counted),
        cmocka_unit_test(test_oversize_bodies_get_413),
        cmocka_unit_test(test_gzip_body_is_inflated),
        cmocka_unit_test(test_second_upload_of_tool_and_category_replaces_the_first),
        cmocka_unit_test(test_fingerprints_are_kept_and_follow_line_moves),
        cmocka_unit_test(test_cli_imports_from_stdin),
    };

    return cmocka_run_group_tests(tests, sarif_setup, sarif_teardown);
}
