/*
 * test_cache.c: the answer cache (server/srv_cache.c, issue 12) on the
 * toyport fixture.  Every GET answer of the API has an ETag and answers
 * If-None-Match with 304; a SARIF upload changes the ETags of exactly the
 * answers it extends; another scopes file changes the scoped answers only;
 * and after the analysis key changes (new rules, another analyzer version)
 * the cached server answers exactly what a server without cache answers.
 */
#include "testutil.h"

#include <zlib.h>

#include "db.h"
#include "db_snapshot.h"
#include "db_token.h"
#include "ingest.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"
#include "srv.h"
#include "srv_routes.h"

static tu_site g_site;
static srv *g_plain;                   /* the same database, no cache */
static char g_plain_base[64];
static char g_tok[DB_TOKEN_LEN + 1];
static char g_hpy[41], g_conv[41];

#define WEEK "2022-W06"

/* One GET answer of the API: its route pattern and a URL of it, where "H"
 * and "C" stand for the full commit ids of hpy and hpy-convert-object-dtype. */
typedef struct {
    const char *pattern;
    const char *url;
} cache_url;

static const cache_url g_urls[] = {
    {"/api/v1/repos", "/api/v1/repos"},
    {"/api/v1/repos/{repo}/commits/{rev}", "/api/v1/repos/demo/commits/H"},
    {"/api/v1/repos/{repo}/commits/{rev}/summary", "/api/v1/repos/demo/commits/H/summary"},
    {"/api/v1/repos/{repo}/commits/{rev}/summary", "/api/v1/repos/demo/commits/hpy/summary"},
    {"/api/v1/repos/{repo}/commits/{rev}/summary", "/api/v1/repos/demo/commits/C/summary"},
    {"/api/v1/repos/{repo}/commits/{rev}/files", "/api/v1/repos/demo/commits/H/files"},
    {"/api/v1/repos/{repo}/commits/{rev}/files", "/api/v1/repos/demo/commits/hpy/files"},
    {"/api/v1/repos/{repo}/commits/{rev}/files/{path...}",
     "/api/v1/repos/demo/commits/H/files/src/toyarray.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/files/{path...}",
     "/api/v1/repos/demo/commits/hpy/files/src/toyarray.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/files/{path...}",
     "/api/v1/repos/demo/commits/H/files/src/refcount.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/files/{path...}",
     "/api/v1/repos/demo/commits/C/files/src/toyarray.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/file-functions/{path...}",
     "/api/v1/repos/demo/commits/H/file-functions/src/toyarray.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/raw/{path...}",
     "/api/v1/repos/demo/commits/H/raw/src/toyarray.c"},
    {"/api/v1/repos/{repo}/commits/{rev}/sarif", "/api/v1/repos/demo/commits/H/sarif"},
    {"/api/v1/repos/{repo}/compare/{range}", "/api/v1/repos/demo/compare/H...C"},
    {"/api/v1/repos/{repo}/commits/{rev}/files.csv", "/api/v1/repos/demo/commits/H/files.csv"},
    {"/api/v1/repos/{repo}/snapshots.csv", "/api/v1/repos/demo/snapshots.csv"},
    {"/api/v1/repos/{repo}/snapshots", "/api/v1/repos/demo/snapshots"},
    {"/api/v1/repos/{repo}/snapshots/{week}", "/api/v1/repos/demo/snapshots/" WEEK},
    {"/api/v1/repos/{repo}/snapshots/{week}/report.md",
     "/api/v1/repos/demo/snapshots/" WEEK "/report.md"},
    {"/api/v1/measures", "/api/v1/measures"},
    {"/api/v1/repos/{repo}/commits/{rev}/object-items",
     "/api/v1/repos/demo/commits/H/object-items"},
    {"/api/v1/scopes", "/api/v1/scopes"},
    {"/api/v1/repos/{repo}/commits/{rev}/blockers", "/api/v1/repos/demo/commits/H/blockers"},
    {"/api/v1/repos/{repo}/commits/{rev}/traverse", "/api/v1/repos/demo/commits/H/traverse"},
    {"/api/v1/repos/{repo}/commits/{rev}/symbols", "/api/v1/repos/demo/commits/H/symbols"},
    {"/api/v1/repos/{repo}/commits/{rev}/symbols/{symbol}",
     "/api/v1/repos/demo/commits/H/symbols/PyObject"},
    {"/api/v1/repos/{repo}/commits/{rev}/search", "/api/v1/repos/demo/commits/H/search?q=Py"},
    {"/api/v1/repos/{repo}/dismissals", "/api/v1/repos/demo/dismissals"},
    {"/api/v1/repos/{repo}", "/api/v1/repos/demo"},
    {"/api/v1/repos/{repo}/missing", "/api/v1/repos/demo/missing"},
    {"/api/v1/repos/{repo}/commits/{rev}/frontier", "/api/v1/repos/demo/commits/H/frontier"},
    {"/api/v1/repos/{repo}/commits/{rev}/fixes", "/api/v1/repos/demo/commits/H/fixes"},
    {"/api/v1/repos/{repo}/commits/{rev}/plan", "/api/v1/repos/demo/commits/H/plan"},
    {"/api/v1/repos/{repo}/commits/{rev}/owners/{path...}",
     "/api/v1/repos/demo/commits/H/owners/src/refcount.c"},
    {"/api/v1/hpy-needs", "/api/v1/hpy-needs"},
    {"/api/v1/repos/{repo}/forecast", "/api/v1/repos/demo/forecast?ref=hpy"},
    {"/api/v1/repos/{repo}/gate", "/api/v1/repos/demo/gate?base=H&head=C"},
    {"/api/v1/jobs/{id}", "/api/v1/jobs/1"},
    {"/api/v1/openapi.json", "/api/v1/openapi.json"},
    {"/badge/{repo}/{ref}/{measure}.svg", "/badge/demo/hpy/functions.ported.svg"},
    {"/api/v1/repos/{repo}/refs/{ref}/history", "/api/v1/repos/demo/refs/hpy/history"},
    {"/api/v1/repos/{repo}/refs/{ref}/history",
     "/api/v1/repos/demo/refs/hpy/history?measure=functions.legacy"},
    {"/api/v1/repos/{repo}/refs/{ref}/file-history/{path...}",
     "/api/v1/repos/demo/refs/hpy/file-history/src/toyarray.c"},
    {"/api/v1/repos/{repo}/refs/{ref}/rewrites", "/api/v1/repos/demo/refs/hpy/rewrites"},
    /* Scoped answers. */
    {"/api/v1/repos/{repo}/commits/{rev}/summary",
     "/api/v1/repos/demo/commits/H/summary?scope=no-object-dtype"},
    {"/api/v1/repos/{repo}/commits/{rev}/files",
     "/api/v1/repos/demo/commits/H/files?scope=no-object-dtype"},
    {"/api/v1/repos/{repo}/refs/{ref}/history",
     "/api/v1/repos/demo/refs/hpy/history?scope=no-object-dtype&measure=files"},
    {"/badge/{repo}/{ref}/{measure}.svg",
     "/badge/demo/hpy/functions.ported.svg?scope=no-object-dtype"},
};
#define NURLS (sizeof(g_urls) / sizeof(g_urls[0]))

