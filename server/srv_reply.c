/*
 * srv_reply.c: every response goes out here (or, for cached answers, with
 * the same pieces from srv_cache.c): the common headers, gzip for clients
 * that accept it, ETags and 304s, Link headers for paginated lists, and the
 * status the metrics count.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "db.h"
#include "pd_error.h"
#include "pd_utf8.h"
#include "srv_capture.h"
#include "srv_budget.h"
#include "srv_reply.h"

int srv_reply_accepts_gzip(srv_req *r)
{
    const char *ae = r->conn ? MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                           MHD_HTTP_HEADER_ACCEPT_ENCODING)
                             : NULL;

    return ae && strstr(ae, "gzip") && !strstr(ae, "gzip;q=0");
}

int srv_reply_compressible(const char *ctype)
{
    return strncmp(ctype, "application/", 12) == 0 || strncmp(ctype, "text/", 5) == 0 ||
           strncmp(ctype, "image/svg", 9) == 0;
}

unsigned char *srv_reply_gzip(const void *buf, size_t len, size_t *out_len)
{
    z_stream z;
    unsigned char *out;
    size_t cap = compressBound(len) + 32;

    memset(&z, 0, sizeof(z));
    if (len < 1024)
        return NULL;
    if (!(out = malloc(cap)))
        return NULL;
    /* windowBits 15 + 16 asks zlib for a gzip header and trailer. */
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        free(out);
        return NULL;
    }
    z.next_in = (unsigned char *)buf;
    z.avail_in = (uInt)len;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    if (deflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out >= len) {
        deflateEnd(&z);
        free(out);
        return NULL;
    }
    *out_len = z.total_out;
    deflateEnd(&z);
    return out;
}

void srv_reply_etag(char *out, const void *buf, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char id[EVP_MAX_MD_SIZE];
    unsigned int n = 0, i;
    char head[32], *o = out;
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    int hlen = snprintf(head, sizeof(head), "blob %zu", len);

    /* OpenSSL's SHA-1, not libgit2's: libgit2 detects collision attacks,
     * which costs 5 ms for a 1.2 MB answer (a quarter of a cold file page,
     * issue 26.3) where OpenSSL's takes about one; the id is the same. */
    if (!ctx || !EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) ||
        !EVP_DigestUpdate(ctx, head, (size_t)hlen + 1) ||
        !EVP_DigestUpdate(ctx, buf, len) || !EVP_DigestFinal_ex(ctx, id, &n) || n != 20) {
        git_oid oid;     /* OpenSSL out of memory: libgit2's, the same id */

        git_odb_hash(&oid, buf, len, GIT_OBJECT_BLOB);
        memcpy(id, oid.id, 20);
        n = 20;
    }
    EVP_MD_CTX_free(ctx);
    *o++ = '"';
    for (i = 0; i < n; i++) {
        *o++ = digits[id[i] >> 4];
        *o++ = digits[id[i] & 15];
    }
    *o++ = '"';
    *o = '\0';
}

void srv_reply_etag_gzip(char *out, const char *etag)
{
    size_t n = strlen(etag);

    /* etag is quoted: the suffix goes inside the quotes. */
    snprintf(out, SRV_ETAG_SIZE, "%.*s-gzip\"", n > 1 ? (int)(n - 1) : 0, etag);
}

int srv_reply_etag_matches(srv_req *r, const char *etag)
{
    const char *inm = r->conn ? MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                            MHD_HTTP_HEADER_IF_NONE_MATCH)
                              : NULL;
    size_t n = strlen(etag);
    const char *p;

    if (!inm)
        return 0;
    if (strcmp(inm, "*") == 0)
        return 1;
    /* A list of entity tags: the quoted tag must stand whole, not inside
     * another one. */
    for (p = strstr(inm, etag); p; p = strstr(p + 1, etag)) {
        char after = p[n];

        if ((after == '\0' || after == ',' || after == ' ') &&
            (p == inm || p[-1] == ' ' || p[-1] == ',' || p[-1] == '/'))
            return 1;
    }
    return 0;
}

void srv_reply_add_headers(struct MHD_Response *resp, const char *ctype, const char *link)
{
    if (ctype)
        MHD_add_response_header(resp, "Content-Type", ctype);
    MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(resp, "Content-Security-Policy",
                            "default-src 'self'; img-src 'self' data:; "
                            "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'");
    MHD_add_response_header(resp, "Vary", "Accept-Encoding");
    if (link && link[0])
        MHD_add_response_header(resp, "Link", link);
}

static void srv_common_headers(srv_req *r, struct MHD_Response *resp, const char *ctype)
{
    srv_reply_add_headers(resp, ctype, r->link);
    if (r->allow)
        MHD_add_response_header(resp, "Allow", r->allow);
    if (r->location[0])
        MHD_add_response_header(resp, "Location", r->location);
    if (r->status == 401)
        MHD_add_response_header(resp, "WWW-Authenticate", "Bearer realm=\"portdash\"");
    if (r->status == 503)
        MHD_add_response_header(resp, "Retry-After", "5");
    if (r->close)
        MHD_add_response_header(resp, "Connection", "close");
}

