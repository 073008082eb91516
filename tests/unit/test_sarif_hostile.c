/*
 * test_sarif_hostile.c: SARIF uploads built to hurt (issue 27).  Every
 * stored field is bounded, not only messages and URIs: a 7.9 MiB rule id
 * named by ruleIndex in every result once made 8.3 KB of gzip into a
 * 498 MB database and a 248 MB file page; fingerprints were uncounted.
 * Bytes that are not UTF-8 are kept with U+FFFD and a warning, the same in
 * every reader.  A log of which nothing could be kept is refused (422 over
 * HTTP, exit 1 from the CLI) with the warnings, and stores nothing.
 */
#include "testutil.h"

#include <zlib.h>

#include "db.h"
#include "db_token.h"
#include "sarif_import.h"

static tu_site g_site;
static char g_ci[DB_TOKEN_LEN + 1];

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "hostile.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_ci, "ci", "sarif") < 0;
    db_close(db);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* A growing string. */
typedef struct {
    char *s;
    size_t len, cap;
} hb;

static void hb_add(hb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void hb_add(hb *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (b->len + (size_t)n + 1 > b->cap) {
        b->cap = (b->len + (size_t)n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    va_start(ap, fmt);
    vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* `n` copies of character c. */
static void hb_fill(hb *b, char c, size_t n)
{
    if (b->len + n + 1 > b->cap) {
        b->cap = (b->len + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memset(b->s + b->len, c, n);
    b->len += n;
    b->s[b->len] = '\0';
}

/* gzip of len bytes at s into *out (malloc'd); its length. */
static size_t gz(const char *s, size_t len, unsigned char **out)
{
    uLongf cap = compressBound(len) + 64;
    z_stream z = {0};

    *out = malloc(cap);
    assert_non_null(*out);
    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)s;
    z.avail_in = (uInt)len;
    z.next_out = *out;
    z.avail_out = (uInt)cap;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    deflateEnd(&z);
    return z.total_out;
}

static tu_http upload(const void *body, size_t len, const char *category)
{
    char auth[128], url[512];
    const char *hdr[] = {auth, "Content-Type: application/json", NULL};

    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_ci);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif?category=%s",
             g_site.base, category);
    return tu_post(url, hdr, body, len);
}

static long long scalar(const char *sql)
{
    char *out = tu_sh_out("sqlite3 '%s' \"%s\"", g_site.db, sql);
    long long n = atoll(out);

    free(out);
    return n;
}

/* Bytes of every text column SARIF uploads store. */
static long long stored_text(void)
{
    return scalar("SELECT (SELECT coalesce(sum(length(rule_id)), 0) FROM sarif_rules) + "
                  "(SELECT coalesce(sum(length(message) + length(fingerprints) + "
                  "coalesce(length(path), 0)), 0) FROM sarif_results) + "
                  "(SELECT coalesce(sum(length(tool) + length(category) + "
                  "coalesce(length(tool_version), 0)), 0) FROM sarif_runs)");
}

/* The log: one rule whose id is 7.9 MiB, named by ruleIndex from
 * `nres` results at src/refcount.c. */
static void test_a_huge_rule_id_is_not_stored_per_result(void **state)
{
    hb b = {0};
    unsigned char *z = NULL;
    size_t zlen, i;
    long long before = stored_text();
    tu_http h;
    json_t *page;

    hb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"amp\","
           "\"rules\":[{\"id\":\"");
    hb_fill(&b, 'R', (size_t)79 * 1048576 / 10);        /* 7.9 MiB */
    hb_add(&b, "\"}]}},\"results\":[");
    for (i = 0; i < 60; i++)
        hb_add(&b, "%s{\"ruleIndex\":0,\"message\":{\"text\":\"m\"},\"locations\":[{"
               "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/refcount.c\"},"
               "\"region\":{\"startLine\":3}}}]}", i ? "," : "");
    hb_add(&b, "]}]}");
    zlen = gz(b.s, b.len, &z);
    assert_true(zlen < 16384);                           /* 8.3 KB in the issue */
    h = upload(z, zlen, "amp");
    /* Kept, without the rule: each result says so, the rule too. */
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"rule ignored\""));
    assert_non_null(strstr(h.body, "names a rule id longer than 1024 bytes"));
    assert_non_null(strstr(h.body, "\"results\":60"));
    tu_http_free(&h);
    /* 498 MB before; now the results' own few bytes. */
    assert_true(stored_text() - before < 60 * 200);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_rules"), 0);
    /* and the file page is small */
    page = tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    assert_true(json_integer_value(json_object_get(page, "findings_total")) >= 60);
    json_decref(page);
    free(z);
    free(b.s);
}

