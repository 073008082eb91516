/*
 * api_port.h: the porting questions of issue 6 that the stored analyses
 * answer: traverse coverage of the HPy types (api_traverse.c) and the
 * frontier of functions to port next (api_frontier.c).  Shapes are in
 * doc/guide.md ("Traverse coverage and what to port next").
 */
#ifndef API_PORT_H
#define API_PORT_H

#include "srv.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/traverse */
enum MHD_Result api_traverse(srv_req *r);

/* GET /api/v1/repos/{repo}/commits/{rev}/frontier[?limit=N][&all=1] */
enum MHD_Result api_frontier(srv_req *r);

#endif
