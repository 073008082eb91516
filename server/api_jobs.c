/*
 * api_jobs.c: POST /api/v1/repos/{repo}/ingest (token scope "ingest") and
 * GET /api/v1/jobs/{id}: CI bots ask the server to read new commits.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_ops.h"
#include "db.h"
#include "pd_error.h"
#include "srv_jobs.h"

/* The stored refs of a repository, as a NULL-terminated array of copies. */
static char **api_jobs_refs(srv_req *r, int64_t repo_id, size_t *n)
{
    sqlite3_stmt *st = NULL;
    char **refs = NULL;
    size_t cap = 0;

    *n = 0;
    if (db_prepare(r->db, &st, "SELECT name FROM refs WHERE repo_id = ?1 ORDER BY name") < 0)
        return NULL;
    sqlite3_bind_int64(st, 1, repo_id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        if (*n + 1 >= cap) {
            char **p = realloc(refs, (cap = cap ? cap * 2 : 8) * sizeof(char *));
            if (!p)
                break;
            refs = p;
        }
        refs[(*n)++] = strdup((const char *)sqlite3_column_text(st, 0));
        refs[*n] = NULL;
    }
    sqlite3_finalize(st);
    return refs;
}

enum MHD_Result api_ingest_trigger(srv_req *r)
{
    char gitdir[4096], url[64];
    enum MHD_Result ret;
    char **refs;
    size_t n, i;
    int64_t repo_id;
    int rc, id, joined;

    if (srv_authorize(r, "ingest", &ret) < 0)
        return ret;
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) < 0)
        return srv_reply_error(r, rc);
    refs = api_jobs_refs(r, repo_id, &n);
    rc = srv_jobs_start(srv_get_jobs(r->server), &id, &joined, r->param[0], gitdir,
                        (const char **)refs, n);
    for (i = 0; i < n; i++)
        free(refs[i]);
    free(refs);
    if (rc < 0)
        return srv_reply_error(r, rc);
    snprintf(url, sizeof(url), "/api/v1/jobs/%d", id);
    return srv_reply_json(r, 202, json_pack("{s:i, s:s, s:b}", "job", id, "url", url,
                                            "joined", joined));
}

enum MHD_Result api_job(srv_req *r)
{
    char *end;
    long id = strtol(r->param[0], &end, 10);
    json_t *o = *end ? NULL : srv_jobs_get(srv_get_jobs(r->server), (int)id);

    if (!o)
        return srv_reply_problem(r, 404, "Not Found", "no job '%s'", r->param[0]);
    return srv_reply_json(r, 200, o);
}
