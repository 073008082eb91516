/*
 * test_lifecycle.c: the lifecycle of a repository and clones that lack
 * objects (issue 23, points 5 and 6), on copies of the toyport fixture:
 * - a failed first ingest keeps nothing, so a retry with another path filter is
 *   accepted; a failed later run keeps what was there;
 * - portdash repo list|rm|rename, and the API twins behind permission admin;
 * - a --filter=blob:none clone: ingested, the missing blobs recorded per
 *   commit and file (file answer, /missing), filled in by a later ingest
 *   once the objects arrive, to the same summaries as a full clone;
 * - a --depth 2 clone: the boundary starts the history, with the same
 *   summaries as a full clone at those commits.
 * The clones are made by git from file:// with uploadpack.allowFilter.
 */
#include "testutil.h"

#include "db.h"
#include "db_missing.h"
#include "db_repo.h"
#include "db_token.h"
#include "ingest.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"

#define LATER "hpy-convert-object-dtype"

static tu_site g_site;
static char g_admin[DB_TOKEN_LEN + 1], g_triage[DB_TOKEN_LEN + 1];

/* Ingest refs (NULL-terminated) of dir/`gitdir` as `name`; exclude: one
 * glob or NULL.  ingest_run's result. */
static int ingest(const char *gitdir, const char *name, const char **refs,
                  const char *exclude)
{
    char repo[4300];
    const char *exc[1] = {exclude};
    ingest_options o = {0};

    snprintf(repo, sizeof(repo), "%s/%s", g_site.dir, gitdir);
    o.db_path = g_site.db;
    o.repo_path = repo;
    o.name = name;
    o.refs = refs;
    while (refs[o.nrefs])
        o.nrefs++;
    o.exclude = exc;
    o.nexclude = exclude ? 1 : 0;
    o.threads = 1;
    return ingest_run(&o, NULL);
}

static int setup(void **state)
{
    static const char *both[] = {"hpy", LATER, NULL}, *hpy[] = {"hpy", NULL};
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "lifecycle.db");
    if (tu_sh("set -e; cd '%s'; git clone -q --bare '%s' src.git; "
              "git -C src.git config uploadpack.allowFilter true; "
              "git clone -q --bare --filter=blob:none file://$PWD/src.git part.git; "
              "git clone -q --bare --depth 2 --branch hpy file://$PWD/src.git shallow.git",
              g_site.dir, tu_fixture("toyport")) != 0)
        return -1;
    /* part first: once full's analyses are stored, part needs no blob. */
    if (ingest("part.git", "part", both, NULL) < 0 || ingest("src.git", "full", both, NULL) < 0 ||
        ingest("shallow.git", "shallow", hpy, NULL) < 0) {
        fprintf(stderr, "ingest: %s\n", pd_error_last());
        return -1;
    }
    rc = db_open(&db, g_site.db, 0) < 0 ||
         db_token_create(db, g_admin, "root", "admin") < 0 ||
         db_token_create(db, g_triage, "ana", "triage") < 0;
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

/* `method` on `path` with `token` (NULL: none) and a JSON body (or NULL). */
static tu_http call(const char *method, const char *path, const char *token,
                    const char *body)
{
    char url[512], auth[128];
    const char *hdrs[] = {auth, "Content-Type: application/json", NULL};

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token ? token : "");
    return tu_send(method, url, token ? hdrs : hdrs + 1, body, body ? strlen(body) : 0, 1);
}

/* The integer `key` of the state of repository `name` (GET .../repos/NAME). */
static json_int_t repo_int(const char *name, const char *key)
{
    char path[256];
    json_t *doc;
    json_int_t v;

    snprintf(path, sizeof(path), "/api/v1/repos/%s", name);
    doc = get(path, 200);
    v = json_integer_value(json_object_get(doc, key));
    json_decref(doc);
    return v;
}

