/*
 * srv_guard.c: connection deadlines and the body budget (srv_guard.h).
 *
 * libmicrohttpd's CONNECTION_TIMEOUT is an idle timeout: a client sending
 * one header byte every few seconds keeps a connection forever.  The
 * deadline here counts from the start of the head instead.  Closing is a
 * shutdown() of the socket from this thread; libmicrohttpd then sees the
 * end of the stream and closes the connection itself.  That is safe
 * because libmicrohttpd reports NOTIFY_CLOSED before it closes the socket,
 * and a record leaves the list (under the lock) on that report, so a
 * socket number is never touched after it could have been reused.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

#include "srv_guard.h"

typedef struct srv_guard_conn {
    struct srv_guard_conn *prev, *next;
    srv_guard *guard;
    int fd;
    int head_done;             /* under guard->lock, as all below */
    int reaped;
    double head_start;
    unsigned char addr[16];    /* the client's address (v4: 4 bytes) */
    int addrlen;
    int in_body;               /* a body is on its way */
    double body_start;
    size_t body_bytes;         /* received so far */
    size_t reserved;           /* of the body budget, until the request ends */
} srv_guard_conn;

struct srv_guard {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    int stop;
    double head_seconds;
    srv_guard_limits lim;
    size_t body_budget, body_used;
    size_t nconns;
    unsigned long reaped;
    srv_guard_conn *head;
    srv_metrics *metrics;
};

static double srv_guard_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char srv_guard_408[] =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
    "Content-Type: application/problem+json\r\nContent-Length: 105\r\n\r\n"
    "{\"type\":\"about:blank\",\"title\":\"Request Timeout\",\"status\":408,"
    "\"detail\":\"the request head came too slowly\"}";
static const char srv_guard_408_body[] =
    "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n"
    "Content-Type: application/problem+json\r\nContent-Length: 105\r\n\r\n"
    "{\"type\":\"about:blank\",\"title\":\"Request Timeout\",\"status\":408,"
    "\"detail\":\"the request body came too slowly\"}";

/* 1 when connection c is late: a head past its deadline, or a body past
 * its deadline or under the minimum rate after the grace time. */
static int srv_guard_late(const srv_guard *g, const srv_guard_conn *c, double now)
{
    double t = now - c->body_start;

    if (!c->head_done)
        return now - c->head_start >= g->head_seconds;
    if (!c->in_body)
        return 0;
    return t >= g->lim.body_seconds ||
           (t >= g->lim.body_grace && (double)c->body_bytes < g->lim.body_min_rate * t);
}

static void srv_guard_sweep(srv_guard *g, double now)
{
    srv_guard_conn *c;

    for (c = g->head; c; c = c->next) {
        int unread = 0;

        if (c->reaped || !srv_guard_late(g, c, now))
            continue;
        /* Bytes the server has not read yet: the server is behind (a burst
         * on a busy machine), not the client; not this client's fault. */
        if (ioctl(c->fd, FIONREAD, &unread) == 0 && unread > 0)
            continue;
        c->reaped = 1;
        g->reaped++;
        /* Best effort: a full send buffer only loses the courtesy. */
        if (c->head_done)
            (void)!send(c->fd, srv_guard_408_body, sizeof(srv_guard_408_body) - 1,
                        MSG_DONTWAIT | MSG_NOSIGNAL);
        else
            (void)!send(c->fd, srv_guard_408, sizeof(srv_guard_408) - 1,
                        MSG_DONTWAIT | MSG_NOSIGNAL);
        shutdown(c->fd, SHUT_RDWR);
        srv_metrics_record(g->metrics, -1, 408,
                           now - (c->head_done ? c->body_start : c->head_start));
    }
}

static void *srv_guard_main(void *arg)
{
    srv_guard *g = arg;
    struct timespec ts;

    pthread_mutex_lock(&g->lock);
    while (!g->stop) {
        srv_guard_sweep(g, srv_guard_now());
        /* A quarter of the deadline between sweeps: a late head is closed
         * within 1.25 deadlines. */
        clock_gettime(CLOCK_REALTIME, &ts);
        {
            double step = g->head_seconds / 4 < 1 ? g->head_seconds / 4 : 1;

            step = g->lim.body_grace / 4 < step ? g->lim.body_grace / 4 : step;
            long ns = ts.tv_nsec + (long)(step * 1e9);

            ts.tv_sec += ns / 1000000000L;
            ts.tv_nsec = ns % 1000000000L;
        }
        pthread_cond_timedwait(&g->wake, &g->lock, &ts);
    }
    pthread_mutex_unlock(&g->lock);
    return NULL;
}

srv_guard *srv_guard_new(double head_seconds, size_t body_budget,
                         const srv_guard_limits *lim, srv_metrics *metrics)
{
    srv_guard *g = calloc(1, sizeof(*g));

    if (!g)
        return NULL;
    g->head_seconds = head_seconds > 0 ? head_seconds : 10;
    g->body_budget = body_budget;
    if (lim)
        g->lim = *lim;
    if (g->lim.body_seconds <= 0)
        g->lim.body_seconds = 120;
    if (g->lim.body_grace <= 0)
        g->lim.body_grace = 10;
    if (g->lim.body_min_rate <= 0)
        g->lim.body_min_rate = 1024;
    if (!g->lim.per_client_bodies)
        g->lim.per_client_bodies = 8;
    if (!g->lim.per_client_bytes)
        g->lim.per_client_bytes = body_budget / 2;
    g->metrics = metrics;
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->wake, NULL);
    if (pthread_create(&g->thread, NULL, srv_guard_main, g) != 0) {
        pthread_mutex_destroy(&g->lock);
        pthread_cond_destroy(&g->wake);
        free(g);
        return NULL;
    }
    return g;
}

