/*
 * test_scope_graph.c: every reader of "universal-ready outside object-dtype
 * paths" takes the object states of the commit's call graph, so the scoped
 * summary, the scoped file list, the blockers, the API gate and the gate
 * from git agree.
 *
 * tests/fixtures/callgraph, branch `solo`:
 *   solo~1  src/solo.c's only CPython use (PyErr_Clear) is in drop_items,
 *           whose own body shows no object dtype; it calls release_items
 *           (src/items.c), which reads PyObject * items, so the graph puts
 *           drop_items on an object path.  Under no-object-dtype:
 *           items.c ready (its only function is an object path), solo.c
 *           ready (by the graph), user.c not (from_iter's PyErr_SetString).
 *   solo    release_items stops touching items: drop_items leaves the
 *           object path and solo.c (changed too) is no longer ready;
 *           items.c neither (PyErr_Clear outside any object path).
 *   hpy     (the base) items.c ready, user.c not.
 * Read with each blob's own states, solo.c would never be ready.  The
 * symbol lists (hpy-needs, search) and the plan leave out what the graph
 * puts on an object path in the same way, and a scoped history's points
 * are the scoped summaries of their commits: at `gone` (items.c removed)
 * user.c's finalize and from_iter, unchanged, leave the object paths; on
 * `back` the helper changes back and forth under its unchanged callers.
 */
#include "testutil.h"

#include "db.h"
#include "db_snapshot.h"
#include "gate.h"
#include "gate_git.h"
#include "analyzer/analyzer.h"

static tu_site g_site;

/* The built-in object scope and a path scope of user.c alone. */
static const char g_scopes[] =
    "scope no-object-dtype\nexclude-object-paths\n"
    "scope user\ninclude src/user.c\n";

static int setup(void **state)
{
    srv_options so = {0};
    char path[4300];
    FILE *f;

    (void)state;
    tu_site_init(&g_site, "scopegraph.db");
    snprintf(path, sizeof(path), "%s/test.scopes", g_site.dir);
    if (!(f = fopen(path, "w")) || fputs(g_scopes, f) < 0 || fclose(f) != 0)
        return -1;
    so.scopes_path = path;
    return tu_site_ingest(&g_site, "callgraph", "cg", "hpy solo gone back") < 0 ||
           tu_site_serve(&g_site, &so) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_site_free(&g_site);
    return 0;
}

static json_int_t geti(json_t *o, const char *path)
{
    char buf[256], *save = NULL, *k;
    json_t *v = o;

    snprintf(buf, sizeof(buf), "%s", path);
    for (k = strtok_r(buf, "/", &save); k && v; k = strtok_r(NULL, "/", &save))
        v = json_is_array(v) ? json_array_get(v, (size_t)atoi(k)) : json_object_get(v, k);
    assert_non_null(v);
    return json_integer_value(v);
}

/* The paths of a file list whose universal_ready is true, joined by ' '. */
static void ready_paths(json_t *files, char *out, size_t n)
{
    size_t i, off = 0;

    out[0] = '\0';
    for (i = 0; i < json_array_size(files); i++) {
        json_t *f = json_array_get(files, i);

        if (json_is_true(json_object_get(f, "universal_ready")))
            off += (size_t)snprintf(out + off, n - off, "%s ",
                                    json_string_value(json_object_get(f, "path")));
    }
}

/* Summary, file list and blockers under no-object-dtype at `rev`: the
 * universal-ready files are `want` (paths, each followed by a space). */
