/*
 * api_repo.h: repository lifecycle and missing-object handlers (api_repo.c).
 */
#ifndef API_REPO_H
#define API_REPO_H

#include <stdint.h>
#include <jansson.h>

#include "db_repo.h"
#include "srv_reply.h"
#include "srv_req.h"

/* GET /api/v1/repos/{repo}: what is stored (commits, refs, missing blobs,
 * scope; state "empty" when nothing can be shown). */
enum MHD_Result api_repo_get(srv_req *r);

/* DELETE /api/v1/repos/{repo} (token permission admin): db_repo_rm. */
enum MHD_Result api_repo_delete(srv_req *r);

/* POST /api/v1/repos/{repo}/rename {"name": NEW} (token permission admin). */
enum MHD_Result api_repo_rename(srv_req *r);

/* GET /api/v1/repos/{repo}/missing: the blobs the clone lacked, per commit
 * and path, paged. */
enum MHD_Result api_repo_missing(srv_req *r);

/* A repository row as JSON (new reference); the git directory is left out. */
json_t *api_repo_info_json(const db_repo_info *i);

#endif