static char *rev_parse(const char *rev)
{
    char *s = tu_sh_out("git --git-dir='%s' rev-parse %s", tu_fixture("toyport"), rev);

    s[strcspn(s, "\n")] = '\0';
    return s;
}

/* base + url with H and C (alone between '/', '=', '.' or the end) replaced. */
static void cache_full_url(char *out, size_t n, const char *base, const char *url)
{
    size_t o = (size_t)snprintf(out, n, "%s", base);
    const char *p;

    for (p = url; *p && o + 41 < n; p++) {
        int alone = p > url && (p[-1] == '/' || p[-1] == '=' || p[-1] == '.') &&
                    (!p[1] || p[1] == '/' || p[1] == '&' || p[1] == '.' || p[1] == '?');

        if (alone && (*p == 'H' || *p == 'C'))
            o += (size_t)snprintf(out + o, n - o, "%s", *p == 'H' ? g_hpy : g_conv);
        else
            out[o++] = *p;
    }
    out[o] = '\0';
}

static tu_http cache_get(const char *base, const char *url, const char *inm)
{
    char full[1024], hdr[128];
    const char *hdrs[] = {hdr, NULL};

    cache_full_url(full, sizeof(full), base, url);
    snprintf(hdr, sizeof(hdr), "If-None-Match: %s", inm ? inm : "");
    return tu_send("GET", full, inm ? hdrs : NULL, NULL, 0, 0);
}

