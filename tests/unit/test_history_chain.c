/*
 * test_history_chain.c: a measure along a first-parent chain read by
 * scanning (db_history_chain.c, issue 26.3) gives the very rows of the
 * recursive walk it replaced, kept here as the reference: for every
 * commit and every measure of a fixture whose two branches interleave
 * their rows, whether the scan runs to the end, gives way to look-ups
 * early or is not used at all; and on a damaged database too (summaries
 * missing, summaries under other rules, a first parent that is newer than
 * its child or has no row).
 */
#include "testutil.h"

#include "db.h"
#include "db_history.h"
#include "pd_domain.h"

#define FX "checkpoints"

static tu_site g_site;
static sqlite3 *g_db;
static char g_hash[128];

static int setup(void **state)
{
    tu_site_init(&g_site, "histchain.db");
    if (tu_site_ingest(&g_site, FX, "cp", "main side") < 0 ||
        db_open(&g_db, g_site.db, 0) < 0 ||
        db_meta_get(g_db, "rules_hash", g_hash, sizeof(g_hash)) < 0)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    db_close(g_db);
    tu_site_free(&g_site);
    return 0;
}

typedef struct {
    char buf[16384];
    size_t len;
} dump;

static int dump_point(void *arg, const db_hist_point *p)
{
    dump *d = arg;

    tu_append(d->buf, sizeof(d->buf), &d->len, "%s %lld %d %lld %d %lld %lld\n", p->c.oid,
              (long long)p->c.author_time, p->c.author_offset,
              (long long)p->c.committer_time, p->c.committer_offset, (long long)p->value,
              (long long)p->tok_hpy);
    return 0;
}

/* The reference: the recursive walk db_ref_history was before. */
static void walk(int64_t commit_id, int measure, dump *d)
{
    sqlite3_stmt *st = NULL;
    db_hist_point p;
    char sql[1024];

    snprintf(sql, sizeof(sql),
             "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL "
             "SELECT c.first_parent_id, chain.depth + 1 FROM commits c "
             "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "
             "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, "
             "c.committer_offset, s.%s, s.tok_hpy FROM chain "
             "JOIN commits c ON c.id = chain.cid JOIN commit_stats s "
             "ON s.commit_id = c.id AND s.rules_hash = ?2 ORDER BY chain.depth DESC",
             pd_measures[measure].column);
    assert_int_equal(db_prepare(g_db, &st, sql), 0);
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_text(st, 2, g_hash, -1, SQLITE_STATIC);
    while (db_step(st) > 0) {
        p.c.oid = (const char *)sqlite3_column_text(st, 0);
        p.c.author_time = sqlite3_column_int64(st, 1);
        p.c.author_offset = sqlite3_column_int(st, 2);
        p.c.committer_time = sqlite3_column_int64(st, 3);
        p.c.committer_offset = sqlite3_column_int(st, 4);
        p.value = sqlite3_column_int64(st, 5);
        p.tok_hpy = sqlite3_column_int64(st, 6);
        dump_point(d, &p);
    }
    sqlite3_finalize(st);
}

/* Every commit id (and one past the last), every measure, every slack:
 * the scan's rows are the walk's.  Returns the rows compared. */
static size_t check_all(void)
{
    static const int64_t slacks[] = {-1, 0, 1, 3, 4096};
    sqlite3_stmt *st = NULL;
    int64_t max_id;
    size_t rows = 0, k;
    int m;

    assert_int_equal(db_prepare(g_db, &st, "SELECT max(id) FROM commits"), 0);
    assert_int_equal(db_step(st), 1);
    max_id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    for (int64_t id = 1; id <= max_id + 1; id++)
        for (m = 0; m < PD_NMEASURES; m++) {
            dump want = {{0}, 0}, got = {{0}, 0};

            walk(id, m, &want);
            assert_int_equal(db_ref_history(g_db, id, g_hash, m, dump_point, &got), 0);
            assert_string_equal(got.buf, want.buf);
            for (k = 0; k < sizeof(slacks) / sizeof(slacks[0]); k++) {
                got.len = 0;
                got.buf[0] = '\0';
                assert_int_equal(db_ref_history_slack(g_db, id, g_hash, m, slacks[k],
                                                      dump_point, &got), 0);
                assert_string_equal(got.buf, want.buf);
            }
            for (const char *s = want.buf; *s; s++)
                rows += *s == '\n';
        }
    return rows;
}

/* ---------- tests ---------- */

/* The fixture's branches interleave: the scan has rows to skip. */
static void test_the_scan_gives_the_walks_rows(void **state)
{
    dump d = {{0}, 0};
    sqlite3_stmt *st = NULL;
    int64_t tip;
    int n = 0;

    assert_int_equal(db_prepare(g_db, &st, "SELECT r.commit_id FROM refs r WHERE "
                                "r.name = 'main'"), 0);
    assert_int_equal(db_step(st), 1);
    tip = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    /* main's chain is 19 commits; the database holds 20, side's among them */
    assert_int_equal(db_ref_history(g_db, tip, g_hash, 0, dump_point, &d), 0);
    for (const char *s = d.buf; *s; s++)
        n += *s == '\n';
    assert_int_equal(n, 19);
    assert_true(check_all() > 20 * PD_NMEASURES);
}

/* Summaries under other rules (sorted before and after), summaries
 * missing, a first parent newer than its child and one without a row. */
static void test_a_damaged_chain_reads_as_the_walk_did(void **state)
{
    assert_int_equal(db_exec(g_db, "PRAGMA foreign_keys = OFF"), 0);
    assert_int_equal(db_exec(g_db, "BEGIN"), 0);
    assert_int_equal(db_exec(g_db,
        "CREATE TEMP TABLE t AS SELECT * FROM commit_stats; "
        "UPDATE t SET rules_hash = '0', obj_legacy = obj_legacy + 1000; "
        "INSERT INTO commit_stats SELECT * FROM t; "
        "UPDATE t SET rules_hash = 'zz', obj_legacy = obj_legacy + 1000; "
        "INSERT INTO commit_stats SELECT * FROM t; DROP TABLE t"), 0);
    check_all();
    assert_int_equal(db_exec(g_db, "DELETE FROM commit_stats WHERE commit_id % 3 = 1 "
                             "AND rules_hash NOT IN ('0', 'zz')"), 0);
    check_all();
    assert_int_equal(db_exec(g_db, "UPDATE commits SET first_parent_id = id + 1 "
                             "WHERE id = 12"), 0);
    check_all();
    assert_int_equal(db_exec(g_db, "UPDATE commits SET first_parent_id = 100000 "
                             "WHERE id = 16; DELETE FROM commits WHERE id = 7"), 0);
    check_all();
    assert_int_equal(db_exec(g_db, "ROLLBACK"), 0);
    assert_int_equal(db_exec(g_db, "PRAGMA foreign_keys = ON"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_scan_gives_the_walks_rows),
        cmocka_unit_test(test_a_damaged_chain_reads_as_the_walk_did),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
