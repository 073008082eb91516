/*
 * api_compare.h: what moved between two commits (api_compare.c).
 */
#ifndef API_COMPARE_H
#define API_COMPARE_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/compare/{base}...{head} */
enum MHD_Result api_compare(srv_req *r);

#endif
