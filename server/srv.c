/*
 * srv.c: the libmicrohttpd daemon: admission, dispatch through the route
 * table, start and stop (see srv.h).  It calls the handlers; what they call
 * back (the request's accessors srv_req.c, replies, pages, the token check
 * srv_auth.c) lives in leaves below it.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include <time.h>

#include "db.h"
#include "db_scope.h"
#include "api_scope_series.h"
#include "pd_buf.h"
#include "pd_error.h"
#include "pd_sched.h"
#include "srv.h"
#include "srv_auth.h"
#include "srv_budget.h"
#include "srv_cache.h"
#include "srv_db.h"
#include "srv_int.h"
#include "srv_jobs.h"
#include "srv_metrics.h"
#include "srv_guard.h"
#include "srv_head.h"
#include "srv_listen.h"
#include "srv_req.h"
#include "srv_routes.h"
#include "srv_static.h"
#include "srv_url.h"

/* libmicrohttpd's memory per connection, which holds the request head: the
 * request line, headers and the parsed query arguments.  Its default, 32
 * KiB: libmicrohttpd clears it for every request of a kept-alive
 * connection, and at 128 KiB that memset was 17 % of a cached answer's CPU.
 * The arguments that once overflowed it (about 500, and then libmicrohttpd
 * answered nothing) are cut at 64 by srv_uri_seen, so a head that does not
 * fit is answered 431 (tests/unit/test_hostile.c). */
#define SRV_HEAD_MEMORY (32 * 1024)

/* What the API's query strings need, with room: about twenty argument
 * names exist, and the longest values (checkout_uri, category) are a few
 * KiB.  Beyond either bound the request gets 414. */
#define SRV_MAX_QUERY_ARGS 64
#define SRV_MAX_QUERY_BYTES 8192

/* Per-connection state: made on the first callback, freed on completion. */
typedef struct {
    pd_buf body;                /* the request body as it comes */
    size_t reserved;            /* bytes taken from the body budget */
    int too_big;
    int admitted;               /* the head was looked at (srv_admit) */
    int answered;               /* refused from the head: no body is read */
    int long_query;             /* query over SRV_MAX_QUERY_*: 414 */
    srv_refusal refusal;        /* why it was refused from the head */
    int counted;                /* admitted: counted in srv.answering */
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
    srv *s = cls;
    srv_conn *sc = *con_cls;

    srv_guard_request_done(c);
    if (sc && sc->counted) {
        pthread_mutex_lock(&s->lock);
        s->answering--;
        pthread_cond_broadcast(&s->answered);
        pthread_mutex_unlock(&s->lock);
    }
    if (sc) {
        srv_guard_release(s->guard, sc->reserved);
        pd_buf_free(&sc->body);
        free(sc);
        *con_cls = NULL;
    }
}

/*
 * libmicrohttpd's URI log callback: called with the whole request target
 * as soon as the request line is in, before it parses the query, and its
 * result becomes the request's *con_cls.  libmicrohttpd 0.9.75 keeps a
 * connection open without an answer when the parsed arguments do not fit
 * its memory pool, so a query over the bounds is cut here (the byte after
 * '?' becomes NUL, so nothing is parsed; the buffer is libmicrohttpd's own
 * writable read buffer) and the access handler answers 414.
 */
static void *srv_uri_seen(void *cls, const char *uri, struct MHD_Connection *conn)
{
    srv_conn *sc = calloc(1, sizeof(*sc));
    char *q = strchr(uri, '?');
    size_t nargs = 1;
    const char *p;

    if (!sc)
        return NULL;
    sc->start = srv_now();
    if (!q)
        return sc;
    for (p = q + 1; *p; p++)
        nargs += *p == '&' || *p == ';';
    if (nargs > SRV_MAX_QUERY_ARGS || strlen(q + 1) > SRV_MAX_QUERY_BYTES) {
        sc->long_query = 1;
        q[1] = '\0';
    }
    return sc;
}