/* The ETag of every URL of g_urls on server `base` into tags (NURLS x 48). */
static void cache_etags(const char *base, char tags[][48])
{
    size_t i;

    for (i = 0; i < NURLS; i++) {
        tu_http h;

        tags[i][0] = '\0';
        if (strstr(g_urls[i].url, "/jobs/") && strcmp(base, g_site.base) != 0)
            continue;     /* jobs are the running server's own */
        h = cache_get(base, g_urls[i].url, NULL);
        if (h.status != 200)
            fail_msg("GET %s: status %ld: %s", g_urls[i].url, h.status, h.body);
        snprintf(tags[i], 48, "%s", tu_header(&h, "ETag"));
        tu_http_free(&h);
    }
}

static int cache_setup(void **state)
{
    srv_options so = {0};
    sqlite3 *db = NULL;
    int64_t repo, commit;
    char rhash[64], *h = rev_parse("hpy"), *c = rev_parse("hpy-convert-object-dtype");
    int rc;

    snprintf(g_hpy, sizeof(g_hpy), "%s", h);
    snprintf(g_conv, sizeof(g_conv), "%s", c);
    free(h);
    free(c);
    tu_site_init(&g_site, "cache.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_tok, "ci", "sarif ingest") < 0 ||
         db_repo_find(db, "demo", &repo, NULL, 0) < 0 ||
         db_rev_resolve(db, repo, "hpy", &commit, rhash) < 0 ||
         db_meta_get(db, "rules_hash", rhash, sizeof(rhash)) < 0 ||
         db_snapshot_take(db, repo, "hpy", commit, WEEK, 1700000000, "live", rhash) < 0;
    if (rc)
        fprintf(stderr, "setup: %s\n", pd_error_last());
    db_close(db);
    if (rc || tu_site_serve(&g_site, NULL) < 0)
        return -1;
    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    so.threads = 2;
    so.cache_mb = -1;
    if (srv_start(&g_plain, &so) < 0)
        return -1;
    snprintf(g_plain_base, sizeof(g_plain_base), "http://127.0.0.1:%u", srv_port(g_plain));
    return 0;
}

static int cache_teardown(void **state)
{
    srv_stop(g_plain);
    tu_site_free(&g_site);
    return 0;
}

/* Start ingest job 1 through the API and wait for it to finish. */
static void cache_run_job(void)
{
    char url[256], auth[128];
    const char *hdrs[] = {auth, NULL};
    tu_http h;
    int i;

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/ingest", g_site.base);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    h = tu_post(url, hdrs, "", 0);
    assert_int_equal(h.status, 202);
    tu_http_free(&h);
    for (i = 0; i < 600; i++) {
        h = cache_get(g_site.base, "/api/v1/jobs/1", NULL);
        if (strstr(h.body, "\"running\"") == NULL)
            break;
        tu_http_free(&h);
        usleep(50000);
    }
    assert_non_null(strstr(h.body, "\"done\""));
    tu_http_free(&h);
}

/* A counter of /metrics of the test site's server. */
static unsigned long long cache_metric_at(const char *base, const char *name);

static unsigned long long cache_metric(const char *name)
{
    return cache_metric_at(g_site.base, name);
}

/* The server warms at start: the first reader of a ref's summary and file
 * list gets them from the cache. */
static void test_start_warms_summary_and_files_of_every_ref(void **state)
{
    unsigned long long misses, hits;
    int i;

    /* Wait for the first round (a bound, not a timing assertion). */
    for (i = 0; i < 1200 && cache_metric("portdash_cache_warm_rounds_total") < 1; i++)
        usleep(50000);
    assert_true(cache_metric("portdash_cache_warm_rounds_total") >= 1);
    misses = cache_metric("portdash_cache_misses_total");
    hits = cache_metric("portdash_cache_hits_total");
    free(cache_get(g_site.base, "/api/v1/repos/demo/commits/hpy-convert-object-dtype/summary",
                   NULL).body);
    free(cache_get(g_site.base, "/api/v1/repos/demo/commits/C/files", NULL).body);
    free(cache_get(g_site.base, "/api/v1/repos/demo/refs/hpy/history"
                   "?measure=object_paths.object-legacy", NULL).body);
    /* The trend chart's own request: the port's commits at a step of points. */
    free(cache_get(g_site.base, "/api/v1/repos/demo/refs/hpy/history"
                   "?measure=object_paths.object-legacy&window=port&points=1000", NULL).body);
    /* Asked by the overview's page, which the warming asks (srv_first.h). */
    free(cache_get(g_site.base, "/api/v1/repos/demo/commits/hpy/frontier?limit=100000",
                   NULL).body);
    assert_int_equal(cache_metric("portdash_cache_misses_total"), misses);
    assert_int_equal(cache_metric("portdash_cache_hits_total"), hits + 5);
}

static void test_every_get_answer_has_an_etag_and_answers_304(void **state)
{
    size_t i, j;

    cache_run_job();
    /* Every route whose record says the cache keeps its answers is in the
     * list. */
    for (i = 0; i < srv_routes_count; i++) {
        int listed = 0;

        if (strcmp(srv_routes[i].method, "GET") != 0 || srv_routes[i].cache == SRV_CACHE_NO)
            continue;
        for (j = 0; j < NURLS; j++)
            listed |= strcmp(g_urls[j].pattern, srv_routes[i].pattern) == 0;
        if (!listed)
            fail_msg("route %s has no URL in test_cache.c", srv_routes[i].pattern);
    }
    for (i = 0; i < NURLS; i++) {
        tu_http a = cache_get(g_site.base, g_urls[i].url, NULL), b;
        char tag[48];

        if (a.status != 200)
            fail_msg("GET %s: status %ld: %s", g_urls[i].url, a.status, a.body);
        snprintf(tag, sizeof(tag), "%s", tu_header(&a, "ETag"));
        if (strlen(tag) != 42)
            fail_msg("GET %s: ETag '%s'", g_urls[i].url, tag);
        b = cache_get(g_site.base, g_urls[i].url, tag);
        if (b.status != 304 || b.len != 0)
            fail_msg("GET %s with its ETag: status %ld", g_urls[i].url, b.status);
        assert_string_equal(tu_header(&b, "ETag"), tag);
        tu_http_free(&a);
        tu_http_free(&b);
        /* Another ETag gets the whole answer. */
        b = cache_get(g_site.base, g_urls[i].url, "\"0000\"");
        assert_int_equal(b.status, 200);
        tu_http_free(&b);
    }
}

/* Cache-Control: immutable only by full commit id and only for answers no
 * upload can change; by ref name the same bytes and ETag, no-cache. */
static void test_ref_names_share_the_commit_answer_but_revalidate(void **state)
{
    tu_http id = cache_get(g_site.base, "/api/v1/repos/demo/commits/H/files", NULL);
    tu_http ref = cache_get(g_site.base, "/api/v1/repos/demo/commits/hpy/files", NULL);
    tu_http sum = cache_get(g_site.base, "/api/v1/repos/demo/commits/H/summary", NULL);
    char tag[48];

    assert_string_equal(tu_header(&id, "Cache-Control"), "public, max-age=31536000, immutable");
    snprintf(tag, sizeof(tag), "%s", tu_header(&id, "ETag"));
    assert_string_equal(tu_header(&ref, "ETag"), tag);
    assert_string_equal(tu_header(&ref, "Cache-Control"), "no-cache");
    assert_string_equal(ref.body, id.body);
    assert_string_equal(tu_header(&sum, "Cache-Control"), "no-cache");
    tu_http_free(&id);
    tu_http_free(&ref);
    tu_http_free(&sum);
}

/* The answers a SARIF upload for hpy's commit extends: its summaries
 * (scoped or not: "tools"), the file page it adds findings to (and its
 * function table, which counts them per function) and the list of uploads
 * itself. */
static int cache_extended_by_upload(const char *url)
{
    return strncmp(url, "/api/v1/repos/demo/commits/H/summary", 36) == 0 ||
           strncmp(url, "/api/v1/repos/demo/commits/hpy/summary", 38) == 0 ||
           strcmp(url, "/api/v1/repos/demo/commits/H/files/src/toyarray.c") == 0 ||
           strcmp(url, "/api/v1/repos/demo/commits/hpy/files/src/toyarray.c") == 0 ||
           strcmp(url, "/api/v1/repos/demo/commits/H/file-functions/src/toyarray.c") == 0 ||
           strcmp(url, "/api/v1/repos/demo/commits/H/sarif") == 0;
}

static void test_sarif_upload_changes_only_what_it_extends(void **state)
{
    static char before[NURLS][48], after[NURLS][48];
    char url[256], auth[128], *body;
    const char *hdrs[] = {auth, "Content-Type: application/sarif+json", NULL};
    size_t i;
    tu_http h;

    cache_etags(g_site.base, before);
    body = tu_sh_out("cat tests/fixtures/sarif/one_v2.sarif");
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/%s/sarif", g_site.base, g_hpy);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    h = tu_post(url, hdrs, body, strlen(body));
    if (h.status != 201)
        fail_msg("upload: %ld %s", h.status, h.body);
    tu_http_free(&h);
    free(body);
    cache_etags(g_site.base, after);
    for (i = 0; i < NURLS; i++) {
        int changed = strcmp(before[i], after[i]) != 0;

        if (changed != cache_extended_by_upload(g_urls[i].url))
            fail_msg("%s: ETag %s after the upload", g_urls[i].url,
                     changed ? "changed" : "did not change");
    }
    /* And the findings are there, as a server without cache sees them. */
    h = cache_get(g_site.base, "/api/v1/repos/demo/commits/hpy/files/src/toyarray.c", NULL);
    assert_non_null(strstr(h.body, "\"second\""));
    tu_http_free(&h);
}

static void test_another_scopes_file_changes_scoped_answers_only(void **state)
{
    static char mine[NURLS][48], theirs[NURLS][48];
    char path[4300], base[64];
    srv_options so = {0};
    srv *other = NULL;
    FILE *f;
    size_t i;

    /* Same names, other globs: no-object-dtype keeps only src/toyarray.c. */
    snprintf(path, sizeof(path), "%s/other.scopes", g_site.dir);
    assert_non_null(f = fopen(path, "w"));
    fputs("scope no-object-dtype\ntitle Only toyarray\ninclude src/toyarray.c\n"
          "exclude-object-paths\n\nscope multiarray\ntitle The multiarray module\n"
          "include **/multiarray/**\n\nscope umath\ntitle The umath module\n"
          "include **/umath/**\n", f);
    fclose(f);
    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    so.threads = 2;
    so.scopes_path = path;
    assert_int_equal(srv_start(&other, &so), 0);
    snprintf(base, sizeof(base), "http://127.0.0.1:%u", srv_port(other));
    cache_etags(g_site.base, mine);
    cache_etags(base, theirs);
    srv_stop(other);
    for (i = 0; i < NURLS; i++) {
        const char *u = g_urls[i].url;
        /* the symbols, plan and hpy-needs answers are scoped by default
         * (no-object-dtype) */
        int scoped = strstr(u, "scope=") || strstr(u, "/blockers") || strstr(u, "/scopes") ||
                     strstr(u, "/gate?") || strstr(u, "/symbols") || strstr(u, "/plan") ||
                     strstr(u, "/hpy-needs");
        int differs = strcmp(mine[i], theirs[i]) != 0;

        if (strstr(u, "/jobs/"))
            continue;     /* the other server ran no job */
        if (differs != scoped)
            fail_msg("%s: ETag %s under another scopes file", u,
                     differs ? "differs" : "is the same");
    }
}

/* Every answer of the cached server equals the uncached server's. */
static void cache_agrees_with_plain(void)
{
    size_t i;

    for (i = 0; i < NURLS; i++) {
        tu_http a, b;

        if (strstr(g_urls[i].url, "/jobs/"))
            continue;
        a = cache_get(g_site.base, g_urls[i].url, NULL);
        b = cache_get(g_plain_base, g_urls[i].url, NULL);
        if (a.status != b.status || a.len != b.len || memcmp(a.body, b.body, a.len) != 0)
            fail_msg("%s: cached answer %ld (%zu bytes) differs from the computed one "
                     "%ld (%zu bytes)", g_urls[i].url, a.status, a.len, b.status, b.len);
        tu_http_free(&a);
        tu_http_free(&b);
    }
}

static void test_a_new_analysis_key_is_never_served_old_answers(void **state)
{
    char rpath[4300], old_key[64];
    const char *refs[] = {"hpy", "hpy-convert-object-dtype"};
    ingest_options o = {0};
    tu_http a, b;
    sqlite3 *db = NULL;
    FILE *f;

    cache_agrees_with_plain();
    a = cache_get(g_site.base, "/api/v1/repos/demo/commits/H/summary", NULL);
    /* New rules: everything is analysed again under another key. */
    snprintf(rpath, sizeof(rpath), "%s/more.rules", g_site.dir);
    assert_non_null(f = fopen(rpath, "wb"));
    fwrite(rules_default_text, 1, rules_default_text_len, f);
    fputs("exact toy_check_size capi   # a rule the defaults lack\n", f);
    fclose(f);
    o.db_path = g_site.db;
    o.repo_path = tu_fixture("toyport");
    o.name = "demo";
    o.refs = refs;
    o.nrefs = 2;
    o.rules_path = rpath;
    assert_int_equal(ingest_run(&o, NULL), 0);
    b = cache_get(g_site.base, "/api/v1/repos/demo/commits/H/summary", NULL);
    snprintf(old_key, sizeof(old_key), "%s", tu_header(&a, "ETag"));
    assert_string_not_equal(old_key, tu_header(&b, "ETag"));
    tu_http_free(&a);
    tu_http_free(&b);
    cache_agrees_with_plain();
    /* Another analyzer version: the same rules under another analysis key,
     * with nothing analysed under it yet. */
    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_meta_get(db, "rules_hash", old_key, sizeof(old_key)), 0);
    assert_int_equal(db_meta_set(db, "rules_hash", "analyzer-version-next"), 0);
    cache_agrees_with_plain();
    assert_int_equal(db_meta_set(db, "rules_hash", old_key), 0);
    db_close(db);
    cache_agrees_with_plain();
}

