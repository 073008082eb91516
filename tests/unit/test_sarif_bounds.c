/*
 * test_sarif_bounds.c: what a SARIF upload makes is bounded, not only what
 * is sent (issue 16): {N} placeholders repeating long arguments (SARIF
 * 3.11.5) once turned 5.8 KB of gzip into 2 GB of stored messages.  Also a
 * database held by another writer answers 503 with Retry-After.
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

    tu_site_init(&g_site, "bounds.db");
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

/*
 * A log of `nresults` results whose rule message is "{0}...{9}" repeated
 * `repeat` times, each result giving ten arguments of `arglen` characters.
 * Caller frees.
 */
static char *amplifier(int nresults, int repeat, int arglen)
{
    size_t cap = (size_t)repeat * 30 + (size_t)nresults * (10 * (size_t)arglen + 200) + 4096;
    char *s = malloc(cap), *arg = malloc((size_t)arglen + 1);
    size_t len = 0;
    int i;

    memset(arg, 'A', (size_t)arglen);
    arg[arglen] = '\0';
    tu_append(s, cap, &len, "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
          "{\"name\":\"amp\",\"rules\":[{\"id\":\"R\",\"messageStrings\":{\"m\":"
          "{\"text\":\"");
    for (i = 0; i < repeat; i++)
        tu_append(s, cap, &len, "{0}{1}{2}{3}{4}{5}{6}{7}{8}{9}");
    tu_append(s, cap, &len, "\"}}}]}},\"results\":[");
    for (i = 0; i < nresults; i++)
        tu_append(s, cap, &len, "%s{\"ruleId\":\"R\",\"message\":{\"id\":\"m\","
              "\"arguments\":[\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",\"%s\",\"%s\","
              "\"%s\",\"%s\",\"%s\"]}}", i ? "," : "", arg, arg, arg, arg, arg, arg,
              arg, arg, arg, arg);
    tu_append(s, cap, &len, "]}]}");
    free(arg);
    return s;
}

/* Bytes of message text stored for the site. */
static long long stored_bytes(void)
{
    char *out = tu_sh_out("sqlite3 '%s' 'SELECT coalesce(sum(length(message)), 0) "
                          "FROM sarif_results'", g_site.db);
    long long n = atoll(out);

    free(out);
    return n;
}

static int import(const char *log)
{
    sarif_import_options opt = {"demo", "hpy", NULL, NULL};
    sarif_import_report *rep = NULL;
    sqlite3 *db = NULL;
    int rc;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    rc = sarif_import(&rep, db, &opt, log, strlen(log), NULL);
    sarif_import_report_free(rep);
    db_close(db);
    return rc;
}

static void test_one_message_is_bounded(void **state)
{
    /* 100 x 10 placeholders x 1,000 characters: 1 MB from one result. */
    char *log = amplifier(1, 100, 1000);

    /* The import keeps what it can (issue 14): that result is skipped with a
     * warning, and nothing of its message is stored; as it was the only one,
     * nothing of the log is kept and it is refused (issue 27). */
    assert_int_equal(import(log), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "nothing of the log could be kept"));
    assert_int_equal(stored_bytes(), 0);
    free(log);
    /* Just under the bound is stored whole. */
    log = amplifier(2, 6, 1000);
    assert_int_equal(import(log), 0);
    assert_int_equal(stored_bytes(), 2 * 60000);
    free(log);
}

static void test_all_messages_of_a_log_are_bounded(void **state)
{
    /* 60,000 bytes each: 1,200 of them pass 64 MiB at result 1,118. */
    char *log = amplifier(1200, 6, 1000);

    assert_int_equal(import(log), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "/runs/0/results/1118: the log's messages"));
    /* Nothing of the refused log; the earlier upload stays. */
    assert_int_equal(stored_bytes(), 2 * 60000);
    free(log);
}

static void test_amplifying_gzip_upload_is_refused(void **state)
{
    char *log = amplifier(40, 100, 1000), auth[128], url[256];
    const char *hdr[] = {auth, "Content-Type: application/json", NULL};
    uLongf glen = compressBound(strlen(log)) + 64;
    unsigned char *gz = malloc(glen);
    z_stream z = {0};
    tu_http h;

    deflateInit2(&z, 9, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    z.next_in = (unsigned char *)log;
    z.avail_in = (uInt)strlen(log);
    z.next_out = gz;
    z.avail_out = (uInt)glen;
    assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
    glen = z.total_out;
    deflateEnd(&z);
    /* A few KB that would have stored 40 MB. */
    assert_true(glen < 16384);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_ci);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    h = tu_post(url, hdr, gz, glen);
    /* Every result is over the bound for one message: each is skipped with a
     * warning naming it, none is stored; nothing of the log is kept, so it
     * is refused with those warnings (issue 27) and the earlier upload of
     * its tool stays as it was. */
    assert_int_equal(h.status, 422);
    assert_non_null(strstr(h.body, "is longer than 65536 bytes"));
    tu_http_free(&h);
    assert_int_equal(stored_bytes(), 2 * 60000);
    free(gz);
    free(log);
}

static void test_locked_database_answers_503(void **state)
{
    char *log = amplifier(1, 1, 10), auth[128], url[256];
    const char *hdr[] = {auth, NULL};
    sqlite3 *db = NULL;
    tu_http h;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_exec(db, "BEGIN IMMEDIATE"), 0);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_ci);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    /* Waits out the busy timeout (10 s), then says when to come back. */
    h = tu_post(url, hdr, log, strlen(log));
    assert_int_equal(h.status, 503);
    assert_string_equal(tu_header(&h, "Retry-After"), "5");
    assert_non_null(strstr(h.body, "database is locked"));
    tu_http_free(&h);
    db_exec(db, "ROLLBACK");
    db_close(db);
    h = tu_post(url, hdr, log, strlen(log));
    assert_int_equal(h.status, 201);
    tu_http_free(&h);
    free(log);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_message_is_bounded),
        cmocka_unit_test(test_all_messages_of_a_log_are_bounded),
        cmocka_unit_test(test_amplifying_gzip_upload_is_refused),
        cmocka_unit_test(test_locked_database_answers_503),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
