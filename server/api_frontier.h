/*
 * api_frontier.h: the frontier of functions to port next (api_frontier.c); the shape
 * is in doc/guide.md ("Traverse coverage and what to port next").
 */
#ifndef API_FRONTIER_H
#define API_FRONTIER_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/frontier[?limit=N][&all=1] */
enum MHD_Result api_frontier(srv_req *r);

#endif
