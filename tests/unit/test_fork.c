/*
 * test_fork.c: the trend, backfill and forecast of a rebased port (issue
 * 23.1-3).  Fixture `forked` (tests/fixtures/forked): upstream `main` of
 * three commits (2021-01-04, 2021-09-01, 2022-02-07), the port `hpy` of
 * four commits authored 2021-02-01, 2021-03-01, 2021-05-03 and 2021-04-05
 * (in that branch order) rebased onto the third on 2022-02-08, and one more
 * upstream commit after the fork.  The port's first commit has no HPy
 * token yet, so "from the first HPy token" would miss it.  Expected
 * figures come from the fixture's COMMIT files and git.
 */
#include "testutil.h"

#include "db.h"
#include "db_fork.h"
#include "db_snapshot.h"
#include "ingest.h"
#include "pd_error.h"
#include "pd_time.h"
#include "srv.h"

static tu_site g_site;
static char g_rules[64];

static json_t *get(const char *path, long status)
{
    return tu_site_get(&g_site, path, status);
}

static char *git(const char *args)
{
    char *s = tu_sh_out("git --git-dir='%s' %s", tu_fixture("forked"), args);

    s[strcspn(s, "\n")] = '\0';
    return s;
}

static const char *str(json_t *o, const char *k)
{
    return json_string_value(json_object_get(o, k));
}

static json_int_t num(json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

/* Backfill `ref` of `name` from 2021-01-01 to 2021-12-31 by author date. */
static int backfill(const char *name, const char *ref)
{
    sqlite3 *db = NULL;
    int64_t repo_id, tip;
    char oid[41];
    int taken, kept, rc;

    rc = db_open(&db, g_site.db, 0) < 0 || db_repo_find(db, name, &repo_id, NULL, 0) < 0 ||
         db_rev_resolve(db, repo_id, ref, &tip, oid) < 0 ||
         db_meta_get(db, "rules_hash", g_rules, sizeof(g_rules)) < 0 ||
         db_snapshot_backfill(db, repo_id, ref, tip, 1609459200, 1640908800, 1, g_rules,
                              &taken, &kept) < 0;
    db_close(db);
    return rc ? -1 : 0;
}

/* Ingest `ref` of git directory `gitdir` as repository "solo" into the
 * site's solo.db, from `upstream` (NULL: none named), its figures into
 * *st.  0, or -1 after printing why. */
static int ingest_solo(const char *gitdir, const char *ref, const char *upstream,
                       ingest_stats *st)
{
    char dbp[4300];
    const char *refs[] = {ref};
    ingest_options o = {0};

    snprintf(dbp, sizeof(dbp), "%s/solo.db", g_site.dir);
    o.db_path = dbp;
    o.repo_path = gitdir;
    o.name = "solo";
    o.refs = refs;
    o.nrefs = 1;
    o.upstream = upstream;
    if (ingest_run(&o, st) < 0) {
        fprintf(stderr, "ingest %s: %s\n", gitdir, pd_error_last());
        return -1;
    }
    return 0;
}

/* The fork stored for hpy in solo.db: basis, upstream, base oid, own count
 * (-1: no record) and the fork its tip's history uses. */
static void solo_fork(db_fork *stored, int64_t *own, db_fork *used)
{
    char dbp[4300];
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t repo_id, tip;
    char oid[41];
    int rc;

    snprintf(dbp, sizeof(dbp), "%s/solo.db", g_site.dir);
    assert_int_equal(db_open(&db, dbp, 0), 0);
    assert_int_equal(db_repo_find(db, "solo", &repo_id, NULL, 0), 0);
    rc = db_fork_stored(db, repo_id, "hpy", stored);
    assert_true(rc == 0 || rc == PD_ENOTFOUND);
    *own = -1;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT own_commits FROM ref_forks WHERE ref = "
                                        "'hpy'", -1, &st, NULL), SQLITE_OK);
    if (sqlite3_step(st) == SQLITE_ROW)
        *own = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    assert_int_equal(db_rev_resolve(db, repo_id, "hpy", &tip, oid), 0);
    assert_int_equal(db_fork_find(db, repo_id, "hpy", tip, used), 0);
    db_close(db);
}

