/*
 * api_hpyneeds.h: what HPy must add, across every port in the database
 * (api_hpyneeds.c).
 */
#ifndef API_HPYNEEDS_H
#define API_HPYNEEDS_H

#include "srv_reply.h"
#include "srv_req.h"

enum MHD_Result api_hpy_needs(srv_req *r);

#endif
