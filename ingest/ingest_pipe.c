/*
 * ingest_pipe.c: planner and analysis threads of a parallel ingest (see
 * ingest_pipe.h).  One mutex guards everything shared; the work done
 * outside it (diffs, blob reads, analyses) is where the time goes.
 */
#include <errno.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analyzer/analyzer.h"
#include "ingest_missing.h"
#include "ingest_pipe.h"
#include "pd_time.h"
#include "pd_error.h"
#include "pd_map.h"
#include "pd_sched.h"

enum { JOB_QUEUED, JOB_RUNNING, JOB_DONE };

typedef struct ingest_job {
    struct ingest_job *next;
    git_oid blob;
    char *path;
    size_t seq;                /* plan index (0 = oldest commit) */
    int state;
    int orphan;                /* dropped by the writer while running */
    ingest_enc *enc;
    int rc;
    char *err;
} ingest_job;

/* Blob ids already handed out or stored: a seeded pd_map (a repository's
 * blob ids can be made to share any bits an unseeded table would use)
 * over copies kept in blocks that never move. */
#define INGEST_OIDSET_BLOCK 1024

typedef struct {
    pd_map *map;               /* raw id -> its copy; NULL until the first */
    git_oid **block;           /* INGEST_OIDSET_BLOCK ids each */
    size_t nblocks, n;
} ingest_oidset;

struct ingest_pipe {
    ingest_pipe_options o;
    pthread_mutex_t mu;
    pthread_cond_t cv_plan, cv_room, cv_work, cv_done;
    int stop;
    ingest_plan ring[INGEST_PIPE_AHEAD];
    size_t planned, consumed;
    ingest_job *head, *tail;   /* in hand-out order, so by seq */
    size_t pending;            /* jobs in the list */
    ingest_oidset seen;
    git_repository *plan_repo;
    size_t plan_calls;           /* ingest_plan_repo's counter */
    pthread_t planner;
    int planner_started;
    pthread_t *workers;
    unsigned nworkers;
    /* The job the writer waits for (ingest_pipe_take), or NULL: only its
     * end wakes the writer.  A wake at every job's end, as a broadcast
     * gave, found the writer's job still running half the time, and each
     * needless switch costs microseconds on a virtual machine (issue 26:
     * 35,000 context switches an ingest of numpy/core, 25,000 since). */
    ingest_job *awaited;
    uint64_t stalled_plans, stalled_blobs;   /* the writer's, see ingest_pipe_stalls */
    double cpu_plan, cpu_analyse;            /* threads that ended, see ingest_pipe_cpu */
};


/* Add `id`: 1 added, 0 already there, PD_ENOMEM. */
static int ingest_oidset_add(ingest_oidset *s, const git_oid *id)
{
    git_oid *copy, **grown;

    if (!s->map && !(s->map = pd_map_new(PD_MAP_SEEDED)))
        return PD_ENOMEM;
    if (pd_map_get(s->map, id->id, GIT_OID_RAWSZ))
        return 0;
    if (s->n == s->nblocks * INGEST_OIDSET_BLOCK) {
        if (!(grown = realloc(s->block, (s->nblocks + 1) * sizeof(*grown))))
            return pd_error_nomem(NULL);
        s->block = grown;
        if (!(s->block[s->nblocks] = malloc(INGEST_OIDSET_BLOCK * sizeof(git_oid))))
            return pd_error_nomem(NULL);
        s->nblocks++;
    }
    copy = &s->block[s->n / INGEST_OIDSET_BLOCK][s->n % INGEST_OIDSET_BLOCK];
    git_oid_cpy(copy, id);
    if (pd_map_put(s->map, copy->id, GIT_OID_RAWSZ, copy) < 0)
        return PD_ENOMEM;
    s->n++;
    return 1;
}

static void ingest_oidset_free(ingest_oidset *s)
{
    size_t i;

    pd_map_free(s->map);
    for (i = 0; i < s->nblocks; i++)
        free(s->block[i]);
    free(s->block);
}

