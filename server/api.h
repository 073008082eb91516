/*
 * api.h: the JSON API (v1) handlers.  Shapes are documented in doc/api.md
 * ("The JSON API"); field names and meanings there are a contract with CI
 * bots.  `{rev}` is a ref name or a full or abbreviated commit id.
 */
#ifndef API_H
#define API_H

#include "db_history.h"
#include "pd_domain.h"
#include "api_common.h"
#include "srv.h"

enum MHD_Result api_repos(srv_req *r);    /* GET /api/v1/repos */
enum MHD_Result api_commit(srv_req *r);   /* GET .../commits/{rev} */
enum MHD_Result api_summary(srv_req *r);  /* GET .../commits/{rev}/summary */
enum MHD_Result api_files(srv_req *r);    /* GET .../commits/{rev}/files */
enum MHD_Result api_file(srv_req *r);     /* GET .../commits/{rev}/files/{path} */
enum MHD_Result api_raw(srv_req *r);      /* GET .../commits/{rev}/raw/{path} */
enum MHD_Result api_fixes(srv_req *r);    /* GET .../commits/{rev}/fixes (api_fixes.c) */
enum MHD_Result api_measures_list(srv_req *r); /* GET /api/v1/measures */
enum MHD_Result api_history(srv_req *r);  /* GET .../refs/{ref}/history */
enum MHD_Result api_file_history(srv_req *r); /* GET .../refs/{ref}/file-history/{path} */
enum MHD_Result api_rewrites(srv_req *r); /* GET .../refs/{ref}/rewrites */

/* {"commit","author_date","committer_date"} of a commit (db_history.h);
 * api_history.c. */
json_t *api_commit_point(const db_commit_when *w);

#endif
