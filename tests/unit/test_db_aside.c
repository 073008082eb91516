/*
 * test_db_aside.c: a new database built aside and put in place whole
 * (db_aside.h): what an unfinished run left is removed, the result is a
 * WAL database at PATH with nothing beside it, and nothing that appeared
 * at PATH meanwhile is ever replaced.  The ingest's use of it (stopped,
 * killed, resumed) is in test_ingest_threads.c.
 */
#include "testutil.h"

#include <sys/wait.h>

#include "db.h"
#include "db_aside.h"
#include "db_lock.h"
#include "pd_error.h"

typedef struct {
    char *dir;
    char path[4200], tmp[4210];
} afx;

static int afx_setup(void **state)
{
    afx *f = calloc(1, sizeof(*f));

    f->dir = tu_tmpdir();
    snprintf(f->path, sizeof(f->path), "%s/a.db", f->dir);
    snprintf(f->tmp, sizeof(f->tmp), "%s.new", f->path);
    *state = f;
    return 0;
}

static int afx_teardown(void **state)
{
    afx *f = *state;

    tu_sh("rm -rf '%s'", f->dir);
    free(f->dir);
    free(f);
    return 0;
}

/* A number written through db and read back from `path` by a plain
 * connection (db_open: WAL, as the server opens it). */
static int64_t read_back(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t v = -1;

    assert_int_equal(db_open(&db, path, 0), 0);
    assert_int_equal(db_prepare(db, &st, "SELECT v FROM t"), 0);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    db_close(db);
    return v;
}