/* Keep upload data; beyond the limit (or out of memory) only remember that
 * it was too big. */
static void srv_conn_append(srv_conn *sc, const char *data, size_t n, size_t max)
{
    sc->body.max = max;
    if (sc->too_big || !max || pd_buf_put(&sc->body, data, n) < 0)
        sc->too_big = 1;
}

/* This thread's connection (srv_db.h). */
static sqlite3 *srv_thread_db(srv *s)
{
    return srv_dbs_thread(s->dbs);
}

/* Keep the URL as sent: routes split it on '/' and decode each segment, so
 * that %2F inside a ref name or path segment is not a separator. */
static size_t srv_no_unescape(void *cls, struct MHD_Connection *c, char *uri)
{
    return strlen(uri);
}

/* 1 if the request will send a body: Content-Length above 0 or chunked;
 * *len gets the announced length (0 when chunked). */
static int srv_has_body(struct MHD_Connection *conn, uint64_t *len, int *bad)
{
    const char *cl = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_LENGTH);
    const char *te = MHD_lookup_connection_value(conn, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_TRANSFER_ENCODING);
    char *end;

    *len = 0;
    *bad = 0;
    if (cl) {
        errno = 0;
        *len = strtoull(cl, &end, 10);
        *bad = errno != 0 || end == cl || *end || cl[0] == '-';
    }
    return *len > 0 || (te && *te);
}

/* The route's checks: found, method, body, token.  0 or a refusal in f. */
static unsigned srv_admit_route(srv *s, srv_conn *sc, srv_req *r, const char *path,
                                uint64_t clen, int body, srv_refusal *f)
{
    srv_route_hold hold;
    const char *perm;
    size_t limit = 0;
    int rc, i = srv_routes_find(r, r->method, path, &hold);

    srv_routes_release(&hold);
    if (i == SRV_ROUTE_BAD)
        srv_refuse(f, 400, "Bad Request", "malformed percent-encoding in the request path");
    else if (i == SRV_ROUTE_BADREV)
        srv_refuse(f, 400, "Bad Request", "%s", pd_error_last());
    else if (i == SRV_ROUTE_EMPTY)
        srv_refuse(f, 400, "Bad Request", SRV_ROUTE_EMPTY_TEXT);
    else if (i == SRV_ROUTE_METHOD && snprintf(f->allow, sizeof(f->allow), "%s", hold.allow))
        srv_refuse(f, 405, "Method Not Allowed", "%s is not allowed here; allowed: %s",
                   r->method, hold.allow);
    else if (i < 0)
        srv_refuse(f, 404, "Not Found", "no such resource");
    else if (body && !(limit = srv_route_max_body(i, s->max_body)))
        srv_refuse(f, 413, "Content Too Large", "%s %s takes no request body", r->method,
                   srv_routes[i].pattern);
    else if (body && clen > limit)
        srv_refuse(f, 413, "Content Too Large", "the request body is over this route's "
                   "limit of %zu bytes", limit);
    if (f->status)
        return f->status;
    perm = srv_route_perm(i);
    if (!perm && s->private_reads)
        perm = "read";
    if (perm && *perm) {
        if (!(r->db = srv_thread_db(s))) {
            srv_refuse_db(f);
            return f->status;
        }
        if (srv_token_status(r, perm, f))
            return f->status;
    }
    /* Chunked bodies may grow to the route's limit; reserve that much. */
    sc->reserved = body ? (clen ? (size_t)clen : limit) : 0;
    if (sc->reserved && (rc = srv_guard_reserve(s->guard, r->conn, sc->reserved)) < 0) {
        sc->reserved = 0;
        srv_refuse(f, 503, "Service Unavailable", rc == -2
                   ? "too many request bodies in flight from your address; retry later"
                   : "too many request bodies in flight; retry later");
    }
    return f->status;
}