void srv_guard_free(srv_guard *g)
{
    srv_guard_conn *c, *next;

    if (!g)
        return;
    pthread_mutex_lock(&g->lock);
    g->stop = 1;
    pthread_cond_signal(&g->wake);
    pthread_mutex_unlock(&g->lock);
    pthread_join(g->thread, NULL);
    for (c = g->head; c; c = next) {
        next = c->next;
        free(c);
    }
    pthread_mutex_destroy(&g->lock);
    pthread_cond_destroy(&g->wake);
    free(g);
}

/* Keep the client's address of `conn` in c (per-client bounds). */
static void srv_guard_addr(srv_guard_conn *c, struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    const struct sockaddr *sa = info ? info->client_addr : NULL;

    if (sa && sa->sa_family == AF_INET) {
        memcpy(c->addr, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        c->addrlen = 4;
    } else if (sa && sa->sa_family == AF_INET6) {
        memcpy(c->addr, &((const struct sockaddr_in6 *)sa)->sin6_addr, 16);
        c->addrlen = 16;
    }
}

void srv_guard_notify(void *cls, struct MHD_Connection *conn, void **socket_context,
                      enum MHD_ConnectionNotificationCode code)
{
    srv_guard *g = cls;
    srv_guard_conn *c = *socket_context;
    const union MHD_ConnectionInfo *info;

    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        info = MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
        if (!info || !(c = calloc(1, sizeof(*c))))
            return;
        c->guard = g;
        c->fd = info->connect_fd;
        c->head_start = srv_guard_now();
        srv_guard_addr(c, conn);
        pthread_mutex_lock(&g->lock);
        c->next = g->head;
        if (g->head)
            g->head->prev = c;
        g->head = c;
        g->nconns++;
        pthread_mutex_unlock(&g->lock);
        *socket_context = c;
        return;
    }
    if (!c)
        return;
    pthread_mutex_lock(&g->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        g->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    g->nconns--;
    pthread_mutex_unlock(&g->lock);
    free(c);
    *socket_context = NULL;
}

/* The connection's record, or NULL (none was made: out of memory). */
static srv_guard_conn *srv_guard_of(struct MHD_Connection *conn)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

    return info ? info->socket_context : NULL;
}

void srv_guard_head_done(struct MHD_Connection *conn)
{
    srv_guard_conn *c = srv_guard_of(conn);

    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->head_done = 1;
    pthread_mutex_unlock(&c->guard->lock);
}

void srv_guard_request_done(struct MHD_Connection *conn)
{
    srv_guard_conn *c = srv_guard_of(conn);

    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->head_done = 0;
    c->head_start = srv_guard_now();
    c->in_body = 0;
    c->reserved = 0;
    pthread_mutex_unlock(&c->guard->lock);
}

size_t srv_guard_connections(srv_guard *g)
{
    size_t n;

    pthread_mutex_lock(&g->lock);
    n = g->nconns;
    pthread_mutex_unlock(&g->lock);
    return n;
}

/* Bodies and reserved bytes of connections from c's address. */
static void srv_guard_client_bodies(srv_guard *g, const srv_guard_conn *c, size_t *count,
                                    size_t *bytes)
{
    const srv_guard_conn *o;

    *count = *bytes = 0;
    for (o = g->head; o; o = o->next)
        if (o->reserved && o->addrlen == c->addrlen &&
            memcmp(o->addr, c->addr, (size_t)c->addrlen) == 0) {
            (*count)++;
            *bytes += o->reserved;
        }
}

int srv_guard_reserve(srv_guard *g, struct MHD_Connection *conn, size_t n)
{
    srv_guard_conn *c = conn ? srv_guard_of(conn) : NULL;
    size_t count = 0, bytes = 0;
    int rc = 0;

    pthread_mutex_lock(&g->lock);
    if (c)
        srv_guard_client_bodies(g, c, &count, &bytes);
    if (n > g->body_budget - g->body_used)
        rc = -1;
    else if (c && (count >= g->lim.per_client_bodies || n > g->lim.per_client_bytes - bytes ||
                   bytes > g->lim.per_client_bytes))
        rc = -2;
    else {
        g->body_used += n;
        if (c) {
            c->reserved = n;
            c->in_body = 1;
            c->body_start = srv_guard_now();
            c->body_bytes = 0;
        }
    }
    pthread_mutex_unlock(&g->lock);
    return rc;
}

void srv_guard_body_progress(struct MHD_Connection *conn, size_t n)
{
    srv_guard_conn *c = srv_guard_of(conn);

    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->body_bytes += n;
    pthread_mutex_unlock(&c->guard->lock);
}

void srv_guard_body_done(struct MHD_Connection *conn)
{
    srv_guard_conn *c = srv_guard_of(conn);

    if (!c)
        return;
    pthread_mutex_lock(&c->guard->lock);
    c->in_body = 0;
    pthread_mutex_unlock(&c->guard->lock);
}

void srv_guard_release(srv_guard *g, size_t n)
{
    pthread_mutex_lock(&g->lock);
    g->body_used -= n < g->body_used ? n : g->body_used;
    pthread_mutex_unlock(&g->lock);
}

unsigned long srv_guard_reaped(srv_guard *g)
{
    unsigned long n;

    pthread_mutex_lock(&g->lock);
    n = g->reaped;
    pthread_mutex_unlock(&g->lock);
    return n;
}