/* The first value of `sql` on db, as text (static buffer). */
static const char *pragma_text(sqlite3 *db, const char *sql)
{
    static char buf[64];
    sqlite3_stmt *st = NULL;

    assert_int_equal(db_prepare(db, &st, sql), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    snprintf(buf, sizeof(buf), "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return buf;
}

static void test_built_aside_then_in_place_in_wal_mode(void **state)
{
    afx *f = *state;
    char side[4300];
    sqlite3 *db = NULL;
    db_aside *a = NULL;

    assert_true(db_aside_wanted(f->path));
    assert_false(db_aside_building(f->path));
    assert_int_equal(db_aside_open(&a, &db, f->path), 0);
    assert_false(db_aside_restarted(a));    /* nothing was left to remove */
    assert_true(tu_exists(f->tmp));
    assert_false(tu_exists(f->path));
    assert_true(db_aside_building(f->path));
    /* marked from its first write: a run killed at any point leaves a
     * PATH.new the next one may remove */
    assert_int_equal(tu_db_header(f->tmp, 68, 4), 0x70644e57);
    assert_int_equal(db_exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (41)"), 0);
    /* the journal in memory, not off (with none, ROLLBACK is undefined),
     * and a rolled back change undone */
    assert_string_equal(pragma_text(db, "PRAGMA journal_mode"), "memory");
    assert_int_equal(db_exec(db, "BEGIN; UPDATE t SET v = 7; ROLLBACK"), 0);
    assert_int_equal(db_exec(db, "UPDATE t SET v = v + 1"), 0);
    assert_int_equal(db_aside_finish(a, db, 0), 0);
    assert_false(tu_exists(f->tmp));
    assert_false(db_aside_wanted(f->path));
    assert_false(db_aside_building(f->path));
    assert_int_equal(tu_db_header(f->path, 18, 2), 0x0202);
    assert_int_equal(tu_db_header(f->path, 68, 4), 0);
    snprintf(side, sizeof(side), "%s-journal", f->path);
    assert_false(tu_exists(side));
    assert_int_equal(read_back(f->path), 42);
}

/* A killed run's PATH.new and SQLite's files beside it are removed. */
static void test_leftovers_of_a_killed_run_are_removed(void **state)
{
    afx *f = *state;
    sqlite3 *db = NULL;
    db_aside *a = NULL;

    pid_t pid = fork();
    int status = 0;

    assert_true(pid >= 0);
    if (pid == 0) {                 /* a run that dies in the middle */
        if (db_aside_open(&a, &db, f->path) == 0)
            db_exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (4)");
        _exit(0);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(tu_exists(f->tmp));
    assert_false(tu_exists(f->path));
    assert_int_equal(tu_sh("printf x > '%s-journal'; printf y > '%s-wal'", f->tmp, f->tmp), 0);
    assert_int_equal(db_aside_open(&a, &db, f->path), 0);
    assert_int_equal(db_exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (5)"), 0);
    assert_int_equal(db_aside_finish(a, db, 0), 0);
    assert_int_equal(read_back(f->path), 5);
    assert_int_equal(tu_sh("ls '%s' | grep -v '^a.db$' | grep -v '^a.db-' | wc -l | "
                           "grep -qx 0", f->dir), 0);
}

/* What another command made at PATH meanwhile stays; the new database
 * stays in PATH.new, and the message names both. */
static void test_nothing_at_path_is_replaced(void **state)
{
    afx *f = *state;
    sqlite3 *db = NULL, *other = NULL;
    db_aside *a = NULL;

    assert_int_equal(db_aside_open(&a, &db, f->path), 0);
    assert_int_equal(db_exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (1)"), 0);
    assert_int_equal(db_open(&other, f->path, 1), 0);
    assert_int_equal(db_exec(other, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (2)"), 0);
    db_close(other);
    assert_int_equal(db_aside_finish(a, db, 0), PD_EBUSY);
    assert_non_null(strstr(pd_error_last(), f->path));
    assert_non_null(strstr(pd_error_last(), f->tmp));
    assert_int_equal(read_back(f->path), 2);
    assert_true(tu_exists(f->tmp));
    /* kept unmarked: no later run removes it, even once PATH is gone */
    assert_int_equal(read_back(f->tmp), 1);
    assert_int_equal(tu_sh("rm -f '%s' '%s'-wal '%s'-shm", f->path, f->path, f->path), 0);
    assert_int_equal(db_aside_open(&a, &db, f->path), PD_EINVAL);
    assert_int_equal(read_back(f->tmp), 1);
    /* and an empty --db is no database */
    assert_int_equal(db_open(&other, "", 1), PD_EINVAL);
}

/* The -wal of a database removed from PATH (killed, then rm PATH) is not
 * replayed into the new one once it is there. */
static void test_a_removed_databases_wal_is_not_replayed(void **state)
{
    afx *f = *state;
    sqlite3 *old = NULL, *db = NULL;
    db_aside *a = NULL;

    assert_int_equal(db_open(&old, f->path, 1), 0);
    assert_int_equal(db_exec(old, "PRAGMA wal_autocheckpoint = 0; CREATE TABLE t(v INTEGER); "
                                  "INSERT INTO t VALUES (666)"), 0);
    /* the WAL as a kill leaves it, then the database removed */
    assert_int_equal(tu_sh("cp '%s-wal' '%s/w' && cp '%s-shm' '%s/s'", f->path, f->dir,
                           f->path, f->dir), 0);
    db_close(old);
    assert_int_equal(tu_sh("rm -f '%s'* && mv '%s/w' '%s-wal' && mv '%s/s' '%s-shm'",
                           f->path, f->dir, f->path, f->dir, f->path), 0);
    assert_int_equal(db_aside_open(&a, &db, f->path), 0);
    assert_int_equal(db_exec(db, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (7)"), 0);
    assert_int_equal(db_aside_finish(a, db, 1), 0);
    assert_int_equal(read_back(f->path), 7);
    assert_int_equal(tu_sh("sqlite3 '%s' 'PRAGMA integrity_check' | grep -qx ok", f->path), 0);
}

/* A PATH.new that no run left is not removed; an empty one (a run killed
 * before its first page) is. */
static void test_only_what_a_run_left_is_removed(void **state)
{
    afx *f = *state;
    sqlite3 *db = NULL, *other = NULL;
    db_aside *a = NULL;

    assert_int_equal(db_open(&other, f->tmp, 1), 0);     /* someone's database */
    assert_int_equal(db_exec(other, "CREATE TABLE t(v INTEGER); INSERT INTO t VALUES (3)"), 0);
    db_close(other);
    assert_int_equal(db_aside_open(&a, &db, f->path), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "is in the way"));
    assert_int_equal(read_back(f->tmp), 3);
    assert_int_equal(tu_sh("rm -f '%s'* && : > '%s'", f->tmp, f->tmp), 0);
    assert_int_equal(db_aside_open(&a, &db, f->path), 0);
    assert_true(db_aside_restarted(a));     /* the empty one a killed run left */
    pd_error_set(PD_EIO, "a failed run");
    db_aside_discard(a, db, PD_EIO);
    assert_false(tu_exists(f->tmp));
    assert_false(tu_exists(f->path));
    assert_non_null(strstr(pd_error_last(), "a failed run; a first ingest that fails "
                                            "keeps nothing: nothing is at"));
}

/* What every command that opens --db is told: building (another process
 * holds the lock) or left by a run that was stopped (no one holds it, or
 * only the asking process: `snapshot` takes the lock before it opens). */
static void test_building_or_left(void **state)
{
    afx *f = *state;
    db_lock *l = NULL;
    int up[2], down[2], st;
    char c;
    pid_t pid;

    assert_int_equal(db_aside_building(f->path), 0);
    assert_int_equal(db_aside_say(f->path, "then"), 0);
    assert_int_equal(tu_sh(": > '%s'", f->tmp), 0);
    assert_int_equal(db_aside_building(f->path), 2);
    assert_int_equal(db_lock_take(&l, f->path, "snapshot", 0), 0);
    assert_int_equal(db_aside_building(f->path), 2);
    assert_int_equal(db_aside_say(f->path, "then"), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "yet: a first ingest was stopped before it "
                                            "ended ("));
    db_lock_release(l);
    assert_int_equal(pipe(up), 0);
    assert_int_equal(pipe(down), 0);
    if ((pid = fork()) == 0) {      /* an ingest in another process */
        close(up[0]);
        close(down[1]);
        if (db_lock_take(&l, f->path, "ingest", 0) == 0 && write(up[1], "x", 1) == 1)
            (void)!read(down[0], &c, 1);
        _exit(0);
    }
    close(up[1]);
    close(down[0]);
    assert_int_equal(read(up[0], &c, 1), 1);
    assert_int_equal(db_aside_building(f->path), 1);
    assert_int_equal(db_aside_say(f->path, "run this once it has ended"), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "yet: a first ingest is building it ("));
    assert_non_null(strstr(pd_error_last(), ".new); run this once it has ended"));
    close(down[1]);
    close(up[0]);
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_int_equal(db_aside_building(f->path), 2);
}

/* A database that cannot be made leaves nothing behind. */
static void test_failed_open_leaves_nothing(void **state)
{
    afx *f = *state;
    char bad[4300];
    sqlite3 *db = NULL;
    db_aside *a = NULL;

    snprintf(bad, sizeof(bad), "%s/no/such/dir/a.db", f->dir);
    assert_true(db_aside_wanted(bad));
    assert_true(db_aside_open(&a, &db, bad) < 0);
    assert_null(db);
    assert_null(a);
    assert_int_equal(tu_sh("test -z \"$(ls -A '%s')\"", f->dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_built_aside_then_in_place_in_wal_mode,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_leftovers_of_a_killed_run_are_removed,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_nothing_at_path_is_replaced,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_a_removed_databases_wal_is_not_replayed,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_only_what_a_run_left_is_removed,
                                        afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_building_or_left, afx_setup, afx_teardown),
        cmocka_unit_test_setup_teardown(test_failed_open_leaves_nothing,
                                        afx_setup, afx_teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
