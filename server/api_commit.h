/*
 * api_commit.h: repositories, one commit, its summary and its files (api_commit.c).
 */
#ifndef API_COMMIT_H
#define API_COMMIT_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos */
enum MHD_Result api_repos(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev} */
enum MHD_Result api_commit(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/summary[?scope=NAME] */
enum MHD_Result api_summary(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/files[?scope=NAME] */
enum MHD_Result api_files(srv_req *r);

#endif
