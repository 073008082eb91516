/*
 * test_ci.c: the CI-bot side of the server: tokens, background ingest jobs,
 * immutable answers with ETags, gzip, pagination, metrics, health, the
 * OpenAPI document against the route table, badges, and the ratchet gate
 * through the API and straight from git.
 */
#include "testutil.h"

#include "db.h"
#include "db_token.h"
#include "gate.h"
#include "gate_git.h"
#include "ingest.h"
#include "pd_error.h"
#include "analyzer/analyzer.h"
#include "srv.h"
#include "srv_routes.h"

static tu_site g_site;
static char g_tok_all[DB_TOKEN_LEN + 1], g_tok_sarif[DB_TOKEN_LEN + 1];

/* A request to the site's server with optional header lines; `raw`:
 * leave gzip bodies as they are. */
static tu_http ci_req(const char *method, const char *path, const char **hdrs, int raw)
{
    char url[2048];

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    return tu_send(method, url, hdrs, NULL, 0, !raw);
}

static int setup(void **state)
{
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "ci.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_tok_all, "bot", NULL) < 0 ||
         db_token_create(db, g_tok_sarif, "sarif-only", "sarif") < 0;
    db_close(db);
    return rc || tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

static void test_writes_need_a_token_with_the_permission(void **state)
{
    char auth[128], bad[] = "Authorization: Bearer pd_0000";
    const char *none[] = {NULL}, *wrong[] = {bad, NULL}, *scoped[] = {auth, NULL};
    tu_http h;

    h = ci_req("POST", "/api/v1/repos/demo/ingest", none, 0);
    assert_int_equal(h.status, 401);
    assert_string_equal(tu_header(&h, "WWW-Authenticate"), "Bearer realm=\"portdash\"");
    free(h.body);
    h = ci_req("POST", "/api/v1/repos/demo/ingest", wrong, 0);
    assert_int_equal(h.status, 401);
    free(h.body);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok_sarif);
    h = ci_req("POST", "/api/v1/repos/demo/ingest", scoped, 0);
    assert_int_equal(h.status, 403);
    assert_non_null(strstr(h.body, "lacks scope 'ingest'"));
    free(h.body);
}

static void test_ingest_job_runs_in_the_background(void **state)
{
    char auth[128];
    const char *hdr[] = {auth, NULL};
    json_t *job, *st = NULL;
    tu_http h;
    int i;

    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok_all);
    h = ci_req("POST", "/api/v1/repos/demo/ingest", hdr, 0);
    assert_int_equal(h.status, 202);
    job = json_loads(h.body, 0, NULL);
    assert_non_null(job);
    for (i = 0; i < 200; i++) {
        char url[256];

        json_decref(st);
        snprintf(url, sizeof(url), "%s%s", g_site.base,
                 json_string_value(json_object_get(job, "url")));
        st = tu_get_json(url, 200);
        if (strcmp(json_string_value(json_object_get(st, "state")), "running") != 0)
            break;
        usleep(50000);
    }
    assert_string_equal(json_string_value(json_object_get(st, "state")), "done");
    /* Everything was ingested before: the job finds nothing new. */
    assert_int_equal(json_integer_value(json_object_get(st, "commits_new")), 0);
    json_decref(st);
    json_decref(job);
    free(h.body);
    h = ci_req("GET", "/api/v1/jobs/999", NULL, 0);
    assert_int_equal(h.status, 404);
    free(h.body);
}

static void test_revoked_token_is_refused(void **state)
{
    char tok[DB_TOKEN_LEN + 1], auth[128], scopes[64];
    const char *hdr[] = {auth, NULL};
    sqlite3 *db = NULL;
    tu_http h;

    assert_int_equal(db_open(&db, g_site.db, 0), 0);
    assert_int_equal(db_token_create(db, tok, "short-lived", "ingest"), 0);
    assert_int_equal(db_token_check(db, tok, scopes, sizeof(scopes)), 0);
    assert_string_equal(scopes, "ingest");
    assert_int_equal(db_token_revoke(db, "short-lived"), 0);
    assert_int_equal(db_token_revoke(db, "short-lived"), PD_ENOTFOUND);
    assert_int_equal(db_token_create(db, tok, "bot", NULL), PD_EINVAL);
    assert_int_equal(db_token_create(db, tok, "x", "write-all"), PD_EINVAL);
    db_close(db);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", tok);
    h = ci_req("POST", "/api/v1/repos/demo/ingest", hdr, 0);
    assert_int_equal(h.status, 401);
    free(h.body);
}

