/*
 * api_traverse.h: traverse coverage of the HPy types (api_traverse.c); the shape is in
 * doc/guide.md ("Traverse coverage and what to port next").
 */
#ifndef API_TRAVERSE_H
#define API_TRAVERSE_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/traverse */
enum MHD_Result api_traverse(srv_req *r);

#endif