static void ingest_job_free(ingest_job *j)
{
    if (!j)
        return;
    ingest_enc_free(j->enc);
    free(j->path);
    free(j->err);
    free(j);
}

/* Unlink the head job (the caller holds the lock). */
static ingest_job *ingest_pipe_pop(ingest_pipe *p)
{
    ingest_job *j = p->head;

    p->head = j->next;
    if (!p->head)
        p->tail = NULL;
    p->pending--;
    return j;
}

/* Read, analyse and encode one blob (no lock held). */
static void ingest_pipe_analyse(ingest_job *j, git_repository *repo, const ingest_pipe_options *o)
{
    git_blob *blob = NULL;
    an_result *res = NULL;
    char hex[GIT_OID_HEXSZ + 1];
    size_t size;

    if ((j->rc = git_blob_lookup(&blob, repo, &j->blob)) < 0 && ingest_missing_kind(j->rc)) {
        /* Not in the clone, or damaged: no result; the ingest thread
         * reads it again and records it (ingest_missing.h). */
        git_error_clear();
        j->rc = 0;
    } else if (j->rc < 0) {
        const git_error *e = git_error_last();

        git_oid_tostr(hex, sizeof(hex), &j->blob);
        j->rc = pd_error_set(PD_EGIT, "%s: cannot read blob %s (%s): %s", o->repo_path,
                             hex, j->path, e ? e->message : "?");
    } else {
        size = (size_t)git_blob_rawsize(blob);
        if ((j->rc = an_analyze_memo(&res, o->rules, o->memo, j->path,
                                     git_blob_rawcontent(blob), size)) == 0)
            j->rc = ingest_enc_new(&j->enc, res, size);
    }
    if (j->rc < 0)
        j->err = strdup(pd_error_last());
    an_result_free(res);
    git_blob_free(blob);
}

/* A background ingest's threads give way to everything else (the
 * writer keeps the process's policy: it holds the write lock). */
static void ingest_pipe_lower(ingest_pipe *p)
{
    static int warned;

    if (p->o.background && pd_sched_idle() < 0 && !__atomic_exchange_n(&warned, 1,
                                                                      __ATOMIC_RELAXED))
        fprintf(stderr, "portdash ingest: %s; the analysis runs at the process's "
                "priority\n", pd_error_last());
}

