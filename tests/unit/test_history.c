/*
 * test_history.c: history the team can read: trends, file history across
 * renames, per-commit changes, compare, rewrites with patch-id links, and
 * weekly snapshots with their report.  Fixtures: toyport (a toy port on two
 * branches), history (deletes, a rename), rebased (history replayed onto
 * new upstream work).  Expected values come from git or from other API
 * answers wherever they can.
 */
#include "testutil.h"

#include "db.h"
#include "db_snapshot.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

static tu_site g_site;
static char g_rules[64];

static int64_t scalar(const char *sql)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t v = -1;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_prepare(db, &st, sql), 0);
    if (sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    db_close(db);
    return v;
}

/* Snapshot every ref of `name` now, the way `portdash snapshot` does. */
static int snapshot_live(const char *name, const char *ref, const char *week)
{
    sqlite3 *db = NULL;
    int64_t repo_id, commit;
    char oid[41];
    int rc;

    if (db_open(&db, g_site.db, 0) < 0 || db_repo_find(db, name, &repo_id, NULL, 0) < 0 ||
        db_rev_resolve(db, repo_id, ref, &commit, oid) < 0)
        return -1;
    db_meta_get(db, "rules_hash", g_rules, sizeof(g_rules));
    rc = db_snapshot_take(db, repo_id, ref, commit, week, 1700000000, "live", g_rules);
    db_close(db);
    return rc;
}

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int64_t repo_id, tip;
    char oid[41];
    int taken, kept, rc;

    tu_site_init(&g_site, "h.db");
    /* toyport for trends, compare and commits; history then rebased under
     * one name for renames and a rewrite, with a snapshot before the move. */
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
        tu_site_ingest(&g_site, "history", "h", "main") < 0 ||
        snapshot_live("h", "main", "2021-W01") != 0 ||
        tu_site_ingest(&g_site, "rebased", "h", "main") < 0 ||
        /* the pull requests first: their commits get lower ids than the
         * branch's newest, which the file history must leave out */
        tu_site_ingest(&g_site, "planport", "pp", "pr-port pr-docs hpy") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_repo_find(db, "demo", &repo_id, NULL, 0) < 0 ||
         db_rev_resolve(db, repo_id, "hpy-convert-object-dtype", &tip, oid) < 0 ||
         db_snapshot_backfill(db, repo_id, "hpy-convert-object-dtype", tip, 1606780800,
                              1638316800, 1, g_rules, &taken, &kept) < 0;
    db_close(db);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static json_t *get(const char *path, long status)
{
    return tu_site_get(&g_site, path, status);
}

static char *get_text(const char *path, const char *want_ctype)
{
    char url[2048];
    tu_http h;

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    h = tu_request("GET", url);
    if (h.status != 200)
        fail_msg("GET %s: %ld %s", path, h.status, h.body);
    assert_string_equal(h.ctype, want_ctype);
    return h.body;
}

static char *git(const char *repo, const char *args)
{
    char *s = tu_sh_out("git --git-dir='%s' %s", tu_fixture(repo), args);

    s[strcspn(s, "\n")] = '\0';
    return s;
}

static json_int_t at(json_t *o, const char *a, const char *b)
{
    return json_integer_value(b ? json_object_get(json_object_get(o, a), b)
                                : json_object_get(o, a));
}

/* Every point of the trend is the summary of its commit, oldest first. */
static void test_trend_points_are_the_summaries_of_the_chain(void **state)
{
    json_t *h = get("/api/v1/repos/demo/refs/hpy-convert-object-dtype/history"
                    "?measure=object_paths.object-legacy", 200), *p;
    char *chain = git("toyport", "rev-list --first-parent --reverse hpy-convert-object-dtype"
                      " | tr '\\n' ' '");
    char *first_hpy = git("toyport", "rev-list --reverse hpy | sed -n 2p");
    char expect[1024] = "", path[256];
    size_t i;

    assert_string_equal(json_string_value(json_object_get(h, "measure")),
                        "object_paths.object-legacy");
    json_array_foreach(json_object_get(h, "points"), i, p) {
        json_t *s;

        snprintf(expect + strlen(expect), sizeof(expect) - strlen(expect), "%s ",
                 json_string_value(json_object_get(p, "commit")));
        snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%s/summary",
                 json_string_value(json_object_get(p, "commit")));
        s = get(path, 200);
        assert_int_equal(at(p, "value", NULL), at(s, "object_paths", "object-legacy"));
        json_decref(s);
    }
    assert_string_equal(expect, chain);
    /* The port window starts with the first commit that has HPy tokens. */
    assert_string_equal(json_string_value(json_object_get(json_object_get(h, "port_start"),
                                                          "commit")), first_hpy);
    json_decref(h);
    free(chain);
    free(first_hpy);
}

