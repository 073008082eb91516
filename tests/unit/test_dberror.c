/*
 * test_dberror.c: a database error while rows are read ends the answer as
 * an error (issue 10, "failures that become data"): every step loop checks
 * for its end, so an unreadable page is a 500 problem document, never a
 * 200 with fewer rows (an empty trend, a short CSV).  The table read by
 * the history and snapshots answers has its first page overwritten after
 * the ingest, and the stored functions are bytes that do not decompress;
 * everything that does not read them keeps answering.  A second
 * site damages what the commit, file and symbols pages read through db/
 * (db_commit.h, db_findings.h): stored findings that are not rows as
 * ingest writes them, and the changes table.  A third damages the
 * tables of uploaded SARIF runs and results (db_sarif.h).
 */
#include "testutil.h"

#include "db.h"
#include "db_snapshot.h"
#include "db_token.h"
#include "sarif_import.h"

static tu_site g_site, g_site2, g_site3;
static char g_ci[DB_TOKEN_LEN + 1];

/* Overwrite the root page of `table` in the database file of site `s`
 * with 0xff bytes (no b-tree page has that type), after folding the WAL
 * into the file. */
static int damage_table_of(tu_site *s, const char *table)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t root = 0, page = 0;
    char buf[65536];
    FILE *f;

    if (db_open(&db, s->db, 0) < 0 ||
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
    if (root < 2 || page <= 0 || page > (int64_t)sizeof(buf) || !(f = fopen(s->db, "r+b")))
        return -1;
    memset(buf, 0xff, (size_t)page);
    fseek(f, (long)((root - 1) * page), SEEK_SET);
    fwrite(buf, 1, (size_t)page, f);
    return fclose(f);
}

static int damage_table(const char *table)
{
    return damage_table_of(&g_site, table);
}

/* Make the stored functions of every analysis bytes that do not decompress
 * (since migration 019 they are a column of analyses, db_fns.h). */
static int damage_functions(void)
{
    sqlite3 *db = NULL;
    int rc = db_open(&db, g_site.db, 0);

    if (rc == 0)
        rc = db_exec(db, "UPDATE analyses SET fns = x'00010203' WHERE fns IS NOT NULL");
    db_close(db);
    return rc;
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

static int setup2(void);

/* A token with permission "sarif" in g_ci. */
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

    if (setup2() < 0)
        return -1;
    tu_site_init(&g_site, "dberror.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
        take_snapshots() < 0 || make_token() < 0 || damage_table("commit_stats") < 0 ||
        damage_table("snapshots") < 0 || damage_functions() < 0)
        return -1;
    so.cache_mb = -1;       /* every request reads the database */
    so.no_warm = 1;
    return tu_site_serve(&g_site, &so);
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    tu_site_free(&g_site2);
    tu_site_free(&g_site3);
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
    /* A file page reads its functions: was 200 with an empty "functions"
     * list and findings that named no function. */
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/files/src/refcount.c"), 500);
    /* The symbols read the functions of each file with blocking uses. */
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/symbols"), 500);
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy/symbols/PyObject"), 500);
    /* The commit page reads its figures from commit_stats. */
    assert_int_equal(get_status("/api/v1/repos/demo/commits/hpy"), 500);
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

/* ---------- what db_commit.h and db_findings.h read ---------- */

/* The second site: undamaged until its tests damage it. */
static int setup2(void)
{
    srv_options so = {0};

    tu_site_init(&g_site2, "dberror2.db");
    if (tu_site_ingest(&g_site2, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    so.cache_mb = -1;
    so.no_warm = 1;
    return tu_site_serve(&g_site2, &so);
}

/* Store `json` as the findings of every analysis, deflated with its true
 * length, so the bytes are sound and only what they say is wrong. */
static void set_all_findings(const char *json)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    unsigned char *z = NULL;
    size_t zlen = 0;

    assert_int_equal(db_compress(&z, &zlen, json, strlen(json)), 0);
    assert_int_equal(db_open(&db, g_site2.db, 0), 0);
    assert_int_equal(db_prepare(db, &st, "UPDATE analyses SET findings = ?1, "
                                "findings_len = ?2"), 0);
    sqlite3_bind_blob(st, 1, z, (int)zlen, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)strlen(json));
    assert_int_equal(db_step(st), 0);
    sqlite3_finalize(st);
    db_close(db);
    free(z);
}

static long get2(const char *path)
{
    return tu_site_status(&g_site2, path, "the database is damaged");
}

/* Every page that reads the findings of a file. */
static void findings_pages_are_500(void)
{
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/files/src/refcount.c"), 500);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/files/src/refcount.c"
                          "?per_page=1&page=2"), 500);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/symbols"), 500);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/symbols/PyObject"), 500);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy-convert-object-dtype/"
                          "object-items"), 500);
}