static void test_private_reads_need_a_read_token(void **state)
{
    srv_options so = {0};
    srv *s = NULL;
    char saved[64], auth[128];
    const char *hdr[] = {auth, NULL};
    tu_http h;

    so.db_path = g_site.db;
    so.listen = "127.0.0.1:0";
    so.private_reads = 1;
    assert_int_equal(srv_start(&s, &so), 0);
    snprintf(saved, sizeof(saved), "%s", g_site.base);
    snprintf(g_site.base, sizeof(g_site.base), "http://127.0.0.1:%u", srv_port(s));
    h = ci_req("GET", "/api/v1/repos", NULL, 0);
    assert_int_equal(h.status, 401);
    free(h.body);
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", g_tok_all);
    h = ci_req("GET", "/api/v1/repos", hdr, 0);
    assert_int_equal(h.status, 200);
    free(h.body);
    h = ci_req("GET", "/api/v1/openapi.json", NULL, 0);
    assert_int_equal(h.status, 200);
    free(h.body);
    /* Answers for token holders only: no shared cache may keep them, the
     * first (computed) answer nor the cached ones after it. */
    {
        char *id = tu_sh_out("git --git-dir='%s' rev-parse hpy", tu_fixture("toyport"));
        char path[256];
        int k;

        id[strcspn(id, "\n")] = '\0';
        snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%s/files", id);
        for (k = 0; k < 2; k++) {
            h = ci_req("GET", path, hdr, 0);
            assert_int_equal(h.status, 200);
            assert_string_equal(tu_header(&h, "Cache-Control"),
                                "private, max-age=31536000, immutable");
            free(h.body);
            h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/summary", hdr, 0);
            assert_int_equal(h.status, 200);
            assert_string_equal(tu_header(&h, "Cache-Control"), "private, no-cache");
            assert_string_equal(tu_header(&h, "X-Accel-Expires"), "");
            assert_int_equal(strlen(tu_header(&h, "ETag")), 42);
            free(h.body);
        }
        free(id);
    }
    srv_stop(s);
    snprintf(g_site.base, sizeof(g_site.base), "%s", saved);
}

static void test_full_commit_ids_are_immutable(void **state)
{
    char *id = tu_sh_out("git --git-dir='%s' rev-parse hpy", tu_fixture("toyport"));
    char path[256], inm[128];
    const char *hdr[] = {inm, NULL};
    tu_http h;

    id[strcspn(id, "\n")] = '\0';
    /* The file table of a commit never changes; its summary may (SARIF uploads).
     * Identity coding throughout: the gzip form has an ETag of its own. */
    snprintf(path, sizeof(path), "/api/v1/repos/demo/commits/%s/files", id);
    h = ci_req("GET", path, NULL, 1);
    assert_int_equal(h.status, 200);
    assert_string_equal(tu_header(&h, "Cache-Control"), "public, max-age=31536000, immutable");
    snprintf(inm, sizeof(inm), "If-None-Match: %s", tu_header(&h, "ETag"));
    assert_int_equal(strlen(tu_header(&h, "ETag")), 42);
    free(h.body);
    h = ci_req("GET", path, hdr, 1);
    assert_int_equal(h.status, 304);
    assert_int_equal(h.len, 0);
    free(h.body);
    /* A ref moves: the same bytes and ETag, but revalidated on every use. */
    h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files", NULL, 1);
    assert_string_equal(tu_header(&h, "ETag"), inm + strlen("If-None-Match: "));
    assert_string_equal(tu_header(&h, "Cache-Control"), "no-cache");
    free(h.body);
    h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files", hdr, 1);
    assert_int_equal(h.status, 304);
    free(h.body);
    free(id);
}

static void test_json_is_gzipped_for_clients_that_accept_it(void **state)
{
    const char *gz[] = {"Accept-Encoding: gzip", NULL};
    tu_http plain = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files", NULL, 1);
    tu_http packed = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files", gz, 1);
    tu_http decoded = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files", NULL, 0);

    assert_string_equal(tu_header(&plain, "Content-Encoding"), "");
    assert_string_equal(tu_header(&packed, "Content-Encoding"), "gzip");
    assert_true(packed.len < plain.len);
    assert_true((unsigned char)packed.body[0] == 0x1f && (unsigned char)packed.body[1] == 0x8b);
    assert_string_equal(decoded.body, plain.body);
    free(plain.body);
    free(packed.body);
    free(decoded.body);
}