static void check_scoped(const char *rev, const char *want, json_int_t nfiles)
{
    char path[256], got[512];
    json_t *sum, *files, *block;
    size_t i;

    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/summary?scope=no-object-dtype",
             rev);
    sum = tu_site_get(&g_site, path, 200);
    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/files?scope=no-object-dtype",
             rev);
    files = tu_site_get(&g_site, path, 200);
    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/blockers", rev);
    block = tu_site_get(&g_site, path, 200);

    ready_paths(json_object_get(files, "files"), got, sizeof(got));
    assert_string_equal(got, want);
    assert_int_equal(json_array_size(json_object_get(files, "files")), nfiles);
    /* The summary counts what the list shows; the blockers list the rest. */
    {
        json_int_t nready = 0;
        const char *p;

        for (p = want; (p = strchr(p, ' ')); p++)
            nready++;
        assert_int_equal(geti(sum, "universal_ready_files"), nready);
        assert_int_equal(geti(block, "total"), nfiles - nready);
    }
    for (i = 0; i < json_array_size(json_object_get(block, "files")); i++) {
        const char *bp = json_string_value(
            json_object_get(json_array_get(json_object_get(block, "files"), i), "path"));
        char word[300];

        snprintf(word, sizeof(word), "%s ", bp);
        assert_null(strstr(want, word));
    }
    json_decref(sum);
    json_decref(files);
    json_decref(block);
}

/* The commit id REVSPEC names in the fixture (the API takes ids, not
 * REV~N): a static buffer. */
static const char *rev_id(const char *spec)
{
    static char id[2][41];
    static int k;
    char *out = tu_sh_out("git --git-dir='%s' rev-parse '%s'", tu_fixture("callgraph"), spec);

    k ^= 1;
    snprintf(id[k], sizeof(id[k]), "%.40s", out);
    free(out);
    return id[k];
}

static void test_scoped_readers_agree_with_the_graph(void **state)
{
    (void)state;
    check_scoped("hpy", "src/items.c ", 2);
    check_scoped(rev_id("solo~1"), "src/items.c src/solo.c ", 3);
    check_scoped("solo", "", 3);
}

/* The universal-ready condition of a gate result: base and head totals. */
static void ready_condition(json_t *res, json_int_t *base, json_int_t *head)
{
    json_t *conds = json_object_get(res, "conditions");
    size_t i;

    for (i = 0; i < json_array_size(conds); i++) {
        json_t *c = json_array_get(conds, i);

        if (strcmp(json_string_value(json_object_get(c, "measure")),
                   "universal_ready_files") == 0) {
            *base = json_integer_value(json_object_get(c, "base"));
            *head = json_integer_value(json_object_get(c, "head"));
            return;
        }
    }
    fail_msg("no universal_ready_files condition");
}

/* The gate through the API and from git: the totals the summary gives, and
 * solo.c, ready by the graph at solo~1, is reported when it stops being. */
static void check_gate(const char *base, const char *head, json_int_t want_base,
                       json_int_t want_head, const char *want_lost)
{
    char path[256], lost[512];
    json_t *api, *git = NULL, *l;
    gate_policy pol;
    rules *r = NULL;
    json_int_t b = -1, h = -1;
    size_t i, off = 0;

    snprintf(path, sizeof(path), "/api/v1/repos/cg/gate?base=%s&head=%s", base, head);
    api = tu_site_get(&g_site, path, 200);
    gate_policy_default(&pol);
    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(gate_git_run(&git, tu_fixture("callgraph"), base, head, &pol, r, NULL), 0);
    rules_free(r);
    ready_condition(api, &b, &h);
    assert_int_equal(b, want_base);
    assert_int_equal(h, want_head);
    assert_true(json_equal(json_object_get(api, "conditions"),
                           json_object_get(git, "conditions")));
    l = json_object_get(git, "files_no_longer_universal_ready");
    assert_true(json_equal(l, json_object_get(api, "files_no_longer_universal_ready")));
    lost[0] = '\0';
    for (i = 0; i < json_array_size(l); i++)
        off += (size_t)snprintf(lost + off, sizeof(lost) - off, "%s ",
                                json_string_value(json_array_get(l, i)));
    assert_string_equal(lost, want_lost);
    json_decref(api);
    json_decref(git);
}

static void test_gates_agree_with_the_graph(void **state)
{
    char first[41];

    (void)state;
    snprintf(first, sizeof(first), "%s", rev_id("solo~1"));
    check_gate("hpy", first, 1, 2, "");
    check_gate(first, "solo", 2, 0, "src/items.c src/solo.c ");
}

/* The regressions of a gate result as "path:name " words, and the count
 * its object-legacy condition found. */
