/*
 * api_filefns.h: the file page's first screen (api_filefns.c): one file's
 * functions with their findings counted, without the findings themselves.
 */
#ifndef API_FILEFNS_H
#define API_FILEFNS_H

#include "srv_reply.h"
#include "srv_req.h"

/*
 * GET /api/v1/repos/{repo}/commits/{rev}/file-functions/{path...}: what
 * GET .../files/{path...} answers with the same query (?page, ?per_page,
 * ?tool, ?level), less "findings", plus "function_findings": {name: n}, the
 * findings of that answer counted by the function they are in (doc/api.md).
 * Errors as that route's.
 */
enum MHD_Result api_file_functions(srv_req *r);

#endif
