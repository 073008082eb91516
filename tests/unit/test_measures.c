/*
 * test_measures.c: every measure of pd_measures.def is written and read
 * the same way everywhere (issue 10).  On the toy port plus a commit using
 * numpy's legacy API, every measure is non-zero somewhere, and for each
 * the stored figures follow the row's rule, analyses sum to commit_stats,
 * snapshots and their files equal what they were taken from, and the
 * summary JSON and the snapshots CSV show the stored figure under the
 * row's key.  A column a migration adds, and the unguarded counts of
 * migration 011, are filled for rows stored before it with the values an
 * ingest would have written.  A measure written in the wrong column, read
 * at the wrong index or left out of one table fails one of these.
 */
#include "testutil.h"

#include "db.h"
#include "db_fns.h"
#include "db_measures.h"
#include "db_measures_fill.h"
#include "db_scope.h"
#include "db_snapshot.h"

static tu_site g_site;
static sqlite3 *g_db;
static char g_hash[128];
static int64_t g_repo;

/* The toy port with a commit adding numpy legacy API uses (npy-legacy). */
static int make_fixture(const char *dir)
{
    return tu_sh("cp -r '%s/tests/fixtures/toyport' '%s/fx' && mkdir -p "
                 "'%s/fx/07-npy/tree/src' && printf 'branch: hpy\\nauthor: N <n@e.org>\\n"
                 "author_date: 2021-12-01T10:00:00+00:00\\ncommitter_date: "
                 "2022-02-09T12:00:00+00:00\\nmessage: npy\\n' > '%s/fx/07-npy/COMMIT' && "
                 "printf 'static int nd(PyArrayObject *a)\\n{\\n    return PyArray_NDIM(a);\\n"
                 "}\\n' > '%s/fx/07-npy/tree/src/npy.c' && sh '%s/tests/repo/make_repo.sh' "
                 "'%s/fx' '%s/fx.git' >/dev/null 2>&1", getenv("PORTDASH_ROOT"), dir, dir,
                 dir, dir, getenv("PORTDASH_ROOT"), dir, dir);
}

/* A snapshot of every summarised commit, one week each. */
static int take_snapshots(void)
{
    sqlite3_stmt *st = NULL;
    char week[16];
    int rc, n = 0;

    if (db_prepare(g_db, &st, "SELECT commit_id FROM commit_stats ORDER BY commit_id") < 0)
        return -1;
    while ((rc = db_step(st)) > 0) {
        snprintf(week, sizeof(week), "2021-W%02d", ++n);
        if (db_snapshot_take(g_db, g_repo, "hpy", sqlite3_column_int64(st, 0), week, 0,
                             "live", g_hash) < 0)
            rc = -1;
    }
    sqlite3_finalize(st);
    return rc;
}

static int setup(void **state)
{
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    ingest_options o = {0};
    char git[4300];

    tu_site_init(&g_site, "measures.db");
    if (make_fixture(g_site.dir) != 0)
        return -1;
    snprintf(git, sizeof(git), "%s/fx.git", g_site.dir);
    o.db_path = g_site.db;
    o.repo_path = git;
    o.name = "demo";
    o.refs = refs;
    o.nrefs = 2;
    if (ingest_run(&o, NULL) < 0) {
        fprintf(stderr, "ingest: %s\n", pd_error_last());
        return -1;
    }
    if (db_open(&g_db, g_site.db, 0) < 0 ||
        db_meta_get(g_db, "rules_hash", g_hash, sizeof(g_hash)) < 0 ||
        db_repo_find(g_db, "demo", &g_repo, NULL, 0) < 0 || take_snapshots() < 0) {
        fprintf(stderr, "setup: %s\n", pd_error_last());
        return -1;
    }
    return tu_site_serve(&g_site, NULL);
}

static int teardown(void **state)
{
    db_close(g_db);
    tu_site_free(&g_site);
    return 0;
}

/* The ids of a query's first column, at most 256. */
static size_t h_ids(const char *sql, int64_t *ids)
{
    sqlite3_stmt *st = NULL;
    size_t n = 0;
    int rc;

    assert_int_equal(db_prepare(g_db, &st, sql), 0);
    while ((rc = db_step(st)) > 0 && n < 256)
        ids[n++] = sqlite3_column_int64(st, 0);
    assert_int_equal(rc, 0);
    sqlite3_finalize(st);
    return n;
}

