/*
 * api_ops.h: what operators and monitors ask (api_ops.c): health, metrics
 * and the OpenAPI document.
 */
#ifndef API_OPS_H
#define API_OPS_H

#include "srv_reply.h"
#include "srv_req.h"

enum MHD_Result api_healthz(srv_req *r);        /* GET /healthz */
enum MHD_Result api_metrics(srv_req *r);        /* GET /metrics */
enum MHD_Result api_openapi(srv_req *r);        /* GET /api/v1/openapi.json */

#endif
