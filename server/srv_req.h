/*
 * srv_req.h: one request as a handler sees it, the handler's type, and
 * what a handler asks of its request and server (srv_req.c): query
 * arguments, a repository's git directory, the server's parts.  Below the
 * server (srv.h), the route table (srv_routes.h), the cache and the
 * replies, which all pass it along: a leaf, so that none of them needs the
 * daemon to name a request, and no handler calls back into the daemon.
 */
#ifndef SRV_REQ_H
#define SRV_REQ_H

#include <stddef.h>

#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */
#include <sqlite3.h>

typedef struct srv srv;

#define SRV_MAX_PARAMS 4

/* One request as a handler sees it. */
typedef struct {
    srv *server;
    struct MHD_Connection *conn;
    sqlite3 *db;                          /* this thread's connection */
    const char *param[SRV_MAX_PARAMS];    /* decoded {name} captures, in order */
    const char *tail;                     /* decoded {path...} capture or NULL */
    const char *allow;                    /* Allow header for a 405, or NULL */
    const char *method;                   /* request method */
    const char *url;                      /* request path, raw */
    const char *body;                     /* request body (NUL-terminated) or NULL */
    size_t body_len;                      /* bytes of body */
    int route;                            /* index in srv_routes, -1: none */
    unsigned status;                      /* status sent, for metrics */
    int immutable;                        /* answer about a full commit id */
    int never_immutable;                  /* the route's answers change under
                                           * a full commit id (its record's
                                           * SRV_CACHE_COMMIT_LIVE): "immutable"
                                           * is never sent */
    int private_reads;                    /* serve --private: Cache-Control private */
    char link[1024];                      /* Link header of a paginated list */
    struct srv_cache_capture *capture;    /* set by srv_cache: keep the answer */
    char location[128];                   /* Location header (a 202's job), or "" */
    int close;                            /* answer with Connection: close (a
                                           * refused body is not read) */
    /* An internal request (srv_first.c) has no connection (conn NULL): its
     * query string is `args` (raw, as sent), no header is read, and its 200
     * answer's body is appended to `sink` instead of being sent. */
    const char *args;
    struct srv_sink *sink;
} srv_req;

/* Where an internal request's 200 answer goes (srv_req.sink). */
typedef struct srv_sink {
    char *buf;                            /* malloc'd, NUL-terminated, or NULL */
    size_t len;
} srv_sink;

/* Keep `len` bytes of `buf` as the answer of internal request r (r->sink;
 * a second answer replaces the first).  0, or -1 when out of memory. */
int srv_sink_keep(srv_req *r, const void *buf, size_t len);

typedef enum MHD_Result (*srv_handler)(srv_req *r);

/* The git directory of repository `name` (override or stored), copied into
 * buf.  0, PD_ENOTFOUND, PD_EDB. */
int srv_repo_path(srv_req *r, const char *name, char *buf, size_t n);

/*
 * The query-string argument `key`, percent-decoded into buf (size n).
 * Returns 0, PD_ENOTFOUND when absent, PD_EINVAL when malformed or too long
 * (with pd_error_set naming the argument).
 */
int srv_query(srv_req *r, const char *key, char *buf, size_t n);

/* The server's background ingest jobs. */
struct srv_jobs *srv_get_jobs(const srv *s);

/* The server's answer cache (srv_cache.h); NULL when disabled. */
struct srv_cache *srv_get_cache(const srv *s);

/* The server's kept scoped histories (api_scope_series.h); NULL when the
 * answer cache is disabled. */
struct api_scope_series *srv_get_series(const srv *s);

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
