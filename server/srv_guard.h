/*
 * srv_guard.h: what keeps one client from starving the others: every open
 * connection is known with the time its request head began, a thread closes
 * those whose head is not complete by the deadline (slowloris) and those
 * whose body comes slower than a minimum rate or not within its deadline
 * (slow bodies, issue 27), and the memory of request bodies in flight is
 * budgeted for all connections together and bounded per client address.
 * libmicrohttpd's own limits (connections, per address, idle timeout, pool
 * size) are set in srv.c; this is what it does not offer.
 */
#ifndef SRV_GUARD_H
#define SRV_GUARD_H

#include <stddef.h>

#include "srv_mhd.h"    /* <microhttpd.h>, loaded at first use */

#include "srv_metrics.h"

typedef struct srv_guard srv_guard;

/* What a request body may take; 0 in a field: its default. */
typedef struct {
    double body_seconds;       /* a whole body, from the end of the head; 120 */
    double body_grace;         /* seconds before the rate counts; 10 */
    double body_min_rate;      /* bytes a second on average after the grace;
                                * 1024 */
    size_t per_client_bodies;  /* bodies in flight from one address; 8 */
    size_t per_client_bytes;   /* budget bytes one address may hold; half
                                * the body budget (srv.c: and at least one
                                * largest body) */
} srv_guard_limits;

/*
 * A guard closing connections whose request head takes longer than
 * `head_seconds`, or whose body breaks `lim` (they get "408 Request
 * Timeout" first), with `body_budget` bytes for all request bodies held at
 * once.  `lim` may be NULL (the defaults).  Each 408 is recorded in
 * `metrics` (route none; may be NULL; borrowed, must outlive the guard),
 * since it never reaches the request handler.  Starts one thread.  NULL on
 * failure (out of memory, no thread).  Free with srv_guard_free after the
 * daemon has stopped.
 */
srv_guard *srv_guard_new(double head_seconds, size_t body_budget,
                         const srv_guard_limits *lim, srv_metrics *metrics);

/* Stop the thread and free; accepts NULL. */
void srv_guard_free(srv_guard *g);

/* MHD_OPTION_NOTIFY_CONNECTION callback; cls is the guard. */
void srv_guard_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                      enum MHD_ConnectionNotificationCode code);

/* The request head on `c` is complete (the access handler's first call):
 * no deadline until the request is done. */
void srv_guard_head_done(struct MHD_Connection *c);

/* The request on `c` is done; the next head (keep-alive) has the deadline
 * again, from now. */
void srv_guard_request_done(struct MHD_Connection *c);

/* Connections open now. */
size_t srv_guard_connections(srv_guard *g);

/*
 * Take `n` bytes of the body budget for the body about to come on `conn`
 * (NULL: no connection, no per-client bound, no deadline): 0; -1 when
 * that would go over the budget, -2 over the share of the connection's
 * client address (nothing taken either way).  From now the body has its
 * deadline and minimum rate until srv_guard_body_done.  Give the bytes
 * back with srv_guard_release when the request ends.
 */
int srv_guard_reserve(srv_guard *g, struct MHD_Connection *conn, size_t n);
void srv_guard_release(srv_guard *g, size_t n);

/* `n` more bytes of the body on `conn` arrived. */
void srv_guard_body_progress(struct MHD_Connection *conn, size_t n);

/* The body on `conn` is complete: no body deadline (the handler runs). */
void srv_guard_body_done(struct MHD_Connection *conn);

/* Connections closed for a late head so far (for /metrics and tests). */
unsigned long srv_guard_reaped(srv_guard *g);

#endif