static void test_a_failed_first_ingest_keeps_nothing(void **state)
{
    static const char *bad[] = {"hpy", "nosuch", NULL}, *hpy[] = {"hpy", NULL};
    json_t *doc;

    /* hpy is walked, then "nosuch" fails: the run rolls back, and the row
     * it created goes too. */
    assert_true(ingest("src.git", "fresh", bad, NULL) < 0);
    assert_non_null(strstr(pd_error_last(), "nosuch"));
    json_decref(get("/api/v1/repos/fresh", 404));
    /* So the retry may cut the files another way (it was refused: "was
     * ingested with path filter ..."). */
    assert_int_equal(ingest("src.git", "fresh", hpy, "tests/**"), 0);
    doc = get("/api/v1/repos/fresh", 200);
    assert_string_equal(json_string_value(json_object_get(doc, "state")), "ingested");
    assert_string_equal(json_string_value(json_array_get(json_object_get(
        json_object_get(doc, "scope"), "exclude"), 0)), "tests/**");
    assert_null(json_object_get(doc, "path"));     /* the server's file system stays out */
    json_decref(doc);
    /* A failed later run keeps what an earlier one stored. */
    assert_true(ingest("src.git", "fresh", bad, "tests/**") < 0);
    assert_int_equal(repo_int("fresh", "refs"), 1);
}

static void test_repo_list_rm_rename_from_the_cli(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    static const char *hpy[] = {"hpy", NULL};
    char bin[4200], *out;

    snprintf(bin, sizeof(bin), "%s/../portdash", fx ? fx : "build-san/fixtures");
    assert_int_equal(ingest("src.git", "cli-a", hpy, NULL), 0);
    out = tu_sh_out("'%s' repo rename --db '%s' cli-a cli-b 2>&1 && '%s' repo list --db '%s'",
                    bin, g_site.db, bin, g_site.db);
    assert_non_null(strstr(out, "repository 'cli-a' is now 'cli-b'"));
    assert_non_null(strstr(out, "\ncli-b "));
    assert_null(strstr(out, "\ncli-a "));
    free(out);
    /* A name taken, a name serve --repo could not hold: refused, nothing changed. */
    assert_int_not_equal(tu_sh("'%s' repo rename --db '%s' cli-b full 2>/dev/null", bin,
                               g_site.db), 0);
    assert_int_not_equal(tu_sh("'%s' repo rename --db '%s' cli-b 'a=b' 2>/dev/null", bin,
                               g_site.db), 0);
    assert_int_equal(repo_int("cli-b", "refs"), 1);
    assert_int_equal(tu_sh("'%s' repo rm --db '%s' cli-b 2>/dev/null", bin, g_site.db), 0);
    json_decref(get("/api/v1/repos/cli-b", 404));
    json_decref(get("/api/v1/repos/cli-b/commits/hpy/summary", 404));
    assert_int_not_equal(tu_sh("'%s' repo rm --db '%s' cli-b 2>/dev/null", bin, g_site.db), 0);
    /* Nothing of it is left; the other repositories keep theirs. */
    out = tu_sh_out("sqlite3 '%s' \"SELECT count(*) FROM commits c LEFT JOIN repos r ON "
                    "r.id = c.repo_id WHERE r.id IS NULL\"", g_site.db);
    assert_string_equal(out, "0\n");
    free(out);
    assert_int_equal(repo_int("full", "refs"), 2);
}

static void test_rm_and_rename_over_the_api_need_permission_admin(void **state)
{
    static const char *hpy[] = {"hpy", NULL};
    tu_http h;
    json_t *doc;

    assert_int_equal(ingest("src.git", "api-a", hpy, NULL), 0);
    h = call("DELETE", "/api/v1/repos/api-a", NULL, NULL);
    assert_int_equal(h.status, 401);
    tu_http_free(&h);
    h = call("DELETE", "/api/v1/repos/api-a", g_triage, NULL);
    assert_int_equal(h.status, 403);
    tu_http_free(&h);
    h = call("POST", "/api/v1/repos/api-a/rename", g_triage, "{\"name\": \"api-b\"}");
    assert_int_equal(h.status, 403);
    tu_http_free(&h);
    h = call("POST", "/api/v1/repos/api-a/rename", g_admin, "{\"nom\": \"api-b\"}");
    assert_int_equal(h.status, 400);
    tu_http_free(&h);
    h = call("POST", "/api/v1/repos/api-a/rename", g_admin, "{\"name\": \"full\"}");
    assert_int_equal(h.status, 400);
    tu_http_free(&h);
    h = call("POST", "/api/v1/repos/api-a/rename", g_admin, "{\"name\": \"api-b\"}");
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    json_decref(get("/api/v1/repos/api-a/commits/hpy/summary", 404));
    doc = get("/api/v1/repos/api-b/commits/hpy/summary", 200);
    json_decref(doc);
    h = call("DELETE", "/api/v1/repos/api-b", g_admin, NULL);
    assert_int_equal(h.status, 200);
    tu_http_free(&h);
    json_decref(get("/api/v1/repos/api-b", 404));
    h = call("DELETE", "/api/v1/repos/api-b", g_admin, NULL);
    assert_int_equal(h.status, 404);
    tu_http_free(&h);
}

