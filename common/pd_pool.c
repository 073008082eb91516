/*
 * pd_pool.c: the ordered pool of worker threads (pd_pool.h).
 *
 * A ring of `window` slots holds the items submitted and not yet taken.
 * Three counters run over it: `head` (the oldest item not taken), `next`
 * (the oldest not started) and `tail` (the next to submit), head <= next
 * <= tail <= head + window.  One lock guards them; workers wait on `work`
 * for next < tail, the submitting thread on `done` for its head.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_pool.h"

enum { PD_SLOT_QUEUED, PD_SLOT_RUNNING, PD_SLOT_DONE };

typedef struct {
    void *item;
    int state;
    int rc;
    char *msg;          /* the work's error message (malloc'd), or NULL */
} pd_slot;

struct pd_pool {
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    pthread_t *tid;
    unsigned nthreads;
    pd_slot *ring;
    size_t window;
    size_t head, next, tail;
    size_t fail_at;     /* the first failed item's number (SIZE_MAX: none):
                         * workers leave the items after it, whose
                         * results no one will take */
    int stop;           /* the threads return */
    int finished;
    int rc;             /* the first failure in submission order */
    char *msg;          /* its message */
    pd_pool_work_fn fwork;
    pd_pool_take_fn ftake;
    void *ctx;
};

static void *pd_pool_thread(void *arg)
{
    pd_pool *p = arg;

    pthread_mutex_lock(&p->mu);
    for (;;) {
        pd_slot *s;
        size_t i;
        int rc;
        char *msg = NULL;

        while (!p->stop && p->next == p->tail)
            pthread_cond_wait(&p->work, &p->mu);
        if (p->next == p->tail)
            break;
        i = p->next++;
        s = &p->ring[i % p->window];
        if (i > p->fail_at) {
            rc = PD_POOL_SKIPPED;
        } else {
            s->state = PD_SLOT_RUNNING;
            pthread_mutex_unlock(&p->mu);
            pd_error_clear();
            rc = p->fwork(p->ctx, s->item);
            /* a failed strdup leaves the code without its words */
            if (rc < 0)
                msg = strdup(pd_error_last());
            pthread_mutex_lock(&p->mu);
            if (rc < 0 && i < p->fail_at)
                p->fail_at = i;
        }
        s->rc = rc;
        s->msg = msg;
        s->state = PD_SLOT_DONE;
        pthread_cond_broadcast(&p->done);
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Record a failure (code rc, this thread's message) when it is the first. */
static void pd_pool_fail(pd_pool *p, int rc)
{
    if (p->rc < 0)
        return;
    p->rc = rc;
    p->msg = strdup(pd_error_last());
}

/* Wait for the head item and take it.  Called and returns with the lock
 * held; the take runs without it. */
static void pd_pool_take_head(pd_pool *p)
{
    pd_slot *s = &p->ring[p->head % p->window];
    size_t i = p->head;
    void *item;
    char *msg;
    int rc, trc;

    while (s->state != PD_SLOT_DONE)
        pthread_cond_wait(&p->done, &p->mu);
    item = s->item;
    rc = s->rc;
    msg = s->msg;
    memset(s, 0, sizeof(*s));
    p->head++;
    if (p->rc < 0) {
        rc = PD_POOL_SKIPPED;   /* after a failure nothing is output */
    } else if (rc < 0) {
        pd_error_set(rc, "%s", msg ? msg : "(no message)");
        pd_pool_fail(p, rc);
        if (i < p->fail_at)
            p->fail_at = i;
    }
    free(msg);
    pthread_mutex_unlock(&p->mu);
    trc = p->ftake(p->ctx, item, rc);
    pthread_mutex_lock(&p->mu);
    if (trc < 0 && p->rc >= 0) {
        pd_pool_fail(p, trc);
        if (i < p->fail_at)
            p->fail_at = i;
    }
}

/* The pool's result with its message set on this thread. */
static int pd_pool_result(pd_pool *p)
{
    if (p->rc < 0)
        pd_error_set(p->rc, "%s", p->msg ? p->msg : "(no message)");
    return p->rc;
}

int pd_pool_new(pd_pool **out, unsigned threads, unsigned window,
                pd_pool_work_fn work, pd_pool_take_fn take, void *ctx)
{
    pd_pool *p;
    unsigned i;

    *out = NULL;
    if (threads < 1 || threads > 256 || !work || !take)
        return pd_error_set(PD_EINVAL, "pool: want 1 to 256 threads and both functions");
    if (window == 0)
        window = 4 * threads;
    if (window < threads)
        window = threads;
    if (!(p = calloc(1, sizeof(*p))) || !(p->ring = calloc(window, sizeof(*p->ring))) ||
        !(p->tid = calloc(threads, sizeof(*p->tid)))) {
        if (p)
            free(p->ring);
        free(p);
        return pd_error_nomem("starting the threads");
    }
    p->window = window;
    p->fail_at = SIZE_MAX;
    p->fwork = work;
    p->ftake = take;
    p->ctx = ctx;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->work, NULL);
    pthread_cond_init(&p->done, NULL);
    for (i = 0; i < threads; i++) {
        if (pthread_create(&p->tid[i], NULL, pd_pool_thread, p) != 0)
            break;
        p->nthreads++;
    }
    if (p->nthreads < threads) {
        p->finished = 1;
        pd_pool_free(p);
        return pd_error_set(PD_ERROR, "cannot start %u threads", threads);
    }
    *out = p;
    return 0;
}

int pd_pool_submit(pd_pool *p, void *item)
{
    int rc;

    pthread_mutex_lock(&p->mu);
    if (p->rc < 0) {
        /* in order still: the items queued before it first */
        while (p->head < p->tail)
            pd_pool_take_head(p);
        pthread_mutex_unlock(&p->mu);
        (void)p->ftake(p->ctx, item, PD_POOL_SKIPPED);
        pthread_mutex_lock(&p->mu);
    } else {
        while (p->tail - p->head == p->window)
            pd_pool_take_head(p);
        p->ring[p->tail % p->window].item = item;
        p->ring[p->tail % p->window].state = PD_SLOT_QUEUED;
        p->tail++;
        pthread_cond_signal(&p->work);
    }
    rc = pd_pool_result(p);
    pthread_mutex_unlock(&p->mu);
    return rc;
}

int pd_pool_finish(pd_pool *p)
{
    int rc;

    pthread_mutex_lock(&p->mu);
    while (p->head < p->tail)
        pd_pool_take_head(p);
    p->finished = 1;
    rc = pd_pool_result(p);
    pthread_mutex_unlock(&p->mu);
    return rc;
}

void pd_pool_free(pd_pool *p)
{
    unsigned i;

    if (!p)
        return;
    if (!p->finished)
        (void)pd_pool_finish(p);
    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->mu);
    for (i = 0; i < p->nthreads; i++)
        pthread_join(p->tid[i], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->done);
    free(p->msg);
    free(p->ring);
    free(p->tid);
    free(p);
}
