/*
 * test_damaged.c: a damaged database never crashes or hangs the server
 * (issue 16).  Stored lengths and links are data: a findings_len of -1 or
 * one the compressed bytes cannot hold, undecodable findings, and a
 * first-parent cycle each get an answer, 500 with a problem document where
 * the damage is in what was asked for.  Run under ASan by make test.
 */
#include "testutil.h"

#include "db.h"

static tu_site g_site;

static int setup(void **state)
{
    tu_site_init(&g_site, "damaged.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    {
        /* No answer cache: each request must read the damaged rows, not an
         * answer computed before the damage (which the cache would rightly
         * keep serving). */
        srv_options so = {0};

        so.cache_mb = -1;
        so.no_warm = 1;
        return tu_site_serve(&g_site, &so);
    }
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* Run one SQL statement on the site's database. */
static void h_sql(const char *sql)
{
    sqlite3 *db = NULL;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_exec(db, sql), 0);
    db_close(db);
}

static long h_get(const char *path)
{
    return tu_site_status(&g_site, path, "damaged");
}

static void test_stored_lengths_are_not_trusted(void **state)
{
    const char *file = "/api/v1/repos/demo/commits/hpy/files/src/refcount.c";

    assert_int_equal(h_get(file), 200);
    /* -1 read as SIZE_MAX made malloc(0) and a write past it. */
    h_sql("UPDATE analyses SET findings_len = -1");
    assert_int_equal(h_get(file), 500);
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/object-items"), 500);
    h_sql("UPDATE analyses SET findings_len = 1099511627776");
    assert_int_equal(h_get(file), 500);
    h_sql("UPDATE analyses SET findings_len = 3, findings = x'00010203'");
    assert_int_equal(h_get(file), 500);
    /* Pages that do not read findings still answer: blockers count the
     * unguarded findings stored per function (migration 011). */
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/files"), 200);
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/blockers"), 200);
}

static void test_first_parent_cycle_ends(void **state)
{
    static const char *paths[] = {
        "/api/v1/repos/demo/refs/hpy/history",
        "/api/v1/repos/demo/refs/hpy/file-history/src/refcount.c",
        "/api/v1/repos/demo/refs/hpy/rewrites",
        "/api/v1/repos/demo/commits/hpy/traverse",
        "/api/v1/repos/demo/commits/hpy/frontier",
        "/api/v1/repos/demo/commits/hpy",
        "/api/v1/repos/demo/compare/hpy...hpy-convert-object-dtype",
        "/api/v1/repos/demo/snapshots",
        "/api/v1/repos/demo/forecast",
        "/api/v1/repos/demo/gate?base=hpy&head=hpy-convert-object-dtype",
        "/badge/demo/hpy/object_paths.object-legacy.svg",
    };
    char *root = tu_sh_out("git --git-dir='%s' rev-list --max-parents=0 hpy",
                           tu_fixture("toyport"));
    char path[256];
    size_t i;

    /* The root's first parent becomes the newest commit: a loop. */
    h_sql("UPDATE commits SET first_parent_id = (SELECT max(id) FROM commits) "
          "WHERE id = (SELECT min(id) FROM commits)");
    for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        long st = h_get(paths[i]);

        /* An answer at all is the point; 400 is forecast's "no snapshots". */
        if (st != 200 && st != 400 && st != 500)
            fail_msg("GET %s: %ld", paths[i], st);
    }
    root[strcspn(root, "\n")] = '\0';
    snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%s", root);
    assert_int_equal(h_get(path), 500);
    free(root);
}

/* Issue 27: a commit whose first parent is itself cut the chain short, and
 * a file behind the cut was "not found" (404).  It is damage: 500. */
static void test_a_self_loop_is_damage_not_a_missing_file(void **state)
{
    /* the newest commit of hpy names itself: every older row is cut off */
    h_sql("UPDATE commits SET first_parent_id = id WHERE id = (SELECT commit_id FROM refs "
          "WHERE name = 'hpy')");
    /* src/refcount.c was added before the tip: behind the cut */
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c"), 500);
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/raw/src/refcount.c"), 500);
    /* a path that is nowhere is still "not found" only when the chain is
     * whole: here it is cut, so it is damage too */
    assert_int_equal(h_get("/api/v1/repos/demo/commits/hpy/files/nope.c"), 500);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_lengths_are_not_trusted),
        cmocka_unit_test(test_first_parent_cycle_ends),
        cmocka_unit_test(test_a_self_loop_is_damage_not_a_missing_file),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