/* ?points=N: at most N points, the ends and the port start kept, the
 * count before in sampled_from; bad N is a 400. */
static void test_history_points_reduce_the_series(void **state)
{
    char full_url[256], url[300];
    json_t *full, *few, *fp, *wp;
    size_t n;

    snprintf(full_url, sizeof(full_url), "%s/api/v1/repos/demo/refs/hpy/history"
             "?measure=functions.ported", g_site.base);
    full = tu_get_json(full_url, 200);
    fp = json_object_get(full, "points");
    n = json_array_size(fp);
    assert_true(n > 3);
    assert_null(json_object_get(full, "sampled_from"));
    snprintf(url, sizeof(url), "%s&points=3", full_url);
    few = tu_get_json(url, 200);
    wp = json_object_get(few, "points");
    assert_int_equal(json_array_size(wp), 3);
    assert_int_equal(json_integer_value(json_object_get(few, "sampled_from")), n);
    assert_true(json_equal(json_array_get(wp, 0), json_array_get(fp, 0)));
    assert_true(json_equal(json_array_get(wp, 2), json_array_get(fp, n - 1)));
    json_decref(few);
    snprintf(url, sizeof(url), "%s&points=%zu", full_url, n + 10);
    few = tu_get_json(url, 200);
    assert_true(json_equal(json_object_get(few, "points"), fp));
    json_decref(few);
    snprintf(url, sizeof(url), "%s&points=2", full_url);
    json_decref(tu_get_json(url, 400));
    snprintf(url, sizeof(url), "%s&points=many", full_url);
    json_decref(tu_get_json(url, 400));
    json_decref(full);
}

