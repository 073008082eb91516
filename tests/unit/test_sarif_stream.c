/*
 * test_sarif_stream.c: SARIF import as a stream (issue 13).  A run's
 * results may come before its tool, rules, artifacts and base URIs (JSON
 * leaves member order free) and are read the same; a log that stops being
 * JSON is refused with the byte where it did and stores nothing; results
 * go to the store in batches, across whose boundaries nothing is lost or
 * doubled; what one result or one token may hold in memory is bounded.
 * The memory of a whole import is checked by tests/bench/sarif.sh.
 */
#include "testutil.h"

#include <zlib.h>

#include "db.h"
#include "sarif_import.h"
#include "sarif_log.h"

static tu_site g_site;

static int setup(void **state)
{
    tu_site_init(&g_site, "stream.db");
    return tu_site_ingest(&g_site, "toyport", "demo", "hpy");
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
} sb;

static void sb_add(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_add(sb *b, const char *fmt, ...)
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

/* Import `len` bytes for demo at hpy; *rep_json the report (NULL: not
 * wanted).  Returns the import's code. */
static int import(const char *log, size_t len, json_t **rep_json)
{
    sarif_import_options opt = {"demo", "hpy", NULL, NULL};
    sarif_import_report *rep = NULL;
    sqlite3 *db = NULL;
    int rc;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    rc = sarif_import(&rep, db, &opt, log, len, NULL);
    if (rep_json)
        *rep_json = rc == 0 ? sarif_import_report_json(rep) : NULL;
    sarif_import_report_free(rep);
    db_close(db);
    return rc;
}

/* Every stored result, one line each, in a fixed order (caller frees). */
static char *rows(void)
{
    return tu_sh_out("sqlite3 '%s' \"SELECT r.tool, r.category, r.tool_version, r.results, "
                     "r.findings, r.unmapped, s.idx, s.path, s.line, s.col, u.rule_id, "
                     "s.level, s.kind, s.message, s.function, s.fingerprints FROM "
                     "sarif_results s JOIN sarif_runs r ON r.id = s.run_id LEFT JOIN "
                     "sarif_rules u ON u.id = s.rule ORDER BY r.tool, "
                     "r.category, s.idx\"", g_site.db);
}

static long long scalar(const char *sql)
{
    char *out = tu_sh_out("sqlite3 '%s' \"%s\"", g_site.db, sql);
    long long n = atoll(out);

    free(out);
    return n;
}

static const char *warning(json_t *rep, size_t i, const char *key)
{
    return json_string_value(json_object_get(json_array_get(json_object_get(rep,
                                                            "warnings"), i), key));
}

/* A run's own parts and its results, to be put in either order. */
#define ORD_TOOL(name) "\"tool\":{\"driver\":{\"name\":\"" name "\",\"semanticVersion\":5," \
    "\"rules\":[{\"id\":\"R0\",\"defaultConfiguration\":{\"level\":\"error\"}}," \
    "{\"id\":\"R1\",\"messageStrings\":{\"m\":{\"text\":\"rule says {0}\"}}}]}}"
#define ORD_META "\"automationDetails\":{\"id\":\"nightly/42\"}," \
    "\"artifacts\":[{\"location\":{\"uri\":\"toyarray.c\",\"uriBaseId\":\"SRC\"}}]," \
    "\"originalUriBaseIds\":{\"SRC\":{\"uri\":\"src/\"}}"
#define ORD_RESULTS "\"results\":[{\"ruleIndex\":0,\"message\":{\"text\":\"a\"}," \
    "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"index\":0}," \
    "\"region\":{\"startLine\":3}}}]},{\"ruleId\":\"R1\"},{\"ruleId\":\"R1\"," \
    "\"message\":{\"id\":\"m\",\"arguments\":[\"x\"]},\"locations\":[{\"physicalLocation\":" \
    "{\"artifactLocation\":{\"uri\":\"refcount.c\",\"uriBaseId\":\"SRC\"}}}]}]"

static void test_results_before_the_tool_read_the_same(void **state)
{
    const char *first = "{\"version\":\"2.1.0\",\"runs\":["
        "{" ORD_TOOL("order") "," ORD_META "," ORD_RESULTS "},"
        "{" ORD_TOOL("order2") "," ORD_META "," ORD_RESULTS "}]}";
    /* results first, the run's own parts after, the version last */
    const char *last = "{\"runs\":["
        "{" ORD_RESULTS "," ORD_META "," ORD_TOOL("order") "},"
        "{" ORD_RESULTS "," ORD_TOOL("order2") "," ORD_META "}],\"version\":\"2.1.0\"}";
    json_t *a, *b;
    char *ra, *rb;

    assert_int_equal(import(first, strlen(first), &a), 0);
    ra = rows();
    assert_int_equal(import(last, strlen(last), &b), 0);   /* replaces the same runs */
    rb = rows();
    assert_string_equal(ra, rb);
    assert_true(json_equal(a, b));
    /* A run's own warnings, then its results', run after run. */
    assert_int_equal(json_array_size(json_object_get(b, "warnings")), 4);
    assert_string_equal(warning(b, 0, "pointer"), "/runs/0/tool/driver/semanticVersion");
    assert_string_equal(warning(b, 0, "action"), "semanticVersion ignored");
    assert_string_equal(warning(b, 1, "pointer"), "/runs/0/results/1/message");
    assert_string_equal(warning(b, 1, "action"), "result skipped");
    assert_string_equal(warning(b, 2, "pointer"), "/runs/1/tool/driver/semanticVersion");
    assert_string_equal(warning(b, 3, "pointer"), "/runs/1/results/1/message");
    /* The rule's level, the artifact index and the base URI all applied. */
    assert_non_null(strstr(rb, "order|nightly||2|2|0|0|src/toyarray.c|3||R0|error|fail|a|"));
    assert_non_null(strstr(rb, "order|nightly||2|2|0|2|src/refcount.c|||R1|warning|fail|"
                               "rule says x|"));
    free(ra);
    free(rb);
    json_decref(a);
    json_decref(b);
}

/* A log of `n` results of tool `tool`, one per line; result i is bad (no
 * message) when bad(i). */
static void many(sb *b, const char *tool, size_t n, int (*bad)(size_t))
{
    size_t i;

    sb_add(b, "{\"tool\":{\"driver\":{\"name\":\"%s\"}},\"results\":[", tool);
    for (i = 0; i < n; i++) {
        if (bad && bad(i))
            sb_add(b, "%s\n{\"ruleId\":\"B\"}", i ? "," : "");
        else
            sb_add(b, "%s\n{\"ruleId\":\"B\",\"message\":{\"text\":\"result %zu\"},"
                   "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
                   "{\"uri\":\"src/refcount.c\"},\"region\":{\"startLine\":%zu}}}]}",
                   i ? "," : "", i, 1 + i % 40);
    }
    sb_add(b, "]}");
}

static int at_the_boundary(size_t i)
{
    return i == SARIF_BATCH - 1 || i == SARIF_BATCH;
}

static void test_batches_lose_and_double_nothing(void **state)
{
    size_t n = 2 * SARIF_BATCH + 3, expect_sum = n * (n - 1) / 2 - (2 * SARIF_BATCH - 1);
    sb b = {0};
    json_t *rep;

    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[");
    many(&b, "batch", n, at_the_boundary);
    sb_add(&b, ",");
    many(&b, "after", 3, NULL);
    sb_add(&b, "]}");
    assert_int_equal(import(b.s, b.len, &rep), 0);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'batch'"), (long long)n - 2);
    assert_int_equal(scalar("SELECT count(DISTINCT s.idx) FROM sarif_results s JOIN "
                            "sarif_runs r ON r.id = s.run_id WHERE r.tool = 'batch'"),
                     (long long)n - 2);
    assert_int_equal(scalar("SELECT sum(s.idx) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'batch'"), (long long)expect_sum);
    assert_int_equal(scalar("SELECT results FROM sarif_runs WHERE tool = 'batch'"),
                     (long long)n - 2);
    /* The next run's results are its own, not the last batch's. */
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'after' AND s.message LIKE "
                            "'result _'"), 3);
    assert_int_equal(json_array_size(json_object_get(rep, "warnings")), 2);
    assert_int_equal(atoi(warning(rep, 0, "pointer") + strlen("/runs/0/results/")),
                     SARIF_BATCH - 1);
    assert_int_equal(atoi(warning(rep, 1, "pointer") + strlen("/runs/0/results/")),
                     SARIF_BATCH);
    json_decref(rep);
    free(b.s);
}

