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

#define SRV_PUBLIC ""

/*
 * The token scope route `i` needs, checked before any body is read: the
 * write scope of a route that writes ("sarif", "ingest"); SRV_PUBLIC for
 * what holds no repository data (the dashboard's files, /healthz, the
 * OpenAPI document); NULL for every other read, which needs "read" under
 * serve --private and nothing otherwise.
 */
const char *srv_route_scope(int i);

/* The small JSON bodies (ingest trigger, dismissal): 64 KiB.  A 30 MB body
 * on them once grew the server by 620 MB (issue 27). */
#define SRV_SMALL_BODY (64 * 1024)

/*
 * The largest request body route `i` takes, given the server's limit for
 * the largest (`max_body`, the SARIF upload's): SRV_SMALL_BODY for the
 * routes that take small JSON, `max_body` for the upload, 0 for a route
 * that takes no body.  Beyond it the answer is 413 from the head.
 */
size_t srv_route_max_body(int i, size_t max_body);

/* Matched route's owned captures and the Allow list of a 405. */
typedef struct {
    char *owned[66];
    size_t nowned;
    char allow[64];
} srv_route_hold;

#define SRV_ROUTE_BAD    (-1)   /* malformed percent-encoding: 400 */
#define SRV_ROUTE_NONE   (-2)   /* no pattern matches: 404 */
#define SRV_ROUTE_METHOD (-3)   /* matches under another method: 405 */
#define SRV_ROUTE_BADREV (-4)   /* a {rev} or {ref} outside pd_rev.h: 400 */

extern const srv_route srv_routes[];
extern const size_t srv_routes_count;

/*
 * Match (method, path) against the table.  `path` is the request path as
 * srv_url_target() gives it (starts with '/', raw, no query).  Returns the
 * route's index with r->route, r->param and r->tail set (decoded copies
 * held in *h until srv_routes_release), or SRV_ROUTE_BAD/NONE/METHOD, or
 * SRV_ROUTE_BADREV (message set) when a {rev} or {ref} capture is not a
 * revision pd_rev_check accepts.
 */
int srv_routes_find(srv_req *r, const char *method, const char *path, srv_route_hold *h);

/* Free what srv_routes_find captured; h may be released twice. */
void srv_routes_release(srv_route_hold *h);

/* Reply 400, 404 or 405 (with Allow from h) for a srv_routes_find code
 * (400 with the rule for SRV_ROUTE_BADREV). */
enum MHD_Result srv_routes_refuse(srv_req *r, const char *method, int code,
                                  srv_route_hold *h);

/* Find and run the handler for (method, path); srv_routes_find + refuse. */
enum MHD_Result srv_routes_dispatch(srv_req *r, const char *method, const char *url);

/*
 * Percent-decode `in` (length n) into a new NUL-terminated string (freed
 * with free()).  Returns NULL for a malformed escape or an encoded NUL.
 */
char *srv_percent_decode(const char *in, size_t n);

#endif
