/*
 * testutil.h: helpers shared by the cmocka tests: fixture repositories,
 * temporary databases, shell commands and HTTP requests.  Header-only so
 * each test binary stays one file.
 *
 * Tests run from the repository root; tests/run_all.sh sets
 * PORTDASH_FIXTURES to the directory of the fixture repositories it built.
 */
#ifndef TESTUTIL_H
#define TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <curl/curl.h>
#include <jansson.h>

#include "ingest.h"
#include "pd_error.h"
#include "srv.h"

/* Path of a fixture repository built by run_all.sh (static buffer). */
static inline const char *tu_fixture(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("PORTDASH_FIXTURES");

    snprintf(buf, sizeof(buf), "%s/%s.git", dir ? dir : "build-san/fixtures", name);
    return buf;
}

/* A fresh temporary directory (caller frees the string). */
static inline char *tu_tmpdir(void)
{
    char *t = strdup("/tmp/portdash-test-XXXXXX");

    assert_non_null(mkdtemp(t));
    return t;
}

/* 1 when something is at path p (lstat). */
static inline int tu_exists(const char *p)
{
    struct stat sb;

    return lstat(p, &sb) == 0;
}

/* The big-endian number of `n` bytes (at most 4) at offset `off` of the
 * SQLite database header of file p (https://sqlite.org/fileformat2.html):
 * (18, 2) the write and read versions, 0x0202 in WAL mode and 0x0101 in
 * rollback mode; (68, 4) the application_id. */
static inline uint32_t tu_db_header(const char *p, size_t off, size_t n)
{
    unsigned char h[100];
    uint32_t v = 0;
    size_t i;
    FILE *fp = fopen(p, "rb");

    assert_non_null(fp);
    assert_int_equal(fread(h, 1, sizeof(h), fp), sizeof(h));
    fclose(fp);
    for (i = 0; i < n && off + i < sizeof(h); i++)
        v = v << 8 | h[off + i];
    return v;
}

/* Run a shell command built from a format; returns its exit status. */
static inline int tu_sh(const char *fmt, ...)
{
    char cmd[8192];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    return system(cmd);
}

/* Run a shell command and return its stdout (caller frees). */
static inline char *tu_sh_out(const char *fmt, ...)
{
    char cmd[8192], *buf = NULL;
    size_t len = 0, cap = 0, n;
    char chunk[4096];
    va_list ap;
    FILE *p;

    va_start(ap, fmt);
    vsnprintf(cmd, sizeof(cmd), fmt, ap);
    va_end(ap);
    p = popen(cmd, "r");
    assert_non_null(p);
    while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0) {
        if (len + n + 1 > cap) {
            cap = (len + n + 1) * 2;
            buf = realloc(buf, cap);
        }
        memcpy(buf + len, chunk, n);
        len += n;
    }
    pclose(p);
    if (!buf)
        buf = calloc(1, 1);
    else
        buf[len] = '\0';
    return buf;
}

typedef struct {
    long status;
    char *body;
    size_t len;
    char ctype[128];
    char allow[128];
    char headers[4096];       /* every response header line, as received */
} tu_http;

static size_t tu_http_write(char *ptr, size_t size, size_t nmemb, void *arg)
{
    tu_http *h = arg;
    size_t n = size * nmemb;

    h->body = realloc(h->body, h->len + n + 1);
    memcpy(h->body + h->len, ptr, n);
    h->len += n;
    h->body[h->len] = '\0';
    return n;
}

static size_t tu_http_header(char *ptr, size_t size, size_t nmemb, void *arg)
{
    tu_http *h = arg;
    size_t n = size * nmemb, len = strlen(h->headers);

    snprintf(h->headers + len, sizeof(h->headers) - len, "%.*s", (int)n, ptr);
    if (n > 7 && strncasecmp(ptr, "Allow: ", 7) == 0)
        snprintf(h->allow, sizeof(h->allow), "%.*s", (int)(n - 9), ptr + 7);
    return n;
}

/* The value of response header `name` (case-insensitive), or "" (a static
 * buffer, valid until the next call). */
static inline const char *tu_header(const tu_http *h, const char *name)
{
    static char v[1024];
    const char *p = h->headers;
    size_t n = strlen(name);

    v[0] = '\0';
    while (p && *p) {
        if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
            snprintf(v, sizeof(v), "%.*s", (int)strcspn(p + n + 2, "\r\n"), p + n + 2);
            break;
        }
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    return v;
}

/*
 * One request: `method` to `url` with extra request headers (NULL-terminated
 * "Name: value" list, may be NULL) and, for POST, `len` bytes of `body`.
 * `decode`: let curl ask for and undo gzip.  The reply's body is
 * NUL-terminated.  Free with tu_http_free.
 */
static inline tu_http tu_send(const char *method, const char *url, const char **headers,
                              const void *body, size_t len, int decode)
{
    tu_http h = {0};
    CURL *c = curl_easy_init();
    struct curl_slist *hl = NULL;
    char *ct = NULL;

    assert_non_null(c);
    h.body = calloc(1, 1);
    /* No "Expect: 100-continue" round trip; the server reads bodies as they come. */
    hl = curl_slist_append(hl, "Expect:");
    for (; headers && *headers; headers++)
        hl = curl_slist_append(hl, *headers);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body ? body : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    }
    if (decode)
        curl_easy_setopt(c, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, tu_http_write);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &h);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, tu_http_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, &h);
    curl_easy_setopt(c, CURLOPT_PATH_AS_IS, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    assert_int_equal(curl_easy_perform(c), CURLE_OK);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &h.status);
    curl_easy_getinfo(c, CURLINFO_CONTENT_TYPE, &ct);
    snprintf(h.ctype, sizeof(h.ctype), "%s", ct ? ct : "");
    curl_easy_cleanup(c);
    curl_slist_free_all(hl);
    return h;
}

