/*
 * test_sarif.c: SARIF uploads (POST .../commits/{rev}/sarif) against a real
 * server on a free loopback port serving the toyport fixture, with the
 * logs of tests/fixtures/sarif/.  Each case checks one rule of the import:
 * tokens, the mapping of locations to files and functions, kinds and
 * levels, replacement, size limits, gzip and the CLI.  What happens to
 * logs with bad parts, result kinds, Windows paths and filters is
 * test_sarif_tolerant.c.
 */
#include "sarif_tu.h"

#include <zlib.h>

#include "sarif_import.h"

/* Header capture for the one case that needs WWW-Authenticate. */
static size_t www_auth_header(char *p, size_t size, size_t n, void *arg)
{
    if (size * n > 17 && strncasecmp(p, "WWW-Authenticate:", 17) == 0)
        *(int *)arg = 1;
    return size * n;
}

static void test_upload_needs_a_token_with_permission_sarif(void **state)
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
    unsigned char *bomb = gzip(NULL, SARIF_MAX_INFLATED + 1, &glen);
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
                          "--db '%s' --name demo --rev hpy --category cli - 2>&1",
                          fx ? fx : "build-san/fixtures", g_site.db);

    assert_string_equal(out, "lintB / cli: 2 results, 2 findings, 0 unmapped\n");
    free(out);
    /* a pipe named as FILE is read twice too (copied first, as stdin is) */
    out = tu_sh_out("d=$(mktemp -d) && mkfifo \"$d/p\" && { gzip -c " FIX "one.sarif > "
                    "\"$d/p\" & } && '%s/../portdash' import-sarif --db '%s' --name demo "
                    "--rev hpy --category fifo \"$d/p\" 2>&1; rm -rf \"$d\"",
                    fx ? fx : "build-san/fixtures", g_site.db);
    assert_string_equal(out, "lintB / fifo: 2 results, 2 findings, 0 unmapped\n");
    free(out);
    out = tu_sh_out("'%s/../portdash' import-sarif --db '%s' --name demo --rev nope "
                    FIX "one.sarif 2>&1; echo \"rc=$?\"", fx ? fx : "build-san/fixtures",
                    g_site.db);
    assert_non_null(strstr(out, "nope"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
    /* a bad run: kept what it could, warned on stderr, exit status 0 */
    out = tu_sh_out("printf '%%s' '{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                    "{\"name\":\"cliT\"}}},{\"tool\":{\"driver\":{\"name\":null}}}]}' | "
                    "'%s/../portdash' import-sarif --db '%s' --name demo --rev hpy - 2>&1; "
                    "echo \"rc=$?\"", fx ? fx : "build-san/fixtures", g_site.db);
    assert_string_equal(out, "cliT: 0 results, 0 findings, 0 unmapped\n"
                        "portdash import-sarif: warning: /runs/1/tool/driver/name: must be "
                        "a string (run skipped)\nrc=0\n");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_upload_needs_a_token_with_permission_sarif),
        cmocka_unit_test(test_several_runs_are_kept_by_tool_and_category),
        cmocka_unit_test(test_locations_map_to_files_and_functions),
        cmocka_unit_test(test_percent_encoded_path_maps_to_the_file),
        cmocka_unit_test(test_kind_pass_is_not_a_finding),
        cmocka_unit_test(test_summary_counts_findings_per_tool),
        cmocka_unit_test(test_oversize_bodies_get_413),
        cmocka_unit_test(test_gzip_body_is_inflated),
        cmocka_unit_test(test_second_upload_of_tool_and_category_replaces_the_first),
        cmocka_unit_test(test_fingerprints_are_kept_and_follow_line_moves),
        cmocka_unit_test(test_cli_imports_from_stdin),
    };

    return cmocka_run_group_tests(tests, sarif_setup, sarif_teardown);
}
