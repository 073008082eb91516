/*
 * test_db_kept.c: statements kept prepared between uses (db_kept.h,
 * issue 26.3) are the same statement again, reset with no parameter left
 * bound, one caller's at a time, never a stale read, and gone before their
 * connection closes.
 */
#include "testutil.h"

#include "db.h"
#include "db_kept.h"

static const char *const COUNT_SQL = "SELECT count(*), ?1 FROM t";
static const char *const ROWS_SQL = "SELECT x FROM t ORDER BY x";

/* A database with table t of `n` rows, open on *a and *b. */
static char *two_connections(sqlite3 **a, sqlite3 **b, int n)
{
    char *dir = tu_tmpdir(), path[4200], sql[64];
    int i;

    snprintf(path, sizeof(path), "%s/k.db", dir);
    assert_int_equal(sqlite3_open(path, a), SQLITE_OK);
    assert_int_equal(sqlite3_exec(*a, "PRAGMA journal_mode=WAL; CREATE TABLE t(x)", NULL, NULL,
                                  NULL), SQLITE_OK);
    for (i = 0; i < n; i++) {
        snprintf(sql, sizeof(sql), "INSERT INTO t VALUES (%d)", i);
        assert_int_equal(sqlite3_exec(*a, sql, NULL, NULL, NULL), SQLITE_OK);
    }
    assert_int_equal(sqlite3_open(path, b), SQLITE_OK);
    return dir;
}

static void close_all(sqlite3 *a, sqlite3 *b, char *dir)
{
    db_kept_close(a);
    db_kept_close(b);
    assert_int_equal(sqlite3_close(a), SQLITE_OK);   /* nothing left on it */
    assert_int_equal(sqlite3_close(b), SQLITE_OK);
    tu_sh("rm -rf '%s'", dir);
    free(dir);
}

/* count(*) of t through the kept statement, with ?1 bound when `bind`:
 * the second column says whether a binding was left over. */
static int64_t kept_count(sqlite3 *db, sqlite3_stmt **seen, int bind, int *left_bound)
{
    sqlite3_stmt *st = NULL;
    int64_t n;

    assert_int_equal(db_kept_prepare(db, &st, COUNT_SQL), 0);
    if (*seen)
        assert_ptr_equal(st, *seen);                  /* the same, not prepared again */
    *seen = st;
    if (bind)
        sqlite3_bind_int(st, 1, 7);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    n = sqlite3_column_int64(st, 0);
    *left_bound = sqlite3_column_type(st, 1) != SQLITE_NULL;
    db_kept_done(st);
    return n;
}

static void test_kept_is_reused_reset_and_unbound(void **state)
{
    sqlite3 *a, *b;
    sqlite3_stmt *seen = NULL;
    char *dir = two_connections(&a, &b, 2);
    int base = db_kept_count(), left;

    (void)state;
    assert_int_equal(kept_count(a, &seen, 1, &left), 2);
    assert_true(left);
    assert_int_equal(db_kept_count(), base + 1);
    assert_int_equal(kept_count(a, &seen, 0, &left), 2);
    assert_false(left);                               /* ?1 cleared */
    assert_int_equal(db_kept_count(), base + 1);
    /* another connection has a statement of its own */
    {
        sqlite3_stmt *other = NULL;

        assert_int_equal(kept_count(b, &other, 0, &left), 2);
        assert_ptr_not_equal(other, seen);
        assert_int_equal(db_kept_count(), base + 2);
    }
    close_all(a, b, dir);
    assert_int_equal(db_kept_count(), base);
}

