/*
 * test_dbsarif.c: the stored SARIF rows of db_sarif.h, below the import:
 * what an upload writes is what the reads give back (NULLs as absent,
 * only findings listed and counted, the fingerprint member asked for); an
 * upload not committed leaves nothing, even after a write failed, and the
 * failure's message survives the rollback; the function holding a line is
 * the innermost one of the analysis; a callback's stop is returned.
 */
#include "testutil.h"

#include "db_migrations.h"

#include "db.h"
#include "db_analysis.h"
#include "db_sarif.h"

static tu_site g_site;
static int64_t g_repo, g_commit;

static int setup(void **state)
{
    sqlite3 *db = NULL;
    char oid[41];
    int rc;

    tu_site_init(&g_site, "dbsarif.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy") < 0)
        return -1;
    if ((rc = db_open(&db, g_site.db, 0)) == 0 &&
        (rc = db_repo_find(db, "demo", &g_repo, NULL, 0)) == 0)
        rc = db_rev_resolve(db, g_repo, "hpy", &g_commit, oid);
    db_close(db);
    return rc;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* Every run, as "tool|category|version|results|findings|unmapped|when;". */
static int list_run(void *arg, const db_sarif_run_row *r)
{
    char *buf = arg;
    size_t n = strlen(buf);

    snprintf(buf + n, 1024 - n, "%s|%s|%s|%lld|%lld|%lld|%lld;", r->tool, r->category,
             r->version ? r->version : "-", (long long)r->results, (long long)r->findings,
             (long long)r->unmapped, (long long)r->uploaded_at);
    return 0;
}

/* Every finding, as "line:column rule message function tool level category fp;". */
static int list_finding(void *arg, const db_sarif_finding_row *f)
{
    char *buf = arg;
    size_t n = strlen(buf);

    snprintf(buf + n, 1024 - n, "%lld:%lld %s %s %s %s %s %s %s;", (long long)f->line,
             (long long)f->column, f->rule_id ? f->rule_id : "-", f->message,
             f->function ? f->function : "-", f->tool, f->level, f->category,
             f->fingerprint ? f->fingerprint : "-");
    return 0;
}

/* Every count, as "tool/level=n;". */
static int list_level(void *arg, const db_sarif_level_row *l)
{
    char *buf = arg;
    size_t n = strlen(buf);

    snprintf(buf + n, 1024 - n, "%s/%s=%lld;", l->tool, l->level ? l->level : "-",
             (long long)l->count);
    return 0;
}

static int stop_run(void *arg, const db_sarif_run_row *r)
{
    return 7;
}

static char *runs(sqlite3 *db)
{
    static char buf[1024];

    buf[0] = '\0';
    assert_int_equal(db_sarif_runs(db, g_commit, list_run, buf), 0);
    return buf;
}

/* One run of tool `tool` with three results: a finding with every field,
 * a finding with none of the optional ones, a pass. */
static void store(sqlite3 *db, const char *tool, int commit)
{
    db_sarif_upload *up = NULL;
    db_sarif_run_row run = {tool, "1.0", "cat", 1700000000, 0, 0, 0};
    db_sarif_result_row r1 = {0, 0, "src/refcount.c", 9, 5, 0, "error", "fail", "m1",
                              "toy_item_incref", "{\"k/v1\":\"ab\",\"x\":1}"};
    db_sarif_result_row r2 = {0, 1, "src/refcount.c", 0, 0, 0, "note", "open", "m2",
                              NULL, "{}"};
    db_sarif_result_row r3 = {0, 2, "src/refcount.c", 3, 1, 0, "none", "pass", "m3",
                              NULL, "{}"};
    int64_t id = 0, rule = 0, again = 0;
    int added = 0;

    assert_int_equal(db_sarif_upload_begin(db, &up), 0);
    assert_int_equal(db_sarif_upload_replace(up, g_commit, tool, "cat"), 0);
    assert_int_equal(db_sarif_upload_run(up, g_repo, g_commit, &run, &id), 0);
    assert_true(id > 0);
    r1.run_id = r2.run_id = r3.run_id = id;
    /* a rule is stored once per run, however many results name it */
    assert_int_equal(db_sarif_upload_rule(up, id, "R1", &rule, &added), 0);
    assert_true(rule > 0 && added == 1);
    assert_int_equal(db_sarif_upload_rule(up, id, "R1", &again, &added), 0);
    assert_true(again == rule && added == 0);
    r1.rule = rule;
    assert_int_equal(db_sarif_upload_rule(up, id, "R3", &r3.rule, &added), 0);
    assert_true(r3.rule != rule && added == 1);
    assert_int_equal(db_sarif_upload_result(up, &r1), 0);
    assert_int_equal(db_sarif_upload_result(up, &r2), 0);
    assert_int_equal(db_sarif_upload_result(up, &r3), 0);
    assert_int_equal(db_sarif_upload_counts(up, id, 3, 2, 0), 0);
    if (commit)
        assert_int_equal(db_sarif_upload_commit(up), 0);
    db_sarif_upload_end(up);
}

