/*
 * test_ingest_ckpt.c: the ingest's checkpointer (ingest_ckpt.h).  While
 * the writer's connection stays open and checkpoints nothing itself, its
 * commits past 16 MiB of WAL are copied into the database file by the
 * checkpointer's thread (the file grows from one page to the data); after
 * the stop the writer's automatic checkpoint is back (the WAL started again
 * after the thread copied it all), and every row reads back through a new
 * connection.
 */
#include "testutil.h"

#include <sys/stat.h>
#include <sqlite3.h>

#include "ingest_ckpt.h"

/* Size of the file at path in bytes (-1: none). */
static long long file_size(const char *path)
{
    struct stat sb;

    return stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
}

/* Commit `n` rows of 1 MiB of `byte` in one transaction. */
static void write_rows(sqlite3 *db, int n, int byte)
{
    sqlite3_stmt *st;
    char *blob = malloc(1 << 20);
    int i;

    assert_non_null(blob);
    memset(blob, byte, 1 << 20);
    assert_int_equal(sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_prepare_v2(db, "INSERT INTO t(b) VALUES (?1)", -1, &st, NULL),
                     SQLITE_OK);
    for (i = 0; i < n; i++) {
        sqlite3_bind_blob(st, 1, blob, 1 << 20, SQLITE_STATIC);
        assert_int_equal(sqlite3_step(st), SQLITE_DONE);
        sqlite3_reset(st);
    }
    sqlite3_finalize(st);
    assert_int_equal(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
    free(blob);
}

static long long count_rows(const char *path)
{
    sqlite3 *db;
    sqlite3_stmt *st;
    long long n = -1;

    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, "SELECT count(*), sum(length(b)) FROM t", -1, &st, NULL) ==
            SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 1) ==
            sqlite3_column_int64(st, 0) << 20)
        n = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    sqlite3_close(db);
    return n;
}

static void test_checkpoints_beside_the_writer(void **state)
{
    char *dir = tu_tmpdir(), path[4096];
    ingest_ckpt *k = NULL;
    sqlite3 *db;
    long long before;
    int i;

    (void)state;
    snprintf(path, sizeof(path), "%s/ckpt.db", dir);
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "PRAGMA journal_mode = WAL; "
                                      "CREATE TABLE t(b BLOB)", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_wal_autocheckpoint(db, 0), SQLITE_OK);   /* none by the writer */
    before = file_size(path);
    assert_true(before > 0 && before < (1 << 20));
    assert_int_equal(ingest_ckpt_start(&k, db, path), 0);
    write_rows(db, 12, 'a');           /* below the wake: nothing copied yet */
    write_rows(db, 12, 'b');           /* 24 MiB of WAL: wakes the thread */
    for (i = 0; i < 500 && file_size(path) < (24LL << 20); i++)
        usleep(10000);
    assert_true(file_size(path) >= (24LL << 20));
    ingest_ckpt_stop(k, 1000);
    write_rows(db, 5, 'c');            /* 1,280 pages: the writer's own again */
    assert_true(file_size(path) >= (29LL << 20));
    assert_int_equal(count_rows(path), 29);
    sqlite3_close(db);
    ingest_ckpt_stop(NULL, 0);         /* accepts NULL */
    tu_sh("rm -rf '%s'", dir);
    free(dir);
}

/* A database that cannot be opened: an error the caller can go on from,
 * and the writer's hook left as it was. */
static void test_start_fails_cleanly(void **state)
{
    ingest_ckpt *k = (ingest_ckpt *)1;
    sqlite3 *db;

    (void)state;
    assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
    assert_true(ingest_ckpt_start(&k, db, "/nonexistent/dir/x.db") < 0);
    assert_null(k);
    sqlite3_close(db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_checkpoints_beside_the_writer),
        cmocka_unit_test(test_start_fails_cleanly),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