static void test_long_lists_are_paginated(void **state)
{
    char *id = tu_sh_out("git --git-dir='%s' rev-parse hpy", tu_fixture("toyport"));
    char next[256];
    json_t *p1, *p3;
    tu_http h;

    /* Pages asked by ref name link to the commit it named, so that
     * following them reads one commit even when the ref moves meanwhile. */
    id[strcspn(id, "\n")] = '\0';
    snprintf(next, sizeof(next), "</api/v1/repos/demo/commits/%s/files?page=2&per_page=2>; "
             "rel=\"next\"", id);
    h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files?per_page=2", NULL, 0);
    assert_int_equal(h.status, 200);
    p1 = json_loads(h.body, 0, NULL);
    assert_int_equal(json_array_size(json_object_get(p1, "files")), 2);
    assert_non_null(strstr(tu_header(&h, "Link"), next));
    assert_non_null(strstr(tu_header(&h, "Link"), "page=3&per_page=2>; rel=\"last\""));
    free(h.body);
    h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files?per_page=2&page=3", NULL, 0);
    p3 = json_loads(h.body, 0, NULL);
    assert_int_equal(json_array_size(json_object_get(p3, "files")), 1);
    assert_null(strstr(tu_header(&h, "Link"), "rel=\"next\""));
    free(h.body);
    h = ci_req("GET", "/api/v1/repos/demo/commits/hpy/files?page=0", NULL, 0);
    assert_int_equal(h.status, 400);
    free(h.body);
    json_decref(p1);
    json_decref(p3);
    free(id);
}

static void test_metrics_and_health(void **state)
{
    tu_http h;
    int i;

    for (i = 0; i < 3; i++)
        free(ci_req("GET", "/api/v1/repos", NULL, 0).body);
    free(ci_req("GET", "/api/v1/repos/nope/commits/hpy/summary", NULL, 0).body);
    h = ci_req("GET", "/metrics", NULL, 0);
    assert_int_equal(h.status, 200);
    assert_true(strncmp(tu_header(&h, "Content-Type"), "text/plain; version=0.0.4", 25) == 0);
    assert_non_null(strstr(h.body, "portdash_http_requests_total{route=\"/api/v1/repos\","
                                   "method=\"GET\",status=\"200\"} "));
    assert_non_null(strstr(h.body, "route=\"/api/v1/repos/{repo}/commits/{rev}/summary\","
                                   "method=\"GET\",status=\"404\"} 1\n"));
    assert_non_null(strstr(h.body, "portdash_http_request_duration_seconds_bucket{le=\"+Inf\"}"));
    assert_non_null(strstr(h.body, "portdash_ingest_jobs{state=\"running\"}"));
    assert_null(strstr(h.body, "portdash_database_bytes{file=\"db\"} 0\n"));
    free(h.body);
    h = ci_req("GET", "/healthz", NULL, 0);
    assert_int_equal(h.status, 200);
    assert_string_equal(h.body, "{\"status\":\"ok\"}");
    free(h.body);
}

/* "/a/{x...}" -> "/a/{x}", the OpenAPI spelling of a route pattern. */
static void ci_openapi_path(char *out, size_t n, const char *pattern)
{
    const char *dots = strstr(pattern, "...}");

    if (dots)
        snprintf(out, n, "%.*s}", (int)(dots - pattern), pattern);
    else
        snprintf(out, n, "%s", pattern);
}

