/*
 * test_triage.c: dismissing findings (issue 14.7) on the toyport fixture:
 * the token permission, the checks on the body, a dismissal followed by
 * fingerprint to a later commit and through a re-ingest, object-item sites,
 * uploaded SARIF findings, the list with who and when, undo, and the CLI.
 */
#include "testutil.h"

#include "db.h"
#include "db_token.h"
#include "ingest.h"
#include "pd_error.h"

#define LATER "hpy-convert-object-dtype"

static tu_site g_site;
static char g_triage[DB_TOKEN_LEN + 1], g_sarif[DB_TOKEN_LEN + 1];

/* Ingest `refs` (and hpy, moved) of the fixture's copy as "demo". */
static int ingest_copy(const char *ref)
{
    const char *refs[3] = {"hpy", "moved", ref};
    char repo[4300];
    ingest_options o = {0};

    snprintf(repo, sizeof(repo), "%s/toy.git", g_site.dir);
    o.db_path = g_site.db;
    o.repo_path = repo;
    o.name = "demo";
    o.refs = refs;
    o.nrefs = 3;
    if (ingest_run(&o, NULL) < 0) {
        fprintf(stderr, "ingest: %s\n", pd_error_last());
        return -1;
    }
    return 0;
}

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "triage.db");
    /* A copy of the fixture with branch "moved": hpy with three lines put
     * at the top of src/toyarray.c, so every finding there moves down. */
    if (tu_sh("cd '%s' && git clone -q --bare '%s' toy.git && git clone -q toy.git work "
              "2>/dev/null && cd work && git checkout -q hpy && printf '\\n\\n\\n' | "
              "cat - src/toyarray.c > t && mv t src/toyarray.c && git -c user.name=t "
              "-c user.email=t@example.org commit -qam moved && git push -q origin "
              "HEAD:refs/heads/moved", g_site.dir, tu_fixture("toyport")) != 0 ||
        ingest_copy(LATER) < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 ||
         db_token_create(db, g_triage, "ana", "triage") < 0 ||
         db_token_create(db, g_sarif, "ci", "sarif") < 0;
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

/* `method` .../dismissals{tail} with `token` and body; the reply. */
static tu_http call(const char *method, const char *tail, const char *token, const char *body)
{
    char url[512], auth[128];
    const char *hdrs[] = {auth, "Content-Type: application/json", NULL};

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/dismissals%s", g_site.base, tail);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token ? token : "");
    return tu_send(method, url, token ? hdrs : hdrs + 1, body, body ? strlen(body) : 0, 1);
}

/* POST a dismissal; returns the parsed reply after checking the status. */
static json_t *dismiss(const char *rev, const char *path, const char *fp, const char *reason,
                       long status)
{
    char body[1024];
    tu_http h;
    json_t *doc;

    snprintf(body, sizeof(body), "{\"rev\": \"%s\", \"path\": \"%s\", \"fingerprint\": \"%s\", "
             "\"reason\": \"%s\", \"comment\": \"checked by hand\"}", rev, path, fp, reason);
    h = call("POST", "", g_triage, body);
    if (h.status != status)
        fail_msg("dismiss %s %s: %ld %s", path, fp, h.status, h.body);
    doc = json_loads(h.body, 0, NULL);
    tu_http_free(&h);
    return doc;
}

/* The finding of a file document of this tool with this text (the first). */
static json_t *finding(json_t *file, const char *tool, const char *text)
{
    json_t *f;
    size_t i;

    json_array_foreach(json_object_get(file, "findings"), i, f)
        if (strcmp(json_string_value(json_object_get(f, "tool")), tool) == 0 &&
            strcmp(json_string_value(json_object_get(f, "text")), text) == 0)
            return f;
    fail_msg("no %s finding %s", tool, text);
    return NULL;
}

static void test_dismissing_needs_permission_triage_and_a_real_finding(void **state)
{
    tu_http h = call("POST", "", NULL, "{}");
    json_t *d;

    assert_int_equal(h.status, 401);
    tu_http_free(&h);
    h = call("POST", "", g_sarif, "{}");
    assert_int_equal(h.status, 403);
    assert_non_null(strstr(h.body, "triage"));
    tu_http_free(&h);
    h = call("POST", "", g_triage, "{\"rev\": \"hpy\"}");
    assert_int_equal(h.status, 400);
    tu_http_free(&h);
    d = dismiss("hpy", "src/refcount.c", "0123", "false positive", 404);
    assert_non_null(strstr(json_string_value(json_object_get(d, "detail")),
                           "has no finding with fingerprint 0123"));
    json_decref(d);
    json_decref(dismiss("hpy", "src/refcount.c", "0123", "meh", 400));
    json_decref(dismiss("nope", "src/refcount.c", "0123", "won't fix", 404));
    json_decref(dismiss("hpy", "src/none.c", "0123", "won't fix", 404));
    h = call("DELETE", "/1", g_sarif, NULL);
    assert_int_equal(h.status, 403);
    tu_http_free(&h);
}

/* Dismissed at hpy, still dismissed at "moved" where its line moved three
 * down, and after a re-ingest; listed with who and when; undone. */
static void test_a_dismissal_follows_its_finding(void **state)
{
    json_t *a = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    json_t *b = get("/api/v1/repos/demo/commits/moved/files/src/toyarray.c", 200);
    json_t *fa = NULL, *fb = NULL, *f, *d, *list, *row;
    const char *fp = NULL;
    size_t i, k;
    char tail[64];
    tu_http h;

    /* a finding of both commits whose line moved */
    json_array_foreach(json_object_get(a, "findings"), i, f)
        json_array_foreach(json_object_get(b, "findings"), k, fb)
            if (!fp && json_equal(json_object_get(f, "fingerprint"),
                                  json_object_get(fb, "fingerprint")) &&
                !json_equal(json_object_get(f, "line"), json_object_get(fb, "line"))) {
                fa = f;
                fp = json_string_value(json_object_get(f, "fingerprint"));
            }
    assert_non_null(fp);
    assert_int_equal(strlen(fp), 32);
    assert_true(json_is_null(json_object_get(fa, "dismissed")));
    assert_int_equal(json_integer_value(json_object_get(a, "dismissed_count")), 0);
    d = dismiss("hpy", "src/toyarray.c", fp, "won't fix", 201);
    assert_string_equal(json_string_value(json_object_get(d, "by")), "ana");
    assert_string_equal(json_string_value(json_object_get(d, "reason")), "won't fix");
    assert_string_equal(json_string_value(json_object_get(d, "comment")), "checked by hand");
    assert_string_equal(json_string_value(json_object_get(d, "text")),
                        json_string_value(json_object_get(fa, "text")));
    json_decref(b);
    assert_int_equal(ingest_copy(LATER), 0);
    b = get("/api/v1/repos/demo/commits/moved/files/src/toyarray.c", 200);
    assert_int_equal(json_integer_value(json_object_get(b, "dismissed_count")), 1);
    json_array_foreach(json_object_get(b, "findings"), k, f)
        if (strcmp(json_string_value(json_object_get(f, "fingerprint")), fp) == 0)
            assert_string_equal(json_string_value(json_object_get(json_object_get(
                f, "dismissed"), "reason")), "won't fix");
    list = get("/api/v1/repos/demo/dismissals", 200);
    row = json_array_get(json_object_get(list, "dismissals"), 0);
    assert_string_equal(json_string_value(json_object_get(row, "fingerprint")), fp);
    assert_string_equal(json_string_value(json_object_get(row, "path")), "src/toyarray.c");
    assert_string_equal(json_string_value(json_object_get(row, "by")), "ana");
    assert_non_null(json_string_value(json_object_get(row, "at")));
    snprintf(tail, sizeof(tail), "/%lld", (long long)json_integer_value(json_object_get(d, "id")));
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 404);
    tu_http_free(&h);
    json_decref(b);
    b = get("/api/v1/repos/demo/commits/moved/files/src/toyarray.c", 200);
    assert_int_equal(json_integer_value(json_object_get(b, "dismissed_count")), 0);
    json_decref(list);
    json_decref(d);
    json_decref(a);
    json_decref(b);
}

