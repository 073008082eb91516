/*
 * api_jobs.c: POST /api/v1/repos/{repo}/ingest (token permission "ingest") and
 * GET /api/v1/jobs/{id}: CI bots ask the server to read new commits of the
 * stored refs, and of refs it does not hold yet (a body {"refs": [...]}).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api_jobs.h"
#include "db.h"
#include "db_analysis.h"
#include "pd_error.h"
#include "pd_rev.h"
#include "srv_auth.h"
#include "srv_jobs.h"

#define API_JOBS_MAX_NEW 16    /* refs one request may add */

/* A growing NULL-terminated list of ref names without repeats. */
typedef struct {
    char **v;
    size_t n, cap;
} api_jobs_list;

/* Add a copy of `name` unless present.  0 or PD_ENOMEM (the list is kept). */
static int api_jobs_add(void *arg, const char *name)
{
    api_jobs_list *l = arg;
    size_t k;

    for (k = 0; k < l->n && strcmp(l->v[k], name) != 0; k++)
        ;
    if (k < l->n)
        return 0;
    if (l->n + 1 >= l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        char **p = realloc(l->v, cap * sizeof(char *));

        if (!p)
            return pd_error_nomem(NULL);
        l->v = p;
        l->cap = cap;
    }
    if (!(l->v[l->n] = strdup(name)))
        return pd_error_nomem(NULL);
    l->v[++l->n] = NULL;
    return 0;
}

/* The stored refs of a repository and then `extra` (NULL-terminated array
 * of copies; an extra ref already stored is not repeated); NULL when out of
 * memory or the database fails. */
static char **api_jobs_refs(srv_req *r, int64_t repo_id, json_t *extra, size_t *n)
{
    api_jobs_list l = {calloc(1, sizeof(char *)), 0, 1};
    size_t i;
    json_t *x;
    int rc = l.v ? 0 : PD_ENOMEM;

    json_array_foreach(extra, i, x)
        if (rc == 0)
            rc = api_jobs_add(&l, json_string_value(x));
    if (rc == 0)
        rc = db_ref_names(r->db, repo_id, api_jobs_add, &l);
    if (rc < 0) {
        for (i = 0; i < l.n; i++)
            free(l.v[i]);
        free(l.v);
        return NULL;
    }
    *n = l.n;
    return l.v;
}

/*
 * The body's {"refs": [names]} into *out (NULL without a body), each a
 * branch or tag of the git directory.  0, PD_EINVAL (malformed, too many,
 * a commit id rather than a ref), PD_ENOTFOUND (git has no such ref).
 */
static int api_jobs_new_refs(srv_req *r, const char *gitdir, json_t **out)
{
    git_repository *repo = NULL;
    json_t *doc, *refs, *x;
    size_t i;
    int rc = 0;

    *out = NULL;
    if (!r->body || !r->body_len)
        return 0;
    doc = json_loadb(r->body, r->body_len, 0, NULL);
    /* {} asks for what no body asks for: the stored refs */
    if (json_is_object(doc) && json_object_size(doc) == 0) {
        json_decref(doc);
        return 0;
    }
    refs = json_object_get(doc, "refs");
    if (!json_is_array(refs) || json_array_size(refs) > API_JOBS_MAX_NEW) {
        json_decref(doc);
        return pd_error_set(PD_EINVAL, "the body is {\"refs\": [\"branch\", ...]} "
                            "with at most %d refs", API_JOBS_MAX_NEW);
    }
    git_libgit2_init();
    if (git_repository_open_ext(&repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        rc = pd_error_set(PD_EGIT, "cannot open the repository's git directory");
    json_array_foreach(refs, i, x) {
        git_object *obj = NULL;
        git_reference *ref = NULL;
        const char *name = json_string_value(x);

        if (rc < 0)
            break;
        if (!name)
            rc = pd_error_set(PD_EINVAL, "refs[%zu] is not a ref name", i);
        else if (pd_ref_name_check(name) < 0) {
            char why[512];

            snprintf(why, sizeof(why), "%s", pd_error_last());
            rc = pd_error_set(PD_EINVAL, "refs[%zu] is not a ref name: %s", i, why);
        }
        else if (git_revparse_ext(&obj, &ref, repo, name) < 0)
            rc = strlen(name) >= 7 && strspn(name, "0123456789abcdef") == strlen(name)
                 ? pd_error_set(PD_EINVAL, "'%s' is a commit id, not a branch or tag, "
                                "and the git directory has no such commit", name)
                 : pd_error_set(PD_ENOTFOUND, "the repository has no ref '%s'", name);
        else if (!ref)
            rc = pd_error_set(PD_EINVAL, "'%s' is not a branch or tag (to gate a commit, "
                              "GET .../gate?base=REV&head=COMMIT)", name);
        git_reference_free(ref);
        git_object_free(obj);
    }
    git_repository_free(repo);
    git_libgit2_shutdown();
    if (rc == 0)
        *out = json_incref(refs);
    json_decref(doc);
    return rc;
}

/* 1 when running job `id` ingests every ref of `want`. */
static int api_jobs_covers(srv_req *r, int id, json_t *want)
{
    json_t *job = srv_jobs_get(srv_get_jobs(r->server), id), *x, *y;
    size_t i, k;
    int all = 1;

    json_array_foreach(want, i, x) {
        int found = 0;

        json_array_foreach(json_object_get(job, "refs"), k, y)
            found |= json_equal(x, y);
        all &= found;
    }
    json_decref(job);
    return all;
}

enum MHD_Result api_ingest_trigger(srv_req *r)
{
    char gitdir[4096], url[64];
    enum MHD_Result ret;
    char **refs;
    json_t *extra = NULL;
    size_t n, i;
    int64_t repo_id;
    int rc, id, joined;

    if (srv_authorize(r, "ingest", &ret) < 0)
        return ret;
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) < 0 ||
        (rc = api_jobs_new_refs(r, gitdir, &extra)) < 0)
        return srv_reply_error(r, rc);
    if (!(refs = api_jobs_refs(r, repo_id, extra, &n))) {
        json_decref(extra);
        /* pd_error_last says which: out of memory, or the database (503
         * when busy). */
        return srv_reply_error(r, PD_EDB);
    }
    rc = srv_jobs_start(srv_get_jobs(r->server), &id, &joined, r->param[0], gitdir,
                        (const char **)refs, n);
    for (i = 0; i < n; i++)
        free(refs[i]);
    free(refs);
    if (rc < 0) {
        json_decref(extra);
        return srv_reply_error(r, rc);
    }
    snprintf(url, sizeof(url), "/api/v1/jobs/%d", id);
    snprintf(r->location, sizeof(r->location), "%s", url);
    if (joined && extra && !api_jobs_covers(r, id, extra)) {
        json_decref(extra);
        return srv_reply_problem(r, 409, "Conflict", "job %d is ingesting this repository "
                                 "without the refs asked for; ask again when it is done "
                                 "(Location)", id);
    }
    json_decref(extra);
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
