/*
 * api_plan.h: the porting plan and the cross-port view of what HPy must
 * add (issue 24).  Shapes in doc/api.md ("Porting plan", "What HPy must
 * add").
 */
#ifndef API_PLAN_H
#define API_PLAN_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/commits/{rev}/plan[?path=FILE][&scope=NAME]
 * [&batch=N][&limit=N] (api_plan.c) */
enum MHD_Result api_plan(srv_req *r);

/* GET /api/v1/hpy-needs[?at=REPO:REF]...[&scope=NAME][&format=csv|markdown]
 * (api_hpyneeds.c) */

#endif
