/*
 * test_scopes.c: named scopes (db_scope.h, api_scope.c) on the toyport
 * fixture, against a real server started with a scopes file of the test:
 * the built-in no-object-dtype scope, a path-glob scope and a scope with
 * an exclude.  Scoped figures are checked against the file pages (what a
 * reader can verify by hand) and against each other (summary = sum over
 * files, history = summaries commit by commit).
 */
#include "testutil.h"

#include "db.h"
#include "db_scope.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

static tu_site g_site;
static char g_scopes[4200];

static const char g_scopes_text[] =
    "# scopes of test_scopes.c\n"
    "scope no-object-dtype\n"
    "title without object dtype\n"
    "exclude-object-paths\n"
    "\n"
    "scope src\n"
    "title the sources, not the headers or the evil file\n"
    "include src/**\n"
    "exclude src/evil*\n"
    "scope src-no-object\n"
    "include src/**\n"
    "exclude-object-paths\n";

static int scopes_setup(void **state)
{
    srv_options so = {0};
    FILE *f;

    tu_site_init(&g_site, "scopes.db");
    snprintf(g_scopes, sizeof(g_scopes), "%s/test.scopes", g_site.dir);
    if (!(f = fopen(g_scopes, "w")))
        return -1;
    fputs(g_scopes_text, f);
    fclose(f);
    so.scopes_path = g_scopes;
    return tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0 ||
           tu_site_serve(&g_site, &so) < 0 ? -1 : 0;
}

