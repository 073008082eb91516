/*
 * ingest_progress.c: terminal progress for long ingests (numpy's 15,000
 * commits take minutes); see ingest_progress.h.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest_progress.h"

struct ingest_progress {
    int enabled;
    int open;                  /* a line drawn and not ended with '\n' */
    char ref[128];
    size_t total, done;
    uint64_t blobs, bytes;
    double start, last;
    /* The time left is measured from the first commit done, not from the
     * start: the oldest commit analyses the whole tree, far more than any
     * later one, and counting it made the first minutes' estimate several
     * times too long. */
    double first_t;            /* when the first commit was done; 0: not yet */
    size_t first_done;
};

static double ingest_progress_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

ingest_progress *ingest_progress_new(int enabled)
{
    ingest_progress *p = calloc(1, sizeof(*p));

    if (p)
        p->enabled = enabled;
    return p;
}

void ingest_progress_ref(ingest_progress *p, const char *ref, size_t total)
{
    if (!p)
        return;
    snprintf(p->ref, sizeof(p->ref), "%s", ref);
    p->total = total;
    p->done = 0;
    p->start = ingest_progress_now();
    p->last = 0;
    p->first_t = 0;
    p->first_done = 0;
    if (p->enabled && total == 0)
        fprintf(stderr, "%s: up to date\n", ref);
}

static void ingest_progress_draw(ingest_progress *p, double now)
{
    double el = now - p->start, since = p->first_t ? now - p->first_t : 0;
    double rate = el > 0 ? p->done / el : 0, left;
    char eta[32] = "time left: estimating";

    /* A second after the first commit, the rate of the commits since: the
     * one shown and the one the time left is counted at. */
    if (since >= 1.0 && p->done > p->first_done) {
        rate = (double)(p->done - p->first_done) / since;
        left = (double)(p->total - p->done) / rate;
        snprintf(eta, sizeof(eta), "%dm%02ds left", (int)left / 60, (int)left % 60);
    } else if (p->done == p->total)
        snprintf(eta, sizeof(eta), "0m00s left");
    fprintf(stderr, "\r\033[K%s: commits %zu/%zu, blobs %llu (%.1f MB), "
            "%.0f commits/s, %s", p->ref, p->done, p->total,
            (unsigned long long)p->blobs, p->bytes / 1e6, rate, eta);
    fflush(stderr);
    p->open = 1;
}

void ingest_progress_update(ingest_progress *p, size_t done, uint64_t blobs,
                            uint64_t bytes)
{
    double now;

    if (!p || !p->enabled)
        return;
    p->done = done;
    p->blobs = blobs;
    p->bytes = bytes;
    now = ingest_progress_now();
    if (!p->first_t && done > 0) {
        p->first_t = now;
        p->first_done = done;
    }
    if (now - p->last >= 0.25) {
        p->last = now;
        ingest_progress_draw(p, now);
    }
}

void ingest_progress_done(ingest_progress *p)
{
    if (!p || !p->enabled || p->total == 0)
        return;
    ingest_progress_draw(p, ingest_progress_now());
    fputc('\n', stderr);
    p->open = 0;
}

void ingest_progress_free(ingest_progress *p)
{
    /* A run that stops or fails mid-ref: what is said next starts on a
     * line of its own, not after "... left". */
    if (p && p->open)
        fputc('\n', stderr);
    free(p);
}

void ingest_progress_note(ingest_progress *p, const char *fmt, ...)
{
    va_list ap;

    if (!p || !p->enabled)
        return;
    if (p->open)
        fputc('\n', stderr);
    p->open = 0;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
