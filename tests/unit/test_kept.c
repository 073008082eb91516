/*
 * test_kept.c: data kept as given, and the smaller faults of issue 16: an
 * absolute repository path whatever the directory ingest ran in, every
 * parent of an octopus merge, names serve --repo cannot split refused at
 * ingest, CSV cells that a spreadsheet would run, 404 for the rewrites and
 * forecast of an unknown ref, 400 for a malformed argument, and job errors
 * that name no server path.
 */
#include "testutil.h"

#include "db.h"
#include "db_token.h"

static tu_site g_site;
static char g_tok[DB_TOKEN_LEN + 1];

/* The portdash binary next to the fixtures (build-san/portdash), as an
 * absolute path. */
static const char *bin(void)
{
    static char buf[4096], cwd[2048];
    const char *fx = getenv("PORTDASH_FIXTURES");

    if (!getcwd(cwd, sizeof(cwd)))
        cwd[0] = '\0';
    snprintf(buf, sizeof(buf), "%s%s%s/../portdash", fx && fx[0] == '/' ? "" : cwd,
             fx && fx[0] == '/' ? "" : "/", fx ? fx : "build-san/fixtures");
    return buf;
}

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "kept.db");
    /* 17 parents: git has no limit; the store had 16.  Built with
     * commit-tree in a copy of the toyport fixture. */
    rc = tu_sh("set -e; cd '%s'; git clone -q --bare '%s' octo.git; cd octo.git; "
               "t=$(git rev-parse 'hpy^{tree}'); b=$(git rev-parse hpy); p=''; "
               "for i in $(seq 1 17); do c=$(git -c user.name=t -c user.email=t@t "
               "commit-tree $t -p $b -m side$i); p=\"$p -p $c\"; done; "
               "m=$(git -c user.name=t -c user.email=t@t commit-tree $t $p -m octopus); "
               "git update-ref refs/heads/octo $m; "
               /* A file whose name starts with TAB then '=' (mktree -z). */
               "x=$(printf 'int x;\\n' | git hash-object -w --stdin); "
               "n=$( (git ls-tree -z $t; printf '100644 blob %%s\\t\\t=cmd.c\\0' $x; "
               "printf '100644 blob %%s\\tcaf\\351.c\\0' $x) "
               "| git mktree -z); "
               "k=$(git -c user.name=t -c user.email=t@t commit-tree $n -p $b -m tab); "
               "git update-ref refs/heads/csv $k", g_site.dir, tu_fixture("toyport"));
    if (rc != 0)
        return -1;
    /* A relative --git-dir from the site's directory. */
    rc = tu_sh("cd '%s' && '%s' ingest --quiet --db kept.db --git-dir octo.git "
               "--name demo --ref octo --ref hpy --ref csv", g_site.dir, bin());
    if (rc != 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_tok, "all", NULL) < 0;
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

static void test_repository_path_is_stored_absolute(void **state)
{
    char *path = tu_sh_out("sqlite3 '%s' 'SELECT path FROM repos'", g_site.db);
    char want[4300];

    snprintf(want, sizeof(want), "%s/octo.git\n", g_site.dir);
    assert_string_equal(path, want);
    free(path);
    /* So the source is found although serve runs elsewhere. */
    json_decref(get("/api/v1/repos/demo/commits/octo/files/src/refcount.c", 200));
    {
        char url[512];
        tu_http h;

        snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/octo/raw/src/refcount.c",
                 g_site.base);
        h = tu_request("GET", url);
        assert_int_equal(h.status, 200);
        tu_http_free(&h);
    }
}

static void test_every_parent_is_kept(void **state)
{
    json_t *c = get("/api/v1/repos/demo/commits/octo", 200);

    assert_int_equal(json_array_size(json_object_get(c, "parents")), 17);
    json_decref(c);
}

static void test_name_with_equals_is_refused(void **state)
{
    char *out = tu_sh_out("'%s' ingest --quiet --db '%s/x.db' --git-dir '%s' --name 'a=b' "
                          "--ref hpy 2>&1; echo \"rc=$?\"", bin(), g_site.dir,
                          tu_fixture("toyport"));

    assert_non_null(strstr(out, "repository name 'a=b' is empty or has '='"));
    assert_non_null(strstr(out, "rc=2") ? strstr(out, "rc=2") : strstr(out, "rc=1"));
    free(out);
}

