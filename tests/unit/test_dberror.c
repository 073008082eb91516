/*
 * test_dberror.c: a database error while rows are read ends the answer as
 * an error (issue 10, "failures that become data"): every step loop checks
 * for its end, so an unreadable page is a 500 problem document, never a
 * 200 with fewer rows (an empty trend, a short CSV).  The table read by
 * the history and snapshots answers has its first page overwritten after
 * the ingest; everything that does not read it keeps answering.
 */
#include "testutil.h"

#include "db.h"
#include "db_snapshot.h"
#include "db_token.h"

static tu_site g_site;
static char g_ci[DB_TOKEN_LEN + 1];

/* Overwrite the root page of `table` in the database file with 0xff bytes
 * (no b-tree page has that type), after folding the WAL into the file. */
static int damage_table(const char *table)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t root = 0, page = 0;
    char buf[65536];
    FILE *f;

    if (db_open(&db, g_site.db, 0) < 0 ||
        db_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)") < 0 ||
        db_prepare(db, &st, "SELECT rootpage, (SELECT page_size FROM pragma_page_size) "
                   "FROM sqlite_master WHERE name = ?1") < 0)
        return -1;
    sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
    if (db_step(st) > 0) {
        root = sqlite3_column_int64(st, 0);
        page = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    db_close(db);
    if (root < 2 || page <= 0 || page > (int64_t)sizeof(buf) || !(f = fopen(g_site.db, "r+b")))
        return -1;
    memset(buf, 0xff, (size_t)page);
    fseek(f, (long)((root - 1) * page), SEEK_SET);
    fwrite(buf, 1, (size_t)page, f);
    return fclose(f);
}

/* Two weekly snapshots of ref hpy, so the snapshots table has rows. */
static int take_snapshots(void)
{
    sqlite3 *db = NULL;
    int64_t repo_id, cid;
    char oid[41], hash[128];
    int rc;

    if ((rc = db_open(&db, g_site.db, 0)) == 0 &&
        (rc = db_repo_find(db, "demo", &repo_id, NULL, 0)) == 0 &&
        (rc = db_rev_resolve(db, repo_id, "hpy", &cid, oid)) == 0 &&
        (rc = db_meta_get(db, "rules_hash", hash, sizeof(hash))) == 0 &&
        (rc = db_snapshot_take(db, repo_id, "hpy", cid, "2022-W05", 1643846400, "live",
                               hash)) == 0)
        rc = db_snapshot_take(db, repo_id, "hpy", cid, "2022-W06", 1644451200, "live", hash);
    db_close(db);
    return rc;
}

/* A token with scope "sarif" in g_ci. */
static int make_token(void)
{
    sqlite3 *db = NULL;
    int rc = db_open(&db, g_site.db, 0);

    if (rc == 0)
        rc = db_token_create(db, g_ci, "ci", "sarif");
    db_close(db);
    return rc;
}

static int setup(void **state)
{
    srv_options so = {0};

    tu_site_init(&g_site, "dberror.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
        take_snapshots() < 0 || make_token() < 0 || damage_table("commit_stats") < 0 ||
        damage_table("snapshots") < 0 || damage_table("functions") < 0)
        return -1;
    so.cache_mb = -1;       /* every request reads the database */
    so.no_warm = 1;
    return tu_site_serve(&g_site, &so);
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static long get_status(const char *path)
{
    return tu_site_status(&g_site, path, "database");
}

static void test_unreadable_rows_are_500_not_short_200(void **state)
{
    /* The trend of a ref reads commit_stats row by row: was 200 with no
     * points. */
    assert_int_equal(get_status("/api/v1/repos/demo/refs/hpy/history"), 500);
    assert_int_equal(get_status("/api/v1/repos/demo/refs/hpy/history"
                                "?measure=functions.legacy"), 500);
    /* Snapshots, as JSON and as CSV: were 200 with [] and a bare header. */
    assert_int_equal(get_status("/api/v1/repos/demo/snapshots"), 500);
    assert_int_equal(get_status("/api/v1/repos/demo/snapshots.csv"), 500);
    assert_int_equal(get_status("/api/v1/repos/demo/forecast?ref=hpy"), 500);
    /* A file page reads its functions row by row: was 200 with an empty
     * "functions" list and findings that named no function. */
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/files/src/refcount.c"), 500);
}

/* A SARIF result inside an analysed file is stored with the function
 * holding its line, part of its fingerprint: with the functions
 * unreadable the upload is a 500 and stores nothing, never a 201 with
 * fingerprints that name no function. */
static void test_upload_that_cannot_name_the_function_is_500(void **state)
{
    static const char log[] =
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"lintD\"}},"
        "\"results\":[{\"ruleId\":\"R1\",\"message\":{\"text\":\"m\"},"
        "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":"
        "{\"uri\":\"src/refcount.c\"},\"region\":{\"startLine\":9}}}]}]}]}";
    char auth[128], url[256];
    const char *hdr[] = {auth, NULL};
    tu_http h;

    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_ci);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    h = tu_post(url, hdr, log, strlen(log));
    assert_int_equal(h.status, 500);
    assert_string_equal(h.ctype, "application/problem+json");
    tu_http_free(&h);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_null(strstr(h.body, "lintD"));
    tu_http_free(&h);
}

static void test_what_does_not_read_the_damage_still_answers(void **state)
{
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/files"), 200);
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/files.csv"), 200);
    assert_int_equal(get_status("/api/v1/measures"), 200);
}

/* A step that meets another connection's lock is PD_EDB with SQLite's
 * "database is locked", the text srv_reply_error answers 503 with
 * Retry-After for (the server's WAL database lets readers past a writer,
 * so the lock is made on a rollback-journal database here). */
static void test_a_locked_step_is_an_error_that_says_busy(void **state)
{
    char path[4300];
    sqlite3 *a = NULL, *b = NULL;
    sqlite3_stmt *st = NULL;

    snprintf(path, sizeof(path), "%s/locked.db", g_site.dir);
    assert_int_equal(sqlite3_open(path, &a), SQLITE_OK);
    assert_int_equal(sqlite3_exec(a, "CREATE TABLE t(x); INSERT INTO t VALUES (1), (2)",
                                  NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_open(path, &b), SQLITE_OK);
    sqlite3_busy_timeout(b, 50);
    assert_int_equal(db_prepare(b, &st, "SELECT x FROM t"), 0);
    assert_int_equal(sqlite3_exec(a, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(db_step(st), PD_EDB);
    assert_non_null(strstr(pd_error_last(), sqlite3_errstr(SQLITE_BUSY)));
    sqlite3_reset(st);
    assert_int_equal(sqlite3_exec(a, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(db_step(st), 1);
    assert_int_equal(db_step(st), 1);
    assert_int_equal(db_step(st), 0);
    sqlite3_finalize(st);
    sqlite3_close(b);
    sqlite3_close(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_locked_step_is_an_error_that_says_busy),
        cmocka_unit_test(test_unreadable_rows_are_500_not_short_200),
        cmocka_unit_test(test_upload_that_cannot_name_the_function_is_500),
        cmocka_unit_test(test_what_does_not_read_the_damage_still_answers),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