static void test_trend_filters_by_date_and_rejects_bad_arguments(void **state)
{
    json_t *h = get("/api/v1/repos/demo/refs/hpy/history?measure=functions.ported"
                    "&since=2021-02-01&until=2021-06-30T23:59:59Z", 200);
    json_t *c = get("/api/v1/repos/demo/refs/hpy/history?measure=functions.ported"
                    "&date=committer&since=2022-02-08", 200);

    /* Author dates 2021-02-15 and 2021-06-01 fall in the window. */
    assert_int_equal(json_array_size(json_object_get(h, "points")), 2);
    /* The rebased port: every committer date is 2022-02-08. */
    assert_int_equal(json_array_size(json_object_get(c, "points")), 4);
    json_decref(h);
    json_decref(c);
    json_decref(get("/api/v1/repos/demo/refs/hpy/history?measure=nope", 400));
    json_decref(get("/api/v1/repos/demo/refs/hpy/history?since=yesterday", 400));
    json_decref(get("/api/v1/repos/demo/refs/hpy/history?date=sideways", 400));
    json_decref(get("/api/v1/repos/demo/refs/nope/history", 404));
}

static void test_file_history_follows_a_rename(void **state)
{
    json_t *h = get("/api/v1/repos/h/refs/main/file-history/src/a.c"
                    "?measure=functions.ported", 200), *p;
    const char *paths[] = {"a.c", "a.c", "src/a.c", "src/a.c"};
    size_t i;

    assert_int_equal(json_array_size(json_object_get(h, "points")), 4);
    json_array_foreach(json_object_get(h, "points"), i, p)
        assert_string_equal(json_string_value(json_object_get(p, "path")), paths[i]);
    /* a.c was legacy at the start and ported in the second commit. */
    assert_int_equal(at(json_array_get(json_object_get(h, "points"), 0), "value", NULL), 0);
    assert_int_equal(at(json_array_get(json_object_get(h, "points"), 1), "value", NULL), 1);
    json_decref(h);
}

/* A file's history is its changes on the ref's first-parent chain only:
 * planport's two pull requests change src/chain.c in commits ingested
 * before hpy's newest, so their ids lie among the chain's (the history
 * reads the chain by a scan of the ids below the tip, db_chain_read, and
 * places the path's changes on it).  Every measure, the object ones too
 * (a point per commit where the call graph alone moves them). */
static void test_file_history_leaves_out_other_branches(void **state)
{
    const char *measures[] = {"functions.legacy", "functions.ported",
                              "object_paths.object-legacy"};
    /* every line: git() keeps the first */
    char *want = tu_sh_out("git --git-dir='%s' log --first-parent --reverse --format=%%H hpy "
                           "-- src/chain.c", tu_fixture("planport"));
    size_t i, k;

    (void)state;
    for (k = 0; k < sizeof(measures) / sizeof(measures[0]); k++) {
        char url[200], got[400] = "";
        json_t *h, *p;

        snprintf(url, sizeof(url), "/api/v1/repos/pp/refs/hpy/file-history/src/chain.c"
                 "?measure=%s", measures[k]);
        h = get(url, 200);
        json_array_foreach(json_object_get(h, "points"), i, p) {
            if (json_is_true(json_object_get(p, "call_graph")))
                continue;
            size_t n = strlen(got);

            snprintf(got + n, sizeof(got) - n, "%s\n",
                     json_string_value(json_object_get(p, "commit")));
        }
        assert_string_equal(got, want);
        json_decref(h);
    }
    free(want);
}