/* The counter `name` of /metrics of the server at `base`. */
static unsigned long long cache_metric_at(const char *base, const char *name)
{
    tu_http h = cache_get(base, "/metrics", NULL);
    char key[128];
    const char *p;
    unsigned long long v;

    snprintf(key, sizeof(key), "\n%s ", name);
    assert_non_null(p = strstr(h.body, key));
    v = strtoull(p + strlen(key), NULL, 10);
    tu_http_free(&h);
    return v;
}

/* Each content coding has its own strong ETag (RFC 9110 8.8.3): the gzip
 * form of an answer is "ID-gzip" where the identity form is "ID", and
 * If-None-Match is compared with the ETag of the coding the request gets,
 * cached (g_site) or not (g_plain). */
static void test_each_coding_has_its_own_etag(void **state)
{
    const char *bases[] = {g_site.base, g_plain_base};
    const char *path = "/api/v1/repos/demo/commits/hpy/files";
    size_t i;

    for (i = 0; i < 2; i++) {
        char url[1024], plain_tag[64], gz_tag[64], want[64], h1[128], h2[128];
        const char *hdrs[] = {"Accept-Encoding: gzip", h1, NULL};
        const char *inm[] = {h2, NULL};
        tu_http id, gz, h;

        cache_full_url(url, sizeof(url), bases[i], path);
        id = tu_send("GET", url, NULL, NULL, 0, 0);
        assert_int_equal(id.status, 200);
        snprintf(plain_tag, sizeof(plain_tag), "%s", tu_header(&id, "ETag"));
        snprintf(h1, sizeof(h1), "X-Nothing: 1");
        gz = tu_send("GET", url, hdrs, NULL, 0, 0);
        assert_int_equal(gz.status, 200);
        assert_string_equal(tu_header(&gz, "Content-Encoding"), "gzip");
        snprintf(gz_tag, sizeof(gz_tag), "%s", tu_header(&gz, "ETag"));
        snprintf(want, sizeof(want), "%.*s-gzip\"", (int)strlen(plain_tag) - 1, plain_tag);
        assert_string_equal(gz_tag, want);
        /* The gzip ETag revalidates the gzip form ... */
        snprintf(h1, sizeof(h1), "If-None-Match: %s", gz_tag);
        h = tu_send("GET", url, hdrs, NULL, 0, 0);
        assert_int_equal(h.status, 304);
        assert_string_equal(tu_header(&h, "ETag"), gz_tag);
        tu_http_free(&h);
        /* ... but not the identity form, nor the identity ETag the gzip one. */
        snprintf(h2, sizeof(h2), "If-None-Match: %s", gz_tag);
        h = tu_send("GET", url, inm, NULL, 0, 0);
        assert_int_equal(h.status, 200);
        assert_string_equal(tu_header(&h, "ETag"), plain_tag);
        assert_string_equal(tu_header(&h, "Content-Encoding"), "");
        assert_string_equal(h.body, id.body);
        tu_http_free(&h);
        snprintf(h1, sizeof(h1), "If-None-Match: %s", plain_tag);
        h = tu_send("GET", url, hdrs, NULL, 0, 0);
        assert_int_equal(h.status, 200);
        assert_string_equal(tu_header(&h, "ETag"), gz_tag);
        assert_int_equal(h.len, gz.len);
        tu_http_free(&h);
        tu_http_free(&id);
        tu_http_free(&gz);
    }
}

