/*
 * test_busy.c: a database that another connection holds locked is a 503
 * problem document with Retry-After on every read, never a short 200, and
 * once the lock is gone every answer is whole again (issue 10).
 *
 * The server's database is in WAL mode, where a writer does not block
 * readers.  Readers of a WAL database wait for a lock in two cases:
 *
 * - another connection is rebuilding the WAL index (after a writer died
 *   mid-commit): it holds the index's write, checkpoint and recovery locks
 *   and the two copies of the index header disagree until it is done, so
 *   every reader gets SQLITE_BUSY_RECOVERY;
 * - another connection holds the database in exclusive locking mode (the
 *   sqlite3 shell with PRAGMA locking_mode=EXCLUSIVE, say): a connection
 *   cannot even be opened.
 *
 * The first is made here with SQLite's own VFS methods on the test's
 * connection (same process as the server, so SQLite's in-process lock
 * table makes the locks count): the locks and header fields are those of
 * https://sqlite.org/walformat.html (2.1 and 2.3).  The server waits
 * --db-wait (here 100 ms) for them, then answers 503.
 */
#include "testutil.h"

#include "db.h"
#include "db_cache.h"
#include "db_sarif.h"
#include "db_token.h"
#include "db_triage.h"

static tu_site g_site;

/* Lock slots of the WAL index (walformat.html 2.3): WAL_WRITE_LOCK,
 * WAL_CKPT_LOCK, WAL_RECOVER_LOCK are slots 0, 1, 2. */
#define WAL_RECOVERY_LOCKS 3
/* Second copy of the 48-byte index header, its iChange field (2.1). */
#define WAL_HDR2_ICHANGE (48 + 8)

typedef struct {
    sqlite3 *db;
    sqlite3_file *file;
} busy_hold;

/* Freeze the database in the middle of a WAL-index recovery. */
static void busy_start(busy_hold *h)
{
    sqlite3_stmt *st = NULL;
    void *region = NULL;

    memset(h, 0, sizeof(*h));
    assert_int_equal(db_open(&h->db, g_site.db, 0), 0);
    /* A read maps the index, which the VFS calls below need. */
    assert_int_equal(db_prepare(h->db, &st, "SELECT count(*) FROM commits"), 0);
    assert_int_equal(db_step(st), 1);
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_file_control(h->db, "main", SQLITE_FCNTL_FILE_POINTER, &h->file),
                     SQLITE_OK);
    assert_true(h->file->pMethods->iVersion >= 2);
    assert_int_equal(h->file->pMethods->xShmMap(h->file, 0, 32768, 0,
                                                (void volatile **)&region), SQLITE_OK);
    assert_int_equal(h->file->pMethods->xShmLock(h->file, 0, WAL_RECOVERY_LOCKS,
                                                 SQLITE_SHM_LOCK | SQLITE_SHM_EXCLUSIVE),
                     SQLITE_OK);
    ((volatile unsigned char *)region)[WAL_HDR2_ICHANGE] ^= 0xff;
}

/* Let go: the next reader finds the header copies differ and rebuilds the
 * index from the WAL file itself, as after a crash. */
static void busy_stop(busy_hold *h)
{
    assert_int_equal(h->file->pMethods->xShmLock(h->file, 0, WAL_RECOVERY_LOCKS,
                                                 SQLITE_SHM_UNLOCK | SQLITE_SHM_EXCLUSIVE),
                     SQLITE_OK);
    db_close(h->db);
}

/* Reads of every kind: every GET route of srv_routes.c that reads the
 * database (the snapshot weeks aside: the demo has none). */