static void gate_regressions(json_t *res, char *out, size_t cap, json_int_t *objfound)
{
    json_t *x;
    size_t i, off = 0;

    out[0] = '\0';
    json_array_foreach(json_object_get(res, "regressions"), i, x)
        off += (size_t)snprintf(out + off, cap - off, "%s:%s ",
                                json_string_value(json_object_get(x, "path")),
                                json_string_value(json_object_get(x, "name")));
    *objfound = -1;
    json_array_foreach(json_object_get(res, "conditions"), i, x)
        if (strcmp(json_string_value(json_object_get(x, "measure")),
                   "object_paths.object-legacy") == 0)
            *objfound = json_integer_value(json_object_get(x, "found"));
}

/* A change that only touches a helper moves its unchanged callers: from
 * `gone` (no helper; user.c's finalize on no object path) to `hpy` (the
 * helper reads PyObject * items), finalize, in user.c which is the same
 * blob on both sides, becomes a new object-legacy path through its
 * callee.  Both gates judge it, as the totals (0 -> 2) and the compare
 * page count it; they had named only release_items (found 1). */
static void test_gates_judge_callers_the_graph_moved(void **state)
{
    json_t *api, *git = NULL;
    gate_policy pol;
    rules *r = NULL;
    char ra[256], rg[256];
    json_int_t fa, fg;

    (void)state;
    api = tu_site_get(&g_site, "/api/v1/repos/cg/gate?base=gone&head=hpy", 200);
    gate_policy_default(&pol);
    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(gate_git_run(&git, tu_fixture("callgraph"), "gone", "hpy", &pol, r, NULL), 0);
    rules_free(r);
    gate_regressions(api, ra, sizeof(ra), &fa);
    gate_regressions(git, rg, sizeof(rg), &fg);
    assert_string_equal(rg, "src/items.c:release_items src/user.c:finalize ");
    assert_string_equal(ra, rg);
    assert_int_equal(fg, 2);
    assert_int_equal(fa, 2);
    /* the reverse: finalize leaves the object path, no regression */
    json_decref(api);
    api = tu_site_get(&g_site, "/api/v1/repos/cg/gate?base=hpy&head=gone", 200);
    assert_string_equal(json_string_value(json_object_get(api, "result")), "pass");
    json_decref(api);
    json_decref(git);
}

/* A snapshot's file rows count the object paths the call graph gives, as
 * its totals do: at hpy user.c's finalize is on the object path through
 * release_items (items.c), so user.c's row has it and the rows add up to
 * the totals (they had counted each file's own states: user.c 0). */
static void test_snapshot_rows_add_up_to_the_totals(void **state)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *st = NULL;
    int64_t repo_id, commit;
    char oid[41], hash[64];

    (void)state;
    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_repo_find(db, "cg", &repo_id, NULL, 0), 0);
    assert_int_equal(db_rev_resolve(db, repo_id, "hpy", &commit, oid), 0);
    db_meta_get(db, "rules_hash", hash, sizeof(hash));
    assert_int_equal(db_snapshot_take(db, repo_id, "hpy", commit, "2021-W13", 1617235200,
                                      "live", hash), 0);
    assert_int_equal(db_prepare(db, &st, "SELECT s.obj_legacy, (SELECT sum(f.obj_legacy) "
                                "FROM snapshot_files f WHERE f.snapshot_id = s.id), "
                                "(SELECT f.obj_legacy FROM snapshot_files f WHERE "
                                "f.snapshot_id = s.id AND f.path = 'src/user.c') "
                                "FROM snapshots s WHERE s.week = '2021-W13'"), 0);
    assert_int_equal(sqlite3_step(st), SQLITE_ROW);
    assert_int_equal(sqlite3_column_int64(st, 0), 2);
    assert_int_equal(sqlite3_column_int64(st, 1), 2);
    assert_int_equal(sqlite3_column_int64(st, 2), 1);
    sqlite3_finalize(st);
    db_close(db);
}

