/*
 * srv_capture.h: a handler's 200 answer kept instead of sent, for the
 * answer cache (srv_cache.c) to store and serve.  A leaf under both the
 * replies (srv_reply.c, which hands an answer here when asked) and the
 * cache (which asks, by setting srv_req.capture).
 */
#ifndef SRV_CAPTURE_H
#define SRV_CAPTURE_H

#include <stddef.h>

#include "srv_req.h"

/* What a handler replied, when the cache asked to keep it (srv_req.capture). */
typedef struct srv_cache_capture {
    int done;
    char *buf;              /* malloc'd copy of the body */
    size_t len;
    char ctype[128];
    char link[1024];
    int immutable;          /* r->immutable, unless r->never_immutable */
} srv_cache_capture;

/* Keep a 200 answer in r->capture instead of sending it: 1 when kept, 0
 * when the reply goes out as usual (other status, no capture asked, out of
 * memory). */
int srv_capture_reply(srv_req *r, unsigned status, const char *ctype, const void *buf,
                      size_t len);

/* The same for a malloc'd body `buf` (NUL-terminated at buf[len]), which
 * the capture takes when it keeps it (1): a 1.2 MB file page is not
 * copied.  0: not kept, buf still the caller's. */
int srv_capture_take(srv_req *r, unsigned status, const char *ctype, char *buf,
                     size_t len);

#endif