/* A dismissal's id is never given again: an undo sent from a page read
 * before the newest dismissal was undone and another made must not remove
 * that other one (migration 021; the id was the largest plus one), nor one
 * that replaced it (dismissing again gives a new id). */
static void test_an_undone_dismissals_id_is_not_given_again(void **state)
{
    json_t *file = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    json_t *fs = json_object_get(file, "findings"), *d1, *d2, *d3, *now;
    const char *fp1 = json_string_value(json_object_get(json_array_get(fs, 0), "fingerprint"));
    const char *fp2 = json_string_value(json_object_get(json_array_get(fs, 1), "fingerprint"));
    char tail[64];
    tu_http h;

    assert_true(fp1 && fp2 && strcmp(fp1, fp2) != 0);
    d1 = dismiss("hpy", "src/toyarray.c", fp1, "false positive", 201);
    snprintf(tail, sizeof(tail), "/%lld", (long long)json_integer_value(json_object_get(d1, "id")));
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    d2 = dismiss("hpy", "src/toyarray.c", fp2, "won't fix", 201);
    assert_true(json_integer_value(json_object_get(d2, "id")) >
                json_integer_value(json_object_get(d1, "id")));
    h = call("DELETE", tail, g_triage, NULL);       /* the stale undo */
    assert_int_equal(h.status, 404);
    tu_http_free(&h);
    now = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    assert_int_equal(json_integer_value(json_object_get(now, "dismissed_count")), 1);
    /* dismissing the same finding again replaces it under a new id: an undo
     * of the one it replaced removes nothing */
    d3 = dismiss("hpy", "src/toyarray.c", fp2, "used in tests", 201);
    assert_true(json_integer_value(json_object_get(d3, "id")) >
                json_integer_value(json_object_get(d2, "id")));
    snprintf(tail, sizeof(tail), "/%lld", (long long)json_integer_value(json_object_get(d2, "id")));
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 404);
    tu_http_free(&h);
    json_decref(now);
    now = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    assert_int_equal(json_integer_value(json_object_get(now, "dismissed_count")), 1);
    snprintf(tail, sizeof(tail), "/%lld", (long long)json_integer_value(json_object_get(d3, "id")));
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    json_decref(now);
    json_decref(d3);
    json_decref(d2);
    json_decref(d1);
    json_decref(file);
    (void)state;
}