/*
 * Everything decided from the request head alone, before any body is read
 * (libmicrohttpd's first call has all headers): the framing and the
 * headers that must be single (srv_head_check), the target's form, Host,
 * room for one more connection, the route and method, the body's announced
 * size and the token.  Returns 0 to go on reading the request, or 1 when
 * it is refused (the refusal in sc->refusal).  A refused request's body is
 * never read: the answer goes out at once and the connection is closed
 * (r->close), so a client without a token costs no more than its head.
 */
static int srv_admit(srv *s, srv_conn *sc, srv_req *r, const char *version)
{
    srv_refusal *f = &sc->refusal;
    char authority[256];
    const char *path, *host;
    size_t plen;
    uint64_t clen;
    int body, bad;

    if ((f->status = srv_head_check(r->conn, f->detail, sizeof(f->detail)))) {
        f->title = f->status == 400 ? "Bad Request" : "Not Implemented";
        r->close = 1;       /* what follows the head cannot be told apart */
        return 1;
    }
    if (strcmp(version, MHD_HTTP_VERSION_1_0) != 0 &&
        !MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST)) {
        srv_refuse(f, 400, "Bad Request", "HTTP/1.1 needs a Host header (RFC 9112 "
                   "section 3.2)");
        return 1;
    }
    host = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (srv_url_target(r->url, &path, &plen, authority, sizeof(authority)) < 0 ||
        path[plen] != '\0') {
        srv_refuse(f, 400, "Bad Request", "the request target must be a path starting "
                   "with '/' (or an absolute http URL)");
        return 1;
    }
    r->url = path;
    if (authority[0])
        host = authority;
    body = srv_has_body(r->conn, &clen, &bad);
    if (host && !srv_host_allowed(host, s->host_names, s->nhost_names))
        srv_refuse(f, 421, "Misdirected Request", "this server does not answer for "
                   "that host name; serve --host-name NAME adds one");
    /* Near the hard limit, answer instead of letting libmicrohttpd close new
     * connections without a word. */
    else if (srv_guard_connections(s->guard) > s->max_connections - s->max_connections / 8)
        srv_refuse(f, 503, "Service Unavailable", "too many open connections; retry later");
    else if (bad)
        srv_refuse(f, 400, "Bad Request", "malformed Content-Length");
    else if (clen > s->max_body)
        srv_refuse(f, 413, "Content Too Large", "the request body is over the limit "
                   "of %zu bytes", s->max_body);
    else if (!srv_admit_route(s, sc, r, path, clen, body, f))
        return 0;
    r->close = body || bad;
    return 1;
}

/* Count an admitted request as one whose answer srv_stop waits for. */
static void srv_count_answer(srv *s, srv_conn *sc)
{
    pthread_mutex_lock(&s->lock);
    s->answering++;
    pthread_mutex_unlock(&s->lock);
    sc->counted = 1;
}

/* libmicrohttpd's first call for a request, with the head complete: admit
 * it (MHD_YES and nothing queued), or refuse it now. */
static enum MHD_Result srv_head(srv *s, srv_conn *sc, srv_req *r, const char *version)
{
    enum MHD_Result ret;

    sc->admitted = 1;
    srv_guard_head_done(r->conn);
    if (sc->long_query) {
        r->close = 1;           /* its body is not read either */
        ret = srv_reply_problem(r, 414, "URI Too Long", "the query has more than %d "
                                "arguments or %d bytes", SRV_MAX_QUERY_ARGS,
                                SRV_MAX_QUERY_BYTES);
    } else if (!srv_admit(s, sc, r, version)) {
        srv_count_answer(s, sc);
        return MHD_YES;
    } else {
        ret = srv_refusal_reply(r, &sc->refusal);
    }
    sc->answered = 1;
    srv_metrics_record(s->metrics, r->route, r->status, srv_now() - sc->start);
    return ret;
}

/* Find the route of (method, path) and answer through the answer cache
 * (srv_cache.h), or refuse: 400, 404, 405 (srv_routes.h). */
