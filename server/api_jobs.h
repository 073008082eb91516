/*
 * api_jobs.h: background ingest jobs over HTTP (api_jobs.c).
 */
#ifndef API_JOBS_H
#define API_JOBS_H

#include "srv_reply.h"
#include "srv_req.h"

/* POST /api/v1/repos/{repo}/ingest: start a job (token permission ingest); 202
 * with its id and Location. */
enum MHD_Result api_ingest_trigger(srv_req *r);

/* GET /api/v1/jobs/{id}: a job's state and progress. */
enum MHD_Result api_job(srv_req *r);

#endif