/* A rule id within the bound, named by 500 results, is stored once. */
static void test_a_repeated_rule_is_stored_once(void **state)
{
    hb b = {0};
    size_t i;
    tu_http h;

    hb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"rep\","
           "\"rules\":[{\"id\":\"");
    hb_fill(&b, 'Q', 1000);
    hb_add(&b, "\"}]}},\"results\":[");
    for (i = 0; i < 500; i++)
        hb_add(&b, "%s{\"ruleIndex\":0,\"message\":{\"text\":\"m\"}}", i ? "," : "");
    hb_add(&b, "]}]}");
    h = upload(b.s, b.len, "rep");
    assert_int_equal(h.status, 201);
    tu_http_free(&h);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_rules u JOIN sarif_runs r ON "
                            "r.id = u.run_id WHERE r.tool = 'rep'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id JOIN sarif_rules u ON u.id = s.rule WHERE "
                            "r.tool = 'rep' AND length(u.rule_id) = 1000"), 500);
    free(b.s);
}

/* partialFingerprints were not counted (111 KB became 103 MB): a value
 * past SARIF_MAX_NAME, or more than SARIF_MAX_FINGERPRINTS members, and
 * they are ignored with a warning; the result is kept. */
static void test_fingerprints_are_bounded(void **state)
{
    hb b = {0};
    long long before = stored_text();
    size_t i;
    tu_http h;

    hb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"fp\"}},"
           "\"results\":[{\"message\":{\"text\":\"big\"},\"partialFingerprints\":{\"a\":\"");
    hb_fill(&b, 'F', 100000);
    hb_add(&b, "\"}},{\"message\":{\"text\":\"many\"},\"partialFingerprints\":{");
    for (i = 0; i < 40; i++)
        hb_add(&b, "%s\"k%zu\":\"v\"", i ? "," : "", i);
    hb_add(&b, "}}]}]}");
    h = upload(b.s, b.len, "fp");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "/runs/0/results/0/partialFingerprints/a"));
    assert_non_null(strstr(h.body, "is longer than 1024 bytes"));
    assert_non_null(strstr(h.body, "has more than 32 members"));
    assert_non_null(strstr(h.body, "\"results\":2"));
    tu_http_free(&h);
    assert_true(stored_text() - before < 1000);
    free(b.s);
}

/* Within every per-field bound, a log can still store much: the whole is
 * bounded too, and past it the log is refused and nothing stored. */
static void test_what_a_log_stores_is_bounded(void **state)
{
    hb b = {0};
    unsigned char *z = NULL;
    size_t zlen, i, k;
    long long runs = scalar("SELECT count(*) FROM sarif_runs");
    long long rows = scalar("SELECT count(*) FROM sarif_results");
    tu_http h;

    /* 4,400 results x 32 fingerprints of 1,000 bytes: 140 MB stored. */
    hb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"all\"}},"
           "\"results\":[");
    for (i = 0; i < 4400; i++) {
        hb_add(&b, "%s{\"message\":{\"text\":\"m\"},\"partialFingerprints\":{", i ? "," : "");
        for (k = 0; k < 32; k++) {
            hb_add(&b, "%s\"k%zu\":\"", k ? "," : "", k);
            hb_fill(&b, 'x', 1000);
            hb_add(&b, "\"");
        }
        hb_add(&b, "}}");
    }
    hb_add(&b, "]}]}");
    zlen = gz(b.s, b.len, &z);
    h = upload(z, zlen, "all");
    assert_int_equal(h.status, 400);
    assert_non_null(strstr(h.body, "what the log stores"));
    assert_non_null(strstr(h.body, "passes 128 MiB here"));
    tu_http_free(&h);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_runs"), runs);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results"), rows);
    free(z);
    free(b.s);
}

/* One page of a file carries at most SARIF_SHOWN_TEXT bytes of each
 * finding's text, and the page of findings only. */