static int setup(void **state)
{
    tu_site_init(&g_site, "f.db");
    /* No --upstream: ingest finds main by itself. */
    if (tu_site_ingest(&g_site, "forked", "fk", "hpy") < 0 || backfill("fk", "hpy") < 0)
        return -1;
    return tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* The port's own commits: the four that main cannot reach, counted right,
 * with the fork base and the upstream it was found from. */
static void test_port_is_the_commits_upstream_cannot_reach(void **state)
{
    json_t *h = get("/api/v1/repos/fk/refs/hpy/history?measure=functions.ported", 200);
    json_t *port = json_object_get(h, "port"), *pts = json_object_get(h, "points"), *p;
    char *base = git("merge-base hpy main");
    char *own = git("rev-list --first-parent --count main..hpy");
    char *first = git("rev-list --first-parent --reverse main..hpy | head -n1");
    size_t i;

    assert_string_equal(str(port, "basis"), "upstream");
    assert_string_equal(str(port, "upstream"), "main");
    assert_int_equal(num(port, "own_commits"), atoi(own));
    assert_int_equal(num(port, "own_commits"), 4);
    assert_int_equal(num(port, "upstream_commits"), 3);
    assert_string_equal(str(json_object_get(port, "base"), "commit"), base);
    assert_int_equal(num(json_object_get(port, "base"), "value"), 0);
    assert_string_equal(str(json_object_get(port, "first"), "commit"), first);
    /* The first HPy token is the port's second commit, not its first. */
    assert_string_not_equal(str(json_object_get(h, "port_start"), "commit"), first);
    assert_string_equal(str(json_object_get(port, "author_dates"), "first"),
                        "2021-02-01T10:00:00+00:00");
    assert_string_equal(str(json_object_get(port, "author_dates"), "last"),
                        "2021-05-03T10:00:00+00:00");
    assert_int_equal(json_array_size(pts), 7);
    json_array_foreach(pts, i, p)
        assert_int_equal(json_is_true(json_object_get(p, "own")), i >= 3);
    json_decref(h);
    free(base);
    free(own);
    free(first);
}

/* Patch ids are computed for the port's own commits alone (the ones a
 * rebase of the port rewrites: doc/history.md, "Patch ids"): each own
 * commit that changes a selected file has one, no upstream commit has. */
static void test_patch_ids_are_the_ports_own(void **state)
{
    char *own = tu_sh_out("git --git-dir='%s' rev-list --first-parent main..hpy",
                          tu_fixture("forked"));
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int with = 0, rows = 0;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT c.oid, c.patch_id IS NOT NULL, "
                                        "EXISTS (SELECT 1 FROM changes h WHERE "
                                        "h.commit_id = c.id) FROM commits c JOIN repos r "
                                        "ON r.id = c.repo_id WHERE r.name = 'fk'",
                                        -1, &st, NULL), SQLITE_OK);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int is_own = strstr(own, (const char *)sqlite3_column_text(st, 0)) != NULL;

        rows++;
        assert_int_equal(sqlite3_column_int(st, 1), is_own && sqlite3_column_int(st, 2));
        with += sqlite3_column_int(st, 1);
    }
    sqlite3_finalize(st);
    db_close(db);
    assert_int_equal(rows, 7);
    assert_true(with >= 3);
    free(own);
}

/* ?window=port: the port's commits at their own author dates in branch
 * order (not all on the base's 2022-02-07), the one applied out of its
 * date order marked and drawn at the latest date before it. */