enum MHD_Result srv_reply_bytes(srv_req *r, unsigned status, const char *ctype,
                                const void *buf, size_t len)
{
    struct MHD_Response *resp;
    enum MHD_Result ret;
    unsigned char *gz = NULL;
    size_t gzlen = 0;
    char etag[SRV_ETAG_SIZE] = "";
    int want_gz;

    if (srv_capture_reply(r, status, ctype, buf, len))
        return MHD_YES;
    r->status = status;
    if (!r->conn) {             /* an internal request (srv_req.sink) */
        if (status == 200)
            srv_sink_keep(r, buf, len);
        return MHD_YES;
    }
    want_gz = srv_reply_compressible(ctype) && srv_reply_accepts_gzip(r);
    /* Every 200 answer can be revalidated, cached or not; each coding has
     * its own ETag.  A client revalidating its gzip copy gets its 304
     * without the body being compressed again (the gzip form of the same
     * bytes is always the same). */
    if (status == 200) {
        char plain[SRV_ETAG_SIZE];

        srv_reply_etag(plain, buf, len);
        srv_reply_etag_gzip(etag, plain);
        if (!(want_gz && srv_reply_etag_matches(r, etag))) {
            if (want_gz)
                gz = srv_reply_gzip(buf, len, &gzlen);
            if (!gz)
                memcpy(etag, plain, sizeof(plain));
        }
        if (srv_reply_etag_matches(r, etag)) {
            r->status = status = 304;
            len = 0;
            free(gz);
            gz = NULL;
        }
    } else if (want_gz) {
        gz = srv_reply_gzip(buf, len, &gzlen);
    }
    resp = gz ? MHD_create_response_from_buffer(gzlen, gz, MHD_RESPMEM_MUST_FREE)
              : MHD_create_response_from_buffer(len, (void *)buf, MHD_RESPMEM_MUST_COPY);
    if (!resp) {
        free(gz);
        return MHD_NO;
    }
    srv_common_headers(r, resp, status == 304 ? NULL : ctype);
    if (gz)
        MHD_add_response_header(resp, "Content-Encoding", "gzip");
    if (etag[0]) {
        MHD_add_response_header(resp, "ETag", etag);
        srv_reply_cache_headers(resp, r->immutable && !r->never_immutable,
                                r->private_reads);
    }
    ret = MHD_queue_response(r->conn, status, resp);
    MHD_destroy_response(resp);
    return ret;
}

void srv_reply_cache_headers(struct MHD_Response *resp, int immutable, int private_reads)
{
    if (private_reads) {
        MHD_add_response_header(resp, "Cache-Control",
                                immutable ? "private, max-age=31536000, immutable"
                                          : "private, no-cache");
        return;
    }
    if (immutable) {
        MHD_add_response_header(resp, "Cache-Control", "public, max-age=31536000, immutable");
        return;
    }
    MHD_add_response_header(resp, "X-Accel-Expires", "1");
    MHD_add_response_header(resp, "Cache-Control", "no-cache");
}

enum MHD_Result srv_reply_json_buf(srv_req *r, pd_buf *b)
{
    enum MHD_Result ret;
    size_t len;
    char *body = pd_buf_take(b, &len);

    if (!body)
        return srv_reply_problem(r, 500, "Internal error", "could not encode JSON");
    if (srv_capture_take(r, 200, "application/json", body, len))
        return MHD_YES;
    ret = srv_reply_bytes(r, 200, "application/json", body, len);
    free(body);
    return ret;
}

enum MHD_Result srv_reply_json(srv_req *r, unsigned status, json_t *doc)
{
    char *text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    enum MHD_Result ret;

    json_decref(doc);
    if (!text)
        return srv_reply_problem(r, 500, "Internal error", "could not encode JSON");
    ret = srv_reply_bytes(r, status, "application/json", text, strlen(text));
    free(text);
    return ret;
}

enum MHD_Result srv_reply_problem(srv_req *r, unsigned status, const char *title,
                                  const char *fmt, ...)
{
    char detail[1024], *fixed = NULL;
    va_list ap;
    json_t *doc;
    char *text;
    enum MHD_Result ret;

    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    /* A detail quoting the request's bytes (a path or value that is not
     * UTF-8, or cut inside a character at the buffer's end) keeps its
     * words: the bad bytes become U+FFFD, as json_pack refuses them. */
    if (!pd_utf8_valid(detail, strlen(detail)))
        fixed = pd_utf8_repair(detail, strlen(detail), NULL);
    doc = json_pack("{s:s, s:s, s:i, s:s}", "type", "about:blank", "title", title,
                    "status", (int)status, "detail", fixed ? fixed : detail);
    free(fixed);
    if (!doc)
        doc = json_pack("{s:s, s:s, s:i}", "type", "about:blank", "title", title,
                        "status", (int)status);
    text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
    json_decref(doc);
    if (!text)
        return MHD_NO;
    ret = srv_reply_bytes(r, status, "application/problem+json", text, strlen(text));
    free(text);
    return ret;
}

enum MHD_Result srv_reply_error(srv_req *r, int code)
{
    /* Work cut by the request's budget or a stopping server (srv_budget.h):
     * whatever error that surfaced as, the answer is "later". */
    if (code != PD_EINVAL && code != PD_ENOTFOUND && srv_budget_over())
        return srv_reply_problem(r, 503, "Service Unavailable", srv_budget_stopping()
                                 ? "the server is stopping; retry later"
                                 : "the answer needed more than its budget of %.0f s "
                                   "of work; retry later", srv_budget_seconds());
    /* Another connection held a lock past the busy timeout (db.c): the
     * request may succeed later, so 503 with Retry-After, not 500. */
    if (code == PD_EDB && db_error_busy())
        return srv_reply_problem(r, 503, "Service Unavailable", "%s; retry later",
                                 pd_error_last());
    switch (code) {
    case PD_EBUSY:          /* another ingest holds the database's work lock */
        return srv_reply_problem(r, 503, "Service Unavailable", "%s", pd_error_last());
    case PD_ENOTFOUND:
        return srv_reply_problem(r, 404, "Not Found", "%s", pd_error_last());
    case PD_EINVAL:
        return srv_reply_problem(r, 400, "Bad Request", "%s", pd_error_last());
    default:
        return srv_reply_problem(r, 500, "Internal Server Error", "%s",
                                 pd_error_last());
    }
}
