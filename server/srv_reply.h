/*
 * srv_reply.h: every answer goes out through these: the replies handlers
 * make, and the pieces the answer cache (srv_cache.c) shares, so that a
 * cached answer goes out with the very headers, ETag and gzip form of a
 * computed one.
 */
#ifndef SRV_REPLY_H
#define SRV_REPLY_H

#include <stddef.h>

#include <jansson.h>

#include "pd_buf.h"
#include "srv_req.h"

/* Reply with a JSON document (reference stolen), 200 unless `status`. */
enum MHD_Result srv_reply_json(srv_req *r, unsigned status, json_t *doc);

/* Reply with a problem document; `detail` is printf-formatted. */
enum MHD_Result srv_reply_problem(srv_req *r, unsigned status, const char *title,
                                  const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Reply with the last pd_error as a problem: 404 for PD_ENOTFOUND, 400 for
 * PD_EINVAL, 503 with Retry-After for a database locked by another writer,
 * 500 otherwise. */
enum MHD_Result srv_reply_error(srv_req *r, int code);

/* Reply with bytes (copied). */
enum MHD_Result srv_reply_bytes(srv_req *r, unsigned status, const char *ctype,
                                const void *buf, size_t len);

/*
 * Reply 200 with the JSON written into `b` (its bytes taken, b emptied):
 * the answer cache keeps them without a copy (srv_capture_take) when it
 * asked for the answer, else they are sent.  A buffer whose writing failed
 * (b->err) is a 500 problem.  For the answers written without a jansson
 * tree (the file page, a ref's history).
 */
enum MHD_Result srv_reply_json_buf(srv_req *r, pd_buf *b);

/* Size of an ETag buffer: a quoted 40-hex blob id, "-gzip" and the NUL. */
#define SRV_ETAG_SIZE 56

/* The strong ETag of a body: its git blob id (SHA-1 of "blob LEN\0" and the
 * bytes), quoted, into out (SRV_ETAG_SIZE bytes). */
void srv_reply_etag(char *out, const void *buf, size_t len);

/*
 * The ETag of the gzip coding of the body whose ETag is `etag`: the same id
 * with "-gzip" ("ID-gzip").  A strong validator changes with the content
 * coding (RFC 9110 8.8.3), so the two representations never share one and a
 * cache in front never answers a 304 for one with the other's bytes.  Into
 * out (SRV_ETAG_SIZE bytes).
 */
void srv_reply_etag_gzip(char *out, const char *etag);

/* 1 when the request's If-None-Match lists `etag` (or is "*"; a weak "W/"
 * form of it matches too, RFC 9110 13.1.2 weak comparison), else 0. */
int srv_reply_etag_matches(srv_req *r, const char *etag);

/* 1 if the client's Accept-Encoding allows gzip. */
int srv_reply_accepts_gzip(srv_req *r);

/* 1 when a body of this content type is worth compressing. */
int srv_reply_compressible(const char *ctype);

/* gzip `buf` (RFC 1952) into a malloc'd buffer of *out_len bytes; NULL if it
 * cannot be done, or does not pay (under 1 KiB, or no smaller). */
unsigned char *srv_reply_gzip(const void *buf, size_t len, size_t *out_len);

/* The headers every answer carries: Content-Type (when ctype is not NULL),
 * nosniff, the CSP, Vary: Accept-Encoding, and Link when `link` is set. */
void srv_reply_add_headers(struct MHD_Response *resp, const char *ctype, const char *link);

/*
 * Adds the caching headers of an answer with an ETag: immutable ones
 * `Cache-Control: public, max-age=31536000, immutable`; the others
 * `X-Accel-Expires: 1` then `Cache-Control: no-cache`, so that a client
 * revalidates every time and an nginx proxy_cache in front (which drops
 * X-Accel-* before the client) keeps the answer one second and then
 * revalidates it with If-None-Match.  nginx 1.22 reads X-Accel-Expires
 * only when it comes before Cache-Control, hence the order
 * (deploy/nginx/portdash.conf, tests/deploy/nginx.sh).  With
 * `private_reads` (serve --private, answers only for token holders) both
 * say `private` and there is no X-Accel-Expires, which nginx would obey
 * over Cache-Control: no shared cache may keep them (RFC 9111 §5.2.2.7).
 */
void srv_reply_cache_headers(struct MHD_Response *resp, int immutable, int private_reads);

#endif