static const char *const g_paths[] = {
    "/api/v1/repos/demo/commits/hpy/summary",
    "/api/v1/repos/demo/commits/hpy/summary?scope=no-object-dtype",
    "/api/v1/repos/demo/commits/hpy/files",
    "/api/v1/repos/demo/commits/hpy/files.csv",
    "/api/v1/repos/demo/commits/hpy/files/src/refcount.c",
    "/api/v1/repos/demo/commits/hpy/raw/src/refcount.c",
    "/api/v1/repos/demo/refs/hpy/file-history/src/refcount.c",
    "/api/v1/repos/demo/refs/hpy/history",
    "/api/v1/repos/demo/refs/hpy/history?measure=functions.legacy",
    "/api/v1/repos/demo/commits/hpy",
    "/api/v1/repos/demo/commits/hpy/search?q=Py",
    "/api/v1/repos/demo/commits/hpy/symbols",
    "/api/v1/repos/demo/commits/hpy/blockers",
    "/badge/demo/hpy/functions.legacy.svg",
    "/api/v1/repos/demo/snapshots",
    "/api/v1/repos/demo/compare/hpy-convert-object-dtype...hpy",
    "/api/v1/repos/demo/commits/hpy/frontier",
    "/api/v1/repos/demo/forecast?ref=hpy",
    "/api/v1/repos/demo/gate?base=hpy-convert-object-dtype&head=hpy",
    "/api/v1/repos/demo/gate?base=hpy-convert-object-dtype&head=hpy&format=markdown",
    "/api/v1/repos/demo/commits/hpy/object-items",
    "/api/v1/repos/demo/commits/hpy/traverse",
    "/api/v1/repos/demo/commits/hpy/sarif",
    "/api/v1/repos/demo/snapshots.csv",
    "/api/v1/repos/demo/dismissals",
    "/api/v1/repos/demo/refs/hpy/rewrites",
    "/api/v1/repos",
    "/healthz",
};
#define NPATHS (sizeof(g_paths) / sizeof(g_paths[0]))

static tu_http get(const char *path)
{
    char url[1024];

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    return tu_request("GET", url);
}

