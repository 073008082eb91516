/*
 * api_gate.c: GET /api/v1/repos/{repo}/gate?base=REV&head=REV[&format=markdown]:
 * the ratchet gate (gate.h) on stored analyses, with the default policy.
 * A rev the database does not hold but the repository's git directory does
 * (a pull request's branch, any commit id) is ingested first, commits and
 * analyses only, no ref: each new blob is analysed once, as `portdash gate`
 * would, and kept for the next gate.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api_diff.h"
#include "api_gate.h"
#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "db_scope.h"
#include "gate.h"
#include "ingest.h"
#include "pd_error.h"
#include "pd_rev.h"
#include "srv_budget.h"

/* One gate ingest at a time: two requests for the same new branch would
 * otherwise analyse its blobs twice. */
static pthread_mutex_t api_gate_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * 1 when the file at `path` on side `s` has nothing unguarded outside
 * object-dtype paths that needs CPython (the gate's universal-ready
 * ratchet, gate.h), with the object states of the side's call graph (as
 * the scoped summary counts them), 0 when it has or the blob has no
 * analysis; -1 when the file is absent.  A database error is PD_EDB
 * (< -1), never "not ready".
 */
static int api_gate_ready(srv_req *r, const char *hash, const char *path, const api_side *s)
{
    db_scope_detail d;
    db_flow *flow = NULL;
    int64_t id = 0;
    int rc;

    if (!s->blob)
        return -1;
    if ((rc = db_analysis_find(r->db, s->blob, hash, &id)) < 0)
        return rc;
    if (!id)
        return 0;
    if ((rc = db_flow_get(r->db, s->commit_id, hash, &flow)) < 0)
        return rc;
    rc = db_scope_detail_read_at(r->db, id, db_flow_graph(flow), path, &d);
    db_flow_release(flow);
    if (rc < 0)
        return rc;
    rc = db_scope_detail_ready(&d);
    db_scope_detail_free(&d);
    return rc;
}

typedef struct {
    gate *g;
    const char *rules_hash;
} api_gate_ctx;

/* api_changed_files callback: feed one changed file to the gate. */
static int api_gate_file(void *arg, srv_req *r, const char *path, const api_side *a,
                         const api_side *b)
{
    api_gate_ctx *c = arg;
    gate_fnlist fa, fb;
    int rc, ra = 0, rb = 0;

    if ((rc = api_diff_load(r, c->rules_hash, path, a, &fa)) < 0)
        return rc;
    if ((rc = api_diff_load(r, c->rules_hash, path, b, &fb)) == 0 &&
        (ra = api_gate_ready(r, c->rules_hash, path, a)) >= -1 &&
        (rb = api_gate_ready(r, c->rules_hash, path, b)) >= -1)
        rc = gate_add_file(c->g, path, &fa, &fb, ra, rb);
    else if (rc == 0)
        rc = ra < -1 ? ra : rb;
    gate_fnlist_free(&fa);
    gate_fnlist_free(&fb);
    return rc;
}

/* The full commit id `rev` names in git directory `gitdir` into hex.
 * PD_ENOTFOUND when git does not know it either. */