/* Migration 021 on a database of schema 20 with dismissals 1 and 3: both
 * kept with their ids, the next ids past every id given, and the
 * generation still raised by each change. */
static void test_migration_021_keeps_dismissals_and_their_ids(void **state)
{
    char *dir = tu_tmpdir(), path[4200], *out;
    const char *root = getenv("PORTDASH_ROOT");
    const char *row = "'x', 'false positive', '', 'portdash', 'a.c', 'R', 't', NULL, 1, "
                      "'c0ffee', 'ana', 0";
    sqlite3 *db = NULL;

    snprintf(path, sizeof(path), "%s/v20.db", dir);
    assert_int_equal(tu_sh("cd '%s' && cat $(ls db/migrations/*.sql | head -n 20) | "
                           "sqlite3 '%s' && sqlite3 '%s' \"PRAGMA user_version = 20; "
                           "INSERT INTO repos (id, name, path, scope, created_at) VALUES "
                           "(1, 'r', '/r', '{}', 0); "
                           "INSERT INTO dismissals VALUES (1, 1, 'a' || %s), (3, 1, 'b' || %s);\"",
                           root ? root : ".", path, path, row, row), 0);
    assert_int_equal(db_open(&db, path, 0), 0);
    db_close(db);
    out = tu_sh_out("sqlite3 '%s' \"SELECT group_concat(id || ':' || fingerprint, ' ') FROM "
                    "dismissals; INSERT INTO dismissals VALUES (NULL, 1, 'c' || %s); "
                    "DELETE FROM dismissals WHERE fingerprint = 'cx'; "
                    "INSERT INTO dismissals VALUES (NULL, 1, 'd' || %s); "
                    "SELECT group_concat(id || ':' || fingerprint, ' ') FROM dismissals; "
                    "SELECT gen FROM dismissal_generation WHERE repo_id = 1;\"",
                    path, row, row);
    /* ids 1 and 3 kept; 4 went with its row and is not given to the next */
    assert_string_equal(out, "1:ax 3:bx\n1:ax 3:bx 5:dx\n5\n");
    free(out);
    tu_sh("rm -rf '%s'", dir);
    free(dir);
    (void)state;
}

