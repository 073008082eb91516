/*
 * srv.c: the libmicrohttpd daemon, per-thread database connections and the
 * reply helpers shared by every handler (see srv.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <time.h>

#include "db.h"
#include "db_scope.h"
#include "db_token.h"
#include "pd_error.h"
#include "srv.h"
#include "srv_cache.h"
#include "srv_jobs.h"
#include "srv_metrics.h"
#include "srv_routes.h"

struct srv {
    struct MHD_Daemon *daemon;
    char *db_path;
    char *static_dir;
    char *vendor_dir;
    const char **repo_names;
    const char **repo_paths;
    size_t nrepos;
    pthread_key_t db_key;
    uint16_t port;
    int private_reads;
    size_t max_body;
    srv_metrics *metrics;
    srv_jobs *jobs;
    db_scopes *scopes;          /* named scopes (db_scope.h) */
    srv_cache *cache;           /* answer cache (srv_cache.h), NULL: none */
};

/* Per-connection state: made on the first callback, freed on completion. */
typedef struct {
    char *body;
    size_t len, cap;
    int too_big;
    double start;
} srv_conn;

static double srv_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void srv_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                          enum MHD_RequestTerminationCode toe)
{
    srv_conn *sc = *con_cls;

    if (sc) {
        free(sc->body);
        free(sc);
        *con_cls = NULL;
    }
}

/* Keep upload data; beyond the limit only remember that it was too big. */
static void srv_conn_append(srv_conn *sc, const char *data, size_t n, size_t max)
{
    if (sc->too_big || sc->len + n > max) {
        sc->too_big = 1;
        return;
    }
    if (sc->len + n + 1 > sc->cap) {
        size_t cap = sc->cap ? sc->cap : 65536;
        char *p;

        while (cap < sc->len + n + 1)
            cap *= 2;
        if (!(p = realloc(sc->body, cap))) {
            sc->too_big = 1;
            return;
        }
        sc->body = p;
        sc->cap = cap;
    }
    memcpy(sc->body + sc->len, data, n);
    sc->len += n;
    sc->body[sc->len] = '\0';
}

/* Parse "HOST:PORT" (IPv4 or [IPv6]) into a socket address. */
static int srv_parse_listen(struct sockaddr_storage *ss, socklen_t *len,
                            const char *listen)
{
    char host[128];
    const char *colon = strrchr(listen, ':');
    char *end;
    long port;

    if (!colon || (size_t)(colon - listen) >= sizeof(host))
        return pd_error_set(PD_EINVAL, "listen address '%s' is not HOST:PORT", listen);
    port = strtol(colon + 1, &end, 10);
    if (*end || end == colon + 1 || port < 0 || port > 65535)
        return pd_error_set(PD_EINVAL, "listen address '%s' has a bad port", listen);
    memcpy(host, listen, colon - listen);
    host[colon - listen] = '\0';
    memset(ss, 0, sizeof(*ss));
    if (host[0] == '[' && host[strlen(host) - 1] == ']') {
        struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

        host[strlen(host) - 1] = '\0';
        a->sin6_family = AF_INET6;
        a->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host + 1, &a->sin6_addr) != 1)
            return pd_error_set(PD_EINVAL, "bad IPv6 address in '%s'", listen);
        *len = sizeof(*a);
        return 0;
    }
    struct sockaddr_in *a4 = (struct sockaddr_in *)ss;

    a4->sin_family = AF_INET;
    a4->sin_port = htons((uint16_t)port);
    if (strcmp(host, "localhost") == 0)
        snprintf(host, sizeof(host), "127.0.0.1");
    if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
        return pd_error_set(PD_EINVAL, "bad IPv4 address in '%s'", listen);
    *len = sizeof(*a4);
    return 0;
}

static void srv_db_free(void *p)
{
    db_close(p);
}

/* This thread's connection, opened on first use. */
static sqlite3 *srv_thread_db(srv *s)
{
    sqlite3 *db = pthread_getspecific(s->db_key);

    if (!db && db_open(&db, s->db_path, 0) == 0)
        pthread_setspecific(s->db_key, db);
    return db;
}