/* The time stall_ms from now, for pthread_cond_timedwait. */
static struct timespec ingest_pipe_deadline(const ingest_pipe *p)
{
    struct timespec t;

    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_nsec += (long)(p->o.stall_ms % 1000) * 1000000L;
    t.tv_sec += p->o.stall_ms / 1000 + t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

/* Unlink job `j`, which follows `prev` (NULL: the head), from the list
 * (the caller holds the lock). */
static void ingest_pipe_unlink(ingest_pipe *p, ingest_job *j, ingest_job *prev)
{
    if (prev)
        prev->next = j->next;
    else
        p->head = j->next;
    if (p->tail == j)
        p->tail = prev;
    p->pending--;
    pthread_cond_broadcast(&p->cv_room);
}

static void *ingest_pipe_worker(void *arg)
{
    ingest_pipe *p = arg;
    git_repository *repo = NULL;
    ingest_job *j;
    int open_rc = git_repository_open_ext(&repo, p->o.repo_path,
                                          GIT_REPOSITORY_OPEN_NO_SEARCH, NULL);

    pthread_setname_np(pthread_self(), "pd-analyse");   /* for top and perf */
    ingest_pipe_lower(p);
    pthread_mutex_lock(&p->mu);
    while (!p->stop) {
        for (j = p->head; j && j->state != JOB_QUEUED; j = j->next)
            ;
        if (!j) {
            pthread_cond_wait(&p->cv_work, &p->mu);
            continue;
        }
        j->state = JOB_RUNNING;
        pthread_mutex_unlock(&p->mu);
        if (open_rc < 0) {
            j->rc = pd_error_set(PD_EGIT, "%s: not a git repository", p->o.repo_path);
            j->err = strdup(pd_error_last());
        } else {
            ingest_pipe_analyse(j, repo, &p->o);
        }
        pthread_mutex_lock(&p->mu);
        j->state = JOB_DONE;
        if (p->awaited == j)
            pthread_cond_signal(&p->cv_done);
        if (j->orphan)
            ingest_job_free(j);
    }
    pthread_mutex_unlock(&p->mu);
    git_repository_free(repo);
    pthread_mutex_lock(&p->mu);
    p->cpu_analyse += pd_clock_s(CLOCK_THREAD_CPUTIME_ID);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Mark a plan failed for want of memory. */
static void ingest_pipe_oom(ingest_plan *plan)
{
    ingest_plan_clear(plan);
    plan->rc = PD_ENOMEM;
    plan->err = strdup("out of memory");
}

/* Hand out the plan's new blobs and publish it (the caller holds the lock).
 * Returns the plan's code. */
static int ingest_pipe_publish(ingest_pipe *p, ingest_plan *plan, size_t seq)
{
    size_t i, added = 0;

    if (seq < p->planned) {     /* the writer made this one (await_plan) */
        ingest_plan_clear(plan);
        return 0;
    }

    for (i = 0; i < plan->nch && !plan->rc; i++) {
        ingest_plan_change *ch = &plan->ch[i];
        ingest_job *j = NULL;
        int rc;

        if (ch->deleted || (rc = ingest_oidset_add(&p->seen, &ch->blob)) == 0)
            continue;
        if (rc < 0 || !(j = calloc(1, sizeof(*j))) || !(j->path = strdup(ch->path))) {
            free(j);
            ingest_pipe_oom(plan);
            break;
        }
        git_oid_cpy(&j->blob, &ch->blob);
        j->seq = seq;
        if (p->tail)
            p->tail->next = j;
        else
            p->head = j;
        p->tail = j;
        p->pending++;
        added++;
    }
    p->ring[seq % INGEST_PIPE_AHEAD] = *plan;
    p->planned++;
    /* One worker woken per job added: a broadcast woke every waiting
     * worker for a plan of one blob, and all but one went back to wait. */
    for (i = 0; i < added && i < p->nworkers; i++)
        pthread_cond_signal(&p->cv_work);
    pthread_cond_broadcast(&p->cv_plan);
    return plan->rc;
}

static void *ingest_pipe_planner(void *arg)
{
    ingest_pipe *p = arg;
    size_t k, room = INGEST_PIPE_ROOM * (size_t)p->o.threads;
    int stop = 0;

    pthread_setname_np(pthread_self(), "pd-plan");
    ingest_pipe_lower(p);
    for (k = 0; k < p->o.n && !stop; k++) {
        size_t i;
        int known;
        ingest_plan plan;

        pthread_mutex_lock(&p->mu);
        while (!p->stop && (p->planned - p->consumed >= INGEST_PIPE_AHEAD - 1 ||
                            p->pending >= room))
            pthread_cond_wait(&p->cv_room, &p->mu);
        stop = p->stop;
        if (k < p->planned)     /* commits the writer planned itself */
            k = p->planned;
        pthread_mutex_unlock(&p->mu);
        if (stop || k >= p->o.n)
            break;
        i = p->o.n - 1 - k;
        known = p->o.known && p->o.known[i];
        ingest_plan_repo(&p->plan_repo, &p->plan_calls, p->o.repo_path);
        ingest_plan_commit(&plan, p->plan_repo, p->o.filter, &p->o.chain[i],
                           p->o.parent_trees ? &p->o.parent_trees[i] : NULL,
                           i < p->o.patch_below && !known, p->o.repo_path);
        if (known && plan.rc)
            ingest_plan_clear(&plan);   /* only a hint: the writer replays */
        pthread_mutex_lock(&p->mu);
        stop = ingest_pipe_publish(p, &plan, k) < 0;
        pthread_mutex_unlock(&p->mu);
    }
    pthread_mutex_lock(&p->mu);
    p->cpu_plan += pd_clock_s(CLOCK_THREAD_CPUTIME_ID);
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

/* Drop the jobs of commits the writer has stored (the caller holds the
 * lock): none of them will be taken any more. */
static void ingest_pipe_retire(ingest_pipe *p, size_t seq)
{
    while (p->head && p->head->seq <= seq) {
        ingest_job *j = ingest_pipe_pop(p);

        if (j->state == JOB_RUNNING)
            j->orphan = 1;
        else
            ingest_job_free(j);
    }
    pthread_cond_broadcast(&p->cv_room);
}

/* Wait for the next plan (the caller holds the lock): 0 when it is in,
 * 1 when the writer is to make it itself (a background planner late by
 * stall_ms: its plan of that commit will be dropped, see publish). */
static int ingest_pipe_await_plan(ingest_pipe *p)
{
    struct timespec until = ingest_pipe_deadline(p);

    while (p->planned == p->consumed) {
        if (!p->o.background) {
            pthread_cond_wait(&p->cv_plan, &p->mu);
        } else if (pthread_cond_timedwait(&p->cv_plan, &p->mu, &until) == ETIMEDOUT &&
                   p->planned == p->consumed) {
            p->planned++;
            p->consumed++;
            p->stalled_plans++;
            pthread_cond_broadcast(&p->cv_room);
            return 1;
        }
    }
    return 0;
}

int ingest_pipe_next(ingest_pipe *p, const ingest_plan **plan)
{
    ingest_plan *pl;

    pthread_mutex_lock(&p->mu);
    if (p->consumed > 0) {
        ingest_plan_clear(&p->ring[(p->consumed - 1) % INGEST_PIPE_AHEAD]);
        ingest_pipe_retire(p, p->consumed - 1);
    }
    if (ingest_pipe_await_plan(p)) {
        pthread_mutex_unlock(&p->mu);
        *plan = NULL;
        return 0;
    }
    pl = &p->ring[p->consumed % INGEST_PIPE_AHEAD];
    p->consumed++;
    pthread_cond_broadcast(&p->cv_room);
    pthread_mutex_unlock(&p->mu);
    *plan = pl;
    if (pl->rc < 0)
        return pd_error_set(pl->rc, "%s", pl->err ? pl->err : "out of memory");
    return 0;
}

int ingest_pipe_take(ingest_pipe *p, const git_oid *blob, const char *path,
                     ingest_enc **out)
{
    ingest_job *j, *prev = NULL;
    int rc;

    *out = NULL;
    pthread_mutex_lock(&p->mu);
    for (j = p->head; j && !git_oid_equal(&j->blob, blob); j = j->next)
        prev = j;
    if (!j || strcmp(j->path, path) != 0) {
        pthread_mutex_unlock(&p->mu);
        return 0;
    }
    if (p->o.background) {
        /* Only this thread unlinks jobs: j and prev stay valid. */
        struct timespec until = ingest_pipe_deadline(p);
        int late = 0;

        p->awaited = j;
        while (j->state != JOB_DONE && !late)
            late = pthread_cond_timedwait(&p->cv_done, &p->mu, &until) == ETIMEDOUT;
        p->awaited = NULL;
        if (j->state != JOB_DONE) {
            /* Late (a starved worker): the writer analyses it itself. */
            ingest_pipe_unlink(p, j, prev);
            p->stalled_blobs++;
            if (j->state == JOB_RUNNING)
                j->orphan = 1;      /* its worker frees it */
            else
                ingest_job_free(j);
            pthread_mutex_unlock(&p->mu);
            return 0;
        }
    }
    p->awaited = j;
    while (j->state != JOB_DONE)
        pthread_cond_wait(&p->cv_done, &p->mu);
    p->awaited = NULL;
    ingest_pipe_unlink(p, j, prev);
    pthread_mutex_unlock(&p->mu);
    if ((rc = j->rc) < 0)
        pd_error_set(rc, "%s", j->err ? j->err : "out of memory");
    else
        *out = j->enc;
    j->enc = NULL;
    ingest_job_free(j);
    return rc < 0 ? rc : 1;
}

void ingest_pipe_stalls(const ingest_pipe *p, uint64_t *plans, uint64_t *blobs)
{
    *plans = p ? p->stalled_plans : 0;
    *blobs = p ? p->stalled_blobs : 0;
}

static void ingest_pipe_join(ingest_pipe *p);

void ingest_pipe_cpu(ingest_pipe *p, double *plan_s, double *analyse_s)
{
    if (!p)
        return;
    ingest_pipe_join(p);     /* each thread adds its time as it ends */
    *plan_s += p->cpu_plan;
    *analyse_s += p->cpu_analyse;
    p->cpu_plan = p->cpu_analyse = 0;
}

/* Stop the threads and wait for them. */
static void ingest_pipe_join(ingest_pipe *p)
{
    unsigned i;

    pthread_mutex_lock(&p->mu);
    p->stop = 1;
    pthread_cond_broadcast(&p->cv_room);
    pthread_cond_broadcast(&p->cv_work);
    pthread_mutex_unlock(&p->mu);
    if (p->planner_started)
        pthread_join(p->planner, NULL);
    for (i = 0; i < p->nworkers; i++)
        pthread_join(p->workers[i], NULL);
    p->planner_started = 0;
    p->nworkers = 0;
}

void ingest_pipe_free(ingest_pipe *p)
{
    size_t k;

    if (!p)
        return;
    ingest_pipe_join(p);
    while (p->head)
        ingest_job_free(ingest_pipe_pop(p));
    for (k = p->consumed ? p->consumed - 1 : 0; k < p->planned; k++)
        ingest_plan_clear(&p->ring[k % INGEST_PIPE_AHEAD]);
    free(p->workers);
    ingest_oidset_free(&p->seen);
    git_repository_free(p->plan_repo);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv_plan);
    pthread_cond_destroy(&p->cv_room);
    pthread_cond_destroy(&p->cv_work);
    pthread_cond_destroy(&p->cv_done);
    free(p);
}

int ingest_pipe_start(ingest_pipe **out, const ingest_pipe_options *o)
{
    ingest_pipe *p = calloc(1, sizeof(*p));
    size_t i;
    int rc = 0;

    *out = NULL;
    if (!p)
        return pd_error_nomem(NULL);
    p->o = *o;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv_plan, NULL);
    pthread_cond_init(&p->cv_room, NULL);
    pthread_cond_init(&p->cv_work, NULL);
    pthread_cond_init(&p->cv_done, NULL);
    for (i = 0; i < o->nanalysed && rc >= 0; i++)
        rc = ingest_oidset_add(&p->seen, &o->analysed[i]);
    if (rc < 0)
        goto fail;
    if ((rc = ingest_plan_repo(&p->plan_repo, &p->plan_calls, o->repo_path)) < 0)
        goto fail;
    if (!(p->workers = calloc(o->threads, sizeof(pthread_t)))) {
        rc = pd_error_nomem(NULL);
        goto fail;
    }
    for (; p->nworkers < o->threads; p->nworkers++)
        if (pthread_create(&p->workers[p->nworkers], NULL, ingest_pipe_worker, p) != 0)
            break;
    if (p->nworkers < o->threads ||
        pthread_create(&p->planner, NULL, ingest_pipe_planner, p) != 0) {
        rc = pd_error_set(PD_ERROR, "cannot start the ingest threads");
        goto fail;
    }
    p->planner_started = 1;
    *out = p;
    return 0;
fail:
    ingest_pipe_free(p);
    return rc;
}