static int scopes_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static json_t *get(long status, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* GET g_site.base + the formatted path, expecting `status`. */
static json_t *get(long status, const char *fmt, ...)
{
    char url[2048];
    va_list ap;
    int n = snprintf(url, sizeof(url), "%s", g_site.base);

    va_start(ap, fmt);
    vsnprintf(url + n, sizeof(url) - (size_t)n, fmt, ap);
    va_end(ap);
    return tu_get_json(url, status);
}

static json_int_t geti(json_t *o, const char *a, const char *b)
{
    json_t *v = json_object_get(o, a);

    return json_integer_value(b ? json_object_get(v, b) : v);
}

static const char *const k_status[] = {"ported", "bridged", "legacy", "neutral"};
static const char *const k_class[] = {"hpy", "capi", "npy-legacy", "bridge"};
static const char *const k_obj[] = {"object-legacy", "object-cpython-only",
                                    "object-universal"};

/* Every figure of a scoped summary equals the sum over the scoped file table. */
static void check_summary_is_sum_of_files(const char *rev, const char *scope)
{
    json_t *s = get(200, "/api/v1/repos/demo/commits/%s/summary?scope=%s", rev, scope);
    json_t *f = get(200, "/api/v1/repos/demo/commits/%s/files?scope=%s", rev, scope);
    json_t *files = json_object_get(f, "files"), *row;
    json_int_t fn[4] = {0}, tok[4] = {0}, obj[3] = {0}, ready = 0;
    size_t i;
    int k;

    assert_string_equal(json_string_value(json_object_get(s, "scope")), scope);
    assert_string_equal(json_string_value(json_object_get(f, "scope")), scope);
    json_array_foreach(files, i, row) {
        for (k = 0; k < 4; k++) {
            fn[k] += geti(row, "functions", k_status[k]);
            tok[k] += geti(row, "tokens", k_class[k]);
        }
        for (k = 0; k < 3; k++)
            obj[k] += geti(row, "object_paths", k_obj[k]);
        ready += json_is_true(json_object_get(row, "universal_ready"));
    }
    assert_int_equal(geti(s, "files", NULL), json_array_size(files));
    assert_int_equal(geti(s, "universal_ready_files", NULL), ready);
    for (k = 0; k < 4; k++) {
        assert_int_equal(geti(s, "functions", k_status[k]), fn[k]);
        assert_int_equal(geti(s, "tokens", k_class[k]), tok[k]);
    }
    for (k = 0; k < 3; k++)
        assert_int_equal(geti(s, "object_paths", k_obj[k]), obj[k]);
    json_decref(s);
    json_decref(f);
}

static void test_no_object_summary_is_the_sum_over_its_files(void **state)
{
    check_summary_is_sum_of_files("hpy", "no-object-dtype");
    check_summary_is_sum_of_files("hpy-convert-object-dtype", "no-object-dtype");
    check_summary_is_sum_of_files("hpy-convert-object-dtype", "src-no-object");
}

/* The scoped row of `path` in a files document, or NULL. */
static json_t *file_row(json_t *doc, const char *path)
{
    json_t *row;
    size_t i;

    json_array_foreach(json_object_get(doc, "files"), i, row)
        if (strcmp(json_string_value(json_object_get(row, "path")), path) == 0)
            return row;
    return NULL;
}

/*
 * Per file, the scoped function counts are those of the file page's
 * functions whose object_state is null, and the scoped tokens are the
 * file's totals minus the object functions' tokens.
 */
static void test_functions_that_are_only_object_paths_are_left_out(void **state)
{
    json_t *full = get(200, "/api/v1/repos/demo/commits/hpy/files");
    json_t *sc = get(200, "/api/v1/repos/demo/commits/hpy/files?scope=no-object-dtype");
    json_t *row, *fn;
    size_t i, j;
    int k, seen_object = 0;

    assert_int_equal(json_array_size(json_object_get(full, "files")),
                     json_array_size(json_object_get(sc, "files")));
    json_array_foreach(json_object_get(full, "files"), i, row) {
        const char *path = json_string_value(json_object_get(row, "path"));
        json_t *page, *srow = file_row(sc, path);
        json_int_t want_fn[4] = {0}, want_tok[4];
        char enc[1024];

        tu_url_path(enc, sizeof(enc), path);
        page = get(200, "/api/v1/repos/demo/commits/hpy/files/%s", enc);

        assert_non_null(srow);
        for (k = 0; k < 4; k++)
            want_tok[k] = geti(row, "tokens", k_class[k]);
        json_array_foreach(json_object_get(page, "functions"), j, fn) {
            const char *st = json_string_value(json_object_get(fn, "status"));

            if (!json_is_null(json_object_get(fn, "object_state"))) {
                seen_object++;
                for (k = 0; k < 4; k++)
                    want_tok[k] -= geti(fn, "tokens", k_class[k]);
                continue;
            }
            for (k = 0; k < 4; k++)
                want_fn[k] += strcmp(st, k_status[k]) == 0;
        }
        for (k = 0; k < 4; k++) {
            assert_int_equal(geti(srow, "functions", k_status[k]), want_fn[k]);
            assert_int_equal(geti(srow, "tokens", k_class[k]), want_tok[k]);
        }
        for (k = 0; k < 3; k++)
            assert_int_equal(geti(srow, "object_paths", k_obj[k]), 0);
        json_decref(page);
    }
    assert_true(seen_object >= 3);
    /* toy_item_incref and toy_fill_object (legacy, object-legacy) are gone
     * from refcount.c; toy_is_object (neutral, no object path) stays. */
    assert_int_equal(geti(file_row(full, "src/refcount.c"), "functions", "legacy"), 2);
    assert_int_equal(geti(file_row(sc, "src/refcount.c"), "functions", "legacy"), 0);
    assert_int_equal(geti(file_row(sc, "src/refcount.c"), "functions", "neutral"), 1);
    json_decref(full);
    json_decref(sc);
}

static void test_blockers_are_listed_exactly(void **state)
{
    json_t *b = get(200, "/api/v1/repos/demo/commits/hpy/blockers?scope=no-object-dtype");
    json_t *s = get(200, "/api/v1/repos/demo/commits/hpy/summary?scope=no-object-dtype");
    json_t *want = json_loads(
        "[{\"path\": \"include/toyarray.h\", \"functions\": [],"
        "  \"file_scope\": {\"capi\": 6, \"bridge\": 0}},"
        " {\"path\": \"src/arraytypes.c.src\", \"functions\": ["
        "   {\"name\": \"LONG_getitem\", \"start_line\": 9, \"capi\": 2, \"bridge\": 0},"
        "   {\"name\": \"DOUBLE_getitem\", \"start_line\": 9, \"capi\": 2, \"bridge\": 0}],"
        "  \"file_scope\": {\"capi\": 0, \"bridge\": 0}}]", 0, NULL);
    json_t *dflt = get(200, "/api/v1/repos/demo/commits/hpy/blockers");

    assert_non_null(want);
    if (!json_equal(json_object_get(b, "files"), want)) {
        char *got = json_dumps(json_object_get(b, "files"), 0);

        fail_msg("blockers: %s", got);
    }
    assert_string_equal(json_string_value(json_object_get(b, "scope")), "no-object-dtype");
    assert_int_equal(geti(b, "total", NULL), 2);
    assert_int_equal(geti(b, "functions_total", NULL), 2);
    /* A listed file is exactly one that is not universal-ready in the scope. */
    assert_int_equal(geti(b, "total", NULL),
                     geti(s, "files", NULL) - geti(s, "universal_ready_files", NULL));
    /* The default scope of the endpoint is no-object-dtype. */
    assert_true(json_equal(b, dflt));
    json_decref(b);
    json_decref(s);
    json_decref(want);
    json_decref(dflt);
}

/* The scoped history of `measure` along `ref` equals the scoped summaries
 * at each of its commits. */
static void check_history(const char *ref, const char *scope, const char *measure)
{
    json_t *h = get(200, "/api/v1/repos/demo/refs/%s/history?measure=%s&scope=%s",
                    ref, measure, scope);
    json_t *plain = get(200, "/api/v1/repos/demo/refs/%s/history?measure=%s", ref, measure);
    json_t *pts = json_object_get(h, "points"), *p;
    char key[64], *dot;
    size_t i;

    assert_string_equal(json_string_value(json_object_get(h, "scope")), scope);
    assert_int_equal(json_array_size(pts), json_array_size(json_object_get(plain, "points")));
    assert_true(json_array_size(pts) >= 3);
    snprintf(key, sizeof(key), "%s", measure);
    dot = strchr(key, '.');
    if (dot)
        *dot++ = '\0';
    json_array_foreach(pts, i, p) {
        const char *id = json_string_value(json_object_get(p, "commit"));
        json_t *s = get(200, "/api/v1/repos/demo/commits/%s/summary?scope=%s", id, scope);

        if (geti(p, "value", NULL) != geti(s, key, dot))
            fail_msg("%s %s at %s: history %lld, summary %lld", scope, measure, id,
                     (long long)geti(p, "value", NULL), (long long)geti(s, key, dot));
        json_decref(s);
    }
    json_decref(h);
    json_decref(plain);
}

static void test_history_under_a_scope_equals_the_scoped_summaries(void **state)
{
    static const char *const measures[] = {
        "functions.legacy", "functions.ported", "tokens.capi", "tokens.hpy",
        "universal_ready_files", "files", "object_paths.object-legacy"};
    size_t i;

    for (i = 0; i < sizeof(measures) / sizeof(measures[0]); i++) {
        check_history("hpy-convert-object-dtype", "no-object-dtype", measures[i]);
        check_history("hpy-convert-object-dtype", "src", measures[i]);
    }
    check_history("hpy", "no-object-dtype", "functions.legacy");
}

/* An error's status and that its detail names `word`. */
static void expect_400(const char *path, const char *word)
{
    json_t *doc = get(400, "%s", path);
    const char *detail = json_string_value(json_object_get(doc, "detail"));

    if (!detail || !strstr(detail, word))
        fail_msg("%s: detail lacks '%s': %s", path, word, detail ? detail : "(none)");
    json_decref(doc);
}

static void test_unknown_scope_is_400(void **state)
{
    expect_400("/api/v1/repos/demo/commits/hpy/summary?scope=nope", "unknown scope 'nope'");
    expect_400("/api/v1/repos/demo/commits/hpy/files?scope=nope", "unknown scope 'nope'");
    expect_400("/api/v1/repos/demo/refs/hpy/history?scope=nope", "unknown scope 'nope'");
    expect_400("/api/v1/repos/demo/commits/hpy/blockers?scope=nope",
               "no-object-dtype, src, src-no-object");
    /* The built-in scopes are not offered when a file replaces them. */
    expect_400("/api/v1/repos/demo/commits/hpy/summary?scope=multiarray", "multiarray");
}

static void test_badge_follows_the_scope(void **state)
{
    char url[512];
    tu_http h;

    snprintf(url, sizeof(url), "%s/badge/demo/hpy/functions.legacy.svg?scope=no-object-dtype",
             g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_non_null(strstr(h.body, "no-object-dtype: functions legacy: 2 "));
    tu_http_free(&h);
    snprintf(url, sizeof(url), "%s/badge/demo/hpy/functions.legacy.svg?scope=nope", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 400);
    tu_http_free(&h);
}

static void test_a_path_glob_scope_keeps_only_its_paths(void **state)
{
    json_t *f = get(200, "/api/v1/repos/demo/commits/hpy/files?scope=src");
    json_t *all = get(200, "/api/v1/repos/demo/commits/hpy/files"), *row;
    size_t i, want = 0;

    json_array_foreach(json_object_get(all, "files"), i, row) {
        const char *p = json_string_value(json_object_get(row, "path"));

        if (strncmp(p, "src/", 4) == 0 && strncmp(p, "src/evil", 8) != 0) {
            json_t *srow = file_row(f, p);

            want++;
            /* Without the object filter a file keeps its own figures. */
            assert_non_null(srow);
            assert_true(json_equal(row, srow));
        }
    }
    assert_true(want >= 2);
    assert_int_equal(json_array_size(json_object_get(f, "files")), want);
    assert_null(file_row(f, "include/toyarray.h"));
    json_decref(f);
    json_decref(all);
    check_summary_is_sum_of_files("hpy", "src");
}

static void test_scopes_are_listed(void **state)
{
    json_t *l = get(200, "/api/v1/scopes"), *s;

    assert_int_equal(json_array_size(l), 3);
    s = json_array_get(l, 1);
    assert_string_equal(json_string_value(json_object_get(s, "name")), "src");
    assert_string_equal(json_string_value(json_array_get(json_object_get(s, "include"), 0)),
                        "src/**");
    assert_string_equal(json_string_value(json_array_get(json_object_get(s, "exclude"), 0)),
                        "src/evil*");
    assert_true(json_is_false(json_object_get(s, "exclude_object_paths")));
    assert_true(json_is_true(json_object_get(json_array_get(l, 0), "exclude_object_paths")));
    json_decref(l);
}

/* Parse `text` and expect an error message containing `want`. */
static void expect_parse_error(const char *text, const char *want)
{
    db_scopes *s = NULL;

    assert_int_equal(db_scopes_parse(&s, text, "t.scopes"), PD_EINVAL);
    assert_null(s);
    if (!strstr(pd_error_last(), want))
        fail_msg("'%s': message '%s' lacks '%s'", text, pd_error_last(), want);
}

static void test_scopes_file_errors_name_the_line(void **state)
{
    db_scopes *s = NULL;

    expect_parse_error("include src/**\n", "t.scopes:1: 'include' before any 'scope NAME'");
    expect_parse_error("scope a\n\nfrob x\n", "t.scopes:3: unknown directive 'frob'");
    expect_parse_error("scope a\nscope a\n", "t.scopes:2: scope 'a' defined twice");
    expect_parse_error("scope a b\n", "t.scopes:1: bad scope name 'a b'");
    expect_parse_error("scope a\ninclude\n", "t.scopes:2: include needs a glob");
    /* The built-in file parses and has the no-object-dtype scope. */
    assert_int_equal(db_scopes_load(&s, NULL), 0);
    assert_non_null(db_scopes_find(s, "no-object-dtype"));
    assert_true(db_scopes_find(s, "no-object-dtype")->exclude_object_paths);
    db_scopes_free(s);
    assert_int_equal(db_scopes_load(&s, "/nonexistent/x.scopes"), PD_EIO);
    db_scopes_free(NULL);
}

/* Every row of the no-object cache as one text (analysis, status, counts). */
static char *noobject_rows(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    size_t len = 0, cap = 1 << 16;
    char *out = calloc(cap, 1);

    assert_non_null(out);
    assert_int_equal(db_prepare(db, &st, "SELECT analysis_id, status, counts FROM "
                                "analysis_noobject ORDER BY analysis_id"), 0);
    while (sqlite3_step(st) == SQLITE_ROW) {
        len += (size_t)snprintf(out + len, cap - len, "%lld %d %s\n",
                                (long long)sqlite3_column_int64(st, 0),
                                sqlite3_column_int(st, 1),
                                (const char *)sqlite3_column_text(st, 2));
        assert_true(len < cap);
    }
    sqlite3_finalize(st);
    return out;
}

/* The ingest writes the no-object cache from each analysis as it encodes
 * it (ingest_enc_new, on the analysis thread), not from its stored rows:
 * the rows must be those computed from the stored rows (db_scope_warm). */
static void test_ingest_fills_the_cache_as_the_stored_rows_give(void **state)
{
    sqlite3 *db = NULL;
    char hash[64], *ingested, *warmed;
    int64_t filled = -1;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, sizeof(hash)), 0);
    ingested = noobject_rows(db);
    assert_true(strchr(ingested, '\n') != strrchr(ingested, '\n'));   /* >= 2 rows */
    assert_int_equal(db_exec(db, "DELETE FROM analysis_noobject"), 0);
    assert_int_equal(db_scope_warm(db, hash, &filled), 0);
    warmed = noobject_rows(db);
    assert_string_equal(ingested, warmed);
    free(ingested);
    free(warmed);
    db_close(db);
}

