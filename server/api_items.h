/*
 * api_items.h: object-array item accesses at a commit (api_items.c).
 */
#ifndef API_ITEMS_H
#define API_ITEMS_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/object-items */
enum MHD_Result api_object_items(srv_req *r);

#endif
