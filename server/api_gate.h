/*
 * api_gate.h: the ratchet gate over HTTP (api_gate.c).
 */
#ifndef API_GATE_H
#define API_GATE_H

#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}/gate?base=REV&head=REV[&format=markdown] */
enum MHD_Result api_gate(srv_req *r);

#endif
