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

#include <cmocka.h>
#include <curl/curl.h>
#include <jansson.h>

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
    size_t n = size * nmemb;

    if (n > 7 && strncasecmp(ptr, "Allow: ", 7) == 0)
        snprintf(h->allow, sizeof(h->allow), "%.*s", (int)(n - 9), ptr + 7);
    return n;
}

/* One request; the body is NUL-terminated.  Free with tu_http_free. */
static inline tu_http tu_request(const char *method, const char *url)
{
    tu_http h = {0};
    CURL *c = curl_easy_init();
    char *ct = NULL;

    assert_non_null(c);
    h.body = calloc(1, 1);
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
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
    return h;
}

/*
 * POST `len` bytes of `body` to `url` with extra request headers
 * (NULL-terminated list of "Name: value", may be NULL); the reply as
 * tu_request gives it.  Free with tu_http_free.
 */
static inline tu_http tu_post(const char *url, const char **headers, const void *body,
                              size_t len)
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
    curl_easy_setopt(c, CURLOPT_POST, 1L);
    curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
    curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
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

static inline void tu_http_free(tu_http *h)
{
    free(h->body);
    h->body = NULL;
}

/* GET a JSON document, asserting status and content type; caller decrefs. */
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

#endif
