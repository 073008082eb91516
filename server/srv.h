/*
 * srv.h: the HTTP server: libmicrohttpd with a thread pool, one route table
 * (srv_routes.c), JSON API handlers (api_*.c) and the static dashboard.
 *
 * Errors are RFC 9457 problem documents (application/problem+json).  Each
 * worker thread keeps its own SQLite connection; libgit2 repositories are
 * opened per request because libgit2 objects are not shared across threads.
 */
#ifndef SRV_H
#define SRV_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <microhttpd.h>
#include <sqlite3.h>

#include "srv_reply.h"
#include "srv_req.h"

typedef struct {
    const char *db_path;
    const char *listen;        /* "HOST:PORT"; NULL: 127.0.0.1:8080; port 0: any */
    const char *static_dir;    /* dashboard files */
    const char *vendor_dir;    /* npm packages (node_modules); NULL: "node_modules" */
    const char **repo_names;   /* --repo NAME=GITDIR overrides of git dirs */
    const char **repo_paths;
    size_t nrepos;
    unsigned threads;          /* worker threads; 0: number of CPUs */
    int private_reads;         /* 1: API reads need a token with scope "read" */
    size_t max_body;           /* request body limit in bytes; 0: 32 MiB */
    const char *scopes_path;   /* scopes file (db_scope.h); NULL: built-in */
    long cache_mb;             /* answer cache bound (srv_cache.h) in MiB; 0: the
                                * default, negative: no cache */
    int no_warm;               /* 1: do not warm the cache (srv_warm.h) */
    const char **host_names;   /* Host header names accepted besides IP literals
                                * and localhost; "*": any (srv_url.h) */
    size_t nhost_names;
    size_t max_connections;    /* open connections at once; 0: 4096 (lowered
                                * to what RLIMIT_NOFILE allows) */
    int max_per_client;        /* connections per client address; -1: no
                                * limit; 0: none on loopback, else 64 */
    double head_timeout;       /* seconds for a request head; 0: 10 */
    double body_timeout;       /* seconds for a request body after its head;
                                * 0: 120 (and at least 1 KiB/s after 10 s:
                                * srv_guard.h) */
    size_t body_budget;        /* bytes of all bodies in flight; 0: 4 x max_body */
    int db_wait_ms;            /* how long a request waits for a lock another
                                * connection holds before its 503; 0: 10000 */
    double request_budget;     /* seconds of work one read's answer may take
                                * (writes: ten times it), then 503; 0: 30
                                * (srv_budget.h) */
} srv_options;


/*
 * Start serving.  *out is a running server stopped with srv_stop().  Errors:
 * PD_EINVAL (bad listen address), PD_EDB (database cannot be opened), PD_EIO
 * (cannot bind; message says the address).
 */
int srv_start(srv **out, const srv_options *opt);

/* The TCP port actually bound (useful with port 0). */
uint16_t srv_port(const srv *s);

/* Stop and free; accepts NULL. */
void srv_stop(srv *s);

/* ---- for handlers ---- */

/* srv_req and srv_handler: srv_req.h. */

/* The replies (srv_reply_json, _problem, _error, _bytes): srv_reply.h. */

/* The git directory of repository `name` (override or stored), copied into
 * buf.  0, PD_ENOTFOUND, PD_EDB. */
int srv_repo_path(srv_req *r, const char *name, char *buf, size_t n);

/*
 * The query-string argument `key`, percent-decoded into buf (size n).
 * Returns 0, PD_ENOTFOUND when absent, PD_EINVAL when malformed or too long
 * (with pd_error_set naming the argument).
 */
int srv_query(srv_req *r, const char *key, char *buf, size_t n);

/*
 * Check the request's `Authorization: Bearer TOKEN` for `scope`.  Returns 0
 * when allowed; otherwise replies 401 (no or unknown token, with
 * WWW-Authenticate) or 403 (token without the scope) and returns -1 with the
 * reply's result in *ret.
 */
int srv_authorize(srv_req *r, const char *scope, enum MHD_Result *ret);

/*
 * Cut a JSON array to the page the client asked for (?page=N&per_page=M,
 * 1-based; per_page defaults to `per_page_default`, at most 10 times that),
 * and set the Link header (rel first, prev, next, last, RFC 8288) keeping
 * the request's other query arguments.  Steals `arr`; returns the page, or
 * NULL with pd_error_set(PD_EINVAL) on a bad argument.
 */
json_t *srv_paginate(srv_req *r, json_t *arr, size_t per_page_default);

/*
 * The page the client asked for (?page=N&per_page=M, as srv_paginate) for
 * a handler that pages its lists itself, so that it never holds more than
 * one page: *page (1-based) and *per, per_page cut to `per_page_max` (what
 * one answer of the route may hold in memory; the answer says the per_page
 * it used).  0, or PD_EINVAL (message set).
 */
int srv_page_window(srv_req *r, size_t per_page_default, size_t per_page_max,
                    size_t *page, size_t *per);

/* Set the Link header (first, prev, next, last) for page `page` of `per`
 * items out of `total`. */
void srv_page_link(srv_req *r, size_t page, size_t per, size_t total);

/* The server's background ingest jobs. */
struct srv_jobs *srv_get_jobs(const srv *s);

/* The server's answer cache (srv_cache.h); NULL when disabled. */
struct srv_cache *srv_get_cache(const srv *s);

/* The server's metrics (for GET /metrics). */
struct srv_metrics *srv_get_metrics(const srv *s);

/* The server's named scopes (db_scope.h), loaded at start. */
struct db_scopes;
const struct db_scopes *srv_get_scopes(const srv *s);

/* The worker threads' database connections (srv_db.h). */
struct srv_dbs *srv_get_dbs(const srv *s);

/* The database file the server reads. */
const char *srv_db_path(const srv *s);

/* The static directory of the server. */
const char *srv_static_dir(const srv *s);

/* The npm packages directory of the server. */
const char *srv_vendor_dir(const srv *s);

#endif