static void test_what_is_stored_is_read_back(void **state)
{
    sqlite3 *db = NULL;
    char buf[1024] = "";

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    store(db, "lintS", 1);
    store(db, "lintS", 1);          /* replaces the first */
    assert_string_equal(runs(db), "lintS|cat|1.0|3|2|0|1700000000;");
    assert_int_equal(db_sarif_file_findings(db, g_commit, "src/refcount.c", "k/v1",
                                            0, 100, list_finding, buf), 0);
    assert_string_equal(buf, "0:0 - m2 - lintS note cat -;"
                        "9:5 R1 m1 toy_item_incref lintS error cat ab;");
    /* a page of them: only the rows asked for are read */
    buf[0] = '\0';
    assert_int_equal(db_sarif_file_findings(db, g_commit, "src/refcount.c", "k/v1",
                                            1, 1, list_finding, buf), 0);
    assert_string_equal(buf, "9:5 R1 m1 toy_item_incref lintS error cat ab;");
    {
        int64_t n = 0;

        assert_int_equal(db_sarif_file_count(db, g_commit, "src/refcount.c", &n), 0);
        assert_int_equal(n, 2);
    }
    {
        /* the replaced upload's rules went with its run: R1 and R3 once */
        sqlite3_stmt *st = NULL;

        assert_int_equal(sqlite3_prepare_v2(db, "SELECT count(*) FROM sarif_rules", -1,
                                            &st, NULL), SQLITE_OK);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(st, 0), 2);
        sqlite3_finalize(st);
    }
    buf[0] = '\0';
    assert_int_equal(db_sarif_file_findings(db, g_commit, "src/toyarray.c", "k/v1",
                                            0, 100, list_finding, buf), 0);
    assert_string_equal(buf, "");
    assert_int_equal(db_sarif_tool_levels(db, g_commit, list_level, buf), 0);
    assert_non_null(strstr(buf, "lintS/error=1;"));
    assert_non_null(strstr(buf, "lintS/note=1;"));
    assert_non_null(strstr(buf, "lintS/-=0;"));
    assert_null(strstr(buf, "none"));
    assert_int_equal(db_sarif_runs(db, g_commit, stop_run, NULL), 7);
    assert_int_equal(db_sarif_file_findings(db, g_commit, "src/refcount.c", "a\"b",
                                            0, 100, list_finding, buf), PD_EINVAL);
    db_close(db);
}

/* Not committed: nothing stays, an earlier run with the key included. */
static void test_an_upload_not_committed_leaves_nothing(void **state)
{
    sqlite3 *db = NULL;
    char before[1024];

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    snprintf(before, sizeof(before), "%s", runs(db));
    store(db, "lintS", 0);
    store(db, "lintU", 0);
    assert_string_equal(runs(db), before);
    db_close(db);
}

/* A write that fails (a result stored twice) is PD_EDB; ending the upload
 * rolls back the run written before it and keeps the message. */
static void test_a_failed_write_rolls_back_and_keeps_its_message(void **state)
{
    sqlite3 *db = NULL;
    db_sarif_upload *up = NULL;
    db_sarif_run_row run = {"lintF", NULL, "", 1, 0, 0, 0};
    db_sarif_result_row r = {0, 0, NULL, 0, 0, 0, "warning", "fail", "m", NULL, "{}"};
    char before[1024];

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    snprintf(before, sizeof(before), "%s", runs(db));
    assert_int_equal(db_sarif_upload_begin(db, &up), 0);
    assert_int_equal(db_sarif_upload_run(up, g_repo, g_commit, &run, &r.run_id), 0);
    assert_int_equal(db_sarif_upload_result(up, &r), 0);
    assert_int_equal(db_sarif_upload_result(up, &r), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "storing a SARIF result"));
    db_sarif_upload_end(up);
    assert_non_null(strstr(pd_error_last(), "storing a SARIF result"));
    assert_string_equal(runs(db), before);
    /* The connection is out of the transaction: another upload begins. */
    assert_int_equal(db_sarif_upload_begin(db, &up), 0);
    db_sarif_upload_end(up);
    db_close(db);
}