/* The message of the last failed import must name line, column and byte. */
static void expect_bad_at(size_t line, size_t col, size_t byte, const char *what)
{
    char want[128];

    snprintf(want, sizeof(want), "invalid JSON at line %zu, column %zu (byte %zu): ",
             line, col, byte);
    if (strncmp(pd_error_last(), want, strlen(want)) != 0 ||
        !strstr(pd_error_last(), what))
        fail_msg("error '%s', want '%s%s'", pd_error_last(), want, what);
}

static void test_a_broken_stream_stores_nothing_and_says_where(void **state)
{
    size_t n = 3 * SARIF_BATCH, cut, bad;
    sb b = {0};
    char *before, *after, *p;

    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[");
    many(&b, "broken", n, NULL);
    sb_add(&b, "]}");
    assert_int_equal(import(b.s, b.len, NULL), 0);
    before = rows();
    /* Cut short: the end of the bytes is where it broke. */
    cut = b.len - 20;
    assert_int_equal(import(b.s, cut, NULL), PD_EINVAL);
    p = memrchr(b.s, '\n', cut);
    expect_bad_at(n + 1, cut - (size_t)(p - b.s), cut, "premature EOF");
    /* A bad byte at result 600 (line 602): that byte is named. */
    p = strstr(b.s, "result 600\"");
    bad = (size_t)(p - b.s) - 1;
    b.s[bad] = '!';                                  /* the string's opening quote */
    assert_int_equal(import(b.s, b.len, NULL), PD_EINVAL);
    expect_bad_at(602, bad - (size_t)(memrchr(b.s, '\n', bad) - (void *)b.s), bad,
                  "invalid char");
    after = rows();
    assert_string_equal(before, after);              /* nothing of either is stored */
    free(before);
    free(after);
    free(b.s);
}

static void test_an_over_large_result_is_skipped_and_the_rest_kept(void **state)
{
    sb b = {0};
    json_t *rep;
    char *arg = malloc(50001);
    int i;

    memset(arg, 'a', 50000);
    arg[50000] = '\0';
    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"huge\"}},"
           "\"results\":[{\"message\":{\"text\":\"small\"}},{\"message\":{\"text\":\"{0}\","
           "\"arguments\":[");
    for (i = 0; i < 30; i++)                         /* 1.5 MB that would be read */
        sb_add(&b, "%s\"%s\"", i ? "," : "", arg);
    sb_add(&b, "]}},{\"message\":{\"text\":\"long flow\"},\"codeFlows\":[");
    for (i = 0; i < 40; i++)                         /* 2 MB that is not read */
        sb_add(&b, "%s{\"message\":{\"text\":\"%s\"}}", i ? "," : "", arg);
    sb_add(&b, "]}]}]}");
    assert_int_equal(import(b.s, b.len, &rep), 0);
    assert_int_equal(json_array_size(json_object_get(rep, "warnings")), 1);
    assert_string_equal(warning(rep, 0, "pointer"), "/runs/0/results/1");
    assert_string_equal(warning(rep, 0, "problem"),
                        "the properties portdash reads pass 1024 KiB in memory");
    assert_string_equal(warning(rep, 0, "action"), "result skipped");
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'huge' AND s.idx IN (0, 2)"), 2);
    json_decref(rep);
    free(arg);
    free(b.s);
}