static int setup(void **state)
{
    srv_options so = {0};

    tu_site_init(&g_site, "busy.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    so.no_warm = 1;          /* no request but the test's own */
    so.db_wait_ms = 100;
    return tu_site_serve(&g_site, &so);
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* The status of every path, for a message that names the first odd one. */
static void expect_all(tu_http *got, long status, const char *when)
{
    size_t i;

    for (i = 0; i < NPATHS; i++)
        if (got[i].status != status)
            fail_msg("%s: %s answered %ld, not %ld: %.200s", when, g_paths[i],
                     got[i].status, status, got[i].body);
}

static void test_busy_database_is_503_then_whole_answers(void **state)
{
    tu_http before[NPATHS], during[NPATHS], after[NPATHS];
    busy_hold h;
    size_t i;

    /* Whole answers first; they are in the answer cache now, too. */
    for (i = 0; i < NPATHS; i++)
        before[i] = get(g_paths[i]);
    expect_all(before, 200, "before the lock");
    busy_start(&h);
    for (i = 0; i < NPATHS; i++)
        during[i] = get(g_paths[i]);
    /* What needs no database still answers (from its handler: the cache
     * cannot know its entries valid without reading the database). */
    assert_int_equal(tu_site_status(&g_site, "/api/v1/measures", ""), 200);
    assert_int_equal(tu_site_status(&g_site, "/api/v1/scopes", ""), 200);
    busy_stop(&h);
    expect_all(during, 503, "while locked");
    for (i = 0; i < NPATHS; i++) {
        assert_string_equal(tu_header(&during[i], "Retry-After"), "5");
        assert_string_equal(during[i].ctype, "application/problem+json");
        assert_non_null(strstr(during[i].body, "\"status\":503"));
        assert_non_null(strstr(during[i].body, "database is locked"));
    }
    /* Neither a kept 503 nor anything shorter than before. */
    for (i = 0; i < NPATHS; i++)
        after[i] = get(g_paths[i]);
    expect_all(after, 200, "after the lock");
    for (i = 0; i < NPATHS; i++) {
        assert_int_equal(after[i].len, before[i].len);
        assert_memory_equal(after[i].body, before[i].body, before[i].len);
        tu_http_free(&before[i]);
        tu_http_free(&during[i]);
        tu_http_free(&after[i]);
    }
}

/* Asked first while locked, an answer is computed nowhere: nothing may be
 * kept for it, so the first request after the lock is whole. */
static void test_first_request_while_locked_is_not_kept(void **state)
{
    const char *path = "/api/v1/repos/demo/commits/hpy-convert-object-dtype/files";
    tu_http during, after;
    busy_hold h;

    busy_start(&h);
    during = get(path);
    busy_stop(&h);
    assert_int_equal(during.status, 503);
    after = get(path);
    assert_int_equal(after.status, 200);
    assert_non_null(strstr(after.body, "src/refcount.c"));
    tu_http_free(&during);
    tu_http_free(&after);
}

/* A token the database cannot check now is no unknown token: 503, not 401
 * (which would tell a CI job its token is wrong). */
static void test_token_checked_while_locked_is_503(void **state)
{
    char tok[DB_TOKEN_LEN + 1], auth[128], url[256];
    const char *hdr[] = {auth, NULL};
    sqlite3 *db = NULL;
    busy_hold h;
    tu_http r;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_token_create(db, tok, "busy-ci", "sarif"), 0);
    db_close(db);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", tok);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    busy_start(&h);
    r = tu_post(url, hdr, "{}", 2);
    busy_stop(&h);
    assert_int_equal(r.status, 503);
    assert_string_equal(tu_header(&r, "Retry-After"), "5");
    assert_non_null(strstr(r.body, "database is locked"));
    tu_http_free(&r);
    /* The same token once the lock is gone: past the check (the log is
     * refused, not the token). */
    r = tu_post(url, hdr, "{}", 2);
    assert_int_equal(r.status, 400);
    tu_http_free(&r);
}

/* Row callbacks of the db_sarif reads: count the rows. */
static int count_run(void *arg, const db_sarif_run_row *r)
{
    ++*(size_t *)arg;
    return 0;
}

static int count_finding(void *arg, const db_sarif_finding_row *f)
{
    ++*(size_t *)arg;
    return 0;
}

static int count_level(void *arg, const db_sarif_level_row *l)
{
    ++*(size_t *)arg;
    return 0;
}

/* The db/ reads behind the cache, tokens and dismissal marks: under the
 * lock each is PD_EDB saying "database is locked", not a missing row ("no
 * such token", "not dismissed", generation 0). */
static void test_db_reads_under_the_lock_are_errors(void **state)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    json_t *findings = json_pack("[{s:s}]", "fingerprint", "0123");
    char name[64], scopes[64];
    db_commit_gen g;
    db_sarif_upload *up = NULL;
    int64_t v;
    size_t n;
    busy_hold h;

    assert_int_equal(db_open_wait(&db, g_site.db, 0, 50), 0);
    /* The schema is read now, so only the reads below meet the lock. */
    assert_int_equal(db_prepare(db, &st, "SELECT 1 FROM tokens, dismissals, sarif_runs"),
                     0);
    sqlite3_finalize(st);
    busy_start(&h);
    assert_int_equal(db_data_version(db, &v), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_commit_generation(db, 1, 1, &g), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_token_name(db, "pd_x", name, sizeof(name)), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_token_check(db, "pd_x", scopes, sizeof(scopes)), PD_EDB);
    assert_int_equal(db_triage_mark(db, 1, findings, &n), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_sarif_runs(db, 1, count_run, &n), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_sarif_file_findings(db, 1, "src/refcount.c", "portdash/v1",
                                            0, 100, count_finding, &n), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_sarif_tool_levels(db, 1, count_level, &n), PD_EDB);
    assert_true(db_error_busy());
    assert_int_equal(db_sarif_upload_begin(db, &up), PD_EDB);
    assert_true(db_error_busy());
    assert_null(up);
    busy_stop(&h);
    assert_int_equal(db_data_version(db, &v), 0);
    assert_int_equal(db_token_name(db, "pd_x", name, sizeof(name)), PD_ENOTFOUND);
    assert_int_equal(db_triage_mark(db, 1, findings, &n), 0);
    assert_true(json_is_null(json_object_get(json_array_get(findings, 0), "dismissed")));
    json_decref(findings);
    db_close(db);
}