/* Keep the URL as sent: routes split it on '/' and decode each segment, so
 * that %2F inside a ref name or path segment is not a separator. */
static size_t srv_no_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
    return strlen(uri);
}

/* Under --private, API reads need a token with scope "read". */
static int srv_private_denied(srv_req *r, const char *url, enum MHD_Result *ret)
{
    if (!r->server->private_reads || strncmp(url, "/api/", 5) != 0 ||
        strcmp(url, "/api/v1/openapi.json") == 0)
        return 0;
    return srv_authorize(r, "read", ret) < 0;
}

static enum MHD_Result srv_access(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    srv *s = cls;
    srv_conn *sc = *con_cls;
    enum MHD_Result ret;
    srv_req r;

    if (!sc) {
        if (!(sc = calloc(1, sizeof(*sc))))
            return MHD_NO;
        sc->start = srv_now();
        *con_cls = sc;
        return MHD_YES;
    }
    if (*upload_size) {
        srv_conn_append(sc, upload, *upload_size, s->max_body);
        *upload_size = 0;
        return MHD_YES;
    }
    memset(&r, 0, sizeof(r));
    r.server = s;
    r.conn = conn;
    r.method = method;
    r.url = url;
    r.route = -1;
    r.body = sc->body;
    r.body_len = sc->len;
    if (sc->too_big)
        ret = srv_reply_problem(&r, 413, "Content Too Large", "the request body is "
                                "over the limit of %zu bytes", s->max_body);
    else if (!(r.db = srv_thread_db(s)))
        ret = srv_reply_problem(&r, 500, "Database unavailable", "%s", pd_error_last());
    else if (!srv_private_denied(&r, url, &ret))
        ret = srv_routes_dispatch(&r, method, url);
    srv_metrics_record(s->metrics, r.route, r.status, srv_now() - sc->start);
    return ret;
}

int srv_authorize(srv_req *r, const char *scope, enum MHD_Result *ret)
{
    const char *h = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                MHD_HTTP_HEADER_AUTHORIZATION);
    char scopes[256];

    if (!h || strncmp(h, "Bearer ", 7) != 0 ||
        db_token_check(r->db, h + 7, scopes, sizeof(scopes)) != 0) {
        *ret = srv_reply_problem(r, 401, "Unauthorized", "this needs "
                                 "'Authorization: Bearer TOKEN' with a valid token "
                                 "(portdash token create)");
        return -1;
    }
    if (!db_token_has_scope(scopes, scope)) {
        *ret = srv_reply_problem(r, 403, "Forbidden", "the token lacks scope '%s'", scope);
        return -1;
    }
    return 0;
}