static void test_a_file_page_is_bounded(void **state)
{
    hb b = {0};
    size_t i;
    tu_http h;
    json_t *page, *f;
    const char *text;

    hb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"long\"}},"
           "\"results\":[");
    for (i = 0; i < 30; i++) {
        hb_add(&b, "%s{\"message\":{\"text\":\"", i ? "," : "");
        hb_fill(&b, 'L', 60000);
        hb_add(&b, "\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
               "\"src/refcount.c\"}}}]}");
    }
    hb_add(&b, "]}]}");
    h = upload(b.s, b.len, "long");
    assert_int_equal(h.status, 201);
    tu_http_free(&h);
    page = tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/files/src/refcount.c?"
                       "tool=long", 200);
    assert_int_equal(json_array_size(json_object_get(page, "findings")), 30);
    f = json_array_get(json_object_get(page, "findings"), 0);
    text = json_string_value(json_object_get(f, "text"));
    assert_int_equal(strlen(text), SARIF_SHOWN_TEXT);
    assert_true(json_is_true(json_object_get(f, "text_truncated")));
    json_decref(page);
    /* a later page reads only its rows */
    page = tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/files/src/refcount.c?"
                       "per_page=5&page=2", 200);
    assert_int_equal(json_array_size(json_object_get(page, "findings")), 5);
    json_decref(page);
    free(b.s);
}

/* A "\u0000" in a kept string or name costs that value, not the log: it is
 * shown as U+FFFD with a warning at its pointer, and a path holding one
 * maps to no file (a trial had the whole log refused, "\u0000 is not
 * allowed in a string", with no pointer).  A log that starts with a UTF-8
 * byte order mark is read (RFC 8259 section 8.1). */
static void test_nul_characters_and_a_byte_order_mark(void **state)
{
    const char *nul = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"nul\"}},\"results\":[{\"message\":{\"text\":\"m\"},\"locations\":[{"
        "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/ref\\u0000count.c\"}}}]},"
        "{\"message\":{\"text\":\"n\"},\"partialFingerprints\":{\"k\\u0000\":\"v\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
        "\"src/refcount.c\"},\"region\":{\"startLine\":2}}}]}]}]}";
    const char *bom = "\xEF\xBB\xBF{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
        "{\"name\":\"bom\"}},\"results\":[{\"message\":{\"text\":\"m\"}}]}]}";
    tu_http h;

    h = upload(nul, strlen(nul), "nul");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/results/0/locations/0/"
                                   "physicalLocation/artifactLocation/uri\""));
    assert_non_null(strstr(h.body, "holds \\\\u0000 (1 time), which no path or text may hold"));
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/results/1/partialFingerprints/"
                                   "k\xEF\xBF\xBD\""));
    assert_non_null(strstr(h.body, "\"results\":2"));
    assert_non_null(strstr(h.body, "\"unmapped\":1"));
    tu_http_free(&h);

    h = upload(bom, strlen(bom), "bom");
    if (h.status != 201)
        fail_msg("a log after a byte order mark: %ld %s", h.status, h.body);
    tu_http_free(&h);
    /* a mark anywhere else is no JSON */
    h = upload(bom + 3, 5, "bom2");
    assert_int_equal(h.status, 400);
    tu_http_free(&h);
}

/* The three cases of bytes that are not UTF-8. */
static void test_bytes_that_are_not_utf8(void **state)
{
    /* "%FF.c": percent-escapes decode to the path's bytes, as git's names
     * are; no such file here, so the result is kept, not at a file. */
    const char *pct = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"pct\"}},\"results\":[{\"message\":{\"text\":\"m\"},\"locations\":[{"
        "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%FF.c\"}}}]}]}]}";
    /* C0 AF: an overlong '/' in the tool name, E0 80 AF in a message */
    const char *tool = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"to\xC0\xAFol\"}},\"results\":[{\"message\":{\"text\":\"m\"}}]}]}";
    const char *msg = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"msg\"}},\"results\":[{\"message\":{\"text\":\"a\xE0\x80\xAFz\"},\"locations\":[{"
        "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/refcount.c\"},"
        "\"region\":{\"startLine\":2}}}]}]}]}";
    const char *raw = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"raw\"}},\"results\":[{\"message\":{\"text\":\"{0}{1}\",\"arguments\":[\"ok\","
        "\"b\xC0" "d\"]},\"partialFingerprints\":{\"k\xFF\":\"v\"}}]}]}";
    tu_http h;
    json_t *d, *fs, *f;
    size_t i, n = 0;
    char *text;
    const char *fffd = "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBDz";

    h = upload(pct, strlen(pct), "pct");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"unmapped\":1"));
    tu_http_free(&h);

    h = upload(tool, strlen(tool), "tool");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/tool/driver/name\""));
    assert_non_null(strstr(h.body, "is not valid UTF-8 (RFC 3629): 2 bytes"));
    assert_non_null(strstr(h.body, "\"tool\":\"to\xEF\xBF\xBD\xEF\xBF\xBDol\""));
    tu_http_free(&h);

    h = upload(msg, strlen(msg), "msg");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/results/0/message/text\""));
    tu_http_free(&h);
    /* bytes yajl itself would refuse (a lead byte without its continuation)
     * take the same way, not "invalid JSON": one decision for every form */
    h = upload(raw, strlen(raw), "raw");
    assert_int_equal(h.status, 201);
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/results/0/message/arguments/1\""));
    assert_non_null(strstr(h.body, "\"pointer\":\"/runs/0/results/0/partialFingerprints/"
                                   "k\xEF\xBF\xBD\""));
    tu_http_free(&h);
    /* shown on the file page and counted in findings_total, as in the
     * commit summary */
    d = tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/files/src/refcount.c?tool=msg",
                    200);
    fs = json_object_get(d, "findings");
    json_array_foreach(fs, i, f)
        n += strcmp(json_string_value(json_object_get(f, "text")), fffd) == 0;
    assert_int_equal(n, 1);
    json_decref(d);
    d = tu_site_get(&g_site, "/api/v1/repos/demo/commits/hpy/sarif", 200);
    text = json_dumps(d, 0);
    assert_non_null(strstr(text, "to\xEF\xBF\xBD\xEF\xBF\xBDol"));
    free(text);
    json_decref(d);
}