/* 1 when the summaries of `rev` in repositories a and b agree. */
static int same_summary(const char *a, const char *b, const char *rev)
{
    char pa[256], pb[256];
    json_t *da, *db;
    int same;

    snprintf(pa, sizeof(pa), "/api/v1/repos/%s/commits/%s/summary", a, rev);
    snprintf(pb, sizeof(pb), "/api/v1/repos/%s/commits/%s/summary", b, rev);
    da = get(pa, 200);
    db = get(pb, 200);
    same = json_equal(da, db);
    if (!same) {
        char *ta = json_dumps(da, JSON_SORT_KEYS), *tb = json_dumps(db, JSON_SORT_KEYS);

        fprintf(stderr, "%s: %s\n%s: %s\n", a, ta, b, tb);
        free(ta);
        free(tb);
    }
    json_decref(da);
    json_decref(db);
    return same;
}

/* The full id of `rev` in the fixture's copy (static buffer). */
static const char *oid_of(const char *rev)
{
    static char buf[41];
    char *out = tu_sh_out("git --git-dir='%s/src.git' rev-parse '%s'", g_site.dir, rev);

    snprintf(buf, sizeof(buf), "%s", out);
    free(out);
    return buf;
}

/* Every stored summary of database `db`'s repository `name`, by commit id,
 * as text (caller frees). */
static char *stats_dump(const char *db, const char *name)
{
    return tu_sh_out("cols=$(sqlite3 '%s' \"SELECT group_concat('s.' || name) FROM "
                     "pragma_table_info('commit_stats') WHERE name <> 'commit_id'\"); "
                     "sqlite3 '%s' \"SELECT c.oid, $cols FROM commits c JOIN repos r ON "
                     "r.id = c.repo_id JOIN commit_stats s ON s.commit_id = c.id WHERE "
                     "r.name = '%s' ORDER BY c.oid\"", db, db, name);
}

/* db_missing_any of repository `name` in the site's database. */
static int missing_any(const char *name)
{
    sqlite3 *db = NULL;
    int64_t id = 0;
    int rc;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_repo_find(db, name, &id, NULL, 0), 0);
    rc = db_missing_any(db, id);
    db_close(db);
    return rc;
}