/* The innermost function whose lines hold a line; "" between functions;
 * the name is cut to the buffer. */
static void test_the_function_holding_a_line(void **state)
{
    sqlite3 *db = NULL;
    db_sarif_upload *up = NULL;
    char blob[41], hash[128], fn[64];
    int64_t analysis = 0;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_commit_file_blob(db, g_commit, "src/refcount.c", blob), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, sizeof(hash)), 0);
    assert_int_equal(db_analysis_find(db, blob, hash, &analysis), 0);
    assert_true(analysis > 0);
    assert_int_equal(db_sarif_upload_begin(db, &up), 0);
    assert_int_equal(db_sarif_upload_function(up, analysis, 9, fn, sizeof(fn)), 0);
    assert_string_equal(fn, "toy_item_incref");
    assert_int_equal(db_sarif_upload_function(up, analysis, 20, fn, sizeof(fn)), 0);
    assert_string_equal(fn, "");
    assert_int_equal(db_sarif_upload_function(up, analysis, 25, fn, sizeof(fn)), 0);
    assert_string_equal(fn, "toy_fill_object");
    assert_int_equal(db_sarif_upload_function(up, analysis, 25, fn, 5), 0);
    assert_string_equal(fn, "toy_");
    db_sarif_upload_end(up);
    db_close(db);
}

/* Migration 013 on a database of schema 12 holding results: each run's rule
 * ids become rows of sarif_rules, once per run, and the results refer to
 * them; a result without a rule keeps none. */
static void test_migration_013_moves_rule_ids(void **state)
{
    char *dir = tu_tmpdir(), path[4200], want[64], *out;
    const char *root = getenv("PORTDASH_ROOT");
    sqlite3 *db = NULL;

    snprintf(path, sizeof(path), "%s/v12.db", dir);
    assert_int_equal(tu_sh("cd '%s' && cat $(ls db/migrations/*.sql | head -n 12) | "
                           "sqlite3 '%s' && sqlite3 '%s' \"PRAGMA user_version = 12; "
                           "INSERT INTO sarif_runs VALUES (1, 1, 1, 'a', NULL, '', 0, 3, 3, 0), "
                           "(2, 1, 1, 'b', NULL, '', 0, 1, 1, 0); "
                           "INSERT INTO sarif_results VALUES (1, 0, 'p.c', 1, 1, 'R', 'note', "
                           "'fail', 'm', NULL, '{}'), (1, 1, 'p.c', 2, 1, 'R', 'note', 'fail', "
                           "'m', NULL, '{}'), (1, 2, NULL, NULL, NULL, NULL, 'note', 'fail', "
                           "'m', NULL, '{}'), (2, 0, 'p.c', 1, 1, 'R', 'note', 'fail', 'm', "
                           "NULL, '{}');\"", root ? root : ".", path, path), 0);
    assert_int_equal(db_open(&db, path, 0), 0);
    db_close(db);
    out = tu_sh_out("sqlite3 '%s' \"SELECT s.run_id, s.idx, coalesce(u.rule_id, '-'), "
                    "coalesce(u.run_id, '-') FROM sarif_results s LEFT JOIN sarif_rules u ON "
                    "u.id = s.rule ORDER BY 1, 2; SELECT count(*) FROM sarif_rules; "
                    "PRAGMA user_version;\"", path);
    /* the last line is the schema version after every migration */
    snprintf(want, sizeof(want), "1|0|R|1\n1|1|R|1\n1|2|-|-\n2|0|R|2\n2\n%d\n",
             db_migrations[db_migrations_count - 1].version);
    assert_string_equal(out, want);
    free(out);
    tu_sh("rm -rf '%s'", dir);
    free(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_what_is_stored_is_read_back),
        cmocka_unit_test(test_an_upload_not_committed_leaves_nothing),
        cmocka_unit_test(test_a_failed_write_rolls_back_and_keeps_its_message),
        cmocka_unit_test(test_the_function_holding_a_line),
        cmocka_unit_test(test_migration_013_moves_rule_ids),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