static void test_kept_never_reads_a_stale_snapshot(void **state)
{
    sqlite3 *a, *b;
    sqlite3_stmt *st = NULL, *seen = NULL;
    char *dir = two_connections(&a, &b, 3);
    int left;

    (void)state;
    /* a caller that stops after the first row gives it back mid-read */
    assert_int_equal(db_kept_prepare(a, &st, ROWS_SQL), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    db_kept_done(st);
    assert_false(sqlite3_stmt_busy(st));
    /* a write on the other connection commits and checkpoints: nothing
     * of a's holds the old snapshot */
    assert_int_equal(sqlite3_exec(b, "INSERT INTO t VALUES (9)", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_wal_checkpoint_v2(b, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL,
                                               NULL), SQLITE_OK);
    assert_int_equal(kept_count(a, &seen, 0, &left), 4);
    close_all(a, b, dir);
}

static void test_kept_is_one_callers_at_a_time(void **state)
{
    sqlite3 *a, *b;
    sqlite3_stmt *outer = NULL, *inner = NULL, *again = NULL, *twice = NULL;
    char *dir = two_connections(&a, &b, 2);
    int n = 0, base = db_kept_count();

    (void)state;
    /* a walk that asks for its own SQL inside its loop gets a second one */
    assert_int_equal(db_kept_prepare(a, &outer, ROWS_SQL), 0);
    while (sqlite3_step(outer) == SQLITE_ROW) {
        assert_int_equal(db_kept_prepare(a, &inner, ROWS_SQL), 0);
        assert_ptr_not_equal(inner, outer);
        while (sqlite3_step(inner) == SQLITE_ROW)
            n++;
        db_kept_done(inner);
    }
    db_kept_done(outer);
    assert_int_equal(n, 4);
    /* both kept: two callers at once get both back, neither prepared anew */
    assert_int_equal(db_kept_count(), base + 2);
    assert_int_equal(db_kept_prepare(a, &again, ROWS_SQL), 0);
    assert_int_equal(db_kept_prepare(a, &twice, ROWS_SQL), 0);
    assert_true((again == outer && twice == inner) || (again == inner && twice == outer));
    db_kept_done(twice);
    db_kept_done(again);
    assert_int_equal(db_kept_count(), base + 2);
    close_all(a, b, dir);
}

/* Past DB_KEPT_MAX kept statements a new one is used and finalized when
 * given back: the count stays at the bound, the connection closes with
 * nothing left on it (close_all asserts SQLITE_OK), and a statement of
 * db_prepare given to db_kept_done is finalized too. */
static void test_a_full_table_finalizes(void **state)
{
    static char sql[DB_KEPT_MAX + 2][48];   /* the keys live as long as the test */
    sqlite3 *a, *b;
    sqlite3_stmt *st;
    char *dir = two_connections(&a, &b, 1);
    int i;

    (void)state;
    for (i = 0; i < DB_KEPT_MAX + 2; i++) {
        snprintf(sql[i], sizeof(sql[i]), "SELECT %d FROM t", i);
        assert_int_equal(db_kept_prepare(a, &st, sql[i]), 0);
        assert_int_equal(sqlite3_step(st), SQLITE_ROW);
        assert_int_equal(sqlite3_column_int(st, 0), i);
        db_kept_done(st);
        assert_true(db_kept_count() <= DB_KEPT_MAX);
    }
    assert_int_equal(db_kept_count(), DB_KEPT_MAX);
    assert_int_equal(db_prepare(b, &st, "SELECT x FROM t"), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    db_kept_done(st);                        /* not kept: finalized */
    close_all(a, b, dir);
    assert_int_equal(db_kept_count(), 0);
}

static void test_bad_sql_is_an_error_and_keeps_nothing(void **state)
{
    sqlite3 *a, *b;
    sqlite3_stmt *st = NULL;
    char *dir = two_connections(&a, &b, 0);
    int base = db_kept_count();

    (void)state;
    assert_int_equal(db_kept_prepare(a, &st, "SELECT nope FROM nowhere"), PD_EDB);
    assert_null(st);
    assert_non_null(strstr(pd_error_last(), "nowhere"));
    assert_int_equal(db_kept_count(), base);
    db_kept_done(NULL);
    close_all(a, b, dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_is_reused_reset_and_unbound),
        cmocka_unit_test(test_kept_never_reads_a_stale_snapshot),
        cmocka_unit_test(test_kept_is_one_callers_at_a_time),
        cmocka_unit_test(test_bad_sql_is_an_error_and_keeps_nothing),
        cmocka_unit_test(test_a_full_table_finalizes),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