/* The function change of `name` in a list, or NULL. */
static json_t *change(json_t *list, const char *name)
{
    json_t *f;
    size_t i;

    json_array_foreach(list, i, f)
        if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0)
            return f;
    return NULL;
}

static int has_tag(json_t *f, const char *tag)
{
    json_t *t;
    size_t i;

    json_array_foreach(json_object_get(f, "changes"), i, t)
        if (strcmp(json_string_value(t), tag) == 0)
            return 1;
    return 0;
}

static void test_commit_lists_function_changes_and_deltas(void **state)
{
    json_t *c = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype", 200);
    json_t *s1 = get("/api/v1/repos/demo/commits/hpy-convert-object-dtype/summary", 200);
    char *parent = git("toyport", "rev-parse hpy-convert-object-dtype~1"), path[256];
    json_t *s0, *f;

    snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%s/summary", parent);
    s0 = get(path, 200);
    assert_int_equal(at(json_object_get(c, "delta"), "object_paths", "object-universal"),
                     at(s1, "object_paths", "object-universal") -
                     at(s0, "object_paths", "object-universal"));
    assert_int_equal(at(json_object_get(c, "delta"), "functions", "ported"),
                     at(s1, "functions", "ported") - at(s0, "functions", "ported"));
    assert_int_equal(json_array_size(json_object_get(c, "files")), 1);
    assert_string_equal(json_string_value(json_object_get(
        json_array_get(json_object_get(c, "files"), 0), "change")), "modified");
    f = change(json_object_get(c, "functions"), "toy_fill_object");
    assert_non_null(f);
    assert_true(has_tag(f, "converted"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "from"),
                                                          "object_state")),
                        "object-cpython-only");
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "to"),
                                                          "object_state")),
                        "object-universal");
    json_decref(c);
    json_decref(s0);
    json_decref(s1);
    free(parent);
}

static void test_rename_commit_shows_the_move(void **state)
{
    char *id = git("rebased", "rev-parse main~1"), path[256];
    json_t *c, *f;

    snprintf(path, sizeof(path), "/api/v1/repos/h/commits/%s", id);
    c = get(path, 200);
    assert_int_equal(json_array_size(json_object_get(c, "files")), 1);
    f = json_array_get(json_object_get(c, "files"), 0);
    assert_string_equal(json_string_value(json_object_get(f, "change")), "renamed");
    assert_string_equal(json_string_value(json_object_get(f, "path")), "src/a.c");
    assert_string_equal(json_string_value(json_object_get(f, "old_path")), "a.c");
    assert_int_equal(json_array_size(json_object_get(c, "functions")), 0);
    json_decref(c);
    free(id);
}

static void test_compare_lists_moves_and_regressions(void **state)
{
    json_t *fw = get("/api/v1/repos/demo/compare/hpy...hpy-convert-object-dtype", 200);
    json_t *bw = get("/api/v1/repos/demo/compare/hpy-convert-object-dtype...hpy", 200);
    json_t *f;

    assert_int_equal(json_array_size(json_object_get(fw, "regressions")), 0);
    f = change(json_object_get(fw, "functions"), "toy_fill_object");
    assert_true(has_tag(f, "converted"));
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "from"),
                                                          "object_state")), "object-legacy");
    f = change(json_object_get(bw, "regressions"), "toy_fill_object");
    assert_non_null(f);
    assert_true(has_tag(f, "object-regressed"));
    assert_int_equal(at(json_object_get(fw, "delta"), "object_paths", "object-legacy"),
                     at(json_object_get(fw, "head_stats"), "object_paths", "object-legacy") -
                     at(json_object_get(fw, "base_stats"), "object_paths", "object-legacy"));
    assert_int_equal(at(json_object_get(fw, "delta"), "functions", "legacy"),
                     -at(json_object_get(bw, "delta"), "functions", "legacy"));
    json_decref(fw);
    json_decref(bw);
    json_decref(get("/api/v1/repos/demo/compare/hpy..hpy", 400));
    json_decref(get("/api/v1/repos/demo/compare/hpy...nope", 404));
}

