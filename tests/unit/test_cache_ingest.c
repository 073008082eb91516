/*
 * test_cache_ingest.c: the answer cache under an ingest that writes the
 * database the server reads (issue 26.5: "the answer cache is not flushed
 * more than the data changed").  An ingest of another repository commits,
 * and the cached answers about this one stay: none computed again, each
 * revalidated by its data key.  An ingest that moves this repository's
 * ref drops the answers that ref names (its history, its summary by name),
 * and keeps those asked by the old commit's id.
 */
#include "testutil.h"

#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

static tu_site g_site;
static char g_clone[4300];
static char g_old[41], g_new[41];

/* The output of a git command on the clone, first line, into out (41). */
static void clone_rev(const char *rev, char out[41])
{
    char cmd[4500];
    FILE *p;

    snprintf(cmd, sizeof(cmd), "git --git-dir='%s' rev-parse '%s'", g_clone, rev);
    assert_non_null(p = popen(cmd, "r"));
    assert_non_null(fgets(out, 41, p));
    pclose(p);
    assert_int_equal(strlen(out), 40);
}

static void ingest_as(const char *name)
{
    const char *refs[] = {"hpy"};
    ingest_options o = {0};

    o.db_path = g_site.db;
    o.repo_path = g_clone;
    o.name = name;
    o.refs = refs;
    o.nrefs = 1;
    if (ingest_run(&o, NULL) < 0)
        fail_msg("ingest %s: %s", name, pd_error_last());
}

/* A counter of the server's /metrics. */
static unsigned long long metric(const char *name)
{
    char url[128];
    const char *p;
    unsigned long long v = 0;
    size_t n = strlen(name);
    tu_http h;

    snprintf(url, sizeof(url), "%s/metrics", g_site.base);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    for (p = h.body; (p = strstr(p, name)); p += n)
        if ((p == h.body || p[-1] == '\n') && p[n] == ' ') {
            v = strtoull(p + n + 1, NULL, 10);
            break;
        }
    tu_http_free(&h);
    return v;
}

static char *get(const char *path)
{
    char url[512];
    tu_http h;
    char *body;

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    h = tu_request("GET", url);
    assert_int_equal(h.status, 200);
    body = strdup(h.body);
    tu_http_free(&h);
    return body;
}

static int setup(void **state)
{
    srv_options so = {0};

    (void)state;
    tu_site_init(&g_site, "ci.db");
    snprintf(g_clone, sizeof(g_clone), "%s/clone.git", g_site.dir);
    /* hpy one commit back: the test's last ingest moves it to its tip */
    if (tu_sh("git clone -q --mirror '%s' '%s' && git --git-dir='%s' update-ref "
              "refs/heads/hpy refs/heads/hpy~1", tu_fixture("toyport"), g_clone, g_clone))
        return -1;
    clone_rev("hpy", g_old);
    ingest_as("demo");
    /* no warming: every answer computed here is one the test asked for */
    so.no_warm = 1;
    return tu_site_serve(&g_site, &so);
}

static int teardown(void **state)
{
    (void)state;
    tu_site_free(&g_site);
    return 0;
}

static void test_kept_unless_its_data_changed(void **state)
{
    char summary[128], files[128];
    const char *history = "/api/v1/repos/demo/refs/hpy/history";
    const char *by_ref = "/api/v1/repos/demo/commits/hpy/summary";
    char *a, *b, *c, *d, *a2, *b2, *c2, *d2;
    unsigned long long m0, r0;

    (void)state;
    snprintf(summary, sizeof(summary), "/api/v1/repos/demo/commits/%s/summary", g_old);
    snprintf(files, sizeof(files), "/api/v1/repos/demo/commits/%s/files", g_old);
    a = get(summary);
    b = get(files);
    c = get(history);
    d = get(by_ref);
    m0 = metric("portdash_cache_misses_total");
    r0 = metric("portdash_cache_revalidations_total");

    /* Another repository's ingest commits: nothing computed again. */
    ingest_as("other");
    a2 = get(summary);
    b2 = get(files);
    c2 = get(history);
    d2 = get(by_ref);
    assert_int_equal(metric("portdash_cache_misses_total"), m0);
    assert_true(metric("portdash_cache_revalidations_total") > r0);
    assert_string_equal(a2, a);
    assert_string_equal(b2, b);
    assert_string_equal(c2, c);
    assert_string_equal(d2, d);
    free(a2);
    free(b2);
    free(c2);
    free(d2);

    /* This repository's ref moves: what the ref names is computed again,
     * what the old commit's id names is kept. */
    assert_int_equal(tu_sh("git --git-dir='%s' update-ref refs/heads/hpy "
                           "refs/heads/hpy-convert-object-dtype", g_clone), 0);
    clone_rev("hpy", g_new);
    assert_string_not_equal(g_new, g_old);
    ingest_as("demo");
    a2 = get(summary);
    b2 = get(files);
    assert_int_equal(metric("portdash_cache_misses_total"), m0);
    c2 = get(history);
    d2 = get(by_ref);
    assert_int_equal(metric("portdash_cache_misses_total"), m0 + 2);
    assert_string_equal(a2, a);
    assert_string_equal(b2, b);
    assert_string_not_equal(c2, c);
    assert_string_not_equal(d2, d);
    free(a);
    free(b);
    free(c);
    free(d);
    free(a2);
    free(b2);
    free(c2);
    free(d2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kept_unless_its_data_changed),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
