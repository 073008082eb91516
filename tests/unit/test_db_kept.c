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
    sqlite3_stmt *outer = NULL, *inner = NULL, *again = NULL;
    char *dir = two_connections(&a, &b, 2);
    int n = 0;

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
    /* both kept: the next two callers get them back */
    assert_int_equal(db_kept_prepare(a, &again, ROWS_SQL), 0);
    assert_true(again == outer || again == inner);
    db_kept_done(again);
    close_all(a, b, dir);
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
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