/* Figures `a` and `b` agree on every measure (`what` names the pair). */
static void h_same(const pd_counts *a, const pd_counts *b, const char *what)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        if (a->v[i] != b->v[i]) {
            fprintf(stderr, "%s: %s %lld != %lld\n", what, pd_measures[i].key,
                    (long long)a->v[i], (long long)b->v[i]);
            fail();
        }
}

static void test_every_measure_is_non_zero_somewhere(void **state)
{
    char sql[256];
    int64_t v[1];
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        snprintf(sql, sizeof(sql), "SELECT max(%s) FROM commit_stats",
                 db_measure_column(DB_M_TOTALS, i));
        assert_int_equal(h_ids(sql, v), 1);
        if (v[0] <= 0)
            fprintf(stderr, "measure %s is 0 on every commit\n", pd_measures[i].key);
        assert_true(v[0] > 0);
    }
}

/* The figures ingest stored for each analysis are those the rules give from
 * the stored facts; without object functions nothing is on an object path. */
static void test_stored_figures_follow_the_rules(void **state)
{
    int64_t ids[256];
    size_t n = h_ids("SELECT id FROM analyses", ids), i;

    assert_true(n > 5);
    for (i = 0; i < n; i++) {
        db_scope_detail d;
        pd_counts stored, ruled, noobj;
        int status, k;

        assert_int_equal(db_analysis_counts(g_db, ids[i], &stored), 0);
        assert_int_equal(db_scope_detail_read(g_db, ids[i], &d), 0);
        assert_int_equal(db_scope_detail_counts(&d, 0, &ruled, &status), 0);
        h_same(&stored, &ruled, "analysis vs its rules");
        assert_int_equal(db_scope_detail_counts(&d, 1, &noobj, &status), 0);
        for (k = 0; k < PD_OBJ_COUNT; k++)
            assert_int_equal(noobj.obj[k], 0);
        assert_true(noobj.tok[PD_CLASS_CAPI] <= stored.tok[PD_CLASS_CAPI]);
        db_scope_detail_free(&d);
    }
}

/* commit_stats = the sum of its files' analyses = the snapshot taken of it;
 * a snapshot's files = their analyses. */
static void test_tables_agree(void **state)
{
    int64_t ids[256];
    size_t n = h_ids("SELECT commit_id FROM commit_stats", ids), i;
    db_snaps *snaps = NULL;
    db_snap_row row;
    int rc, seen = 0;

    assert_true(n >= 7);
    for (i = 0; i < n; i++) {
        pd_counts stats, sum;
        db_files *f = NULL;
        db_file_row fr;

        memset(&sum, 0, sizeof(sum));
        assert_int_equal(db_commit_stats(g_db, ids[i], g_hash, &stats), 0);
        assert_int_equal(db_files_open(g_db, &f, ids[i], g_hash), 0);
        while ((rc = db_files_next(f, &fr)) > 0)
            pd_counts_add(&sum, &fr.counts, 1);
        assert_int_equal(rc, 0);
        db_files_close(f);
        h_same(&stats, &sum, "commit_stats vs its files");
    }
    assert_int_equal(db_snaps_open(g_db, &snaps, g_repo, NULL), 0);
    while ((rc = db_snaps_next(snaps, &row)) > 0) {
        pd_counts stats;

        assert_int_equal(db_commit_stats(g_db, row.commit_id, g_hash, &stats), 0);
        h_same(&row.counts, &stats, "snapshot vs commit_stats");
        seen++;
    }
    assert_int_equal(rc, 0);
    db_snaps_close(snaps);
    assert_int_equal(seen, (int)n);
}

/* The value at key path "a.b" of a JSON object, -1 when absent. */
static json_int_t h_key(json_t *o, const char *key)
{
    char group[64];
    const char *dot = strchr(key, '.');

    if (dot) {
        snprintf(group, sizeof(group), "%.*s", (int)(dot - key), key);
        o = json_object_get(o, group);
        key = dot + 1;
    }
    o = json_object_get(o, key);
    return json_is_integer(o) ? json_integer_value(o) : -1;
}

/* Field `k` (0-based) of a CSV line without quoted commas, as a number. */
static long long h_csv_field(const char *line, int k)
{
    while (k-- > 0 && line)
        if ((line = strchr(line, ',')))
            line++;
    return line ? strtoll(line, NULL, 10) : -1;
}