/* The table entry of format F1 for the row of the JSON cases below. */
#define F1_ENTRY "0\tcapi\tcapi-names-cpython\tPyObject\n"

static void test_findings_not_as_ingest_writes_them_are_500(void **state)
{
    const char *row = "[1,2,\"capi\",\"capi-names-cpython\",\"PyObject\",0,false]";
    char json[256];

    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/symbols"), 200);
    /* Cut short: the file page was 200 with the rows before the cut, the
     * symbols 400 ("not JSON", as if the request were wrong), object
     * items 200 with no sites. */
    snprintf(json, sizeof(json), "[%s,", row);
    set_all_findings(json);
    findings_pages_are_500();
    /* Rows of another shape: the file page was 200 with the row left out
     * of "findings" (but counted in findings_total), the symbols 200 with
     * no symbol. */
    set_all_findings("[[1,2,\"capi\"]]");
    findings_pages_are_500();
    set_all_findings("[[1,2,\"capi\",\"capi-names-cpython\",\"PyObject\",0,\"no\"]]");
    findings_pages_are_500();
    /* Format F1 (db_findings.h), what ingest writes now: cut short after a
     * whole row (the header counts two), a row naming an entry past the
     * table, a bad number.  Each would be a page with one finding fewer. */
    set_all_findings("F1 1 2\n" F1_ENTRY "1 2 0 0\n");
    findings_pages_are_500();
    set_all_findings("F1 1 2\n" F1_ENTRY "1 2 0 0\n0 5 1\n");
    findings_pages_are_500();
    set_all_findings("F1 1 2\n" F1_ENTRY "1 2 0 0\n0 5 0x\n");
    findings_pages_are_500();
    /* Pages that do not read findings still answer. */
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy"), 200);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/files"), 200);
    /* Sound rows read again, in either format: one use of PyObject per
     * file with capi. */
    set_all_findings("F1 1 2\n" F1_ENTRY "1 2 0 0\n0 5 0\n");
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/symbols/PyObject"), 200);
    snprintf(json, sizeof(json), "[%s]", row);
    set_all_findings(json);
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy/symbols/PyObject"), 200);
}

static void test_unreadable_changes_are_500(void **state)
{
    assert_int_equal(get2("/api/v1/repos/demo/commits/hpy"), 200);
    assert_int_equal(damage_table_of(&g_site2, "changes"), 0);
    /* The commit page lists and counts the changes of the commit. */
    assert_int_equal(tu_site_status(&g_site2, "/api/v1/repos/demo/commits/hpy", "database"),
                     500);
    assert_int_equal(tu_site_status(&g_site2, "/api/v1/repos/demo/commits/hpy?per_page=1"
                                    "&page=3", "database"), 500);
    /* Repositories and refs do not read changes. */
    assert_int_equal(tu_site_status(&g_site2, "/api/v1/repos", "database"), 200);
}

/* ---------- what db_sarif.h reads and writes ---------- */

