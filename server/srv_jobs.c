/*
 * srv_jobs.c: background ingest jobs (see srv_jobs.h).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ingest.h"
#include "pd_error.h"
#include "pd_time.h"
#include "srv_jobs.h"

#define SRV_MAX_JOBS 256

typedef enum { JOB_RUNNING, JOB_DONE, JOB_FAILED } job_state;

typedef struct {
    int id;
    srv_jobs *owner;
    char *repo, *gitdir;
    char **refs;
    size_t nrefs;
    job_state state;
    char ref[256];
    size_t done, total;
    ingest_stats stats;
    char error[1024];
    int64_t started, finished;
} srv_job;

struct srv_jobs {
    pthread_mutex_t lock;
    char *db_path;
    srv_job *jobs[SRV_MAX_JOBS];   /* ring of the newest jobs */
    int next_id;
    int active;                    /* threads not yet finished */
    pthread_cond_t idle;
    void (*on_done)(void *);       /* srv_jobs_on_done */
    void *on_done_arg;
    volatile int stopping;         /* srv_jobs_stop */
};

srv_jobs *srv_jobs_new(const char *db_path)
{
    srv_jobs *j = calloc(1, sizeof(*j));

    if (!j || !(j->db_path = strdup(db_path))) {
        free(j);
        return NULL;
    }
    pthread_mutex_init(&j->lock, NULL);
    pthread_cond_init(&j->idle, NULL);
    j->next_id = 1;
    return j;
}

static void srv_job_free(srv_job *job)
{
    size_t i;

    if (!job)
        return;
    for (i = 0; i < job->nrefs; i++)
        free(job->refs[i]);
    free(job->refs);
    free(job->repo);
    free(job->gitdir);
    free(job);
}

void srv_jobs_stop(srv_jobs *j)
{
    if (j)
        j->stopping = 1;
}

/* ingest_options.interrupted: the server is stopping. */
static int srv_jobs_interrupted(void *arg)
{
    return ((srv_jobs *)arg)->stopping;
}

void srv_jobs_free(srv_jobs *j)
{
    int i;

    if (!j)
        return;
    pthread_mutex_lock(&j->lock);
    while (j->active)
        pthread_cond_wait(&j->idle, &j->lock);
    pthread_mutex_unlock(&j->lock);
    for (i = 0; i < SRV_MAX_JOBS; i++)
        srv_job_free(j->jobs[i]);
    free(j->db_path);
    pthread_mutex_destroy(&j->lock);
    pthread_cond_destroy(&j->idle);
    free(j);
}

static void srv_job_progress(void *arg, const char *ref, size_t done, size_t total)
{
    srv_job *job = arg;

    pthread_mutex_lock(&job->owner->lock);
    snprintf(job->ref, sizeof(job->ref), "%s", ref);
    job->done = done;
    job->total = total;
    pthread_mutex_unlock(&job->owner->lock);
}

/* msg with every `secret` replaced by `name`, into out (n bytes); msg may
 * be out. */
static void srv_job_redact(char *out, size_t n, const char *msg, const char *secret,
                           const char *name)
{
    char tmp[1024];
    size_t len = 0, k = secret ? strlen(secret) : 0;
    const char *p = msg, *hit;

    tmp[0] = '\0';
    while (k && (hit = strstr(p, secret)) && len < sizeof(tmp)) {
        len += (size_t)snprintf(tmp + len, sizeof(tmp) - len, "%.*s%s", (int)(hit - p), p,
                                name);
        p = hit + k;
    }
    if (len < sizeof(tmp))
        snprintf(tmp + len, sizeof(tmp) - len, "%s", p);
    snprintf(out, n, "%s", tmp);
}

/* Seconds a job waits for another ingest or snapshot (db_lock.h). */
#define SRV_JOB_LOCK_WAIT 1800

static void *srv_job_run(void *arg)
{
    srv_job *job = arg;
    srv_jobs *j = job->owner;
    ingest_options o = {0};
    ingest_stats st;
    int rc;

    o.db_path = j->db_path;
    o.repo_path = job->gitdir;
    o.name = job->repo;
    o.refs = (const char **)job->refs;
    o.nrefs = job->nrefs;
    o.on_progress = srv_job_progress;
    o.progress_arg = job;
    o.interrupted = srv_jobs_interrupted;
    o.interrupt_arg = j;
    /* A job is asynchronous: it may queue behind the hourly ingest. */
    o.lock_wait_s = SRV_JOB_LOCK_WAIT;
    /* The server's reads come first: the job takes only spare CPU. */
    o.background = 1;
    rc = ingest_run(&o, &st);
    /* While the job still counts as active, so srv_jobs_free waits for it. */
    if (j->on_done)
        j->on_done(j->on_done_arg);
    pthread_mutex_lock(&j->lock);
    job->stats = st;
    job->state = rc < 0 ? JOB_FAILED : JOB_DONE;
    if (rc < 0) {
        /* The whole message for the operator; the API's copy names no
         * server path (the job's answer is readable without a token). */
        fprintf(stderr, "portdash serve: ingest job for %s failed: %s\n", job->repo,
                pd_error_last());
        srv_job_redact(job->error, sizeof(job->error), pd_error_last(), job->gitdir,
                       "the repository's git directory");
        srv_job_redact(job->error, sizeof(job->error), job->error, j->db_path,
                       "the database");
    }
    job->finished = (int64_t)time(NULL);
    j->active--;
    pthread_cond_broadcast(&j->idle);
    pthread_mutex_unlock(&j->lock);
    return NULL;
}

