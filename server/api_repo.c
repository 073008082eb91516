/*
 * api_repo.c: one repository's state and its lifecycle over the API (issue
 * 23, point 5): GET /api/v1/repos/{repo} (what is stored, permission read),
 * DELETE /api/v1/repos/{repo} and POST /api/v1/repos/{repo}/rename (token
 * permission admin), and GET /api/v1/repos/{repo}/missing (objects the clone
 * lacked, point 6).  The CLI twin is cli/cli_repo.c.
 */
#include <string.h>

#include <jansson.h>

#include "api.h"
#include "api_repo.h"
#include "db.h"
#include "db_lock.h"
#include "db_missing.h"
#include "db_repo.h"
#include "pd_error.h"
#include "pd_time.h"
#include "srv_auth.h"
#include "srv_page.h"
#include "srv_reply.h"
#include "srv_req.h"

/* The most records one answer of /missing holds. */
#define API_MISSING_PER_PAGE 1000

/* db_repo_list callback: keep the row named `want` as JSON. */
typedef struct {
    const char *want;
    json_t *doc;
} api_repo_pick;

static int api_repo_pick_one(void *arg, const db_repo_info *i)
{
    api_repo_pick *p = arg;

    if (strcmp(i->name, p->want) != 0)
        return 0;
    p->doc = api_repo_info_json(i);
    return 1;
}

json_t *api_repo_info_json(const db_repo_info *i)
{
    char created[40];
    json_t *scope = i->scope ? json_loads(i->scope, 0, NULL) : NULL;
    json_t *profile = i->profile ? json_loads(i->profile, 0, NULL) : NULL;

    pd_iso8601(created, sizeof(created), i->created_at, 0);
    /* The git directory stays out: it names the server's file system. */
    return json_pack("{s:o, s:s, s:I, s:I, s:I, s:s, s:o, s:o}", "name", api_text(i->name),
                     "created_at", created, "commits", (json_int_t)i->commits,
                     "refs", (json_int_t)i->refs, "missing_blobs", (json_int_t)i->missing,
                     "state", i->refs ? "ingested" : "empty",
                     "scope", scope ? scope : json_null(),
                     "profile", profile ? profile : json_null());
}

enum MHD_Result api_repo_get(srv_req *r)
{
    api_repo_pick p = {r->param[0], NULL};
    int rc = db_repo_list(r->db, api_repo_pick_one, &p);

    if (rc < 0)
        return srv_reply_error(r, rc);
    if (!p.doc) {
        db_repo_unknown(r->db, r->param[0]);
        return srv_reply_problem(r, 404, "Not Found", "%s", pd_error_last());
    }
    return srv_reply_json(r, 200, p.doc);
}

/* The database's work lock, so that no ingest writes the repository while
 * it goes or changes name: 0, or PD_EBUSY naming the holder. */
static int api_repo_lock(srv_req *r, db_lock **lock)
{
    return db_lock_take(lock, srv_db_path(r->server), "repository change", 0);
}

enum MHD_Result api_repo_delete(srv_req *r)
{
    enum MHD_Result ret;
    db_lock *lock = NULL;
    int rc;

    if (srv_authorize(r, "admin", &ret) < 0)
        return ret;
    if ((rc = api_repo_lock(r, &lock)) == 0)
        rc = db_repo_rm(r->db, r->param[0]);
    db_lock_release(lock);
    if (rc < 0)
        return srv_reply_error(r, rc);
    return srv_reply_json(r, 200, json_pack("{s:o}", "deleted", api_text(r->param[0])));
}

enum MHD_Result api_repo_rename(srv_req *r)
{
    json_t *body = r->body ? json_loadb(r->body, r->body_len, 0, NULL) : NULL;
    const char *to = json_string_value(json_object_get(body, "name"));
    enum MHD_Result ret;
    db_lock *lock = NULL;
    int rc;

    if (srv_authorize(r, "admin", &ret) < 0) {
        json_decref(body);
        return ret;
    }
    if (!to) {
        json_decref(body);
        return srv_reply_problem(r, 400, "Bad Request", "the body is {\"name\": NEW_NAME}");
    }
    if ((rc = api_repo_lock(r, &lock)) == 0)
        rc = db_repo_rename(r->db, r->param[0], to);
    db_lock_release(lock);
    if (rc < 0) {
        json_decref(body);
        return srv_reply_error(r, rc);
    }
    ret = srv_reply_json(r, 200, json_pack("{s:o, s:o}", "from", api_text(r->param[0]),
                                           "name", api_text(to)));
    json_decref(body);
    return ret;
}

/* db_missing_list callback: one record onto the array. */
static int api_missing_add(void *arg, const db_missing_row *m)
{
    json_array_append_new(arg, json_pack("{s:s, s:o, s:s}", "commit", m->commit,
                                         "path", api_text(m->path), "blob", m->blob));
    return 0;
}

enum MHD_Result api_repo_missing(srv_req *r)
{
    size_t page, per;
    int64_t repo_id, total = 0;
    json_t *arr = json_array();
    int rc;

    if ((rc = srv_page_window(r, API_MISSING_PER_PAGE, API_MISSING_PER_PAGE, &page,
                              &per)) < 0 ||
        (rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_missing_list(r->db, repo_id, (int64_t)((page - 1) * per), (int64_t)per,
                              &total, api_missing_add, arr)) < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    if ((size_t)total > per || page > 1)
        srv_page_link(r, page, per, (size_t)total);
    return srv_reply_json(r, 200, json_pack("{s:I, s:o}", "total", (json_int_t)total,
                                            "missing", arr));
}