/* Replaying the port onto new upstream work is a rewrite; nothing is lost,
 * and each replayed commit is linked to its earlier self by patch id. */
static void test_rebase_is_recorded_and_loses_nothing(void **state)
{
    json_t *w = get("/api/v1/repos/h/refs/main/rewrites", 200), *links;
    char *old_tip = git("history", "rev-parse main");
    char *new_tip = git("rebased", "rev-parse main");
    char *replayed = tu_sh_out("cd '%s' && (git --git-dir=history.git log -p main | "
                               "git patch-id --stable; git --git-dir=rebased.git log -p "
                               "main | git patch-id --stable) | awk '{print $1}' | sort | "
                               "uniq -d | wc -l", getenv("PORTDASH_FIXTURES"));
    char *before = git("history", "rev-list --count main");
    json_t *snap;

    assert_int_equal(json_array_size(w), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0),
                                                          "old_commit")), old_tip);
    assert_string_equal(json_string_value(json_object_get(json_array_get(w, 0),
                                                          "new_commit")), new_tip);
    links = json_object_get(json_array_get(w, 0), "links");
    /* git's own patch ids: the shared root appears twice too, so minus 1. */
    assert_int_equal(json_array_size(links), atoi(replayed) - 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(links, 0), "by")),
                        "patch-id");
    /* Every old commit is still stored, and the snapshot still names the old tip. */
    assert_int_equal(scalar("SELECT count(*) FROM commits c JOIN repos r ON "
                            "r.id = c.repo_id WHERE r.name = 'h'"),
                     atoi(before) + json_array_size(links) + 1);
    snap = get("/api/v1/repos/h/snapshots/2021-W01", 200);
    assert_string_equal(json_string_value(json_object_get(json_array_get(snap, 0),
                                                          "commit")), old_tip);
    json_decref(snap);
    json_decref(w);
    free(old_tip);
    free(new_tip);
    free(replayed);
    free(before);
}

static void test_snapshots_are_immutable(void **state)
{
    sqlite3 *db = NULL;
    char *msg = NULL;

    assert_int_equal(snapshot_live("h", "main", "2021-W01"), 1);
    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_not_equal(sqlite3_exec(db, "UPDATE snapshots SET commit_id = 1", NULL,
                                      NULL, &msg), SQLITE_OK);
    assert_string_equal(msg, "snapshots are immutable");
    sqlite3_free(msg);
    assert_int_not_equal(sqlite3_exec(db, "DELETE FROM snapshots", NULL, NULL, NULL),
                         SQLITE_OK);
    db_close(db);
}

static void test_backfill_takes_the_last_commit_of_each_week(void **state)
{
    json_t *list = get("/api/v1/repos/demo/snapshots", 200), *s;
    size_t i, n = 0;

    json_array_foreach(list, i, s) {
        char args[256], *want;
        int64_t end;

        if (strcmp(json_string_value(json_object_get(s, "ref")),
                   "hpy-convert-object-dtype") != 0)
            continue;
        n++;
        assert_int_equal(db_iso_week_end(json_string_value(json_object_get(s, "week")),
                                         &end), 0);
        /* git itself: the newest first-parent commit authored before the week's end. */
        snprintf(args, sizeof(args), "log --first-parent --format='%%H %%at' "
                 "hpy-convert-object-dtype | awk '$2 < %lld {print $1; exit}'",
                 (long long)end);
        want = git("toyport", args);
        assert_string_equal(json_string_value(json_object_get(s, "commit")), want);
        assert_string_equal(json_string_value(json_object_get(s, "method")),
                            "backfill-author-date");
        free(want);
    }
    /* 2020-12-01 .. 2021-12-01 is 53 ISO weeks. */
    assert_int_equal(n, 53);
    json_decref(list);
}