/* A new job record, not yet in the table. */
static srv_job *srv_job_new(srv_jobs *j, const char *repo, const char *gitdir,
                            const char **refs, size_t nrefs)
{
    srv_job *job = calloc(1, sizeof(*job));
    size_t i;

    if (!job || !(job->repo = strdup(repo)) || !(job->gitdir = strdup(gitdir)) ||
        !(job->refs = calloc(nrefs + 1, sizeof(char *)))) {
        srv_job_free(job);
        return NULL;
    }
    for (i = 0; i < nrefs; i++) {
        if (!(job->refs[i] = strdup(refs[i]))) {
            srv_job_free(job);
            return NULL;
        }
        job->nrefs++;
    }
    job->owner = j;
    job->started = (int64_t)time(NULL);
    return job;
}

int srv_jobs_start(srv_jobs *j, int *id_out, int *joined, const char *repo,
                   const char *gitdir, const char **refs, size_t nrefs)
{
    srv_job *job;
    pthread_t th;
    int i, rc = 0;

    pthread_mutex_lock(&j->lock);
    *joined = 0;
    for (i = 0; i < SRV_MAX_JOBS; i++) {
        job = j->jobs[i];
        if (job && job->state == JOB_RUNNING && strcmp(job->repo, repo) == 0) {
            *id_out = job->id;
            *joined = 1;
            goto done;
        }
    }
    if (!(job = srv_job_new(j, repo, gitdir, refs, nrefs))) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    job->id = j->next_id++;
    i = job->id % SRV_MAX_JOBS;
    /* The ring drops the oldest finished job; a running one is never dropped
     * since ids grow by one per job and at most a few run at once. */
    srv_job_free(j->jobs[i]);
    j->jobs[i] = job;
    j->active++;
    if (pthread_create(&th, NULL, srv_job_run, job) != 0) {
        j->active--;
        job->state = JOB_FAILED;
        snprintf(job->error, sizeof(job->error), "could not start a thread");
        rc = pd_error_set(PD_ERROR, "could not start an ingest thread");
        goto done;
    }
    pthread_detach(th);
    *id_out = job->id;
done:
    pthread_mutex_unlock(&j->lock);
    return rc;
}

void srv_jobs_on_done(srv_jobs *j, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&j->lock);
    j->on_done = fn;
    j->on_done_arg = arg;
    pthread_mutex_unlock(&j->lock);
}

static const char *const srv_job_states[] = {"running", "done", "failed"};

json_t *srv_jobs_get(srv_jobs *j, int id)
{
    srv_job *job;
    json_t *o = NULL;
    char started[40], finished[40];

    pthread_mutex_lock(&j->lock);
    job = id > 0 ? j->jobs[id % SRV_MAX_JOBS] : NULL;
    if (job && job->id == id) {
        pd_iso8601(started, sizeof(started), job->started, 0);
        pd_iso8601(finished, sizeof(finished), job->finished, 0);
        o = json_pack("{s:i, s:s, s:s, s:{s:s, s:I, s:I}, s:I, s:I, s:o, s:s, s:o}",
            "id", job->id, "repo", job->repo, "state", srv_job_states[job->state],
            "progress", "ref", job->ref, "done", (json_int_t)job->done,
            "total", (json_int_t)job->total,
            "commits_new", (json_int_t)job->stats.commits_new,
            "blobs_analysed", (json_int_t)job->stats.blobs_analysed,
            "error", job->state == JOB_FAILED ? json_string(job->error) : json_null(),
            "started_at", started,
            "finished_at", job->state == JOB_RUNNING ? json_null() : json_string(finished));
        if (o) {
            json_t *refs = json_array();

            for (size_t i = 0; i < job->nrefs; i++)
                json_array_append_new(refs, json_string(job->refs[i]));
            json_object_set_new(o, "refs", refs);
        }
    }
    pthread_mutex_unlock(&j->lock);
    return o;
}

void srv_jobs_count(srv_jobs *j, srv_job_counts *out)
{
    int i;

    memset(out, 0, sizeof(*out));
    pthread_mutex_lock(&j->lock);
    for (i = 0; i < SRV_MAX_JOBS; i++) {
        if (!j->jobs[i])
            continue;
        if (j->jobs[i]->state == JOB_RUNNING)
            out->running++;
        else if (j->jobs[i]->state == JOB_DONE)
            out->done++;
        else
            out->failed++;
    }
    pthread_mutex_unlock(&j->lock);
}