static int api_gate_git_commit(const char *gitdir, const char *rev, char hex[41])
{
    git_repository *repo = NULL;
    git_object *obj = NULL, *commit = NULL;
    int rc = 0;

    git_libgit2_init();
    if (git_repository_open_ext(&repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        rc = pd_error_set(PD_EGIT, "cannot open the repository's git directory");
    else if ((rc = pd_rev_parse(&obj, repo, rev)) == PD_EINVAL)
        ;
    else if (rc < 0 || git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) < 0)
        rc = pd_error_set(PD_ENOTFOUND, "unknown revision '%s': neither stored nor in "
                          "the repository", rev);
    else
        git_oid_tostr(hex, 41, git_object_id(commit));
    git_object_free(commit);
    git_object_free(obj);
    git_repository_free(repo);
    git_libgit2_shutdown();
    return rc;
}

/* Ingest commit `hex` (and its first-parent chain down to what is stored)
 * of repository param[0] without storing a ref. */
static int api_gate_ingest(srv_req *r, const char *gitdir, const char *hex)
{
    const char *refs[1] = {hex};
    ingest_options o = {0};
    int rc;

    o.db_path = srv_db_path(r->server);
    o.repo_path = gitdir;
    o.name = r->param[0];
    o.refs = refs;
    o.nrefs = 1;
    o.no_refs = 1;
    /* Within the request's budget (srv_budget.h): waiting for another
     * gate's ingest, and the ingest itself. */
    o.interrupted = srv_budget_progress;
    {
        struct timespec ts;

        if (srv_budget_deadline(&ts) == 0 ? pthread_mutex_timedlock(&api_gate_lock, &ts)
                                          : pthread_mutex_lock(&api_gate_lock))
            return pd_error_set(PD_EDB, "waited for another gate's ingest past the "
                                "request's budget");
    }
    rc = ingest_run(&o, NULL);
    pthread_mutex_unlock(&api_gate_lock);
    return rc;
}

/* Resolve query argument `key` as a rev of repository param[0], ingesting
 * it first when only git has it (*ingested set to 1 then). */
static int api_gate_rev(srv_req *r, const char *key, api_at *at, int *ingested)
{
    char rev[256], gitdir[4096], hex[41];
    const char *saved = r->param[1];
    int64_t repo_id;
    int rc;

    *ingested = 0;
    if ((rc = srv_query(r, key, rev, sizeof(rev))) == PD_ENOTFOUND)
        return pd_error_set(PD_EINVAL, "the gate needs ?base=REV&head=REV");
    if (rc < 0)
        return rc;
    r->param[1] = rev;
    rc = api_resolve(r, at);
    if (rc == PD_ENOTFOUND && db_repo_find(r->db, r->param[0], &repo_id, NULL, 0) == 0 &&
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) == 0 &&
        (rc = api_gate_git_commit(gitdir, rev, hex)) == 0) {
        /* A branch name not stored may name a commit that is (gated before). */
        r->param[1] = hex;
        if ((rc = api_resolve(r, at)) == PD_ENOTFOUND &&
            (rc = api_gate_ingest(r, gitdir, hex)) == 0) {
            *ingested = 1;
            rc = api_resolve(r, at);
        }
    }
    r->param[1] = saved;
    return rc;
}

enum MHD_Result api_gate(srv_req *r)
{
    api_at base, head;
    db_counts cb, ch;
    gate_policy pol;
    gate *g;
    api_gate_ctx ctx;
    json_t *res;
    char fmt[32] = "json", *md;
    enum MHD_Result ret;
    int rc, new_base, new_head;

    /* before any work (a revision may be ingested): a bad format is 400 */
    if ((rc = srv_query(r, "format", fmt, sizeof(fmt))) < 0 && rc != PD_ENOTFOUND)
        return srv_reply_error(r, rc);
    if (fmt[0] && strcmp(fmt, "json") && strcmp(fmt, "markdown"))
        return srv_reply_error(r, pd_error_set(PD_EINVAL, "format is json or markdown, "
                                               "not '%.40s'", fmt));
    if ((rc = api_gate_rev(r, "base", &base, &new_base)) < 0 ||
        (rc = api_gate_rev(r, "head", &head, &new_head)) < 0 ||
        (rc = db_commit_stats(r->db, base.commit_id, base.rules_hash, &cb)) < 0 ||
        (rc = db_commit_stats(r->db, head.commit_id, head.rules_hash, &ch)) < 0)
        return srv_reply_error(r, rc);
    gate_policy_default(&pol);
    if (!(g = gate_new(&pol)))
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    ctx.g = g;
    ctx.rules_hash = head.rules_hash;
    if ((rc = api_changed_files(r, &base, &head, api_gate_file, &ctx)) < 0) {
        gate_free(g);
        return srv_reply_error(r, rc);
    }
    {
        const db_scope *no_obj = db_scopes_find(srv_get_scopes(r->server), "no-object-dtype");
        db_counts sb, sh;

        if (no_obj && db_scope_commit_counts(r->db, no_obj, base.commit_id, base.rules_hash,
                                             &sb) == 0 &&
            db_scope_commit_counts(r->db, no_obj, head.commit_id, head.rules_hash, &sh) == 0)
            gate_set_ready_totals(g, sb.universal_ready_files, sh.universal_ready_files);
    }
    res = gate_result(g, base.oid, head.oid, &cb, &ch);
    gate_free(g);
    /* What this request had to ingest first ([] when all was stored). */
    json_object_set_new(res, "ingested", json_pack("[]"));
    if (new_base)
        json_array_append_new(json_object_get(res, "ingested"), json_string("base"));
    if (new_head)
        json_array_append_new(json_object_get(res, "ingested"), json_string("head"));
    if (strcmp(fmt, "markdown") != 0)
        return srv_reply_json(r, 200, res);
    md = gate_markdown(res);
    json_decref(res);
    ret = md ? srv_reply_bytes(r, 200, "text/markdown; charset=utf-8", md, strlen(md))
             : srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    free(md);
    return ret;
}