static void test_iso_weeks(void **state)
{
    char w[16];
    int64_t end;

    db_iso_week(w, sizeof(w), 1609459200);          /* 2021-01-01, a Friday */
    assert_string_equal(w, "2020-W53");
    db_iso_week(w, sizeof(w), 1609718400);          /* 2021-01-04, a Monday */
    assert_string_equal(w, "2021-W01");
    db_iso_week(w, sizeof(w), 1735516800);          /* 2024-12-30, a Monday */
    assert_string_equal(w, "2025-W01");
    assert_int_equal(db_iso_week_end("2021-W01", &end), 0);
    assert_int_equal(end, 1610323200);              /* Monday 2021-01-11 */
    assert_int_equal(db_iso_week_end("2021-01", &end), PD_EINVAL);
}

static void test_weekly_report_reads_and_escapes(void **state)
{
    char *md = get_text("/api/v1/repos/demo/snapshots/2021-W46/report.md"
                        "?ref=hpy-convert-object-dtype", "text/markdown; charset=utf-8");
    char *md2 = get_text("/api/v1/repos/demo/snapshots/2021-W37/report.md",
                         "text/markdown; charset=utf-8");

    assert_non_null(strstr(md, "## `hpy-convert-object-dtype`"));
    assert_non_null(strstr(md, "### Object-dtype paths converted (1)"));
    assert_non_null(strstr(md, "- `toy_fill_object` in `src/refcount.c`: "
                               "object-cpython-only → object-universal"));
    assert_non_null(strstr(md, "### Regressions (0)"));
    /* Every object-dtype move has its section: what left them too. */
    assert_non_null(strstr(md, "### No longer object-dtype paths (0)"));
    assert_non_null(strstr(md, "- Ronan Fields: 1 commit\n"));
    /* Week 37 holds the first HPyField commit; the week before holds hpy's
     * tip, whose author name and message carry <script>: never raw. */
    assert_non_null(strstr(md2, "Previous snapshot: 2021-W36"));
    assert_null(strstr(md2, "<script>"));
    free(md);
    free(md2);
    json_decref(get("/api/v1/repos/demo/snapshots/1999-W01/report.md", 404));
}

static void test_forecast_says_when_it_cannot_project(void **state)
{
    /* As of the end of the last snapshot's week (2021-W48). */
    json_t *f = get("/api/v1/repos/demo/forecast?ref=hpy-convert-object-dtype"
                    "&today=2021-12-06", 200);
    json_t *list = get("/api/v1/repos/demo/snapshots", 200);
    char *md = get_text("/api/v1/repos/demo/snapshots/2021-W46/report.md"
                        "?ref=hpy-convert-object-dtype", "text/markdown; charset=utf-8");

    /* One point per snapshot of the ref; the toy port changes too rarely. */
    assert_int_equal(json_integer_value(json_object_get(f, "weeks")), 53);
    assert_int_equal(json_array_size(json_object_get(f, "points")), 53);
    assert_true(json_is_null(json_object_get(f, "projection")));
    /* Its object-legacy count last changed in 2021-W36, 12 weeks before the
     * last snapshot (2021-W48): a standstill as long as the window is said
     * as such (issue 11.9), before "too little history". */
    assert_int_not_equal(json_integer_value(json_object_get(json_array_get(
                             json_object_get(f, "points"), 39), "value")),
                         json_integer_value(json_object_get(json_array_get(
                             json_object_get(f, "points"), 40), "value")));
    assert_string_equal(json_string_value(json_object_get(json_array_get(
                            json_object_get(f, "points"), 40), "week")), "2021-W36");
    assert_string_equal(json_string_value(json_object_get(f, "note")),
                        "no progress for 12 weeks: unchanged since 2021-W36");
    assert_int_equal(json_integer_value(json_object_get(f, "no_progress_weeks")), 12);
    /* The report of 2021-W46 forecasts up to that week: 10 quiet weeks are
     * no standstill yet. */
    assert_non_null(strstr(md, "### Forecast\n\nNo projection: too little history"));
    json_decref(f);
    /* With a window of 13 weeks the 12 quiet weeks are no standstill, and
     * the few changes are too little to project. */
    f = get("/api/v1/repos/demo/forecast?ref=hpy-convert-object-dtype&weeks=13"
            "&today=2021-12-06", 200);
    assert_string_equal(json_string_value(json_object_get(f, "note")),
                        "too little history to project: fewer than 4 weeks with a change");
    json_decref(f);
    /* As of today (issue 23.2): the weeks without change run to today,
     * years after the backfill, whatever the window. */
    f = get("/api/v1/repos/demo/forecast?ref=hpy-convert-object-dtype&weeks=13", 200);
    assert_non_null(strstr(json_string_value(json_object_get(f, "note")), "no progress for "));
    assert_true(json_integer_value(json_object_get(f, "no_progress_weeks")) > 250);
    json_decref(get("/api/v1/repos/demo/forecast?ref=hpy&measure=files", 400));
    json_decref(get("/api/v1/repos/demo/forecast", 400));
    json_decref(f);
    json_decref(list);
    free(md);
}