static void test_unknown_refs_and_bad_arguments(void **state)
{
    json_decref(get("/api/v1/repos/demo/refs/nope/rewrites", 404));
    json_decref(get("/api/v1/repos/demo/forecast?ref=nope", 404));
    json_decref(get("/api/v1/repos/demo/forecast?ref=hpy&weeks=12x", 400));
    json_decref(get("/api/v1/repos/demo/forecast?ref=hpy&measure=%ZZ", 400));
    json_decref(get("/api/v1/repos/demo/refs/hpy/rewrites", 200));
}

static void test_csv_cells_cannot_be_formulas(void **state)
{
    char url[512];
    tu_http h;

    /* Spreadsheets skip a leading TAB or CR before reading a formula: the
     * TAB is shown as <U+0009> (pd_escape.h), so the cell starts with '<'. */
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/csv/files.csv", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_non_null(strstr(h.body, "\"<U+0009>=cmd.c\""));
    assert_null(strstr(h.body, "\"\t="));
    tu_http_free(&h);
}

static void test_file_names_that_are_not_utf8_open(void **state)
{
    json_t *files = get("/api/v1/repos/demo/commits/csv/files", 200), *f;
    const char *want = "caf\\xE9.c";
    char url[512];
    size_t i;
    int seen = 0;
    tu_http h;

    /* Byte 0xE9 alone is not UTF-8: shown as "\xE9", not U+FFFD... */
    json_array_foreach(json_object_get(files, "files"), i, f)
        seen += strcmp(json_string_value(json_object_get(f, "path")), want) == 0;
    assert_int_equal(seen, 1);
    json_decref(files);
    /* ...and that form opens the file's page and its source. */
    json_decref(get("/api/v1/repos/demo/commits/csv/files/caf%5CxE9.c", 200));
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/csv/raw/caf%%5CxE9.c",
             g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    assert_string_equal(h.body, "int x;\n");
    tu_http_free(&h);
    json_decref(get("/api/v1/repos/demo/commits/csv/files/caf%5CxE8.c", 404));
}

static void test_job_errors_name_no_server_path(void **state)
{
    char url[512], auth[160];
    const char *hdr[] = {auth, NULL};
    json_t *job = NULL;
    tu_http h;
    int i;

    /* The git directory goes away: the job fails, and says so without
     * the server's paths. */
    assert_int_equal(tu_sh("mv '%s/octo.git' '%s/gone.git'", g_site.dir, g_site.dir), 0);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/ingest", g_site.base);
    h = tu_send("POST", url, hdr, NULL, 0, 0);
    assert_int_equal(h.status, 202);
    tu_http_free(&h);
    snprintf(url, sizeof(url), "%s/api/v1/jobs/1", g_site.base);
    for (i = 0; i < 200; i++) {
        job = tu_get_json(url, 200);
        if (strcmp(json_string_value(json_object_get(job, "state")), "failed") == 0)
            break;
        json_decref(job);
        job = NULL;
        usleep(50000);
    }
    assert_non_null(job);
    assert_null(strstr(json_string_value(json_object_get(job, "error")), g_site.dir));
    assert_non_null(strstr(json_string_value(json_object_get(job, "error")),
                           "the repository's git directory"));
    json_decref(job);
    assert_int_equal(tu_sh("mv '%s/gone.git' '%s/octo.git'", g_site.dir, g_site.dir), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_repository_path_is_stored_absolute),
        cmocka_unit_test(test_every_parent_is_kept),
        cmocka_unit_test(test_name_with_equals_is_refused),
        cmocka_unit_test(test_unknown_refs_and_bad_arguments),
        cmocka_unit_test(test_csv_cells_cannot_be_formulas),
        cmocka_unit_test(test_file_names_that_are_not_utf8_open),
        cmocka_unit_test(test_job_errors_name_no_server_path),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
