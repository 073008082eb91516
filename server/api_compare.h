/*
 * api_compare.h: what moved between two commits (api_compare.c).
 */
#ifndef API_COMPARE_H
#define API_COMPARE_H

#include <jansson.h>

#include "q_compare.h"
#include "srv_reply.h"
#include "srv_req.h"

/* Two commits compared (`c`) as the API answers it (GET .../compare/
 * {base}...{head}): a new reference.  The command line (portdash show
 * compare --format json) prints the same. */
json_t *api_compare_json(const q_compare *c);

/* GET /api/v1/repos/{repo}/compare/{base}...{head} */
enum MHD_Result api_compare(srv_req *r);

#endif