static void test_a_blobless_clone_is_ingested_and_filled_in_later(void **state)
{
    static const char *both[] = {"hpy", LATER, NULL};
    json_t *doc, *miss, *first;

    /* Every version of every file was missing; each is recorded. */
    assert_true(repo_int("part", "missing_blobs") > 0);
    /* Per repository: full lacks nothing though the table has rows. */
    assert_int_equal(missing_any("part"), 1);
    assert_int_equal(missing_any("full"), 0);
    doc = get("/api/v1/repos/part/missing", 200);
    assert_true(json_integer_value(json_object_get(doc, "total")) > 0);
    first = json_array_get(json_object_get(doc, "missing"), 0);
    assert_int_equal(strlen(json_string_value(json_object_get(first, "commit"))), 40);
    assert_int_equal(strlen(json_string_value(json_object_get(first, "blob"))), 40);
    json_decref(doc);
    /* The file answer says so instead of failing. */
    doc = get("/api/v1/repos/part/commits/hpy/files/src/toyarray.c", 200);
    miss = json_object_get(doc, "missing");
    assert_non_null(miss);
    assert_int_equal(strlen(json_string_value(json_object_get(miss, "since"))), 40);
    /* full's ingest analysed the same content since, so the analysis is
     * shown beside the record (the answer without one: test below). */
    assert_non_null(json_string_value(json_object_get(doc, "status")));
    json_decref(doc);
    doc = get("/api/v1/repos/full/commits/hpy/files/src/toyarray.c", 200);
    assert_null(json_object_get(doc, "missing"));
    json_decref(doc);
    assert_false(same_summary("full", "part", "hpy"));
    /* full's ingest stored the analyses of every blob: the next ingest of
     * part fills in from them; only hpy is named, yet both refs are, and
     * the answers cached before change. */
    assert_int_equal(ingest("part.git", "part", both + 0, NULL), 0);
    assert_int_equal(repo_int("part", "missing_blobs"), 0);
    assert_int_equal(missing_any("part"), 0);
    assert_true(same_summary("full", "part", "hpy"));
    assert_true(same_summary("full", "part", LATER));
    assert_true(same_summary("full", "part", oid_of("hpy~1")));
    doc = get("/api/v1/repos/part/commits/hpy/files/src/toyarray.c", 200);
    assert_null(json_object_get(doc, "missing"));
    assert_non_null(json_string_value(json_object_get(doc, "status")));
    json_decref(doc);
}

static void test_blobs_that_arrive_in_the_clone_are_filled_in(void **state)
{
    static const char *hpy[] = {"hpy", NULL};
    char other[4096], repo[4300], *full, *mine, *n, *line, *save = NULL;
    tu_site s2;
    json_t *doc;
    ingest_options o = {0};

    /* A database of its own, where no other repository has analyses. */
    snprintf(other, sizeof(other), "%s/other.db", g_site.dir);
    snprintf(repo, sizeof(repo), "%s/part.git", g_site.dir);
    assert_int_equal(tu_sh("cd '%s' && git clone -q --bare --filter=blob:none "
                           "file://$PWD/src.git part2.git", g_site.dir), 0);
    snprintf(repo, sizeof(repo), "%s/part2.git", g_site.dir);
    o.db_path = other;
    o.repo_path = repo;
    o.name = "full";
    o.refs = hpy;
    o.nrefs = 1;
    assert_int_equal(ingest_run(&o, NULL), 0);
    n = tu_sh_out("sqlite3 '%s' 'SELECT count(*) > 0 FROM missing_objects'", other);
    assert_string_equal(n, "1\n");
    free(n);
    /* Its file answer: no analysis, and why. */
    memset(&s2, 0, sizeof(s2));
    snprintf(s2.db, sizeof(s2.db), "%s", other);
    assert_int_equal(tu_site_serve(&s2, NULL), 0);
    doc = tu_site_get(&s2, "/api/v1/repos/full/commits/hpy/files/src/toyarray.c", 200);
    assert_non_null(strstr(json_string_value(json_object_get(json_object_get(doc, "missing"),
                                                             "detail")), "partial clone"));
    assert_true(json_is_null(json_object_get(doc, "status")));
    assert_int_equal(json_array_size(json_object_get(doc, "functions")), 0);
    json_decref(doc);
    tu_site_free(&s2);
    /* The objects arrive (an alternate stands for a fetch). */
    assert_int_equal(tu_sh("echo '%s/src.git/objects' > '%s/objects/info/alternates'",
                           g_site.dir, repo), 0);
    assert_int_equal(ingest_run(&o, NULL), 0);
    n = tu_sh_out("sqlite3 '%s' 'SELECT count(*) FROM missing_objects'", other);
    assert_string_equal(n, "0\n");
    free(n);
    /* The same summaries as the full clone's, commit by commit (hpy's
     * chain only: that is all this database holds). */
    full = stats_dump(g_site.db, "full");
    mine = stats_dump(other, "full");
    assert_true(strlen(mine) > 100);
    for (line = strtok_r(mine, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strstr(full, line))
            fail_msg("summary %s is not the full clone's:\n%s", line, full);
    }
    free(full);
    free(mine);
}

