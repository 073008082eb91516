/*
 * api_fixes.h: the checked HPy rewrites of a commit's files (api_fixes.c).
 */
#ifndef API_FIXES_H
#define API_FIXES_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/fixes[?path][&rule][&function]
 * [&page][&per_page]: the offers, paged (doc/fixes.md). */
enum MHD_Result api_fixes(srv_req *r);

#endif
