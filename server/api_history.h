/*
 * api_history.h: measures over a ref's history and one file's (api_history.c).
 */
#ifndef API_HISTORY_H
#define API_HISTORY_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/measures */
enum MHD_Result api_measures_list(srv_req *r);

/* GET /api/v1/repos/{repo}/refs/{ref}/history */
enum MHD_Result api_history(srv_req *r);

/* GET /api/v1/repos/{repo}/refs/{ref}/file-history/{path...} */
enum MHD_Result api_file_history(srv_req *r);

/* GET /api/v1/repos/{repo}/refs/{ref}/rewrites */
enum MHD_Result api_rewrites(srv_req *r);

#endif
