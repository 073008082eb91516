/*
 * srv_req.h: one request as a handler sees it, and the handler's type.
 * Below the server (srv.h), the route table (srv_routes.h), the cache and
 * the replies, which all pass it along: a leaf, so that none of them needs
 * the daemon to name a request.
 */
#ifndef SRV_REQ_H
#define SRV_REQ_H

#include <stddef.h>

#include <microhttpd.h>
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
} srv_req;

typedef enum MHD_Result (*srv_handler)(srv_req *r);

#endif