/* An answer first asked for without gzip is kept without its gzip form,
 * which the first client that takes gzip gets made (issue 26.3): the same
 * bytes, deflated, with the gzip ETag; and that form is kept. */
static void test_gzip_form_made_when_first_taken(void **state)
{
    const char *hdrs[] = {"Accept-Encoding: gzip", NULL};
    char url[1024], *plain = NULL;
    unsigned char out[65536];
    tu_http id, gz, again;
    z_stream z;

    /* A query of its own: nothing warmed or asked it before. */
    cache_full_url(url, sizeof(url), g_site.base,
                   "/api/v1/repos/demo/commits/hpy/files?lazy-gzip=1");
    id = tu_send("GET", url, NULL, NULL, 0, 0);
    assert_int_equal(id.status, 200);
    assert_true(id.len > 1024);
    assert_string_equal(tu_header(&id, "Content-Encoding"), "");
    gz = tu_send("GET", url, hdrs, NULL, 0, 0);
    assert_int_equal(gz.status, 200);
    assert_string_equal(tu_header(&gz, "Content-Encoding"), "gzip");
    assert_true(gz.len < id.len);
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = (unsigned char *)gz.body;
    z.avail_in = (uInt)gz.len;
    z.next_out = out;
    z.avail_out = sizeof(out);
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    assert_int_equal(z.total_out, id.len);
    assert_memory_equal(out, id.body, id.len);
    inflateEnd(&z);
    plain = strdup(tu_header(&id, "ETag"));
    assert_int_equal(strncmp(tu_header(&gz, "ETag"), plain, strlen(plain) - 1), 0);
    again = tu_send("GET", url, hdrs, NULL, 0, 0);
    assert_int_equal(again.len, gz.len);
    assert_memory_equal(again.body, gz.body, gz.len);
    free(plain);
    tu_http_free(&id);
    tu_http_free(&gz);
    tu_http_free(&again);
}