/* A log of tool `tool` with one finding in src/refcount.c. */
static int import3(const char *tool)
{
    char log[512];
    sarif_import_options opt = {"demo", "hpy", NULL, NULL};
    sarif_import_report *rep = NULL;
    sqlite3 *db = NULL;
    int rc;

    snprintf(log, sizeof(log), "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":"
             "{\"name\":\"%s\"}},\"results\":[{\"ruleId\":\"R1\",\"message\":{\"text\":"
             "\"m\"},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":"
             "\"src/refcount.c\"},\"region\":{\"startLine\":9}}}]}]}]}", tool);
    if ((rc = db_open(&db, g_site3.db, 0)) == 0)
        rc = sarif_import(&rep, db, &opt, log, strlen(log), NULL);
    sarif_import_report_free(rep);
    db_close(db);
    return rc;
}

/* The body of GET `path` on the third site (caller frees). */
static char *get3_body(const char *path, long want)
{
    char url[512], *body;
    tu_http h;

    snprintf(url, sizeof(url), "%s%s", g_site3.base, path);
    h = tu_request("GET", url);
    assert_int_equal(h.status, want);
    body = strdup(h.body ? h.body : "");
    tu_http_free(&h);
    return body;
}

static long get3(const char *path)
{
    return tu_site_status(&g_site3, path, "SARIF");
}

/* Unreadable SARIF results: the file page and the summary, which list and
 * count them, are 500 (not a page without the tool's findings); an upload
 * that cannot replace them fails and leaves the earlier run as it was;
 * unreadable runs make the run list 500 (not an empty list). */
static void test_unreadable_sarif_tables_are_500(void **state)
{
    static const char *const file = "/api/v1/repos/demo/commits/hpy/files/src/refcount.c";
    static const char *const runs = "/api/v1/repos/demo/commits/hpy/sarif";
    srv_options so = {0};
    char *before, *after;

    tu_site_init(&g_site3, "dberror3.db");
    assert_int_equal(tu_site_ingest(&g_site3, "toyport", "demo", "hpy"), 0);
    assert_int_equal(import3("lintE"), 0);
    so.cache_mb = -1;
    so.no_warm = 1;
    assert_int_equal(tu_site_serve(&g_site3, &so), 0);
    before = get3_body(file, 200);
    assert_non_null(strstr(before, "\"tool\":\"lintE\""));
    free(before);
    before = get3_body("/api/v1/repos/demo/commits/hpy/summary", 200);
    assert_non_null(strstr(before, "\"lintE\""));
    free(before);
    before = get3_body(runs, 200);
    assert_non_null(strstr(before, "lintE"));

    assert_int_equal(damage_table_of(&g_site3, "sarif_results"), 0);
    assert_int_equal(get3(file), 500);
    assert_int_equal(get3("/api/v1/repos/demo/commits/hpy/summary"), 500);
    /* The run list reads sarif_runs only. */
    assert_int_equal(get3(runs), 200);
    /* Replacing lintE's run deletes its results first: the upload fails
     * and is rolled back, the run keeps its counts and upload time. */
    assert_int_equal(import3("lintE"), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "replacing SARIF runs"));
    after = get3_body(runs, 200);
    assert_string_equal(after, before);
    free(after);
    free(before);

    assert_int_equal(damage_table_of(&g_site3, "sarif_runs"), 0);
    assert_int_equal(get3(runs), 500);
    /* What reads no SARIF table still answers. */
    assert_int_equal(get3("/api/v1/repos/demo/commits/hpy/files"), 200);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_locked_step_is_an_error_that_says_busy),
        cmocka_unit_test(test_unreadable_rows_are_500_not_short_200),
        cmocka_unit_test(test_upload_that_cannot_name_the_function_is_500),
        cmocka_unit_test(test_what_does_not_read_the_damage_still_answers),
        cmocka_unit_test(test_findings_not_as_ingest_writes_them_are_500),
        cmocka_unit_test(test_unreadable_changes_are_500),
        cmocka_unit_test(test_unreadable_sarif_tables_are_500),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