/* An upload while another connection writes (a `portdash ingest`, say):
 * the upload's transaction cannot begin within --db-wait, so 503 with
 * Retry-After, and nothing stored; the same upload once the writer is done
 * is stored. */
static void test_upload_while_another_writes_is_503(void **state)
{
    static const char log[] =
        "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":\"lintW\"}},"
        "\"results\":[{\"ruleId\":\"R1\",\"message\":{\"text\":\"m\"}}]}]}";
    char tok[DB_TOKEN_LEN + 1], auth[128], url[256];
    const char *hdr[] = {auth, NULL};
    sqlite3 *db = NULL, *w = NULL;
    tu_http r;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_token_create(db, tok, "busy-writer", "sarif"), 0);
    db_close(db);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", tok);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    assert_int_equal(db_open(&w, g_site.db, 0), 0);
    assert_int_equal(db_exec(w, "BEGIN IMMEDIATE"), 0);
    r = tu_post(url, hdr, log, strlen(log));
    assert_int_equal(db_exec(w, "COMMIT"), 0);
    db_close(w);
    assert_int_equal(r.status, 503);
    assert_string_equal(tu_header(&r, "Retry-After"), "5");
    assert_non_null(strstr(r.body, "database is locked"));
    tu_http_free(&r);
    r = get("/api/v1/repos/demo/commits/hpy/sarif");
    assert_int_equal(r.status, 200);
    assert_null(strstr(r.body, "lintW"));
    tu_http_free(&r);
    r = tu_post(url, hdr, log, strlen(log));
    assert_int_equal(r.status, 201);
    tu_http_free(&r);
    r = get("/api/v1/repos/demo/commits/hpy/sarif");
    assert_non_null(strstr(r.body, "\"tool\":\"lintW\""));
    tu_http_free(&r);
}

/* A server whose worker connections are opened while another connection
 * holds the database in exclusive locking mode: 503, not 500 "Database
 * unavailable"; 200 once it closes. */
static void test_open_while_exclusive_is_503(void **state)
{
    srv_options so = {0};
    tu_site second = g_site;
    sqlite3 *x = NULL;
    tu_http r;
    char url[256];

    second.server = NULL;
    so.no_warm = 1;
    so.db_wait_ms = 100;
    so.threads = 2;
    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    /* The server's start opens and closes a probe connection; its worker
     * opens its own at the first request. */
    srv_stop(g_site.server);
    g_site.server = NULL;
    assert_int_equal(srv_start(&second.server, &so), 0);
    assert_int_equal(db_open(&x, g_site.db, 0), 0);
    assert_int_equal(db_exec(x, "PRAGMA locking_mode = EXCLUSIVE"), 0);
    assert_int_equal(db_exec(x, "BEGIN EXCLUSIVE"), 0);
    assert_int_equal(db_exec(x, "UPDATE meta SET value = value WHERE key = 'rules_hash'"), 0);
    assert_int_equal(db_exec(x, "COMMIT"), 0);
    snprintf(url, sizeof(url), "http://127.0.0.1:%u/api/v1/repos/demo/commits/hpy/summary",
             srv_port(second.server));
    r = tu_request("GET", url);
    assert_int_equal(r.status, 503);
    assert_string_equal(tu_header(&r, "Retry-After"), "5");
    assert_string_equal(r.ctype, "application/problem+json");
    assert_non_null(strstr(r.body, "database is locked"));
    tu_http_free(&r);
    db_close(x);
    r = tu_request("GET", url);
    assert_int_equal(r.status, 200);
    tu_http_free(&r);
    g_site.server = second.server;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_database_is_503_then_whole_answers),
        cmocka_unit_test(test_first_request_while_locked_is_not_kept),
        cmocka_unit_test(test_token_checked_while_locked_is_503),
        cmocka_unit_test(test_db_reads_under_the_lock_are_errors),
        cmocka_unit_test(test_upload_while_another_writes_is_503),
        cmocka_unit_test(test_open_while_exclusive_is_503),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
