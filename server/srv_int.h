/*
 * srv_int.h: the server's state, private to the daemon that builds and
 * stops it (srv.c) and the request accessors that read it (srv_req.c).
 */
#ifndef SRV_INT_H
#define SRV_INT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */

#include "db_scope.h"
#include "srv_cache.h"
#include "srv_db.h"
#include "srv_guard.h"
#include "srv_jobs.h"
#include "srv_metrics.h"
#include "srv_req.h"

struct srv {
    struct MHD_Daemon *daemon;
    char *db_path;
    char *static_dir;
    char *vendor_dir;
    const char **repo_names;
    const char **repo_paths;
    size_t nrepos;
    srv_dbs *dbs;               /* the worker threads' connections (srv_db.h) */
    double budget;              /* seconds of work for a read's answer */
    volatile int stopping;      /* srv_stop began: in-flight work ends */
    pthread_mutex_t lock;       /* for `answering` */
    pthread_cond_t answered;
    int answering;              /* requests admitted and not yet answered */
    uint16_t port;
    int private_reads;
    int db_wait_ms;             /* busy timeout of the worker connections */
    size_t max_body;
    const char **host_names;    /* Host values accepted besides IP literals */
    size_t nhost_names;
    size_t max_connections;     /* libmicrohttpd's hard limit */
    srv_guard *guard;           /* head deadline, body budget (srv_guard.h) */
    srv_metrics *metrics;
    srv_jobs *jobs;
    db_scopes *scopes;          /* named scopes (db_scope.h) */
    srv_cache *cache;           /* answer cache (srv_cache.h), NULL: none */
    struct api_scope_series *series; /* kept scoped histories, NULL: none */
};

#endif