/* db_scope_warm fills the cache for every analysis with object paths, and
 * the figures read from it are those computed without it. */
static void test_warming_the_cache_keeps_the_figures(void **state)
{
    json_t *before = get(200, "/api/v1/repos/demo/commits/hpy/files?scope=no-object-dtype");
    json_t *after;
    sqlite3 *db = NULL;
    char hash[64];
    int64_t filled = -1, again = -1;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", hash, sizeof(hash)), 0);
    /* The cache is schema (migration 010); emptying it drops every row. */
    assert_int_equal(db_exec(db, "DELETE FROM analysis_noobject"), 0);
    assert_int_equal(db_scope_warm(db, hash, &filled), 0);
    assert_true(filled >= 3);
    assert_int_equal(db_scope_warm(db, hash, &again), 0);
    assert_int_equal(again, 0);
    db_close(db);
    after = get(200, "/api/v1/repos/demo/commits/hpy/files?scope=no-object-dtype");
    assert_true(json_equal(before, after));
    json_decref(before);
    json_decref(after);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ingest_fills_the_cache_as_the_stored_rows_give),
        cmocka_unit_test(test_no_object_summary_is_the_sum_over_its_files),
        cmocka_unit_test(test_functions_that_are_only_object_paths_are_left_out),
        cmocka_unit_test(test_blockers_are_listed_exactly),
        cmocka_unit_test(test_history_under_a_scope_equals_the_scoped_summaries),
        cmocka_unit_test(test_unknown_scope_is_400),
        cmocka_unit_test(test_badge_follows_the_scope),
        cmocka_unit_test(test_a_path_glob_scope_keeps_only_its_paths),
        cmocka_unit_test(test_scopes_are_listed),
        cmocka_unit_test(test_scopes_file_errors_name_the_line),
        cmocka_unit_test(test_warming_the_cache_keeps_the_figures),
    };

    return cmocka_run_group_tests(tests, scopes_setup, scopes_teardown);
}