/* 1 when the symbol list at `rev` names `symbol`. */
static int lists_symbol(const char *rev, const char *symbol)
{
    char path[256];
    json_t *doc, *syms;
    size_t i;
    int found = 0;

    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/symbols", rev);
    doc = tu_site_get(&g_site, path, 200);
    syms = json_object_get(doc, "symbols");
    for (i = 0; i < json_array_size(syms); i++)
        found |= strcmp(json_string_value(json_object_get(json_array_get(syms, i), "symbol")),
                        symbol) == 0;
    json_decref(doc);
    return found;
}

/* The blocking functions the plan counts at `rev` (default scope). */
static json_int_t plan_blocking(const char *rev)
{
    char path[256];
    json_t *doc;
    json_int_t n;

    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/plan", rev);
    doc = tu_site_get(&g_site, path, 200);
    n = geti(doc, "blocking_in_target");
    json_decref(doc);
    return n;
}

/* solo~1's only PyErr_Clear is drop_items's, an object path by the graph:
 * neither a symbol HPy must cover nor a step of the plan; at solo it is
 * both (in drop_items and in release_items).  from_iter blocks at both. */
static void test_symbols_and_plan_follow_the_graph(void **state)
{
    char first[41];

    (void)state;
    snprintf(first, sizeof(first), "%s", rev_id("solo~1"));
    assert_false(lists_symbol(first, "PyErr_Clear"));
    assert_true(lists_symbol(first, "PyErr_SetString"));
    assert_true(lists_symbol("solo", "PyErr_Clear"));
    assert_int_equal(plan_blocking(first), 1);
    assert_int_equal(plan_blocking("solo"), 3);
}

/* The search answer's entry for function `name` of `path`, or NULL. */
static json_t *search_entry(json_t *res, const char *name, const char *path)
{
    json_t *fns = json_object_get(res, "functions"), *f;
    size_t i;

    json_array_foreach(fns, i, f)
        if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0 &&
            strcmp(json_string_value(json_object_get(f, "path")), path) == 0)
            return f;
    return NULL;
}

/* One object state everywhere: the search gives each function the state
 * its file page gives it, the call graph's.  It gave the function's own
 * (numpy-hpy's npy_fasttake: none in the search, CPython-only on its
 * file page); at least one state here comes from the graph alone. */
static void test_search_states_are_the_file_pages(void **state)
{
    static const char *const refs[] = {"hpy", "solo", "gone", "back"};
    char path[512];
    size_t r, i, j, chained = 0;

    (void)state;
    for (r = 0; r < sizeof(refs) / sizeof(*refs); r++) {
        json_t *files, *f;

        snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/files", refs[r]);
        files = tu_site_get(&g_site, path, 200);
        json_array_foreach(json_object_get(files, "files"), i, f) {
            const char *fp = json_string_value(json_object_get(f, "path"));
            json_t *page, *fn;

            snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/files/%s", refs[r], fp);
            page = tu_site_get(&g_site, path, 200);
            json_array_foreach(json_object_get(page, "functions"), j, fn) {
                const char *name = json_string_value(json_object_get(fn, "name"));
                json_t *want = json_object_get(fn, "object_state"), *res, *got;

                snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/search?q=%s&limit=500",
                         refs[r], name);
                res = tu_site_get(&g_site, path, 200);
                got = search_entry(res, name, fp);
                assert_non_null(got);
                if (!json_equal(want ? want : json_null(),
                                json_object_get(got, "object_state") ?
                                json_object_get(got, "object_state") : json_null()))
                    fail_msg("%s %s %s: file page %s, search %s", refs[r], fp, name,
                             want ? json_string_value(want) : "none",
                             json_string_value(json_object_get(got, "object_state")));
                if (json_object_get(json_object_get(json_object_get(fn, "why"), "object"),
                                    "chain"))
                    chained++;
                json_decref(res);
            }
            json_decref(page);
        }
        json_decref(files);
    }
    assert_true(chained > 0);
}

/* The values of the scoped history of `measure` on `ref` under `scope`,
 * each checked against the scoped summary of its commit, joined by ' '
 * into out. */