/* An object-item site dismissed from the items list shows on the file page. */
static void test_object_item_sites_are_dismissed_by_the_same_fingerprint(void **state)
{
    json_t *items = get("/api/v1/repos/demo/commits/hpy/object-items", 200), *site, *d, *file;
    json_t *again;
    char url[512];
    const char *fp, *path;
    size_t i;
    int seen = 0;

    site = json_array_get(json_object_get(items, "legacy_sites"), 0);
    assert_non_null(site);
    fp = json_string_value(json_object_get(site, "fingerprint"));
    path = json_string_value(json_object_get(site, "path"));
    d = dismiss("hpy", path, fp, "used in tests", 201);
    assert_string_equal(json_string_value(json_object_get(d, "rule")), "object-item-legacy");
    again = get("/api/v1/repos/demo/commits/hpy/object-items", 200);
    assert_int_equal(json_integer_value(json_object_get(again, "dismissed_count")), 1);
    snprintf(url, sizeof(url), "/api/v1/repos/demo/commits/hpy/files/%s", path);
    file = get(url, 200);
    json_array_foreach(json_object_get(file, "findings"), i, site)
        if (strcmp(json_string_value(json_object_get(site, "fingerprint")), fp) == 0) {
            seen = 1;
            assert_string_equal(json_string_value(json_object_get(json_object_get(
                site, "dismissed"), "reason")), "used in tests");
        }
    assert_true(seen);
    assert_int_equal(json_integer_value(json_object_get(file, "dismissed_count")), 1);
    json_decref(file);
    json_decref(again);
    json_decref(d);
    json_decref(items);
}

/* An uploaded SARIF finding is dismissed by its portdash/v1 fingerprint. */
static void test_sarif_findings_can_be_dismissed(void **state)
{
    const char *log = "{\"version\":\"2.1.0\",\"runs\":[{\"tool\":{\"driver\":{\"name\":"
        "\"lintT\"}},\"results\":[{\"message\":{\"text\":\"looks odd\"},\"locations\":[{"
        "\"physicalLocation\":{\"artifactLocation\":{\"uri\":\"src/refcount.c\"},"
        "\"region\":{\"startLine\":16}}}]}]}]}";
    char url[256], auth[128];
    const char *hdrs[] = {auth, NULL};
    tu_http h;
    json_t *file, *f, *d;

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/sarif", g_site.base);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_sarif);
    h = tu_post(url, hdrs, log, strlen(log));
    assert_int_equal(h.status, 201);
    tu_http_free(&h);
    file = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    f = finding(file, "lintT", "looks odd");
    assert_int_equal(strlen(json_string_value(json_object_get(f, "fingerprint"))), 32);
    d = dismiss("hpy", "src/refcount.c", json_string_value(json_object_get(f, "fingerprint")),
                "false positive", 201);
    assert_string_equal(json_string_value(json_object_get(d, "tool")), "lintT");
    json_decref(file);
    file = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    f = finding(file, "lintT", "looks odd");
    assert_string_equal(json_string_value(json_object_get(json_object_get(f, "dismissed"),
                                                          "reason")), "false positive");
    json_decref(file);
    json_decref(d);
}

/* tools[tool][key] of a summary, 0 when absent. */
static json_int_t tool_count(json_t *sum, const char *tool, const char *key)
{
    return json_integer_value(json_object_get(json_object_get(json_object_get(sum, "tools"),
                                                               tool), key));
}

/* The sum of "dismissed_count" over every file page of commit `rev`. */
static json_int_t file_pages_dismissed(const char *rev)
{
    char url[2048], enc[1024];
    json_t *files, *f, *doc;
    json_int_t n = 0;
    size_t i;

    snprintf(url, sizeof(url), "/api/v1/repos/demo/commits/%s/files", rev);
    files = get(url, 200);
    json_array_foreach(json_object_get(files, "files"), i, f) {
        tu_url_path(enc, sizeof(enc), json_string_value(json_object_get(f, "path")));
        snprintf(url, sizeof(url), "/api/v1/repos/demo/commits/%s/files/%s", rev, enc);
        doc = get(url, 200);
        n += json_integer_value(json_object_get(doc, "dismissed_count"));
        json_decref(doc);
    }
    json_decref(files);
    return n;
}

/* Dismissed findings leave the summary's per-tool counts for "dismissed"
 * (the gap the first round of issue 14 left), agree with the file pages,
 * and come back when the dismissal is undone. */