int srv_start(srv **out, const srv_options *opt)
{
    struct sockaddr_storage ss;
    socklen_t sslen = 0;
    const union MHD_DaemonInfo *info;
    srv *s = NULL;
    sqlite3 *probe = NULL;
    unsigned threads = opt->threads;
    int rc;

    *out = NULL;
    if ((rc = srv_parse_listen(&ss, &sslen, opt->listen ? opt->listen
                                                        : "127.0.0.1:8080")) < 0)
        return rc;
    /* Fail at start, not at the first request, on a bad database. */
    if ((rc = db_open(&probe, opt->db_path, 0)) < 0)
        return rc;
    db_close(probe);
    if (!(s = calloc(1, sizeof(*s))) || !(s->db_path = strdup(opt->db_path)) ||
        !(s->static_dir = strdup(opt->static_dir ? opt->static_dir : "static")) ||
        !(s->vendor_dir = strdup(opt->vendor_dir ? opt->vendor_dir : "node_modules"))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto fail;
    }
    s->private_reads = opt->private_reads;
    s->max_body = opt->max_body ? opt->max_body : (size_t)32 << 20;
    if (!(s->metrics = srv_metrics_new()) || !(s->jobs = srv_jobs_new(opt->db_path))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto fail;
    }
    if ((rc = db_scopes_load(&s->scopes, opt->scopes_path)) < 0)
        goto fail;
    if (opt->cache_mb >= 0 &&
        !(s->cache = srv_cache_new((size_t)(opt->cache_mb ? opt->cache_mb
                                            : SRV_CACHE_DEFAULT_MB) << 20))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto fail;
    }
    s->repo_names = opt->repo_names;
    s->repo_paths = opt->repo_paths;
    s->nrepos = opt->nrepos;
    pthread_key_create(&s->db_key, srv_db_free);
    if (threads == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (unsigned)n : 2;
    }
    s->daemon = MHD_start_daemon(
        MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
            (ss.ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
        0, NULL, NULL, srv_access, s,
        MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&ss,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_UNESCAPE_CALLBACK, srv_no_unescape, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_NOTIFY_COMPLETED, srv_completed, NULL,
        MHD_OPTION_END);
    if (!s->daemon) {
        rc = pd_error_set(PD_EIO, "cannot listen on %s: %s",
                          opt->listen ? opt->listen : "127.0.0.1:8080",
                          strerror(errno));
        goto fail;
    }
    info = MHD_get_daemon_info(s->daemon, MHD_DAEMON_INFO_BIND_PORT);
    s->port = info ? info->port : 0;
    if (!opt->no_warm)
        srv_cache_warm_start(s->cache, (struct sockaddr *)&ss, sslen, s->port);
    srv_jobs_on_done(s->jobs, srv_cache_warm_soon, s->cache);
    *out = s;
    return 0;
fail:
    srv_stop(s);
    return rc;
}

uint16_t srv_port(const srv *s)
{
    return s->port;
}

const char *srv_static_dir(const srv *s)
{
    return s->static_dir;
}

struct srv_jobs *srv_get_jobs(const srv *s)
{
    return s->jobs;
}

struct srv_cache *srv_get_cache(const srv *s)
{
    return s->cache;
}

struct srv_metrics *srv_get_metrics(const srv *s)
{
    return s->metrics;
}

const char *srv_db_path(const srv *s)
{
    return s->db_path;
}

const struct db_scopes *srv_get_scopes(const srv *s)
{
    return s->scopes;
}

const char *srv_vendor_dir(const srv *s)
{
    return s->vendor_dir;
}

void srv_stop(srv *s)
{
    if (!s)
        return;
    srv_cache_warm_stop(s->cache);
    if (s->daemon) {
        MHD_stop_daemon(s->daemon);
        pthread_key_delete(s->db_key);
    }
    db_scopes_free(s->scopes);
    free(s->db_path);
    free(s->static_dir);
    free(s->vendor_dir);
    free(s->metrics);
    srv_jobs_free(s->jobs);
    srv_cache_free(s->cache);
    free(s);
}

int srv_repo_path(srv_req *r, const char *name, char *buf, size_t n)
{
    srv *s = r->server;
    int64_t id;
    size_t i;

    for (i = 0; i < s->nrepos; i++) {
        if (strcmp(s->repo_names[i], name) == 0) {
            snprintf(buf, n, "%s", s->repo_paths[i]);
            return 0;
        }
    }
    return db_repo_find(r->db, name, &id, buf, n);
}

int srv_query(srv_req *r, const char *key, char *buf, size_t n)
{
    const char *raw = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, key);
    char *dec;

    if (!raw)
        return PD_ENOTFOUND;
    /* The URL is kept raw (srv_no_unescape), so arguments are too. */
    if (!(dec = srv_percent_decode(raw, strlen(raw))))
        return pd_error_set(PD_EINVAL, "query argument '%s' is not valid "
                            "percent-encoding", key);
    if (strlen(dec) >= n) {
        free(dec);
        return pd_error_set(PD_EINVAL, "query argument '%s' is too long", key);
    }
    memcpy(buf, dec, strlen(dec) + 1);
    free(dec);
    return 0;
}

