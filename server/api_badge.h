/*
 * api_badge.h: SVG badges for READMEs (api_badge.c).
 */
#ifndef API_BADGE_H
#define API_BADGE_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /badge/{repo}/{ref}/{measure}.svg */
enum MHD_Result api_badge(srv_req *r);

#endif
