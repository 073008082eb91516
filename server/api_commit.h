/*
 * api_commit.h: repositories, one commit, its summary and its files (api_commit.c).
 */
#ifndef API_COMMIT_H
#define API_COMMIT_H

#include "q_commit.h"
#include "srv_reply.h"
#include "srv_req.h"

/* The commit `c` as the API answers it (GET .../commits/{rev}): a new
 * reference.  The command line (portdash show commit --format json)
 * prints the same. */
json_t *api_commit_json(const q_commit *c);

/* 1 when `c` holds one page of a longer list of changed files (or a page
 * past the first). */
int api_commit_paged(const q_commit *c);

/* GET /api/v1/repos */
enum MHD_Result api_repos(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev} */
enum MHD_Result api_commit(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/summary[?scope=NAME] */
enum MHD_Result api_summary(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/files[?scope=NAME] */
enum MHD_Result api_files(srv_req *r);

#endif