static void test_openapi_documents_every_route(void **state)
{
    char url[256], path[256], method[16];
    json_t *doc, *paths, *item, *op;
    const char *p, *m;
    size_t i, k, documented = 0;

    snprintf(url, sizeof(url), "%s/api/v1/openapi.json", g_site.base);
    doc = tu_get_json(url, 200);
    assert_string_equal(json_string_value(json_object_get(doc, "openapi")), "3.1.0");
    paths = json_object_get(doc, "paths");
    for (i = 0; i < srv_routes_count; i++) {
        const srv_route *rt = &srv_routes[i];

        /* The dashboard's own files are not API. */
        if (rt->handler == srv_routes[srv_routes_count - 1].handler ||
            strncmp(rt->pattern, "/vendor/", 8) == 0)
            continue;
        ci_openapi_path(path, sizeof(path), rt->pattern);
        for (k = 0; rt->method[k] && k < sizeof(method) - 1; k++)
            method[k] = (char)(rt->method[k] | 0x20);
        method[k] = '\0';
        if (!json_object_get(json_object_get(paths, path), method))
            fail_msg("route %s %s is not in openapi.json", rt->method, path);
        documented++;
    }
    /* And the other way: every documented operation is served. */
    json_object_foreach(paths, p, item) {
        json_object_foreach(item, m, op) {
            int found = 0;

            for (i = 0; i < srv_routes_count && !found; i++) {
                ci_openapi_path(path, sizeof(path), srv_routes[i].pattern);
                found = strcmp(path, p) == 0 && strcasecmp(srv_routes[i].method, m) == 0;
            }
            if (!found)
                fail_msg("openapi.json documents %s %s, which no route serves", m, p);
        }
    }
    assert_true(documented > 20);
    json_decref(doc);
}

static void test_badge_shows_the_summary_figure(void **state)
{
    char url[256], want[64];
    json_t *s;
    tu_http h;

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/summary", g_site.base);
    s = tu_get_json(url, 200);
    snprintf(want, sizeof(want), ">%lld (", (long long)json_integer_value(
             json_object_get(json_object_get(s, "object_paths"), "object-legacy")));
    h = ci_req("GET", "/badge/demo/hpy/object_paths.object-legacy.svg", NULL, 0);
    assert_int_equal(h.status, 200);
    assert_string_equal(tu_header(&h, "Content-Type"), "image/svg+xml");
    assert_true(strncmp(h.body, "<svg xmlns=\"http://www.w3.org/2000/svg\"", 39) == 0);
    assert_non_null(strstr(h.body, want));
    /* the percentage says what it is: object paths are done when universal */
    assert_non_null(strstr(h.body, "% universal)</text>"));
    assert_non_null(strstr(h.body, "done = universal object-dtype paths / object-dtype paths"));
    free(h.body);
    h = ci_req("GET", "/badge/demo/hpy/nope.svg", NULL, 0);
    assert_int_equal(h.status, 404);
    free(h.body);
    h = ci_req("GET", "/badge/demo/hpy/object_paths.object-legacy", NULL, 0);
    assert_int_equal(h.status, 404);
    free(h.body);
    json_decref(s);
}

/* Names of a gate result's regressions, sorted, joined by spaces. */
static char *ci_regression_names(json_t *res)
{
    char *out = calloc(1, 4096);
    json_t *x;
    size_t i;

    json_array_foreach(json_object_get(res, "regressions"), i, x)
        snprintf(out + strlen(out), 4096 - strlen(out), "%s ",
                 json_string_value(json_object_get(x, "name")));
    return out;
}

static void test_gate_ratchet_through_the_api_and_from_git(void **state)
{
    char url[256];
    json_t *fw, *bw, *git = NULL;
    gate_policy pol;
    rules *r = NULL;
    char *a, *b;
    tu_http h;

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/gate?base=hpy&head="
             "hpy-convert-object-dtype", g_site.base);
    fw = tu_get_json(url, 200);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/gate?base=hpy-convert-object-dtype"
             "&head=hpy", g_site.base);
    bw = tu_get_json(url, 200);
    assert_string_equal(json_string_value(json_object_get(fw, "result")), "pass");
    assert_string_equal(json_string_value(json_object_get(bw, "result")), "fail");
    a = ci_regression_names(bw);
    /* Going back to hpy brings back legacy item code in both functions. */
    assert_string_equal(a, "toy_item_incref toy_fill_object ");
    /* The same verdict without a server, from the git repository itself. */
    gate_policy_default(&pol);
    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(gate_git_run(&git, tu_fixture("toyport"), "hpy-convert-object-dtype",
                                  "hpy", &pol, r, NULL), 0);
    assert_true(json_equal(json_object_get(git, "conditions"),
                           json_object_get(bw, "conditions")));
    b = ci_regression_names(git);
    assert_string_equal(a, b);
    h = ci_req("GET", "/api/v1/repos/demo/gate?base=hpy-convert-object-dtype&head=hpy"
               "&format=markdown", NULL, 0);
    assert_non_null(strstr(h.body, "### HPy porting gate: ❌ fail"));
    assert_non_null(strstr(h.body, "- `toy_fill_object` in `src/refcount.c`: "));
    free(h.body);
    h = ci_req("GET", "/api/v1/repos/demo/gate?base=hpy", NULL, 0);
    assert_int_equal(h.status, 400);
    free(h.body);
    free(a);
    free(b);
    rules_free(r);
    json_decref(git);
    json_decref(fw);
    json_decref(bw);
}

