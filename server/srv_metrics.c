/*
 * srv_metrics.c: Prometheus metrics of the server (see srv_metrics.h).
 */
#include <stdlib.h>

#include "srv_metrics.h"

/* Statuses the server sends; anything else is counted as "other". */
static const unsigned srv_metrics_statuses[] = {200, 201, 202, 304, 400, 401, 403, 404,
                                                405, 408, 409, 413, 414, 421, 431, 500,
                                                503};
#define SRV_NSTATUS (sizeof(srv_metrics_statuses) / sizeof(unsigned) + 1)

static const double srv_metrics_buckets[] = {0.001, 0.005, 0.01, 0.025, 0.05, 0.1,
                                             0.25, 0.5, 1, 2.5, 5};
#define SRV_NBUCKETS (sizeof(srv_metrics_buckets) / sizeof(double))

struct srv_metrics {
    uint64_t requests[SRV_METRICS_ROUTES + 1][SRV_NSTATUS];
    uint64_t bucket[SRV_NBUCKETS];
    uint64_t count;
    uint64_t sum_us;
};

srv_metrics *srv_metrics_new(void)
{
    return calloc(1, sizeof(srv_metrics));
}

void srv_metrics_record(srv_metrics *m, int route, unsigned status, double seconds)
{
    size_t s, b;

    if (!m)
        return;
    if (route < 0 || route >= SRV_METRICS_ROUTES)
        route = SRV_METRICS_ROUTES;
    for (s = 0; s < SRV_NSTATUS - 1 && srv_metrics_statuses[s] != status; s++)
        ;
    __atomic_fetch_add(&m->requests[route][s], 1, __ATOMIC_RELAXED);
    for (b = 0; b < SRV_NBUCKETS; b++)
        if (seconds <= srv_metrics_buckets[b])
            __atomic_fetch_add(&m->bucket[b], 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&m->count, 1, __ATOMIC_RELAXED);
    __atomic_fetch_add(&m->sum_us, (uint64_t)(seconds * 1e6), __ATOMIC_RELAXED);
}

void srv_metrics_write(srv_metrics *m, FILE *f, const char *(*route_method)(int),
                       const char *(*route_pattern)(int), int nroutes)
{
    size_t s, b;
    int r;

    fputs("# HELP portdash_http_requests_total HTTP requests by route and status.\n"
          "# TYPE portdash_http_requests_total counter\n", f);
    for (r = 0; r <= SRV_METRICS_ROUTES; r++) {
        for (s = 0; s < SRV_NSTATUS; s++) {
            uint64_t n = __atomic_load_n(&m->requests[r][s], __ATOMIC_RELAXED);
            char status[16];

            if (!n)
                continue;
            if (s < SRV_NSTATUS - 1)
                snprintf(status, sizeof(status), "%u", srv_metrics_statuses[s]);
            else
                snprintf(status, sizeof(status), "other");
            fprintf(f, "portdash_http_requests_total{route=\"%s\",method=\"%s\","
                    "status=\"%s\"} %llu\n", r < nroutes ? route_pattern(r) : "none",
                    r < nroutes ? route_method(r) : "", status, (unsigned long long)n);
        }
    }
    fputs("# HELP portdash_http_request_duration_seconds Time to answer a request.\n"
          "# TYPE portdash_http_request_duration_seconds histogram\n", f);
    for (b = 0; b < SRV_NBUCKETS; b++)
        fprintf(f, "portdash_http_request_duration_seconds_bucket{le=\"%g\"} %llu\n",
                srv_metrics_buckets[b],
                (unsigned long long)__atomic_load_n(&m->bucket[b], __ATOMIC_RELAXED));
    fprintf(f, "portdash_http_request_duration_seconds_bucket{le=\"+Inf\"} %llu\n"
            "portdash_http_request_duration_seconds_sum %.6f\n"
            "portdash_http_request_duration_seconds_count %llu\n",
            (unsigned long long)__atomic_load_n(&m->count, __ATOMIC_RELAXED),
            __atomic_load_n(&m->sum_us, __ATOMIC_RELAXED) / 1e6,
            (unsigned long long)__atomic_load_n(&m->count, __ATOMIC_RELAXED));
}
