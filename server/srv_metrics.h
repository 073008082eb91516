/*
 * srv_metrics.h: request counters and a latency histogram for GET /metrics,
 * in the Prometheus text exposition format (version 0.0.4).  Updates are
 * atomic, so worker threads record without a lock.
 */
#ifndef SRV_METRICS_H
#define SRV_METRICS_H

#include <stdint.h>
#include <stdio.h>

#define SRV_METRICS_ROUTES 64     /* route table entries counted apart */

typedef struct srv_metrics srv_metrics;

/* A zeroed set of metrics, freed with free(); NULL when out of memory. */
srv_metrics *srv_metrics_new(void);

/* Count one request of route `route` (-1: no route) answered with `status`
 * after `seconds`. */
void srv_metrics_record(srv_metrics *m, int route, unsigned status, double seconds);

/*
 * Write every metric to `f`: portdash_http_requests_total{route,method,status},
 * portdash_http_request_duration_seconds (histogram), and the gauges given.
 * route_name(i) names route i as "METHOD PATTERN".
 */
void srv_metrics_write(srv_metrics *m, FILE *f, const char *(*route_method)(int),
                       const char *(*route_pattern)(int), int nroutes);

#endif