/* One request without body or extra headers. */
static inline tu_http tu_request(const char *method, const char *url)
{
    return tu_send(method, url, NULL, NULL, 0, 0);
}

/* POST `len` bytes of `body` to `url` with extra request headers. */
static inline tu_http tu_post(const char *url, const char **headers, const void *body,
                              size_t len)
{
    return tu_send("POST", url, headers, body, len, 0);
}

static inline void tu_http_free(tu_http *h)
{
    free(h->body);
    h->body = NULL;
}

/* GET a JSON document, asserting status and content type; caller decrefs. */
/* Append printf output at buf + *len (cap bytes in all); the length
 * grows; the test fails when it would not fit. */
static inline void tu_append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void tu_append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    *len += (size_t)vsnprintf(buf + *len, *len < cap ? cap - *len : 0, fmt, ap);
    va_end(ap);
    assert_true(*len < cap);
}

static inline json_t *tu_get_json(const char *url, long want_status)
{
    tu_http h = tu_request("GET", url);
    json_error_t err;
    json_t *doc;

    if (h.status != want_status)
        fail_msg("GET %s: status %ld, want %ld; body %s", url, h.status,
                 want_status, h.body);
    assert_string_equal(h.ctype, want_status < 400 ? "application/json"
                                                   : "application/problem+json");
    doc = json_loads(h.body, 0, &err);
    if (!doc)
        fail_msg("GET %s: invalid JSON (%s): %s", url, err.text, h.body);
    tu_http_free(&h);
    return doc;
}

/*
 * A test site: a temporary directory holding a database, fixture
 * repositories ingested into it, and a real server on a free loopback port.
 * The setup every API test shares.
 */
typedef struct {
    char *dir;
    char db[4200];
    char base[64];            /* http://127.0.0.1:PORT */
    srv *server;
} tu_site;

/* Make the directory and name the database dir/`dbname`. */
static inline void tu_site_init(tu_site *s, const char *dbname)
{
    memset(s, 0, sizeof(*s));
    s->dir = tu_tmpdir();
    snprintf(s->db, sizeof(s->db), "%s/%s", s->dir, dbname);
}

/* Ingest the space-separated `refs` of fixture repository `fixture` as
 * repository `name`.  0, or -1 after printing why. */
static inline int tu_site_ingest(tu_site *s, const char *fixture, const char *name,
                                 const char *refs)
{
    char buf[512], *save = NULL, *r;
    const char *list[16];
    ingest_options o = {0};

    snprintf(buf, sizeof(buf), "%s", refs);
    for (r = strtok_r(buf, " ", &save); r && o.nrefs < 16; r = strtok_r(NULL, " ", &save))
        list[o.nrefs++] = r;
    o.db_path = s->db;
    o.repo_path = tu_fixture(fixture);
    o.name = name;
    o.refs = list;
    if (ingest_run(&o, NULL) < 0) {
        fprintf(stderr, "ingest %s: %s\n", fixture, pd_error_last());
        return -1;
    }
    return 0;
}

/* Serve the site's database; `so` (may be NULL) carries extra options, its
 * db_path and listen are set here.  0, or -1 after printing why. */
/* `path` with every byte but [A-Za-z0-9/._-] percent-encoded, into out
 * (size n): fixture paths have spaces, markup and non-UTF-8 bytes. */
static inline void tu_url_path(char *out, size_t n, const char *path)
{
    size_t o = 0;

    for (; *path && o + 4 < n; path++) {
        unsigned char c = (unsigned char)*path;

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("/._-", c))
            out[o++] = (char)c;
        else
            o += (size_t)snprintf(out + o, n - o, "%%%02X", c);
    }
    out[o] = '\0';
}

/* GET `path` (from "/") on the site's server: its status; a 500 must be
 * a problem document whose text has `word` (what the server blames). */
static inline long tu_site_status(const tu_site *s, const char *path, const char *word)
{
    char url[1024];
    tu_http h;
    long status;

    snprintf(url, sizeof(url), "%s%s", s->base, path);
    h = tu_request("GET", url);
    status = h.status;
    if (status == 500) {
        assert_string_equal(h.ctype, "application/problem+json");
        assert_non_null(strstr(h.body, word));
    }
    tu_http_free(&h);
    return status;
}

/* GET `path` (from "/") on the site's server: its JSON, failing the test
 * unless the status is `want_status` (tu_get_json). */
static inline json_t *tu_site_get(const tu_site *s, const char *path, long want_status)
{
    char url[4096];

    snprintf(url, sizeof(url), "%s%s", s->base, path);
    return tu_get_json(url, want_status);
}

static inline int tu_site_serve(tu_site *s, srv_options *so)
{
    srv_options dflt = {0};

    if (!so)
        so = &dflt;
    so->db_path = s->db;
    so->listen = "127.0.0.1:0";
    if (!so->static_dir)
        so->static_dir = "static";
    if (!so->threads)
        so->threads = 2;
    if (srv_start(&s->server, so) < 0) {
        fprintf(stderr, "serve: %s\n", pd_error_last());
        return -1;
    }
    snprintf(s->base, sizeof(s->base), "http://127.0.0.1:%u", srv_port(s->server));
    curl_global_init(CURL_GLOBAL_DEFAULT);
    return 0;
}

/* Stop the server and remove the directory. */
static inline void tu_site_free(tu_site *s)
{
    if (s->server) {
        srv_stop(s->server);
        curl_global_cleanup();
    }
    if (s->dir)
        tu_sh("rm -rf '%s'", s->dir);
    free(s->dir);
    memset(s, 0, sizeof(*s));
}

#endif