static enum MHD_Result srv_dispatch(srv_req *r, const char *method, const char *url)
{
    srv_route_hold h;
    enum MHD_Result ret;
    int i = srv_routes_find(r, method, url, &h);

    if (i >= 0) {
        r->never_immutable = srv_routes[i].cache == SRV_CACHE_COMMIT_LIVE;
        ret = srv_cache_dispatch(r->server->cache, r, &srv_routes[i]);
    } else {
        ret = srv_routes_refuse(r, method, i, &h);
    }
    srv_routes_release(&h);
    return ret;
}

static enum MHD_Result srv_access(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    srv *s = cls;
    srv_conn *sc = *con_cls;
    enum MHD_Result ret = MHD_YES;
    srv_req r;

    memset(&r, 0, sizeof(r));
    r.server = s;
    r.private_reads = s->private_reads;
    r.conn = conn;
    r.method = method;
    r.url = url;
    r.route = -1;
    if (!sc)
        return MHD_NO;          /* srv_uri_seen ran out of memory */
    if (!sc->admitted)
        return srv_head(s, sc, &r, version);
    if (sc->answered) {
        *upload_size = 0;
        return MHD_YES;
    }
    if (*upload_size) {
        srv_guard_body_progress(conn, *upload_size);
        srv_conn_append(sc, upload, *upload_size,
                        sc->reserved < s->max_body ? sc->reserved : s->max_body);
        *upload_size = 0;
        return MHD_YES;
    }
    srv_guard_body_done(conn);
    /* srv_admit checked the target's form; take the path part again. */
    {
        char authority[256];
        size_t plen;

        if (srv_url_target(url, &r.url, &plen, authority, sizeof(authority)) < 0)
            return MHD_NO;
    }
    r.body = sc->body.data;
    r.body_len = sc->body.len;
    if (sc->too_big)
        ret = srv_reply_problem(&r, 413, "Content Too Large", "the request body is "
                                "longer than announced or over the limit of %zu bytes",
                                sc->reserved);
    else if (s->stopping)
        ret = srv_reply_problem(&r, 503, "Service Unavailable", "the server is stopping; "
                                "retry later");
    else if (!(r.db = srv_thread_db(s)))
        ret = db_error_busy() ? srv_reply_error(&r, PD_EDB)
              : strcmp(r.url, "/healthz") == 0
              ? srv_reply_problem(&r, 503, "Service Unavailable", "the database cannot be "
                                  "read: %s", pd_error_last())
              : srv_reply_problem(&r, 500, "Database unavailable", "%s", pd_error_last());
    else {
        /* A write's work is bounded by its body limit; it gets ten reads'
         * time, as a SARIF import of the largest body takes seconds. */
        srv_budget_begin(strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0
                         ? s->budget : 10 * s->budget, &s->stopping);
        ret = srv_dispatch(&r, method, r.url);
        srv_budget_end();
    }
    srv_metrics_record(s->metrics, r.route, r.status, srv_now() - sc->start);
    return ret;
}

/*
 * libmicrohttpd's own messages, on stderr with its name.  Its bind failure
 * names port 0 (the address comes in MHD_OPTION_SOCK_ADDR, not as the
 * port argument): srv_start reports that one itself, with the address.
 */
static void srv_mhd_log(void *cls, const char *fmt, va_list ap)
{
    (void)cls;
    if (strncmp(fmt, "Failed to bind to port", 22) == 0)
        return;
    fputs("portdash serve: libmicrohttpd: ", stderr);
    vfprintf(stderr, fmt, ap);
}

/* libmicrohttpd's accept policy: once the server is stopping, a new
 * connection is closed at once, unanswered, rather than left waiting (see
 * srv_drain for why the listening socket itself stays open). */
static enum MHD_Result srv_accept(void *cls, const struct sockaddr *addr, socklen_t len)
{
    const srv *s = cls;

    (void)addr;
    (void)len;
    return s->stopping ? MHD_NO : MHD_YES;
}

