/*
 * api_report.h: the dev-call report of a week, in Markdown (api_report.c).
 */
#ifndef API_REPORT_H
#define API_REPORT_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/snapshots/{week}/report.md[?ref=REF] */
enum MHD_Result api_report(srv_req *r);

#endif
