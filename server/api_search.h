/*
 * api_search.h: functions and C API names by name (api_search.c).
 */
#ifndef API_SEARCH_H
#define API_SEARCH_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET .../commits/{rev}/search?q=TEXT: functions and symbols by name. */
enum MHD_Result api_search(srv_req *r);

#endif
