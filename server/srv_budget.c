/*
 * srv_budget.c: per-thread work budget (srv_budget.h).
 */
#include <stddef.h>

#include "srv_budget.h"

static _Thread_local double srv_budget_end_at;        /* CLOCK_MONOTONIC; 0: none */
static _Thread_local double srv_budget_len;
static _Thread_local const volatile int *srv_budget_stop;

static double srv_budget_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

void srv_budget_begin(double seconds, const volatile int *stopping)
{
    srv_budget_len = seconds;
    srv_budget_end_at = srv_budget_now() + seconds;
    srv_budget_stop = stopping;
}

void srv_budget_end(void)
{
    srv_budget_end_at = 0;
    srv_budget_len = 0;
    srv_budget_stop = NULL;
}

int srv_budget_stopping(void)
{
    return srv_budget_stop && *srv_budget_stop;
}

int srv_budget_over(void)
{
    if (srv_budget_stopping())
        return 1;
    return srv_budget_end_at > 0 && srv_budget_now() > srv_budget_end_at;
}

double srv_budget_seconds(void)
{
    return srv_budget_len;
}

int srv_budget_deadline(struct timespec *ts)
{
    double left;
    long ns;

    if (srv_budget_end_at <= 0)
        return -1;
    left = srv_budget_end_at - srv_budget_now();
    if (left < 0)
        left = 0;
    clock_gettime(CLOCK_REALTIME, ts);
    ns = ts->tv_nsec + (long)((left - (long)left) * 1e9);
    ts->tv_sec += (time_t)left + ns / 1000000000L;
    ts->tv_nsec = ns % 1000000000L;
    return 0;
}

int srv_budget_progress(void *arg)
{
    (void)arg;
    return srv_budget_over();
}