/* After the first HPyField conversion the toy port mixes both item
 * representations: the PyObject * sites left are listed. */
static void test_object_items_show_a_mixed_representation(void **state)
{
    char url[256];
    json_t *a, *b, *site;
    size_t i;
    int getitem = 0;

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy/object-items", g_site.base);
    a = tu_get_json(url, 200);
    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/hpy-convert-object-dtype/"
             "object-items", g_site.base);
    b = tu_get_json(url, 200);
    assert_false(json_is_true(json_object_get(a, "mixed")));
    assert_int_equal(json_integer_value(json_object_get(a, "field_site_count")), 0);
    assert_true(json_is_true(json_object_get(b, "mixed")));
    assert_true(json_integer_value(json_object_get(b, "legacy_site_count")) <
                json_integer_value(json_object_get(a, "legacy_site_count")));
    json_array_foreach(json_object_get(b, "legacy_sites"), i, site) {
        assert_string_not_equal(json_string_value(json_object_get(site, "path")),
                                "src/refcount.c");
        /* every site says why it reaches items (issue 11, item 7) */
        assert_non_null(json_string_value(json_object_get(site, "reason")));
        if (json_is_string(json_object_get(site, "function")) &&
            strcmp(json_string_value(json_object_get(site, "function")), "OBJECT_getitem") == 0) {
            getitem = 1;
            assert_string_equal(json_string_value(json_object_get(site, "reason")),
                                "memcpy copies an item from or into the local `obj` "
                                "(PyObject *)");
        }
    }
    assert_true(getitem);
    json_decref(a);
    json_decref(b);
}

/* Readiness is fed per file (judged outside object-dtype paths by the
 * callers); losing it fails the ratchet and names the file. */
static void test_gate_universal_ratchet_names_the_file(void **state)
{
    gate_policy pol;
    gate_fnlist none = {0};
    db_counts c = {0};
    gate *g;
    json_t *res, *cond;
    char *md;

    gate_policy_default(&pol);
    g = gate_new(&pol);
    assert_int_equal(gate_add_file(g, "a.h", &none, &none, 1, 0), 0);
    assert_int_equal(gate_add_file(g, "b.h", &none, &none, 0, 1), 0);
    gate_set_ready_totals(g, 5, 5);
    res = gate_result(g, "base", "head", &c, &c);
    assert_string_equal(json_string_value(json_object_get(res, "result")), "fail");
    cond = json_array_get(json_object_get(res, "conditions"), 2);
    assert_string_equal(json_string_value(json_object_get(cond, "rule")),
                        "no file stops being universal-ready outside object-dtype paths");
    assert_int_equal(json_integer_value(json_object_get(cond, "head")), 5);
    assert_false(json_is_true(json_object_get(cond, "ok")));
    assert_string_equal(json_string_value(json_array_get(
        json_object_get(res, "files_no_longer_universal_ready"), 0)), "a.h");
    /* Its totals are the no-object-dtype scope's, not the summary's
     * universal_ready_files: the row names the scope, and so does the
     * comment, where a reader compares it with the summary's figure. */
    assert_string_equal(json_string_value(json_object_get(cond, "scope")), "no-object-dtype");
    md = gate_markdown(res);
    assert_non_null(strstr(md, "`universal_ready_files` (scope `no-object-dtype`) 5 | 5 |"));
    free(md);
    json_decref(res);
    gate_free(g);

    /* Without those totals (the API without that scope) the summaries'
     * figures stand, and no scope is named. */
    g = gate_new(&pol);
    c.universal_ready_files = 7;
    res = gate_result(g, "base", "head", &c, &c);
    cond = json_array_get(json_object_get(res, "conditions"), 2);
    assert_int_equal(json_integer_value(json_object_get(cond, "base")), 7);
    assert_null(json_object_get(cond, "scope"));
    json_decref(res);
    gate_free(g);
}