/* A refused write changes nothing, so it costs no cached answer; answers
 * that depend on the whole database are computed again after a write.  On
 * a server of its own without warming, so that nothing else computes. */
static void test_refused_writes_keep_the_cache(void **state)
{
    /* The snapshot list: an answer about the whole database (the forecast,
     * used before, counts from today and is not cached). */
    const char *fc = "/api/v1/repos/demo/snapshots";
    char url[256], base[64], auth[128];
    const char *hdrs[] = {auth, NULL};
    srv_options so = {0};
    unsigned long long misses;
    srv *s = NULL;
    tu_http h;

    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    /* One worker: a worker's first request counts as a possible change
     * (srv_cache_epoch), and with two the third request could be the
     * second worker's first, a miss the refused write did not cause. */
    so.threads = 1;
    so.no_warm = 1;
    assert_int_equal(srv_start(&s, &so), 0);
    snprintf(base, sizeof(base), "http://127.0.0.1:%u", srv_port(s));
    free(cache_get(base, fc, NULL).body);
    free(cache_get(base, fc, NULL).body);
    misses = cache_metric_at(base, "portdash_cache_misses_total");
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/ingest", base);
    h = tu_post(url, NULL, "", 0);
    assert_int_equal(h.status, 401);
    tu_http_free(&h);
    free(cache_get(base, fc, NULL).body);
    assert_int_equal(cache_metric_at(base, "portdash_cache_misses_total"), misses);
    /* An accepted write (an ingest job) does. */
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok);
    h = tu_post(url, hdrs, "", 0);
    assert_int_equal(h.status, 202);
    tu_http_free(&h);
    free(cache_get(base, fc, NULL).body);
    assert_int_equal(cache_metric_at(base, "portdash_cache_misses_total"), misses + 1);
    srv_stop(s);
}

