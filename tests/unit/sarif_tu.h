/*
 * sarif_tu.h: what the SARIF upload tests share: a server on a free
 * loopback port serving the toyport fixture (ingested as "demo" at hpy and
 * hpy-convert-object-dtype), tokens with scopes sarif and read, and helpers
 * to post logs and read the findings back.  Included by one test file per
 * binary.
 */
#ifndef SARIF_TU_H
#define SARIF_TU_H

#include "testutil.h"

#include "db.h"
#include "db_token.h"
#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

#define FIX "tests/fixtures/sarif/"
#define BODY_LIMIT ((size_t)1 << 20)

static tu_site g_site;
static char g_ci[DB_TOKEN_LEN + 1], g_reader[DB_TOKEN_LEN + 1];

static inline int sarif_setup(void **state)
{
    srv_options so = {0};
    sqlite3 *db = NULL;
    int rc;

    tu_site_init(&g_site, "sarif.db");
    if (tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    rc = db_open(&db, g_site.db, 0) < 0 || db_token_create(db, g_ci, "ci", "sarif") < 0 ||
         db_token_create(db, g_reader, "reader", "read") < 0;
    if (rc)
        fprintf(stderr, "setup: %s\n", pd_error_last());
    db_close(db);
    so.max_body = BODY_LIMIT;
    return rc || tu_site_serve(&g_site, &so) < 0 ? -1 : 0;
}

static inline int sarif_teardown(void **state)
{
    tu_site_free(&g_site);
    return 0;
}

/* A whole fixture file (caller frees). */
static inline char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;

    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    rewind(f);
    buf = malloc((size_t)n + 1);
    assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* POST a body to .../commits/{rev}/sarif{query} with `token` (NULL: none). */
static inline tu_http post(const char *rev, const char *query, const char *token,
                    const void *body, size_t len)
{
    char url[1024], auth[128];
    const char *hdrs[] = {auth, "Content-Type: application/sarif+json", NULL};

    snprintf(url, sizeof(url), "%s/api/v1/repos/demo/commits/%s/sarif%s", g_site.base, rev,
             query ? query : "");
    snprintf(auth, sizeof(auth), "Authorization: Bearer %s", token ? token : "");
    return tu_post(url, token ? hdrs : hdrs + 1, body, len);
}

/* POST a fixture with the CI token; returns the parsed reply, asserting status. */
static inline json_t *post_file(const char *rev, const char *query, const char *file, long status)
{
    size_t len;
    char *body = slurp(file, &len);
    tu_http h = post(rev, query, g_ci, body, len);
    json_t *doc = json_loads(h.body, 0, NULL);

    if (h.status != status)
        fail_msg("POST %s: status %ld, want %ld: %s", file, h.status, status, h.body);
    assert_non_null(doc);
    tu_http_free(&h);
    free(body);
    return doc;
}

static inline json_t *get(const char *path, long status)
{
    char url[2048];

    snprintf(url, sizeof(url), "%s%s", g_site.base, path);
    return tu_get_json(url, status);
}

/* The run of a POST reply or list with this tool and category. */
static inline json_t *run_of(json_t *runs, const char *tool, const char *category)
{
    json_t *r;
    size_t i;

    json_array_foreach(runs, i, r)
        if (strcmp(json_string_value(json_object_get(r, "tool")), tool) == 0 &&
            strcmp(json_string_value(json_object_get(r, "category")), category) == 0)
            return r;
    return NULL;
}

static inline json_int_t num(json_t *o, const char *key)
{
    return json_integer_value(json_object_get(o, key));
}

/* The findings of one file of tool `tool` with text `text` (NULL: any). */
static inline size_t findings(json_t *file, const char *tool, const char *text, json_t **last)
{
    json_t *f;
    size_t i, n = 0;

    json_array_foreach(json_object_get(file, "findings"), i, f) {
        if (strcmp(json_string_value(json_object_get(f, "tool")), tool) == 0 &&
            (!text || strcmp(json_string_value(json_object_get(f, "text")), text) == 0)) {
            n++;
            if (last)
                *last = f;
        }
    }
    return n;
}


/* POST `body` and expect 400 with exactly `detail` (prefix when `prefix`). */
static inline void expect_400(const char *body, const char *detail, int prefix)
{
    tu_http h = post("hpy-convert-object-dtype", NULL, g_ci, body, strlen(body));
    json_t *doc = json_loads(h.body, 0, NULL);
    const char *got = json_string_value(json_object_get(doc, "detail"));

    if (h.status != 400 || !got ||
        (prefix ? strncmp(got, detail, strlen(detail)) : strcmp(got, detail)))
        fail_msg("status %ld, detail %s; want 400, %s", h.status, got ? got : h.body, detail);
    assert_string_equal(h.ctype, "application/problem+json");
    json_decref(doc);
    tu_http_free(&h);
}


#endif