static void test_gate_policy_file(void **state)
{
    gate_policy p;
    db_counts c = {0};

    assert_int_equal(gate_policy_parse(&p, "p", "# only bounds\nmax object_paths"
                                       ".object-legacy 3\nmin functions.ported 1\n"), 0);
    assert_int_equal(p.ratchets, 0);
    assert_int_equal(p.nbounds, 2);
    assert_int_equal(gate_policy_parse(&p, "p", "ratchet status\nratchet sideways\n"),
                     PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "p:2: unknown ratchet 'sideways'"));
    assert_int_equal(gate_policy_parse(&p, "p", "max nope 3\n"), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "p:1: unknown measure 'nope'"));
    /* No directive at all is no policy: it must not pass every change. */
    assert_int_equal(gate_policy_parse(&p, "p", ""), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), "p: no condition"));
    assert_int_equal(gate_policy_parse(&p, "p", "# nothing yet\n\n  \n"), PD_EINVAL);
    assert_int_equal(gate_policy_parse(&p, "p", "ratchet new-capi # only this\n"), 0);
    assert_int_equal(p.ratchets, GATE_NEW_CAPI);
    c.obj[0] = 7;
    assert_int_equal(gate_measure(&c, "object_paths.object-legacy"), 7);
}

/* Issue 14.8: an operationId on every operation, unique; every answer's
 * media type declared (the gate's markdown too); the badge path as served. */
/* A response object, or the one its "$ref" names under components. */
static json_t *ci_response(json_t *doc, json_t *resp)
{
    const char *ref = json_string_value(json_object_get(resp, "$ref"));
    const char *pfx = "#/components/responses/";

    if (!ref)
        return resp;
    assert_int_equal(strncmp(ref, pfx, strlen(pfx)), 0);
    return json_object_get(json_object_get(json_object_get(doc, "components"), "responses"),
                           ref + strlen(pfx));
}

static void test_openapi_names_every_operation_and_media_type(void **state)
{
    char url[256];
    json_t *doc, *item, *op, *resp, *ids = json_object(), *gate_op;
    const char *p, *m, *code;
    static const char *const any[] = {"401", "408", "414", "421", "431", "503"};
    size_t k;

    snprintf(url, sizeof(url), "%s/api/v1/openapi.json", g_site.base);
    doc = tu_get_json(url, 200);
    json_object_foreach(json_object_get(doc, "paths"), p, item) {
        json_object_foreach(item, m, op) {
            const char *id = json_string_value(json_object_get(op, "operationId"));

            if (!id)
                fail_msg("%s %s has no operationId", m, p);
            if (json_object_get(ids, id))
                fail_msg("operationId %s twice", id);
            json_object_set_new(ids, id, json_true());
            json_object_foreach(json_object_get(op, "responses"), code, resp)
                if (json_object_size(json_object_get(ci_response(doc, resp), "content")) == 0)
                    fail_msg("%s %s: response %s has no media type", m, p, code);
            /* What any request can get before its handler runs. */
            for (k = 0; k < sizeof(any) / sizeof(*any); k++)
                if (!json_object_get(json_object_get(op, "responses"), any[k]))
                    fail_msg("%s %s does not declare %s", m, p, any[k]);
        }
    }
    assert_true(json_object_size(ids) > 20);
    gate_op = json_object_get(json_object_get(json_object_get(doc, "paths"),
                                              "/api/v1/repos/{repo}/gate"), "get");
    assert_non_null(json_object_get(json_object_get(json_object_get(
        json_object_get(gate_op, "responses"), "200"), "content"), "text/markdown"));
    assert_non_null(json_object_get(json_object_get(doc, "paths"),
                                    "/badge/{repo}/{ref}/{measure}.svg"));
    json_decref(ids);
    json_decref(doc);
}

/* Every GET route that reads ?page (a bad one is a 400 naming it)
 * declares page and per_page, and no other route declares them. */
