/*
 * srv_capture.c: keep a handler's answer for the answer cache (see
 * srv_capture.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "srv_capture.h"

/* Keep the answer's headers' part in cap (the body is set). */
static void srv_capture_meta(srv_req *r, srv_cache_capture *cap, const char *ctype,
                             size_t len)
{
    cap->len = len;
    cap->done = 1;
    cap->immutable = r->immutable && !r->never_immutable;
    snprintf(cap->ctype, sizeof(cap->ctype), "%s", ctype);
    snprintf(cap->link, sizeof(cap->link), "%s", r->link);
}

int srv_capture_reply(srv_req *r, unsigned status, const char *ctype, const void *buf,
                      size_t len)
{
    srv_cache_capture *cap = r->capture;

    if (!cap || status != 200 || cap->done || !(cap->buf = malloc(len + 1)))
        return 0;
    memcpy(cap->buf, buf, len);
    cap->buf[len] = '\0';
    srv_capture_meta(r, cap, ctype, len);
    return 1;
}

int srv_capture_take(srv_req *r, unsigned status, const char *ctype, char *buf,
                     size_t len)
{
    srv_cache_capture *cap = r->capture;

    if (!cap || status != 200 || cap->done || !buf)
        return 0;
    cap->buf = buf;
    srv_capture_meta(r, cap, ctype, len);
    return 1;
}