static void test_port_window_dates_the_port_by_its_own_commits(void **state)
{
    json_t *h = get("/api/v1/repos/fk/refs/hpy/history?measure=functions.ported"
                    "&window=port", 200);
    json_t *pts = json_object_get(h, "points");
    static const char *const eff[] = {"2021-02-01", "2021-03-01", "2021-05-03", "2021-05-03"};
    static const json_int_t val[] = {0, 1, 2, 3};
    size_t i;

    assert_string_equal(str(h, "window"), "port");
    assert_int_equal(json_array_size(pts), 4);
    for (i = 0; i < 4; i++) {
        json_t *p = json_array_get(pts, i);

        assert_true(json_is_true(json_object_get(p, "own")));
        assert_memory_equal(str(p, "effective_date"), eff[i], 10);
        assert_int_equal(num(p, "value"), val[i]);
        assert_int_equal(json_is_true(json_object_get(p, "out_of_order")), i == 3);
    }
    assert_memory_equal(str(json_array_get(pts, 3), "author_date"), "2021-04-05", 10);
    json_decref(h);
    /* The full chain: upstream points keep their own dating. */
    h = get("/api/v1/repos/fk/refs/hpy/history?measure=functions.ported", 200);
    assert_memory_equal(str(json_array_get(json_object_get(h, "points"), 2), "effective_date"),
                        "2022-02-07", 10);
    assert_memory_equal(str(json_array_get(json_object_get(h, "points"), 3), "effective_date"),
                        "2021-02-01", 10);
    json_decref(h);
    json_decref(get("/api/v1/repos/fk/refs/hpy/history?window=sideways", 400));
}

/* ?points=N gives the port's commits at least half of N (7 points into 6:
 * 3 of the 4 own, not the 1 or 2 a proportional share would give), never
 * more than N in all. */
static void test_sampling_keeps_the_port(void **state)
{
    json_t *h = get("/api/v1/repos/fk/refs/hpy/history?measure=functions.ported&points=6",
                    200);
    json_t *pts = json_object_get(h, "points"), *p;
    size_t i, own = 0;

    assert_int_equal(num(h, "sampled_from"), 7);
    json_array_foreach(pts, i, p)
        own += json_is_true(json_object_get(p, "own"));
    assert_int_equal(own, 3);
    assert_int_equal(json_array_size(pts), 6);
    json_decref(h);
}

/* 1 when the array of points holds commit `oid`. */
static int has_commit(json_t *pts, const char *oid)
{
    json_t *p;
    size_t i;

    json_array_foreach(pts, i, p)
        if (strcmp(json_string_value(json_object_get(p, "commit")), oid) == 0)
            return 1;
    return 0;
}

/* ?points=N keeps the first and last points and the port's start
 * (doc/api.md), at most N points in order, for every N: the fixture's
 * start is its second own commit ("port one", the first with an HPy
 * token), which LTTB's share of the port left out at N = 3 (found by a
 * newcomer on numpy-hpy, where the start is the 10th own commit). */
/* The checks of ?points=3..7 on history `base` (a path ending in
 * "history" or "history?scope=NAME") whose port start is `start`. */
static void sampled_keep_start(const char *base, const char *start)
{
    char path[160];
    json_t *all = get(base, 200), *apts = json_object_get(all, "points");
    const char *first = json_string_value(json_object_get(json_array_get(apts, 0), "commit"));
    const char *last = json_string_value(json_object_get(
        json_array_get(apts, json_array_size(apts) - 1), "commit"));
    size_t n, i;

    assert_string_equal(json_string_value(json_object_get(json_object_get(all, "port_start"),
                                                          "commit")), start);
    assert_true(json_array_size(apts) > 3);     /* 3 to 7 points sample it */
    for (n = 3; n <= 7; n++) {
        json_t *h, *pts;
        size_t at = 0;

        snprintf(path, sizeof(path), "%s%spoints=%zu", base, strchr(base, '?') ? "&" : "?", n);
        h = get(path, 200);
        pts = json_object_get(h, "points");
        assert_true(json_array_size(pts) <= n);
        assert_true(has_commit(pts, start));
        assert_true(has_commit(pts, first));
        assert_true(has_commit(pts, last));
        /* in the full history's order */
        for (i = 0; i < json_array_size(pts); i++) {
            const char *c = str(json_array_get(pts, i), "commit");

            while (at < json_array_size(apts) && strcmp(str(json_array_get(apts, at), "commit"), c))
                at++;
            assert_true(at < json_array_size(apts));
        }
        json_decref(h);
    }
    json_decref(all);
}

