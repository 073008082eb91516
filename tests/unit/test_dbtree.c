/*
 * test_dbtree.c: the stored file lists of migration 017 (db_tree.h, issue
 * 26.3).  With checkpoints at any spacing, the file list of every commit
 * and the blob of every path ever seen are what git says, on a fixture
 * with deletions, renames, a path deleted and added again and a merge;
 * commits at, just after and far from a checkpoint read from it; the
 * ingest and the migration of an older database fill the rows; removing
 * the repository removes them.
 */
#include "testutil.h"

#include "db_migrations.h"

#include "db.h"
#include "db_repo.h"
#include "db_tree.h"

#define FX "checkpoints"

static tu_site g_site;
static sqlite3 *g_db;
static char g_hash[128];

static int setup(void **state)
{
    tu_site_init(&g_site, "dbtree.db");
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

/* One integer from SQL. */
static int64_t one_int(const char *sql)
{
    sqlite3_stmt *st = NULL;
    int64_t v;

    assert_int_equal(db_prepare(g_db, &st, sql), 0);
    assert_int_equal(db_step(st), 1);
    v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* The commit row at `depth` of main's first-parent chain (0: the root). */
static int64_t main_at_depth(int depth)
{
    char cmd[256], *oid, sql[160];
    int64_t id;

    snprintf(cmd, sizeof(cmd), "rev-list --first-parent main | tail -n %d | head -n 1",
             depth + 1);
    oid = tu_sh_out("git --git-dir='%s' %s", tu_fixture(FX), cmd);
    oid[40] = '\0';
    snprintf(sql, sizeof(sql), "SELECT id FROM commits WHERE oid = '%s'", oid);
    free(oid);
    id = one_int(sql);
    return id;
}

typedef struct {
    char buf[4096];
    size_t len;
} listing;

static int list_one(void *arg, int64_t path_id, const char *path, const char *blob,
                    int64_t analysis_id)
{
    listing *l = arg;

    tu_append(l->buf, sizeof(l->buf), &l->len, "%s %s\n", path, blob);
    return 0;
}

/* Every commit's file list and every path's blob against git. */
static void check_all_against_git(void)
{
    sqlite3_stmt *st = NULL, *ps = NULL;
    int ncommits = 0;

    assert_int_equal(db_prepare(g_db, &st, "SELECT id, oid FROM commits ORDER BY id"), 0);
    while (db_step(st) > 0) {
        int64_t id = sqlite3_column_int64(st, 0);
        const char *oid = (const char *)sqlite3_column_text(st, 1);
        char *want = tu_sh_out("git --git-dir='%s' ls-tree -r %s | awk -F'\\t' "
                               "'{ split($1, a, \" \"); print $2 \" \" a[3] }' | "
                               "LC_ALL=C sort", tu_fixture(FX), oid);
        listing got = {{0}, 0};

        assert_int_equal(db_commit_files(g_db, id, g_hash, list_one, &got), 0);
        assert_string_equal(got.buf, want);
        free(want);
        assert_int_equal(db_prepare(g_db, &ps, "SELECT path FROM paths ORDER BY id"), 0);
        while (db_step(ps) > 0) {
            const char *path = (const char *)sqlite3_column_text(ps, 0);
            char blob[41] = "", *git = tu_sh_out("git --git-dir='%s' rev-parse -q "
                                                 "--verify %s:%s", tu_fixture(FX), oid, path);
            int rc = db_commit_file_blob(g_db, id, path, blob);

            if (*git) {
                assert_int_equal(rc, 0);
                assert_memory_equal(blob, git, 40);
            } else {
                assert_int_equal(rc, PD_ENOTFOUND);
            }
            free(git);
        }
        sqlite3_finalize(ps);
        ncommits++;
    }
    sqlite3_finalize(st);
    assert_int_equal(ncommits, 20);
}

/* Drop the stored rows and fill them again at spacing `every`. */
static void refill(int every)
{
    assert_int_equal(db_exec(g_db, "DELETE FROM tree_files; DELETE FROM chain_pos"), 0);
    assert_int_equal(db_tree_fill_every(g_db, every), 0);
}

/* ---------- tests ---------- */

/* The ingest wrote a position for every commit; main's chain is 19 long. */
static void test_ingest_fills(void **state)
{
    assert_int_equal(one_int("SELECT count(*) FROM chain_pos"),
                     one_int("SELECT count(*) FROM commits"));
    assert_int_equal(one_int("SELECT max(depth) FROM chain_pos"), 18);
    /* DB_TREE_EVERY is longer than the chain: no checkpoint, all walked. */
    assert_int_equal(one_int("SELECT count(*) FROM tree_files"), 0);
    check_all_against_git();
}

/* Any spacing, the same answers as git: 1 (every commit a checkpoint),
 * 2, 3, 7, and the default. */
static void test_spacings_equal_git(void **state)
{
    static const int every[] = {1, 2, 3, 7, DB_TREE_EVERY};
    size_t i;

    for (i = 0; i < sizeof(every) / sizeof(every[0]); i++) {
        refill(every[i]);
        check_all_against_git();
    }
}

/* Which checkpoint a commit reads from, at spacing 7. */
static void test_positions(void **state)
{
    char sql[160];
    int64_t at7, at14;

    refill(7);
    at7 = main_at_depth(7);
    at14 = main_at_depth(14);
    /* at a checkpoint: itself, its whole list stored */
    snprintf(sql, sizeof(sql), "SELECT base_id FROM chain_pos WHERE commit_id = %lld",
             (long long)at7);
    assert_int_equal(one_int(sql), at7);
    snprintf(sql, sizeof(sql), "SELECT count(*) FROM tree_files WHERE commit_id = %lld",
             (long long)at7);
    assert_int_equal(one_int(sql), 6);     /* a.c inc/c.h lib/d.c e.c side.c f.c */
    /* just after, and far (6 commits) after */
    snprintf(sql, sizeof(sql), "SELECT base_id FROM chain_pos WHERE commit_id = %lld",
             (long long)main_at_depth(8));
    assert_int_equal(one_int(sql), at7);
    snprintf(sql, sizeof(sql), "SELECT base_id FROM chain_pos WHERE commit_id = %lld",
             (long long)main_at_depth(13));
    assert_int_equal(one_int(sql), at7);
    snprintf(sql, sizeof(sql), "SELECT base_id FROM chain_pos WHERE commit_id = %lld",
             (long long)main_at_depth(18));
    assert_int_equal(one_int(sql), at14);
    /* before the first checkpoint: none, walked to the root */
    snprintf(sql, sizeof(sql), "SELECT base_id IS NULL FROM chain_pos WHERE commit_id = %lld",
             (long long)main_at_depth(6));
    assert_int_equal(one_int(sql), 1);
    assert_int_equal(one_int("SELECT count(DISTINCT commit_id) FROM tree_files"), 2);
}

/* A database of schema 16 gets the rows from migration 017 (and 018's;
 * 019 finds its columns there and no table functions left to move). */
static void test_migration_fills(void **state)
{
    db_close(g_db);
    g_db = NULL;
    assert_int_equal(tu_sh("sqlite3 '%s' 'DROP TABLE tree_files; DROP TABLE chain_pos; "
                           "DROP TABLE flow_commits; DROP TABLE flow_sets; "
                           "ALTER TABLE analyses DROP COLUMN flow_fns; "
                           "PRAGMA user_version = 16;'", g_site.db), 0);
    assert_int_equal(db_open(&g_db, g_site.db, 0), 0);
    assert_int_equal(one_int("PRAGMA user_version"),
                     db_migrations[db_migrations_count - 1].version);
    assert_int_equal(one_int("SELECT count(*) FROM chain_pos"), 20);
    assert_int_equal(one_int("SELECT max(depth) FROM chain_pos"), 18);
    check_all_against_git();
}

/* Revisions with ~N and ^N steps resolve in the database to git's commit:
 * main~13 is the merge of side, so its ^2 is side's tip, stored because
 * side was ingested too; a parent that does not exist is not found. */
static void test_rev_steps_are_gits(void **state)
{
    static const char *revs[] = {"main~13^2", "main~13^1", "main~13^0", "main^",
                                 "main~2^1~1", "main~12^^2~1", "side~1"};
    static const char *none[] = {"main~13^3", "main~19", "main~18^2"};
    int64_t repo, id;
    char oid[41], *want;
    size_t i;

    assert_int_equal(db_repo_find(g_db, "cp", &repo, NULL, 0), 0);
    for (i = 0; i < sizeof(revs) / sizeof(revs[0]); i++) {
        want = tu_sh_out("git --git-dir='%s' rev-parse '%s'", tu_fixture(FX), revs[i]);
        want[40] = '\0';
        assert_int_equal(db_rev_resolve(g_db, repo, revs[i], &id, oid), 0);
        assert_string_equal(oid, want);
        free(want);
    }
    for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
        assert_int_equal(db_rev_resolve(g_db, repo, none[i], &id, oid), PD_ENOTFOUND);
        assert_non_null(strstr(pd_error_last(), "no such parent stored"));
    }
}

/* Removing the repository removes its rows (the foreign keys hold). */
static void test_repo_rm(void **state)
{
    refill(2);
    assert_true(one_int("SELECT count(*) FROM tree_files") > 0);
    assert_int_equal(db_repo_rm(g_db, "cp"), 0);
    assert_int_equal(one_int("SELECT count(*) FROM chain_pos"), 0);
    assert_int_equal(one_int("SELECT count(*) FROM tree_files"), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ingest_fills),
        cmocka_unit_test(test_spacings_equal_git),
        cmocka_unit_test(test_positions),
        cmocka_unit_test(test_migration_fills),
        cmocka_unit_test(test_rev_steps_are_gits),
        cmocka_unit_test(test_repo_rm),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
