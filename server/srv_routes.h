/*
 * srv_routes.h: the route table.  Patterns are '/'-separated; `{name}`
 * captures one segment, `{name...}` the rest of the path (one or more
 * segments).  Each segment is percent-decoded after splitting, so `%2F`
 * stays inside a ref name or path segment.  A path that matches no pattern
 * gets 404, one that matches only under another method 405 with Allow.
 */
#ifndef SRV_ROUTES_H
#define SRV_ROUTES_H

#include "srv.h"

typedef struct {
    const char *method;
    const char *pattern;
    srv_handler handler;
    const char *summary;      /* one line, for documentation */
} srv_route;

extern const srv_route srv_routes[];
extern const size_t srv_routes_count;

/* Find and run the handler for (method, raw url). */
enum MHD_Result srv_routes_dispatch(srv_req *r, const char *method, const char *url);

/*
 * Percent-decode `in` (length n) into a new NUL-terminated string (freed
 * with free()).  Returns NULL for a malformed escape or an encoded NUL.
 */
char *srv_percent_decode(const char *in, size_t n);

#endif
