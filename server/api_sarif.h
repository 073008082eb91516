/*
 * api_sarif.h: SARIF uploads over the API (see sarif/sarif_import.h and
 * doc/sarif.md, "Uploading analyzer output").
 */
#ifndef API_SARIF_H
#define API_SARIF_H

#include "srv_reply.h"
#include "srv_req.h"

/*
 * POST .../commits/{rev}/sarif: needs a token with permission "sarif".  The body
 * is a SARIF 2.1.0 log, gzip-compressed or not (at most SARIF_MAX_INFLATED
 * bytes inflated, else 413); query arguments checkout_uri= and category=.
 * 201 {"runs": [{"tool", "category", "results", "findings", "unmapped"}]},
 * 400 naming the first problem, 401/403, 404.
 */
enum MHD_Result api_sarif_post(srv_req *r);

/* GET .../commits/{rev}/sarif: the stored runs of the commit. */
enum MHD_Result api_sarif_list(srv_req *r);

#endif