/*
 * libmicrohttpd with epoll (no FD_SETSIZE ceiling on connections, which
 * select() puts at 1024), a thread pool, and the limits of srv_options.
 */
static struct MHD_Daemon *srv_daemon(srv *s, const struct sockaddr_storage *ss,
                                     const srv_options *opt)
{
    unsigned threads = opt->threads;
    /* Behind a proxy on loopback every client has the proxy's address, so
     * a per-address limit only applies to a server listening in the open. */
    int per_client = opt->max_per_client > 0 ? opt->max_per_client
                     : opt->max_per_client < 0 || srv_is_loopback(ss) ? 0 : 64;

    if (threads == 0)
        threads = pd_sched_cpus();
    return MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG | MHD_USE_ITC |
            (ss->ss_family == AF_INET6 ? MHD_USE_IPv6 : 0),
        0, srv_accept, s, srv_access, s,
        MHD_OPTION_EXTERNAL_LOGGER, srv_mhd_log, NULL,   /* first: all go there */
        MHD_OPTION_SOCK_ADDR, (const struct sockaddr *)ss,
        MHD_OPTION_THREAD_POOL_SIZE, threads,
        MHD_OPTION_UNESCAPE_CALLBACK, srv_no_unescape, NULL,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30,
        MHD_OPTION_CONNECTION_LIMIT, (unsigned)s->max_connections,
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned)per_client,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)SRV_HEAD_MEMORY,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, (unsigned)4096,
        MHD_OPTION_NOTIFY_COMPLETED, srv_completed, s,
        MHD_OPTION_URI_LOG_CALLBACK, srv_uri_seen, NULL,
        MHD_OPTION_NOTIFY_CONNECTION, srv_guard_notify, s->guard,
        MHD_OPTION_END);
}

/* The server's state from opt, s allocated with its paths: locks,
 * limits, metrics, jobs, scopes, the answer cache, the connection guard
 * and the database handles.  0 or an error (PD_ENOMEM, a scopes file's);
 * the caller frees s (srv_stop) either way. */
static int srv_setup(srv *s, const srv_options *opt)
{
    srv_guard_limits lim = {0};
    int rc;

    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->answered, NULL);
    s->private_reads = opt->private_reads;
    s->budget = opt->request_budget > 0 ? opt->request_budget : 30;
    s->db_wait_ms = opt->db_wait_ms > 0 ? opt->db_wait_ms : 10000;
    s->max_body = opt->max_body ? opt->max_body : (size_t)32 << 20;
    if (!(s->metrics = srv_metrics_new()) || !(s->jobs = srv_jobs_new(opt->db_path)))
        return pd_error_nomem(NULL);
    if ((rc = db_scopes_load(&s->scopes, opt->scopes_path)) < 0)
        return rc;
    if (opt->cache_mb >= 0 &&
        !(s->cache = srv_cache_new((size_t)(opt->cache_mb ? opt->cache_mb
                                            : SRV_CACHE_DEFAULT_MB) << 20)))
        return pd_error_nomem(NULL);
    if (s->cache && !(s->series = api_scope_series_new()))
        return pd_error_nomem(NULL);
    s->repo_names = opt->repo_names;
    s->repo_paths = opt->repo_paths;
    s->nrepos = opt->nrepos;
    s->host_names = opt->host_names;
    s->nhost_names = opt->nhost_names;
    s->max_connections = srv_connection_limit(opt->max_connections);
    lim.body_seconds = opt->body_timeout;
    /* One address may hold half the budget, and always one largest body. */
    lim.per_client_bytes = opt->body_budget ? opt->body_budget / 2 : 2 * s->max_body;
    if (lim.per_client_bytes < s->max_body)
        lim.per_client_bytes = s->max_body;
    if (!(s->guard = srv_guard_new(opt->head_timeout ? opt->head_timeout : 10,
                                   opt->body_budget ? opt->body_budget
                                                    : 4 * s->max_body,
                                   &lim, s->metrics)))
        return pd_error_set(PD_ENOMEM, "cannot start the connection guard");
    if (!(s->dbs = srv_dbs_new(s->db_path, s->db_wait_ms, s->cache)))
        return pd_error_nomem(NULL);
    return 0;
}