static void test_tokens_and_nesting_are_bounded(void **state)
{
    size_t big = SARIF_MAX_TOKEN + 16, i, start;
    sb b = {0};

    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"tok\"}},"
           "\"results\":[{\"message\":{\"text\":\"x\"},\"properties\":{\"blob\":\"");
    start = b.len - 1;                               /* the opening quote */
    for (i = 0; i < big; i += 64)
        sb_add(&b, "%s", "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    sb_add(&b, "\"}}]}]}");
    assert_int_equal(import(b.s, b.len, NULL), PD_EINVAL);
    expect_bad_at(1, start + SARIF_MAX_TOKEN + 1, start + SARIF_MAX_TOKEN,
                  "a string or number longer than 8 MiB");
    b.len = 0;
    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"deep\"}},"
           "\"properties\":");
    for (i = 0; i < SARIF_MAX_DEPTH; i++)
        sb_add(&b, "[");
    assert_int_equal(import(b.s, b.len, NULL), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "deeper than 2048"));
    assert_int_equal(scalar("SELECT count(*) FROM sarif_runs WHERE tool IN ('tok', 'deep')"),
                     0);
    free(b.s);
}

/* As a parser that keeps the last of repeated keys (jansson, the import
 * before streaming): only the last "results" and the last "runs" count. */