static void test_a_shallow_boundary_starts_the_history(void **state)
{
    char path[256];
    json_t *doc;

    assert_int_equal(repo_int("shallow", "commits"), 2);
    assert_true(same_summary("full", "shallow", "hpy"));
    assert_true(same_summary("full", "shallow", oid_of("hpy~1")));
    /* The boundary keeps its parent's id (that is the commit's content)... */
    snprintf(path, sizeof(path), "/api/v1/repos/shallow/commits/%s", oid_of("hpy~1"));
    doc = get(path, 200);
    assert_int_equal(json_array_size(json_object_get(doc, "parents")), 1);
    json_decref(doc);
    /* ... which the clone and the database do not hold. */
    snprintf(path, sizeof(path), "/api/v1/repos/shallow/commits/%s/summary",
             oid_of("hpy~2"));
    json_decref(get(path, 404));
}

static void test_the_rules_profile_says_what_a_port_has(void **state)
{
    static const char text[] = "profile object-dtype no\nprofile scopes core io\n"
                               "profile measure functions.ported\nprofile hpy 0.9\n"
                               "prefix HPy hpy\n";
    rules *r = NULL;
    char *json;

    assert_int_equal(rules_parse(&r, "t.rules", text, strlen(text)), 0);
    json = rules_profile_json(r);
    assert_string_equal(json, "{\"object_dtype\":false,\"scopes\":[\"core\",\"io\"],"
                        "\"default_measure\":\"functions.ported\",\"hpy_version\":\"0.9\"}");
    free(json);
    rules_free(r);
    /* Without lines: auto, decided by the data. */
    assert_int_equal(rules_parse(&r, "t.rules", "prefix HPy hpy\n", 15), 0);
    json = rules_profile_json(r);
    assert_string_equal(json, "{\"object_dtype\":\"auto\",\"scopes\":null,"
                        "\"default_measure\":null,\"hpy_version\":null}");
    free(json);
    rules_free(r);
    assert_int_equal(rules_parse(&r, "t.rules", "profile colour red\n", 19), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "t.rules:1"));
    assert_int_equal(rules_parse(&r, "t.rules", "profile object-dtype maybe\n", 27),
                     PD_EINVAL);
}

static void test_the_starter_rules_are_stored_with_the_repository(void **state)
{
    static const char *hpy[] = {"hpy", NULL};
    char own[4200], repo[4200];
    ingest_options o = {0};
    tu_site s2;
    json_t *doc, *prof;

    /* One rules file per database: a second team's port gets its own. */
    snprintf(own, sizeof(own), "%s/own.db", g_site.dir);
    snprintf(repo, sizeof(repo), "%s/src.git", g_site.dir);
    o.db_path = own;
    o.repo_path = repo;
    o.name = "mine";
    o.refs = hpy;
    o.nrefs = 1;
    o.rules_path = "ingest/rules/starter.rules";
    assert_int_equal(ingest_run(&o, NULL), 0);
    memset(&s2, 0, sizeof(s2));
    snprintf(s2.db, sizeof(s2.db), "%s", own);
    assert_int_equal(tu_site_serve(&s2, NULL), 0);
    doc = tu_site_get(&s2, "/api/v1/repos/mine", 200);
    prof = json_object_get(doc, "profile");
    assert_true(json_is_false(json_object_get(prof, "object_dtype")));
    assert_string_equal(json_string_value(json_object_get(prof, "default_measure")),
                        "functions.ported");
    json_decref(doc);
    tu_site_free(&s2);
    /* The default rules: numpy's, which leave it to the data. */
    doc = get("/api/v1/repos/full", 200);
    assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "profile"),
                                                          "object_dtype")), "auto");
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_failed_first_ingest_keeps_nothing),
        cmocka_unit_test(test_repo_list_rm_rename_from_the_cli),
        cmocka_unit_test(test_rm_and_rename_over_the_api_need_permission_admin),
        cmocka_unit_test(test_a_blobless_clone_is_ingested_and_filled_in_later),
        cmocka_unit_test(test_blobs_that_arrive_in_the_clone_are_filled_in),
        cmocka_unit_test(test_a_shallow_boundary_starts_the_history),
        cmocka_unit_test(test_the_rules_profile_says_what_a_port_has),
        cmocka_unit_test(test_the_starter_rules_are_stored_with_the_repository),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