/* --cache-mb bounds what the cache holds: the least recently used answers
 * go, and an answer that went is computed again, the same. */
static void test_cache_stays_within_its_bound(void **state)
{
    char base[64], path[128];
    srv_options so = {0};
    tu_http first, again;
    srv *s = NULL;
    int i;

    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.static_dir = "static";
    so.threads = 2;
    so.no_warm = 1;
    so.cache_mb = 1;
    assert_int_equal(srv_start(&s, &so), 0);
    snprintf(base, sizeof(base), "http://127.0.0.1:%u", srv_port(s));
    first = cache_get(base, "/api/v1/repos/demo/commits/H/files?n=0", NULL);
    assert_int_equal(first.status, 200);
    for (i = 1; i < 400; i++) {
        snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/H/files?n=%d", i);
        free(cache_get(base, path, NULL).body);
    }
    assert_true(cache_metric_at(base, "portdash_cache_bytes") <= (1 << 20));
    assert_true(cache_metric_at(base, "portdash_cache_evictions_total") > 0);
    assert_true(cache_metric_at(base, "portdash_cache_entries") < 400);
    again = cache_get(base, "/api/v1/repos/demo/commits/H/files?n=0", NULL);
    assert_int_equal(again.status, 200);
    assert_string_equal(again.body, first.body);
    assert_int_equal(cache_metric_at(base, "portdash_cache_misses_total"), 401);
    tu_http_free(&first);
    tu_http_free(&again);
    srv_stop(s);
}

static void test_metrics_count_the_cache(void **state)
{
    tu_http h;

    free(cache_get(g_site.base, "/api/v1/measures", NULL).body);
    free(cache_get(g_site.base, "/api/v1/measures", NULL).body);
    h = cache_get(g_site.base, "/metrics", NULL);
    assert_non_null(strstr(h.body, "\nportdash_cache_hits_total "));
    assert_non_null(strstr(h.body, "\nportdash_cache_misses_total "));
    assert_non_null(strstr(h.body, "\nportdash_cache_evictions_total "));
    assert_non_null(strstr(h.body, "\nportdash_cache_bytes "));
    assert_null(strstr(h.body, "\nportdash_cache_hits_total 0\n"));
    assert_null(strstr(h.body, "\nportdash_cache_bytes 0\n"));
    tu_http_free(&h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_start_warms_summary_and_files_of_every_ref),
        cmocka_unit_test(test_every_get_answer_has_an_etag_and_answers_304),
        cmocka_unit_test(test_ref_names_share_the_commit_answer_but_revalidate),
        cmocka_unit_test(test_sarif_upload_changes_only_what_it_extends),
        cmocka_unit_test(test_another_scopes_file_changes_scoped_answers_only),
        cmocka_unit_test(test_history_points_reduce_the_series),
        cmocka_unit_test(test_each_coding_has_its_own_etag),
        cmocka_unit_test(test_gzip_form_made_when_first_taken),
        cmocka_unit_test(test_refused_writes_keep_the_cache),
        cmocka_unit_test(test_cache_stays_within_its_bound),
        cmocka_unit_test(test_metrics_count_the_cache),
        cmocka_unit_test(test_a_new_analysis_key_is_never_served_old_answers),
    };

    return cmocka_run_group_tests(tests, cache_setup, cache_teardown);
}
