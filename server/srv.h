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
#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */
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
    int private_reads;         /* 1: API reads need a token with permission "read" */
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

/*
 * The browser libraries (vendor files) the dashboard loads that are not
 * under `vendor_dir`: up to `max` of their paths in missing[], the count
 * returned (0: all there).  Without them the charts, reports, diffs and
 * colours fail in the browser, not in the server: `serve` warns at start.
 */
size_t srv_vendor_missing(const char *vendor_dir, const char **missing, size_t max);

/* Stop and free; accepts NULL. */
void srv_stop(srv *s);

/* What handlers use (the request, its accessors, replies, pages, the token
 * check): srv_req.h, srv_reply.h, srv_page.h, srv_auth.h. */

#endif