static void test_json_and_csv_show_the_stored_figures(void **state)
{
    static const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    char url[512], *line, *save = NULL, *hdr;
    db_snaps *snaps = NULL;
    db_snap_row row;
    int col[PD_NMEASURES];
    size_t r;
    int i, rc;
    tu_http h;

    for (r = 0; r < 2; r++) {
        int64_t cid;
        char oid[41];
        pd_counts stats;
        json_t *o;

        snprintf(url, sizeof(url), "/api/v1/repos/demo/commits/%s/summary", refs[r]);
        o = tu_site_get(&g_site, url, 200);
        assert_int_equal(db_rev_resolve(g_db, g_repo, refs[r], &cid, oid), 0);
        assert_int_equal(db_commit_stats(g_db, cid, g_hash, &stats), 0);
        for (i = 0; i < PD_NMEASURES; i++)
            assert_int_equal(h_key(o, pd_measures[i].key), stats.v[i]);
        json_decref(o);
        /* The file rows carry every measure of their groups, and sum to the
         * summary (the measures of "functions" and "object_paths"). */
        snprintf(url, sizeof(url), "/api/v1/repos/demo/commits/%s/files", refs[r]);
        o = tu_site_get(&g_site, url, 200);
        for (i = 0; i < PD_NMEASURES; i++) {
            const char *key = pd_measures[i].key;
            json_int_t sum = 0;
            json_t *f;
            size_t k;

            if (strncmp(key, "functions.", 10) != 0 && strncmp(key, "object_paths.", 13) != 0)
                continue;
            json_array_foreach(json_object_get(o, "files"), k, f) {
                assert_true(h_key(f, key) >= 0);
                sum += h_key(f, key);
            }
            assert_int_equal(sum, stats.v[i]);
        }
        json_decref(o);
    }
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/snapshots.csv", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    hdr = strtok_r(h.body, "\n", &save);
    assert_non_null(hdr);
    for (i = 0; i < PD_NMEASURES; i++) {
        /* The column whose header is the measure's key. */
        char *p = hdr;
        int k = 0;
        size_t kl = strlen(pd_measures[i].key);

        col[i] = -1;
        for (; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL, k++)
            if (strncmp(p, pd_measures[i].key, kl) == 0 && strchr(",\r", p[kl]))
                col[i] = k;
        assert_true(col[i] >= 0);
    }
    assert_int_equal(db_snaps_open(g_db, &snaps, g_repo, NULL), 0);
    while ((rc = db_snaps_next(snaps, &row)) > 0) {
        assert_non_null(line = strtok_r(NULL, "\n", &save));
        assert_int_equal(strncmp(line, row.week, strlen(row.week)), 0);
        for (i = 0; i < PD_NMEASURES; i++)
            assert_int_equal(h_csv_field(line, col[i]), row.counts.v[i]);
    }
    assert_int_equal(rc, 0);
    db_snaps_close(snaps);
    tu_http_free(&h);
}

/* Every figure of every table, as text, for comparing before and after. */
static char *h_figures(void)
{
    char cols[1024];

    assert_int_equal(db_measure_list(cols, sizeof(cols), DB_M_ANALYSES, ""), 0);
    return tu_sh_out("sqlite3 '%s' \"SELECT id, status, ung_hpy, ung_capi, ung_npy_legacy, "
                     "ung_bridge, %s FROM analyses ORDER BY id\" "
                     "\"SELECT id, hex(fns), fns_len FROM analyses ORDER BY id\" \"SELECT * FROM "
                     "commit_stats ORDER BY 1, 2\" \"SELECT * FROM snapshots ORDER BY id\" "
                     "\"SELECT * FROM snapshot_files ORDER BY 1, 2\"", g_site.db, cols);
}

/* 1 when column `col` of `table` may hold NULL: the columns a measure's
 * migration added (those of 001 are NOT NULL). */
static int h_nullable(const char *table, const char *col)
{
    char sql[256];
    int64_t v[1];

    snprintf(sql, sizeof(sql), "SELECT count(*) FROM pragma_table_info('%s') WHERE "
             "name = '%s' AND \"notnull\" = 0", table, col);
    assert_int_equal(h_ids(sql, v), 1);
    return v[0] > 0;
}

/* A measure's migration adds its columns without values; the fill gives
 * old rows what ingest and snapshots would have stored, and the snapshots'
 * triggers still refuse edits afterwards.  Every measure added by a
 * migration is emptied and filled again. */