static void test_the_summary_leaves_dismissed_findings_out(void **state)
{
    const char *url = "/api/v1/repos/demo/commits/hpy/summary";
    json_t *s0 = get(url, 200), *s1, *s2, *file, *f = NULL, *c, *d;
    char tail[64];
    size_t i;
    tu_http h;

    file = get("/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", 200);
    json_array_foreach(json_object_get(file, "findings"), i, c)
        if (!f && json_is_null(json_object_get(c, "dismissed")) &&
            strcmp(json_string_value(json_object_get(c, "tool")), "portdash") == 0 &&
            strcmp(json_string_value(json_object_get(c, "level")), "warning") == 0)
            f = c;
    assert_non_null(f);
    assert_int_equal(json_integer_value(json_object_get(s0, "dismissed_count")),
                     file_pages_dismissed("hpy"));
    d = dismiss("hpy", "src/toyarray.c", json_string_value(json_object_get(f, "fingerprint")),
                "won't fix", 201);
    s1 = get(url, 200);
    assert_int_equal(tool_count(s1, "portdash", "results"),
                     tool_count(s0, "portdash", "results") - 1);
    assert_int_equal(tool_count(s1, "portdash", "warning"),
                     tool_count(s0, "portdash", "warning") - 1);
    assert_int_equal(tool_count(s1, "portdash", "note"), tool_count(s0, "portdash", "note"));
    assert_int_equal(tool_count(s1, "portdash", "dismissed"),
                     tool_count(s0, "portdash", "dismissed") + 1);
    assert_int_equal(json_integer_value(json_object_get(s1, "dismissed_count")),
                     json_integer_value(json_object_get(s0, "dismissed_count")) + 1);
    assert_int_equal(json_integer_value(json_object_get(s1, "dismissed_count")),
                     file_pages_dismissed("hpy"));
    snprintf(tail, sizeof(tail), "/%lld", (long long)json_integer_value(json_object_get(d, "id")));
    h = call("DELETE", tail, g_triage, NULL);
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    s2 = get(url, 200);
    assert_true(json_equal(json_object_get(s2, "tools"), json_object_get(s0, "tools")));
    json_decref(d);
    json_decref(file);
    json_decref(s0);
    json_decref(s1);
    json_decref(s2);
}

static void test_cli_dismisses_lists_and_undoes(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    json_t *file = get("/api/v1/repos/demo/commits/hpy/files/src/refcount.c", 200);
    json_t *f = json_array_get(json_object_get(file, "findings"), 0);
    const char *fp = json_string_value(json_object_get(f, "fingerprint"));
    char bin[4200], *out;

    snprintf(bin, sizeof(bin), "%s/../portdash", fx ? fx : "build-san/fixtures");
    out = tu_sh_out("'%s' triage dismiss --db '%s' --name demo --rev hpy --path src/refcount.c "
                    "--fingerprint %s --reason 'false positive' --comment 'not ours' --by lead "
                    "2>&1; echo \"rc=$?\"", bin, g_site.db, fp);
    assert_non_null(strstr(out, "dismissed"));
    assert_non_null(strstr(out, "rc=0"));
    free(out);
    out = tu_sh_out("'%s' triage list --db '%s' --name demo", bin, g_site.db);
    assert_non_null(strstr(out, fp));
    assert_non_null(strstr(out, "false positive"));
    assert_non_null(strstr(out, "lead"));
    assert_non_null(strstr(out, "not ours"));
    free(out);
    out = tu_sh_out("'%s' triage dismiss --db '%s' --name demo --rev hpy --path src/refcount.c "
                    "--fingerprint beef --reason 'false positive' 2>&1; echo \"rc=$?\"", bin,
                    g_site.db);
    assert_non_null(strstr(out, "no finding with fingerprint beef"));
    assert_non_null(strstr(out, "rc=1"));
    free(out);
    /* a bad value is the caller's: exit 2, as the API's 400 */
    out = tu_sh_out("'%s' triage dismiss --db '%s' --name demo --rev hpy --path src/refcount.c "
                    "--fingerprint %s --reason wontfix 2>&1; echo \"rc=$?\"", bin, g_site.db, fp);
    assert_non_null(strstr(out, "reason must be one of"));
    assert_non_null(strstr(out, "rc=2"));
    free(out);
    out = tu_sh_out("'%s' triage undo --db '%s' --name demo --id abc 2>&1; echo \"rc=$?\"",
                    bin, g_site.db);
    assert_non_null(strstr(out, "--id is a dismissal's number"));
    assert_non_null(strstr(out, "rc=2"));
    free(out);
    json_decref(file);
    (void)state;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dismissing_needs_permission_triage_and_a_real_finding),
        cmocka_unit_test(test_a_dismissal_follows_its_finding),
        cmocka_unit_test(test_an_undone_dismissals_id_is_not_given_again),
        cmocka_unit_test(test_migration_021_keeps_dismissals_and_their_ids),
        cmocka_unit_test(test_object_item_sites_are_dismissed_by_the_same_fingerprint),
        cmocka_unit_test(test_sarif_findings_can_be_dismissed),
        cmocka_unit_test(test_the_summary_leaves_dismissed_findings_out),
        cmocka_unit_test(test_cli_dismisses_lists_and_undoes),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