/* A sampled history keeps the port's start (doc/api.md), a ref's and a
 * scope's (found missing from the scopes' by a newcomer, 2026-12-07). */
static void test_sampling_keeps_the_port_start(void **state)
{
    char *one = git("log --format=%H --grep='^port one to HPy' hpy");

    (void)state;
    /* the fixture's 05-port-one */
    sampled_keep_start("/api/v1/repos/fk/refs/hpy/history", one);
    sampled_keep_start("/api/v1/repos/fk/refs/hpy/history?scope=no-object-dtype", one);
    free(one);
}

/* A scope's history has a ref's shape (doc/api.md; found missing by a
 * newcomer): each point's position, effective date and out_of_order, and
 * the count at the top, are the unscoped history's; the fixture has no
 * object-dtype path, so under no-object-dtype the values are the same too. */
static void test_scoped_history_has_positions_and_order(void **state)
{
    static const char *const q[] = {"", "&window=port", "&points=4", "&since=2021-03-01"};
    char path[200];
    size_t k, i;

    (void)state;
    for (k = 0; k < sizeof(q) / sizeof(*q); k++) {
        json_t *a, *b, *pa, *pb;

        snprintf(path, sizeof(path), "/api/v1/repos/fk/refs/hpy/history?measure="
                 "functions.ported%s", q[k]);
        a = get(path, 200);
        snprintf(path, sizeof(path), "/api/v1/repos/fk/refs/hpy/history?measure="
                 "functions.ported&scope=no-object-dtype%s", q[k]);
        b = get(path, 200);
        pa = json_object_get(a, "points");
        pb = json_object_get(b, "points");
        assert_int_equal(json_array_size(pb), json_array_size(pa));
        assert_true(json_array_size(pa) > 0);
        assert_int_equal(num(b, "out_of_order"), num(a, "out_of_order"));
        assert_int_equal(num(a, "out_of_order"), 1);    /* hpy's 04-05 after 05-03 */
        for (i = 0; i < json_array_size(pa); i++) {
            json_t *x = json_array_get(pa, i), *y = json_array_get(pb, i);

            assert_string_equal(str(y, "commit"), str(x, "commit"));
            assert_int_equal(num(y, "position"), num(x, "position"));
            assert_int_equal(num(y, "value"), num(x, "value"));
            assert_string_equal(str(y, "effective_date"), str(x, "effective_date"));
            assert_int_equal(json_is_true(json_object_get(y, "out_of_order")),
                             json_is_true(json_object_get(x, "out_of_order")));
        }
        json_decref(a);
        json_decref(b);
    }
}

/* The value of the trend at the end of ISO week `week`: the newest point
 * of the full history whose effective date is before the week's end. */
static json_int_t trend_at(json_t *h, const char *week)
{
    int64_t end = 0, t = 0;
    json_int_t v = -1;
    json_t *p;
    size_t i;

    assert_int_equal(db_iso_week_end(week, &end), 0);
    json_array_foreach(json_object_get(h, "points"), i, p) {
        assert_int_equal(pd_parse_date(str(p, "effective_date"), &t), 0);
        if (t < end)
            v = num(p, "value");
    }
    return v;
}

/* A backfilled week and the trend agree (issue 23.3): in 2021-W15 the
 * trend shows 1 function ported (the commit of April 5 sits after the one
 * of May 3 on the branch, so it is drawn in May); the old backfill took
 * that commit by its own date and showed 3. */