/* The CLI reads the same way: "%FF.c" is not "out of memory". */
static void test_cli_reads_the_same(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    char *out = tu_sh_out("printf '%%s' '{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
                          "{\"name\":\"clipct\"}},\"results\":[{\"message\":{\"text\":\"m\"},"
                          "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
                          "\"%%FF.c\"}}}]}]}]}' | '%s/../portdash' import-sarif --db '%s' "
                          "--name demo --rev hpy - 2>&1; echo \"exit $?\"",
                          fx ? fx : "build-san/fixtures", g_site.db);

    assert_string_equal(out, "clipct: 1 results, 1 findings, 1 unmapped\nexit 0\n");
    free(out);
}

/* The log: no run can be read.  422 with the warnings, over HTTP;
 * exit 1 with them, from the CLI; nothing stored, earlier runs kept. */
static void test_a_log_of_which_nothing_is_kept_is_refused(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[{}]}]}";
    const char *fx = getenv("PORTDASH_FIXTURES");
    long long runs = scalar("SELECT count(*) FROM sarif_runs");
    tu_http h = upload(log, strlen(log), "none");
    json_t *d = json_loads(h.body, 0, NULL);
    char *out;

    assert_int_equal(h.status, 422);
    assert_string_equal(tu_header(&h, "Content-Type"), "application/problem+json");
    assert_non_null(strstr(json_string_value(json_object_get(d, "detail")),
                           "nothing of the log could be kept"));
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(json_object_get(d, "warnings"), 0), "pointer")), "/runs/0/tool");
    json_decref(d);
    tu_http_free(&h);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_runs"), runs);
    out = tu_sh_out("printf '%%s' '%s' | '%s/../portdash' import-sarif --db '%s' --name demo "
                    "--rev hpy - 2>&1; echo \"exit $?\"", log,
                    fx ? fx : "build-san/fixtures", g_site.db);
    assert_non_null(strstr(out, "warning: /runs/0/tool: required property missing "
                           "(run skipped)"));
    assert_non_null(strstr(out, "nothing of the log could be kept"));
    assert_non_null(strstr(out, "exit 1"));
    free(out);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_runs"), runs);
    /* a log with no runs at all has nothing to lose: still 201 */
    h = upload("{\"version\":\"2.1.0\",\"runs\":[]}", 29, "empty");
    assert_int_equal(h.status, 201);
    tu_http_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_huge_rule_id_is_not_stored_per_result),
        cmocka_unit_test(test_a_repeated_rule_is_stored_once),
        cmocka_unit_test(test_fingerprints_are_bounded),
        cmocka_unit_test(test_what_a_log_stores_is_bounded),
        cmocka_unit_test(test_a_file_page_is_bounded),
        cmocka_unit_test(test_bytes_that_are_not_utf8),
        cmocka_unit_test(test_nul_characters_and_a_byte_order_mark),
        cmocka_unit_test(test_cli_reads_the_same),
        cmocka_unit_test(test_a_log_of_which_nothing_is_kept_is_refused),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
