/*
 * srv_routes.h: the route table, one record per route, and its matcher.
 * Patterns are '/'-separated; `{name}` captures one segment, `{name...}`
 * the rest of the path (one or more segments).  Each segment is
 * percent-decoded after splitting, so `%2F` stays inside a ref name or path
 * segment.  A path that matches no pattern gets 404, one that matches only
 * under another method 405 with Allow.
 */
#ifndef SRV_ROUTES_H
#define SRV_ROUTES_H

#include "srv_req.h"

/*
 * What a route's GET answers are cached under (srv_cache.h says what each
 * key is made of).  The policy is the route's, not its URL's: a new route
 * says it in its record.
 */
typedef enum {
    SRV_CACHE_NO,          /* not cached: writes, a job's progress, health,
                            * metrics, the dashboard's files */
    SRV_CACHE_DB,          /* the database generation (any write anywhere) */
    SRV_CACHE_REF,         /* the {ref}'s tip and the analysis key */
    SRV_CACHE_COMMIT,      /* the full commit id of {rev}, the analysis key
                            * and the commit's SARIF and dismissal
                            * generations; "immutable" when asked by full
                            * commit id */
    SRV_CACHE_COMMIT_LIVE  /* the same key, never "immutable": SARIF uploads
                            * and dismissals change these answers */
} srv_cache_policy;

/* The request body a route takes; beyond it the answer is 413 from the
 * head (srv_route_max_body). */
typedef enum {
    SRV_BODY_NONE,         /* no body */
    SRV_BODY_SMALL,        /* small JSON: SRV_SMALL_BODY */
    SRV_BODY_LARGE         /* an upload: the server's --max-body */
} srv_body_kind;

/* The permission of a route open to everyone, even under serve --private. */
#define SRV_PUBLIC ""

/*
 * One route, one record, like Redis's command table: the router, the
 * token check, the answer cache, the body limit and the OpenAPI document
 * (server/openapi.json, which a test holds against this table: method,
 * path, operationId, security) all read it.  doc/hacking.md, "How to add
 * a route", says what a new one touches.
 */
typedef struct {
    const char *method;
    const char *pattern;
    srv_handler handler;
    /* The token permission it needs, checked before any body is read: the
     * write permission of a route that writes ("sarif", "ingest", "triage");
     * SRV_PUBLIC for what holds no repository data (the dashboard's files,
     * /healthz, the OpenAPI document, the route list); NULL for every
     * other read, which needs "read" under serve --private and nothing
     * otherwise. */
    const char *perm;
    srv_cache_policy cache;
    srv_body_kind body;
    const char *operation;    /* the OpenAPI operationId; NULL: not API (the
                               * dashboard's own files) */
    const char *schema;       /* components/schemas name of the success
                               * answer's JSON; NULL when it is not JSON */
    const char *summary;      /* one line, for documentation */
} srv_route;

/* The token permission of route `i` (its record's `perm`). */
const char *srv_route_perm(int i);

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
#define SRV_ROUTE_EMPTY  (-5)   /* an empty segment in a {path...}: 400 */
#define SRV_ROUTE_EMPTY_TEXT "an empty segment in the request path ('//' or a trailing '/')"

extern const srv_route srv_routes[];
extern const size_t srv_routes_count;

/*
 * Match (method, path) against the table.  `path` is the request path as
 * srv_url_target() gives it (starts with '/', raw, no query).  Returns the
 * route's index with r->route, r->param and r->tail set (decoded copies
 * held in *h until srv_routes_release), or SRV_ROUTE_BAD/EMPTY/NONE/METHOD, or
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

#endif