static void test_repeated_keys_keep_the_last(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"dup\"}},\"results\":[{\"message\":{\"text\":\"first\"}}]}],\"runs\":[{\"tool\":"
        "{\"driver\":{\"name\":\"dup\"}},\"results\":[{\"message\":{\"text\":\"one\"}},"
        "{\"message\":{\"text\":\"two\"}}],\"results\":[{\"message\":{\"text\":\"last\"}}]}]}";

    assert_int_equal(import(log, strlen(log), NULL), 0);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_runs WHERE tool = 'dup'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'dup' AND s.idx = 0 AND "
                            "s.message = 'last'"), 1);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'dup'"), 1);
}

/* A run of `nbad` rules without an id (one warning each), then `nres`
 * results without a message (one each), results first. */
static void bad_rules_run(sb *b, const char *tool, int nbad, int nres)
{
    int i;

    sb_add(b, "{\"results\":[");
    for (i = 0; i < nres; i++)
        sb_add(b, "%s{\"ruleId\":\"x\"}", i ? "," : "");
    sb_add(b, "],\"tool\":{\"driver\":{\"name\":\"%s\",\"rules\":[", tool);
    for (i = 0; i < nbad; i++)
        sb_add(b, "%s{\"name\":\"no id %d\"}", i ? "," : "", i);
    sb_add(b, "]}}}");
}

/* The first 100 warnings in log order are listed, every other counted,
 * however the runs' own warnings and their results' interleave. */
