/*
 * srv_jobs.h: background ingest jobs started through the API
 * (POST /api/v1/repos/{repo}/ingest).  One job per repository runs at a
 * time; a request while one runs joins it.  Jobs live in memory: a restart
 * forgets finished jobs, never stored data (ingests commit in batches).
 */
#ifndef SRV_JOBS_H
#define SRV_JOBS_H

#include <stddef.h>
#include <jansson.h>

typedef struct srv_jobs srv_jobs;

typedef struct {
    int running, done, failed;
} srv_job_counts;

/* A job table writing to database `db_path`; NULL when out of memory. */
srv_jobs *srv_jobs_new(const char *db_path);

/* The server is stopping: running ingests end at their next statement
 * (the batches they committed stay; ingest.h).  Accepts NULL. */
void srv_jobs_stop(srv_jobs *j);

/* Wait for running jobs, then free; accepts NULL. */
void srv_jobs_free(srv_jobs *j);

/*
 * Start an ingest of repository `repo` (git directory `gitdir`, refs
 * `refs`), or join the one running for it.  *id_out is the job id, *joined
 * 1 when an existing job was joined.  0, PD_ENOMEM, PD_ERROR (no thread).
 */
int srv_jobs_start(srv_jobs *j, int *id_out, int *joined, const char *repo,
                   const char *gitdir, const char **refs, size_t nrefs);

/* The job as JSON ({"id", "repo", "state", "progress", ...}), or NULL. */
json_t *srv_jobs_get(srv_jobs *j, int id);

/* Call fn(arg) after each job finishes (done or failed), from the job's
 * thread; the answer cache warms itself with it. */
void srv_jobs_on_done(srv_jobs *j, void (*fn)(void *), void *arg);

/* Jobs by state. */
void srv_jobs_count(srv_jobs *j, srv_job_counts *out);

#endif