/* The weekly report names the gap since the previous snapshot when it is
 * more than a week (issue 11.9); consecutive weeks say nothing more. */
static void test_report_names_the_gap_since_the_previous_snapshot(void **state)
{
    char *md, *md2;

    assert_int_equal(snapshot_live("h", "main", "2021-W30"), 0);
    md = get_text("/api/v1/repos/h/snapshots/2021-W30/report.md?ref=main",
                  "text/markdown; charset=utf-8");
    assert_non_null(strstr(md, "Previous snapshot: 2021-W01, 29 weeks before this one "
                               "(no snapshot in between: the changes below span all 29 weeks)"));
    md2 = get_text("/api/v1/repos/demo/snapshots/2021-W37/report.md",
                   "text/markdown; charset=utf-8");
    assert_non_null(strstr(md2, "Previous snapshot: 2021-W36, commit"));
    assert_null(strstr(md2, "weeks before this one"));
    free(md);
    free(md2);
}

static void test_csv_exports(void **state)
{
    char *files = get_text("/api/v1/repos/demo/commits/hpy/files.csv",
                           "text/csv; charset=utf-8");
    char *snaps = get_text("/api/v1/repos/demo/snapshots.csv", "text/csv; charset=utf-8");
    json_t *list = get("/api/v1/repos/demo/commits/hpy/files", 200);
    size_t lines = 0;
    char *p;

    for (p = files; *p; p++)
        lines += *p == '\n';
    assert_int_equal(lines, json_array_size(json_object_get(list, "files")) + 1);
    assert_non_null(strstr(files, "\"src/evil<img src=x onerror=window.__xss=1>.c\","));
    assert_true(strncmp(snaps, "week,ref,commit,taken_at,method,files,", 38) == 0);
    free(files);
    free(snaps);
    json_decref(list);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trend_points_are_the_summaries_of_the_chain),
        cmocka_unit_test(test_trend_filters_by_date_and_rejects_bad_arguments),
        cmocka_unit_test(test_file_history_follows_a_rename),
        cmocka_unit_test(test_file_history_leaves_out_other_branches),
        cmocka_unit_test(test_commit_lists_function_changes_and_deltas),
        cmocka_unit_test(test_rename_commit_shows_the_move),
        cmocka_unit_test(test_compare_lists_moves_and_regressions),
        cmocka_unit_test(test_rebase_is_recorded_and_loses_nothing),
        cmocka_unit_test(test_snapshots_are_immutable),
        cmocka_unit_test(test_backfill_takes_the_last_commit_of_each_week),
        cmocka_unit_test(test_iso_weeks),
        cmocka_unit_test(test_weekly_report_reads_and_escapes),
        cmocka_unit_test(test_forecast_says_when_it_cannot_project),
        cmocka_unit_test(test_csv_exports),
        cmocka_unit_test(test_report_names_the_gap_since_the_previous_snapshot),
    };

    curl_global_init(CURL_GLOBAL_DEFAULT);
    return cmocka_run_group_tests(tests, setup, teardown);
}