static void test_warnings_past_a_hundred_count_across_runs(void **state)
{
    sb b = {0};
    json_t *rep;

    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[");
    bad_rules_run(&b, "w0", 60, 30);
    sb_add(&b, ",");
    bad_rules_run(&b, "w1", 20, 5);
    sb_add(&b, ",");
    bad_rules_run(&b, "w2", 7, 0);
    /* one good result, so something is kept (else the log is refused) */
    sb_add(&b, ",{\"tool\":{\"driver\":{\"name\":\"w3\"}},\"results\":[{\"message\":"
           "{\"text\":\"ok\"}}]}]}");
    assert_int_equal(import(b.s, b.len, &rep), 0);
    assert_int_equal(json_array_size(json_object_get(rep, "warnings")), 100);
    assert_int_equal(json_integer_value(json_object_get(rep, "warnings_omitted")),
                     60 + 30 + 20 + 5 + 7 - 100);
    assert_string_equal(warning(rep, 59, "pointer"), "/runs/0/tool/driver/rules/59/id");
    assert_string_equal(warning(rep, 60, "pointer"), "/runs/0/results/0/message");
    assert_string_equal(warning(rep, 89, "pointer"), "/runs/0/results/29/message");
    assert_string_equal(warning(rep, 90, "pointer"), "/runs/1/tool/driver/rules/0/id");
    assert_string_equal(warning(rep, 99, "pointer"), "/runs/1/tool/driver/rules/9/id");
    json_decref(rep);
    free(b.s);
}

/* Each path's lookup is remembered: results that alternate between files
 * and non-files map as they would one by one. */
static void test_alternating_paths_map_as_one_by_one(void **state)
{
    static const char *const paths[] = {"src/refcount.c", "nope.c", "src/toyarray.c",
                                        "src/refcount.c", "nope.c", "src/toyarray.c"};
    sb b = {0};
    size_t i;

    sb_add(&b, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
           "\"alt\"}},\"results\":[");
    for (i = 0; i < 6; i++)
        sb_add(&b, "%s{\"message\":{\"text\":\"m%zu\"},\"locations\":[{"
               "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"%s\"},"
               "\"region\":{\"startLine\":%d}}}]}", i ? "," : "", i, paths[i],
               i < 3 ? 5 : 6);
    sb_add(&b, "]}]}");
    assert_int_equal(import(b.s, b.len, NULL), 0);
    assert_int_equal(scalar("SELECT unmapped FROM sarif_runs WHERE tool = 'alt'"), 2);
    /* the same file, the same function (lines 5-19), whichever came first */
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'alt' AND s.path = "
                            "'src/refcount.c' AND s.function = 'toy_item_incref'"), 2);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results s JOIN sarif_runs r ON "
                            "r.id = s.run_id WHERE r.tool = 'alt' AND s.path IS NULL"), 0);
    free(b.s);
}

static void test_a_gzip_file_is_read_twice_from_where_it_starts(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"results\":[{\"message\":"
        "{\"text\":\"from a file\"}}],\"tool\":{\"driver\":{\"name\":\"gzfile\"}}}]}";
    sarif_import_options opt = {"demo", "hpy", NULL, NULL};
    sarif_import_report *rep = NULL;
    unsigned char gz[1024];
    uLongf glen = sizeof(gz);
    z_stream z = {0};
    sqlite3 *db = NULL;
    FILE *f = tmpfile();
    int too_big = -1;

    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)log;
    z.avail_in = (uInt)strlen(log);
    z.next_out = gz;
    z.avail_out = (uInt)glen;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    glen = z.total_out;
    deflateEnd(&z);
    fputs("skipped prefix", f);                      /* the log starts after it */
    assert_int_equal(fwrite(gz, 1, glen, f), glen);
    assert_int_equal(fseek(f, 14, SEEK_SET), 0);
    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(sarif_import_file(&rep, db, &opt, f, &too_big), 0);
    assert_int_equal(too_big, 0);
    assert_int_equal(rep->nruns, 1);
    assert_int_equal(rep->runs[0].results, 1);
    sarif_import_report_free(rep);
    db_close(db);
    fclose(f);
    assert_int_equal(scalar("SELECT count(*) FROM sarif_results WHERE message = "
                            "'from a file'"), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_results_before_the_tool_read_the_same),
        cmocka_unit_test(test_batches_lose_and_double_nothing),
        cmocka_unit_test(test_a_broken_stream_stores_nothing_and_says_where),
        cmocka_unit_test(test_an_over_large_result_is_skipped_and_the_rest_kept),
        cmocka_unit_test(test_tokens_and_nesting_are_bounded),
        cmocka_unit_test(test_repeated_keys_keep_the_last),
        cmocka_unit_test(test_warnings_past_a_hundred_count_across_runs),
        cmocka_unit_test(test_alternating_paths_map_as_one_by_one),
        cmocka_unit_test(test_a_gzip_file_is_read_twice_from_where_it_starts),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