static void test_openapi_declares_paging_where_the_server_pages(void **state)
{
    static const char *const fill[][2] = {
        {"{repo}", "demo"}, {"{rev}", "hpy"}, {"{ref}", "hpy"}, {"{path}", "src/refcount.c"},
        {"{range}", "hpy...hpy-convert-object-dtype"}, {"{symbol}", "Py_INCREF"},
        {"{measure}", "functions.ported"}, {"{week}", "2020-W01"}, {"{id}", "1"}};
    char url[1024], path[512];
    json_t *doc = tu_site_get(&g_site, "/api/v1/openapi.json", 200), *item, *op, *prm;
    const char *p;
    size_t i, k;
    int pages, declared, checked = 0;

    json_object_foreach(json_object_get(doc, "paths"), p, item) {
        if (!(op = json_object_get(item, "get")))
            continue;
        snprintf(path, sizeof(path), "%s", p);
        for (k = 0; k < sizeof(fill) / sizeof(*fill); k++) {
            char *at = strstr(path, fill[k][0]), rest[512];

            if (!at)
                continue;
            snprintf(rest, sizeof(rest), "%s", at + strlen(fill[k][0]));
            snprintf(at, sizeof(path) - (size_t)(at - path), "%s%s", fill[k][1], rest);
        }
        snprintf(url, sizeof(url), "%s%s?page=0", g_site.base, path);
        {
            tu_http h = tu_send("GET", url, NULL, NULL, 0, 1);

            pages = h.status == 400 && strstr(h.body, "page must be a positive integer");
            tu_http_free(&h);
        }
        declared = 0;
        json_array_foreach(json_object_get(op, "parameters"), i, prm)
            declared |= strcmp(json_string_value(json_object_get(prm, "name")), "page") == 0;
        if (pages != declared)
            fail_msg("GET %s: the server %s ?page, the description %s it", p,
                     pages ? "reads" : "ignores", declared ? "declares" : "omits");
        checked += pages;
    }
    assert_true(checked >= 7);     /* commit, files, file, history, snapshots, symbols x2 */
    json_decref(doc);
}

/* `portdash gate` tells a failed gate (1) from one that could not run (2). */
static void test_gate_cli_exit_status(void **state)
{
    const char *fx = getenv("PORTDASH_FIXTURES");
    static const struct { const char *args; int status; } cases[] = {
        {"--base hpy --head hpy-convert-object-dtype", 0},
        {"--base hpy-convert-object-dtype --head hpy", 1},
        {"--base hpy --head no-such-branch", 2},
        {"--base hpy --head hpy-convert-object-dtype --policy /nonexistent", 2},
        {"--base hpy --head hpy-convert-object-dtype --policy BADPOLICY", 2},
        {"--base hpy", 2},
    };
    char policy[4300], args[4800];

    snprintf(policy, sizeof(policy), "%s/bad.policy", g_site.dir);
    assert_int_equal(tu_sh("echo 'ratchet sideways' > '%s'", policy), 0);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        char *bad = strstr(cases[i].args, "BADPOLICY");
        int st;

        snprintf(args, sizeof(args), "%.*s%s", bad ? (int)(bad - cases[i].args) : 400,
                 cases[i].args, bad ? policy : "");
        st = tu_sh("'%s/../portdash' gate --git-dir '%s' %s >/dev/null 2>&1",
                   fx ? fx : "build-san/fixtures", tu_fixture("toyport"), args);
        if (!WIFEXITED(st) || WEXITSTATUS(st) != cases[i].status)
            fail_msg("gate %s: exit %d, want %d", args, WEXITSTATUS(st), cases[i].status);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writes_need_a_token_with_the_permission),
        cmocka_unit_test(test_ingest_job_runs_in_the_background),
        cmocka_unit_test(test_revoked_token_is_refused),
        cmocka_unit_test(test_private_reads_need_a_read_token),
        cmocka_unit_test(test_full_commit_ids_are_immutable),
        cmocka_unit_test(test_json_is_gzipped_for_clients_that_accept_it),
        cmocka_unit_test(test_long_lists_are_paginated),
        cmocka_unit_test(test_metrics_and_health),
        cmocka_unit_test(test_openapi_documents_every_route),
        cmocka_unit_test(test_badge_shows_the_summary_figure),
        cmocka_unit_test(test_gate_ratchet_through_the_api_and_from_git),
        cmocka_unit_test(test_object_items_show_a_mixed_representation),
        cmocka_unit_test(test_gate_universal_ratchet_names_the_file),
        cmocka_unit_test(test_gate_policy_file),
        cmocka_unit_test(test_openapi_names_every_operation_and_media_type),
        cmocka_unit_test(test_openapi_declares_paging_where_the_server_pages),
        cmocka_unit_test(test_gate_cli_exit_status),
    };

    curl_global_init(CURL_GLOBAL_DEFAULT);
    return cmocka_run_group_tests(tests, setup, teardown);
}