static void test_a_new_column_is_filled(void **state)
{
    char *before = h_figures(), *after, sql[512];
    int i;

    assert_non_null(before);
    assert_int_equal(db_exec(g_db, "DROP TRIGGER snapshots_immutable; "
                                   "DROP TRIGGER snapshot_files_immutable"), 0);
    for (i = 0; i < PD_NMEASURES; i++) {
        const char *a = db_measure_column(DB_M_ANALYSES, i);
        const char *t = db_measure_column(DB_M_TOTALS, i);
        const char *f = db_measure_column(DB_M_SNAPFILE, i);

        if (!h_nullable("commit_stats", t))
            continue;

        snprintf(sql, sizeof(sql), "UPDATE commit_stats SET %s = NULL; UPDATE snapshots "
                 "SET %s = NULL", t, t);
        assert_int_equal(db_exec(g_db, sql), 0);
        if (a) {
            snprintf(sql, sizeof(sql), "UPDATE analyses SET %s = NULL", a);
            assert_int_equal(db_exec(g_db, sql), 0);
        }
        if (f) {
            snprintf(sql, sizeof(sql), "UPDATE snapshot_files SET %s = NULL", f);
            assert_int_equal(db_exec(g_db, sql), 0);
        }
    }
    assert_int_equal(db_exec(g_db, "CREATE TRIGGER snapshots_immutable BEFORE UPDATE ON "
                     "snapshots BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); END; "
                     "CREATE TRIGGER snapshot_files_immutable BEFORE UPDATE ON "
                     "snapshot_files BEGIN SELECT RAISE(ABORT, 'snapshots are immutable'); "
                     "END"), 0);
    assert_int_equal(db_exec(g_db, "BEGIN IMMEDIATE"), 0);
    assert_int_equal(db_measures_migrated(g_db, 12, 1), 0);
    assert_int_equal(db_exec(g_db, "COMMIT"), 0);
    after = h_figures();
    assert_non_null(after);
    assert_string_equal(after, before);
    assert_int_not_equal(sqlite3_exec(g_db, "UPDATE snapshots SET files = 0", NULL, NULL,
                                      NULL), SQLITE_OK);
    assert_int_not_equal(sqlite3_exec(g_db, "UPDATE snapshot_files SET fn_ported = 0", NULL,
                                      NULL, NULL), SQLITE_OK);
    free(before);
    free(after);
}

/* The old table functions (before migration 019) and its rows. */
typedef struct {
    sqlite3_stmt *ins;           /* NULL: only list the unguarded counts */
    int64_t aid;
    pd_buf *list;                /* "aid|idx|hpy|capi|npy|bridge\n" per row */
} h_old;

/* db_fns_each callback: one stored function into the old table (its
 * unguarded counts NULL, as before 011) and its counts onto the list. */