static void test_backfill_follows_the_trend_dates(void **state)
{
    json_t *h = get("/api/v1/repos/fk/refs/hpy/history?measure=functions.ported", 200);
    static const char *const weeks[] = {"2021-W04", "2021-W05", "2021-W10", "2021-W15",
                                        "2021-W19", "2021-W40", "2021-W52"};
    char path[128];
    size_t i;

    for (i = 0; i < sizeof(weeks) / sizeof(*weeks); i++) {
        json_t *s;

        snprintf(path, sizeof(path), "/api/v1/repos/fk/snapshots/%s", weeks[i]);
        s = get(path, 200);
        assert_int_equal(num(json_object_get(json_object_get(json_array_get(
            json_object_get(s, "refs") ? json_object_get(s, "refs") : s, 0), "stats"),
            "functions"), "ported"), trend_at(h, weeks[i]));
        json_decref(s);
    }
    assert_int_equal(trend_at(h, "2021-W15"), 1);
    json_decref(h);
}

/* Forecasts count from today: a port idle for years is "not at this
 * rate", never a date in the past; while it works, P50 <= P85, both after
 * today. */
static void test_forecast_range_from_today(void **state)
{
    json_t *f = get("/api/v1/repos/fk/forecast?ref=hpy&measure=functions.not-ported"
                    "&today=2021-05-10", 200);
    json_t *rg = json_object_get(f, "range");

    assert_string_equal(str(f, "as_of"), "2021-05-10");
    assert_string_equal(str(rg, "as_of"), "2021-05-10");
    assert_int_equal(num(rg, "remaining"), 2);           /* four and five */
    assert_int_equal(num(rg, "weeks_with_work"), 2);     /* the weeks of one and of two+three */
    assert_true(json_real_value(json_object_get(rg, "throughput_per_week")) > 0.24);
    assert_non_null(str(rg, "p50"));
    assert_non_null(str(rg, "p85"));
    assert_true(strcmp(str(rg, "p50"), "2021-05-10") > 0);
    assert_true(strcmp(str(rg, "p50"), str(rg, "p85")) <= 0);
    json_decref(f);

    f = get("/api/v1/repos/fk/forecast?ref=hpy&measure=functions.not-ported"
            "&today=2026-12-01", 200);
    rg = json_object_get(f, "range");
    assert_true(json_is_null(json_object_get(rg, "p50")));
    assert_true(json_is_null(json_object_get(rg, "p85")));
    assert_non_null(strstr(str(rg, "note"), "not at this rate"));
    /* The snapshot fit says the standstill, counted to today. */
    assert_true(json_is_null(json_object_get(f, "projection")));
    assert_non_null(strstr(str(f, "note"), "no progress for"));
    assert_true(num(f, "no_progress_weeks") > 250);
    json_decref(f);
    json_decref(get("/api/v1/repos/fk/forecast?ref=hpy&today=someday", 400));
}

/* The week before the port's first own commit shows the fork base, the
 * port's starting point, not the upstream commit of that week: otherwise
 * the week the port starts (2021-W05) would report upstream's fourth and
 * fifth functions, added up to the base in 2022, as new legacy code.  The
 * weeks before it, when the port did not exist, get no snapshot. */
