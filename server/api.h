/*
 * api.h: what the JSON API (v1) handlers share (and api_common.h).  Each
 * handler is declared in the header named after its file (api_commit.h,
 * api_file.h, ...); the route table (srv_routes.c) lists them.  Shapes are documented in
 * doc/api.md and server/openapi.json; field names and meanings there are a
 * contract with CI bots.  `{rev}` is a ref name or a full or abbreviated
 * commit id.
 */
#ifndef API_H
#define API_H

#include "db_history.h"
#include "pd_domain.h"
#include "api_common.h"
#include "srv_reply.h"
#include "srv_req.h"


#endif
