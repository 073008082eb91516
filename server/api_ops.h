/*
 * api_ops.h: operations endpoints: health, metrics, ingest jobs, badges,
 * the OpenAPI document, and the gate.
 */
#ifndef API_OPS_H
#define API_OPS_H

#include "srv.h"

enum MHD_Result api_healthz(srv_req *r);        /* GET /healthz */
enum MHD_Result api_metrics(srv_req *r);        /* GET /metrics */
enum MHD_Result api_ingest_trigger(srv_req *r); /* POST /api/v1/repos/{repo}/ingest */
enum MHD_Result api_job(srv_req *r);            /* GET /api/v1/jobs/{id} */
enum MHD_Result api_badge(srv_req *r);          /* GET /badge/{repo}/{ref}/{measure}.svg */
enum MHD_Result api_openapi(srv_req *r);        /* GET /api/v1/openapi.json */
enum MHD_Result api_gate(srv_req *r);           /* GET /api/v1/repos/{repo}/gate */
enum MHD_Result api_object_items(srv_req *r);   /* GET .../commits/{rev}/object-items */

#endif