static int h_old_row(void *arg, const db_fn_stored *f)
{
    h_old *o = arg;
    int k;

    pd_buf_printf(o->list, "%lld|%lld|%lld|%lld|%lld|%lld\n", (long long)o->aid,
                  (long long)f->idx, (long long)f->ung[0], (long long)f->ung[1],
                  (long long)f->ung[2], (long long)f->ung[3]);
    if (!o->ins)
        return 0;
    sqlite3_reset(o->ins);
    sqlite3_bind_int64(o->ins, 1, o->aid);
    sqlite3_bind_int64(o->ins, 2, f->idx);
    sqlite3_bind_text(o->ins, 3, f->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(o->ins, 4, f->start_line);
    for (k = 0; k < PD_CLASS_COUNT; k++)
        sqlite3_bind_int64(o->ins, 5 + k, f->tok[k]);
    return sqlite3_step(o->ins) == SQLITE_DONE ? 0 : -1;
}

/* The table functions as a database from before 011 had it, made from
 * the stored functions; their unguarded counts listed into `list`. */
static void h_old_functions(pd_buf *list)
{
    int64_t ids[4096];
    size_t n = h_ids("SELECT id FROM analyses ORDER BY id", ids), i;
    h_old o = {NULL, 0, list};

    assert_true(n < 4096);
    assert_int_equal(db_exec(g_db, "CREATE TABLE functions (analysis_id INTEGER NOT NULL, "
                             "idx INTEGER NOT NULL, name TEXT NOT NULL, start_line INTEGER, "
                             "tok_hpy INTEGER, tok_capi INTEGER, tok_npy_legacy INTEGER, "
                             "tok_bridge INTEGER, ung_hpy INTEGER, ung_capi INTEGER, "
                             "ung_npy_legacy INTEGER, ung_bridge INTEGER, "
                             "PRIMARY KEY (analysis_id, idx))"), 0);
    assert_int_equal(db_prepare(g_db, &o.ins, "INSERT INTO functions (analysis_id, idx, "
                                "name, start_line, tok_hpy, tok_capi, tok_npy_legacy, "
                                "tok_bridge) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"), 0);
    for (i = 0; i < n; i++) {
        o.aid = ids[i];
        assert_int_equal(db_fns_each(g_db, ids[i], h_old_row, &o), 0);
    }
    sqlite3_finalize(o.ins);
}

/* A database from before migration 011 gets the unguarded counts ingest
 * stores now, from its findings (read by db_findings_each, the one reader),
 * on the old table functions that migration 019 later moves; findings of
 * another shape are a damaged database. */
static void test_unguarded_counts_come_from_old_findings(void **state)
{
    char *before = h_figures(), *after, *filled;
    pd_buf want;

    assert_non_null(before);
    pd_buf_init(&want, 0);
    h_old_functions(&want);
    assert_true(want.len > 0);
    assert_int_equal(db_exec(g_db, "UPDATE analyses SET ung_hpy = NULL, ung_capi = NULL, "
                     "ung_npy_legacy = NULL, ung_bridge = NULL"), 0);
    assert_int_equal(db_exec(g_db, "BEGIN IMMEDIATE"), 0);
    assert_int_equal(db_measures_migrated(g_db, 11, 0), 0);
    assert_int_equal(db_exec(g_db, "COMMIT"), 0);
    after = h_figures();
    assert_string_equal(after, before);
    free(after);
    /* the old table's rows got the counts the ingest stores */
    filled = tu_sh_out("sqlite3 '%s' \"SELECT analysis_id, idx, ung_hpy, ung_capi, "
                       "ung_npy_legacy, ung_bridge FROM functions ORDER BY 1, 2\"",
                       g_site.db);
    assert_string_equal(filled, want.data);
    free(filled);
    pd_buf_free(&want);
    /* The guarded capi use of toy_debug_dump is not counted as unguarded. */
    {
        int64_t v[1];

        assert_int_equal(h_ids("SELECT count(*) FROM functions WHERE name = "
                               "'toy_debug_dump' AND tok_capi > 0 AND ung_capi = 0", v), 1);
        assert_true(v[0] > 0);
    }
    assert_int_equal(db_exec(g_db, "BEGIN IMMEDIATE; UPDATE analyses SET ung_hpy = NULL "
                     "WHERE id = (SELECT min(id) FROM analyses); UPDATE analyses SET "
                     "findings = x'789c8b8e368c8d050004e201a2', findings_len = 5 WHERE id = "
                     "(SELECT min(id) FROM analyses)"), 0);
    assert_int_equal(db_measures_migrated(g_db, 11, 0), PD_EDB);
    assert_non_null(strstr(pd_error_last(), "damaged"));
    assert_int_equal(db_exec(g_db, "ROLLBACK"), 0);
    assert_int_equal(db_exec(g_db, "DROP TABLE functions"), 0);
    free(before);
}

/* functions.capi-guarded (migration 012): the toy port's toy_debug_dump uses
 * the C API only under #ifndef HPY_ABI_UNIVERSAL, the only such function;
 * it is no object path, so the no-object-dtype scope keeps it. */
static void test_capi_guarded_counts_functions_guarded_throughout(void **state)
{
    static const char *const paths[] = {
        "/api/v1/repos/demo/commits/hpy/summary",
        "/api/v1/repos/demo/commits/hpy/summary?scope=no-object-dtype",
        "/api/v1/repos/demo/commits/hpy-convert-object-dtype/summary"};
    size_t i;

    for (i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
        json_t *o = tu_site_get(&g_site, paths[i], 200);

        assert_int_equal(h_key(o, "functions.capi-guarded"), 1);
        json_decref(o);
    }
    /* Added by a migration: test_a_new_column_is_filled empties and fills it. */
    assert_true(h_nullable("commit_stats", "fn_capi_guarded"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_measure_is_non_zero_somewhere),
        cmocka_unit_test(test_stored_figures_follow_the_rules),
        cmocka_unit_test(test_tables_agree),
        cmocka_unit_test(test_json_and_csv_show_the_stored_figures),
        cmocka_unit_test(test_capi_guarded_counts_functions_guarded_throughout),
        cmocka_unit_test(test_a_new_column_is_filled),
        cmocka_unit_test(test_unguarded_counts_come_from_old_findings),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