int srv_start(srv **out, const srv_options *opt)
{
    struct sockaddr_storage ss;
    socklen_t sslen = 0;
    const union MHD_DaemonInfo *info;
    srv *s = NULL;
    sqlite3 *probe = NULL;
    int rc;

    *out = NULL;
    if ((rc = srv_parse_listen(&ss, &sslen, opt->listen ? opt->listen
                                                        : "127.0.0.1:8080")) < 0 ||
        (rc = srv_mhd_load()) < 0)
        return rc;
    /* Fail at start, not at the first request, on a bad database (a missing
     * one: db_open says how to make it, or that a first ingest is). */
    if ((rc = db_open(&probe, opt->db_path, 0)) < 0)
        return rc;
    db_close(probe);
    if (!(s = calloc(1, sizeof(*s))) || !(s->db_path = strdup(opt->db_path)) ||
        !(s->static_dir = strdup(opt->static_dir ? opt->static_dir : "static")) ||
        !(s->vendor_dir = strdup(opt->vendor_dir ? opt->vendor_dir : "node_modules"))) {
        rc = pd_error_nomem(NULL);
        goto fail;
    }
    if ((rc = srv_setup(s, opt)) < 0)
        goto fail;
    if (!(s->daemon = srv_daemon(s, &ss, opt))) {
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

/*
 * The first part of stopping: no new connection (srv_accept closes each at
 * once, so clients are not kept waiting), work in handlers ends at its
 * next look at the budget (srv_budget.h: 503), and every admitted request
 * is answered before the daemon stops, within SRV_DRAIN_SECONDS: an
 * upload committed while the signal came is answered 201, one whose body
 * was still coming 503.  Requests still sending their head are not waited
 * for.
 *
 * Not MHD_quiesce_daemon(): with epoll threads it removes the listening
 * socket from each thread's epoll set while that thread's MHD_epoll() may
 * be removing it too, and one of MHD_epoll()'s removals takes the loser's
 * ENOENT for a panic, "Failed to remove listen FD from epoll set"
 * (libmicrohttpd 0.9.75, daemon.c; it aborted test_hostile and
 * test_measures now and then, and a serve stopped by SIGTERM alike).
 */
#define SRV_DRAIN_SECONDS 10

static void srv_drain(srv *s)
{
    struct timespec ts;

    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_sec += SRV_DRAIN_SECONDS;
    pthread_mutex_lock(&s->lock);
    while (s->answering > 0 &&
           pthread_cond_timedwait(&s->answered, &s->lock, &ts) == 0)
        ;
    pthread_mutex_unlock(&s->lock);
}

size_t srv_vendor_missing(const char *vendor_dir, const char **missing, size_t max)
{
    return srv_static_vendor_missing(vendor_dir, missing, max);
}

void srv_stop(srv *s)
{
    if (!s)
        return;
    /* First, so that the warming requests waited for next end too. */
    s->stopping = 1;
    srv_jobs_stop(s->jobs);
    srv_cache_warm_stop(s->cache);
    if (s->daemon) {
        srv_drain(s);
        MHD_stop_daemon(s->daemon);     /* closes the listening socket */
    }
    srv_dbs_free(s->dbs);
    srv_guard_free(s->guard);
    db_scopes_free(s->scopes);
    free(s->db_path);
    free(s->static_dir);
    free(s->vendor_dir);
    free(s->metrics);
    srv_jobs_free(s->jobs);
    srv_cache_free(s->cache);
    api_scope_series_free(s->series);
    pthread_mutex_destroy(&s->lock);
    pthread_cond_destroy(&s->answered);
    free(s);
}


