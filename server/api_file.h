/*
 * api_file.h: one file at a commit: its page and its source (api_file.c).
 */
#ifndef API_FILE_H
#define API_FILE_H

#include "srv.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/files/{path...} */
enum MHD_Result api_file(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/raw/{path...} */
enum MHD_Result api_raw(srv_req *r);

#endif