static void scoped_history(const char *ref, const char *scope, const char *measure,
                           char *out, size_t cap)
{
    char path[512], key[128], *dot;
    json_t *h, *pts, *sum, *pt;
    size_t i, off = 0;

    snprintf(path, sizeof(path), "/api/v1/repos/cg/refs/%s/history?measure=%s&scope=%s",
             ref, measure, scope);
    h = tu_site_get(&g_site, path, 200);
    pts = json_object_get(h, "points");
    assert_true(json_array_size(pts) > 0);
    snprintf(key, sizeof(key), "%s", measure);
    if ((dot = strchr(key, '.')))
        *dot = '/';                      /* object_paths.object-legacy: a JSON path */
    out[0] = '\0';
    json_array_foreach(pts, i, pt) {
        json_int_t v = json_integer_value(json_object_get(pt, "value"));

        snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/summary?scope=%s",
                 json_string_value(json_object_get(pt, "commit")), scope);
        sum = tu_site_get(&g_site, path, 200);
        if (geti(sum, key) != v)
            fail_msg("%s %s %s: point %zu is %lld, its commit's summary %lld", ref, scope,
                     measure, i, (long long)v, (long long)geti(sum, key));
        json_decref(sum);
        off += (size_t)snprintf(out + off, cap - off, "%s%lld", i ? " " : "", (long long)v);
    }
    /* the last point is the ref's summary */
    snprintf(path, sizeof(path), "/api/v1/repos/cg/commits/%s/summary?scope=%s", ref, scope);
    sum = tu_site_get(&g_site, path, 200);
    assert_int_equal(geti(sum, key), json_integer_value(json_object_get(
        json_array_get(pts, json_array_size(pts) - 1), "value")));
    json_decref(sum);
    json_decref(h);
}

/* A scoped history counts each commit as its scoped summary does, with
 * the states of the commit's call graph: a callee's change moves its
 * callers in files the commit leaves alone.  Read with each function's
 * own state the points differed from the summaries (hpy's no-object-dtype
 * legacy functions 2 against 1; user.c's object-legacy paths 0 at hpy).
 * The server replays each ref and scope once for all its measures
 * (api_scope_series.c): the two scopes asked in turn also check that a
 * kept series is never another scope's. */
static void test_scoped_history_follows_the_graph(void **state)
{
    static const char *const refs[] = {"hpy", "solo", "gone", "back"};
    static const char *const measures[] = {
        "functions.legacy", "functions.neutral", "tokens.npy-legacy", "tokens.capi",
        "universal_ready_files", "object_paths.object-legacy",
        "object_paths.object-cpython-only"};
    char got[256];
    size_t r, m;

    (void)state;
    for (r = 0; r < sizeof(refs) / sizeof(*refs); r++)
        for (m = 0; m < sizeof(measures) / sizeof(*measures); m++) {
            scoped_history(refs[r], "no-object-dtype", measures[m], got, sizeof(got));
            scoped_history(refs[r], "user", measures[m], got, sizeof(got));
        }
    /* gone removes the helper: finalize and from_iter (user.c, the same
     * blob) leave the object paths and count as legacy functions */
    scoped_history("gone", "no-object-dtype", "functions.legacy", got, sizeof(got));
    assert_string_equal(got, "1 3");
    scoped_history("gone", "user", "object_paths.object-legacy", got, sizeof(got));
    assert_string_equal(got, "1 0");
    /* back: the helper's versions move finalize without touching user.c */
    scoped_history("back", "user", "object_paths.object-legacy", got, sizeof(got));
    assert_string_equal(got, "1 0 0 0 1 0 0");
    scoped_history("back", "user", "object_paths.object-cpython-only", got, sizeof(got));
    assert_string_equal(got, "0 1 1 1 0 1 1");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scoped_readers_agree_with_the_graph),
        cmocka_unit_test(test_gates_agree_with_the_graph),
        cmocka_unit_test(test_gates_judge_callers_the_graph_moved),
        cmocka_unit_test(test_snapshot_rows_add_up_to_the_totals),
        cmocka_unit_test(test_symbols_and_plan_follow_the_graph),
        cmocka_unit_test(test_scoped_history_follows_the_graph),
        cmocka_unit_test(test_search_states_are_the_file_pages),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