static void test_backfill_before_the_port_is_its_base(void **state)
{
    json_t *s = get("/api/v1/repos/fk/snapshots/2021-W04", 200);
    char *base = git("merge-base hpy main");
    char *first = git("rev-list --first-parent --reverse main..hpy | head -n1");
    char url[1024];
    tu_http h;

    assert_string_equal(str(json_array_get(s, 0), "commit"), base);
    json_decref(s);
    json_decref(get("/api/v1/repos/fk/snapshots/2021-W03", 404));
    json_decref(get("/api/v1/repos/fk/snapshots/2021-W01", 404));
    s = get("/api/v1/repos/fk/snapshots/2021-W05", 200);
    assert_string_equal(str(json_array_get(s, 0), "commit"), first);
    json_decref(s);
    snprintf(url, sizeof(url), "%s/api/v1/repos/fk/snapshots/2021-W05/report.md",
             g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_null(strstr(h.body, "four"));
    assert_null(strstr(h.body, "five"));
    tu_http_free(&h);
    free(base);
    free(first);
}

/* A push from a clone of the port branch alone (no main in it: a CI
 * checkout, a webhook's mirror) keeps the fork stored from the full clone:
 * the same upstream and base, one own commit more.  Rewritten off that
 * base, the ref loses it (the first HPy token then), and an ingest from a
 * git directory with main finds it again. */
static void test_a_push_from_a_clone_without_upstream_keeps_the_fork(void **state)
{
    char *solo = NULL, *base = git("merge-base hpy main");
    ingest_stats st;
    db_fork f, used;
    int64_t own;

    assert_true(asprintf(&solo, "%s/solo", g_site.dir) > 0);
    assert_int_equal(ingest_solo(tu_fixture("forked"), "hpy", NULL, &st), 0);
    assert_int_equal(st.forks_kept + st.forks_dropped, 0);
    assert_int_equal(tu_sh("git clone -q --single-branch --branch hpy '%s' '%s' && "
                           "cd '%s' && ! git rev-parse -q --verify main && "
                           "! git rev-parse -q --verify origin/main && "
                           "echo '/* more */' >> \"$(git ls-files '*.c' | head -n1)\" && "
                           "git -c user.name=T -c user.email=t@example.org commit -qam more",
                           tu_fixture("forked"), solo, solo), 0);

    assert_int_equal(ingest_solo(solo, "hpy", NULL, &st), 0);
    assert_int_equal(st.forks_kept, 1);
    solo_fork(&f, &own, &used);
    assert_string_equal(f.upstream, "main");
    assert_string_equal(f.base_oid, base);
    assert_int_equal(own, 5);
    assert_int_equal(used.basis, DB_FORK_UPSTREAM);
    assert_string_equal(used.base_oid, base);

    assert_int_equal(tu_sh("cd '%s' && git checkout -q --orphan redo && "
                           "git -c user.name=T -c user.email=t@example.org commit -qm redo && "
                           "git branch -qf hpy redo", solo), 0);
    assert_int_equal(ingest_solo(solo, "hpy", NULL, &st), 0);
    assert_int_equal(st.forks_kept, 0);
    assert_int_equal(st.forks_dropped, 1);
    solo_fork(&f, &own, &used);
    assert_int_equal(own, -1);
    assert_int_equal(used.basis, DB_FORK_HPY_TOKEN);

    assert_int_equal(ingest_solo(tu_fixture("forked"), "hpy", NULL, &st), 0);
    assert_int_equal(st.forks_kept + st.forks_dropped, 0);
    solo_fork(&f, &own, &used);
    assert_string_equal(f.upstream, "main");
    assert_int_equal(own, 4);
    assert_string_equal(used.base_oid, base);

    /* An upstream named once is the one later runs use, though the git
     * directory has main: main~2 reaches one commit less of the chain. */
    assert_int_equal(ingest_solo(tu_fixture("forked"), "hpy", "main~2", &st), 0);
    solo_fork(&f, &own, &used);
    assert_int_equal(own, 5);
    assert_int_equal(ingest_solo(tu_fixture("forked"), "hpy", NULL, &st), 0);
    solo_fork(&f, &own, &used);
    assert_string_equal(f.upstream, "main~2");
    assert_int_equal(own, 5);
    free(solo);
    free(base);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_port_is_the_commits_upstream_cannot_reach),
        cmocka_unit_test(test_patch_ids_are_the_ports_own),
        cmocka_unit_test(test_port_window_dates_the_port_by_its_own_commits),
        cmocka_unit_test(test_sampling_keeps_the_port),
        cmocka_unit_test(test_sampling_keeps_the_port_start),
        cmocka_unit_test(test_scoped_history_has_positions_and_order),
        cmocka_unit_test(test_backfill_follows_the_trend_dates),
        cmocka_unit_test(test_backfill_before_the_port_is_its_base),
        cmocka_unit_test(test_forecast_range_from_today),
        cmocka_unit_test(test_a_push_from_a_clone_without_upstream_keeps_the_fork),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
