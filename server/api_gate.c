/*
 * api_gate.c: GET /api/v1/repos/{repo}/gate?base=REV&head=REV[&format=markdown]:
 * the ratchet gate (gate.h) on stored analyses, with the default policy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_diff.h"
#include "api_ops.h"
#include "db.h"
#include "gate.h"
#include "pd_error.h"

/* api_changed_files callback: feed one changed file to the gate. */
static int api_gate_file(void *arg, srv_req *r, const char *path, const api_side *a,
                         const api_side *b)
{
    gate *g = arg;
    gate_fnlist fa, fb;
    char hash[64];
    int rc;

    if ((rc = db_meta_get(r->db, "rules_hash", hash, sizeof(hash))) < 0)
        return rc;
    if ((rc = api_diff_load(r, hash, a->blob, &fa)) < 0)
        return rc;
    if ((rc = api_diff_load(r, hash, b->blob, &fb)) == 0)
        rc = gate_add_file(g, path, &fa, &fb, a->blob ? a->ready : -1,
                           b->blob ? b->ready : -1);
    gate_fnlist_free(&fa);
    gate_fnlist_free(&fb);
    return rc;
}

/* Resolve query argument `key` as a rev of repository param[0]. */
static int api_gate_rev(srv_req *r, const char *key, api_at *at)
{
    char rev[256];
    const char *saved = r->param[1];
    int rc;

    if ((rc = srv_query(r, key, rev, sizeof(rev))) == PD_ENOTFOUND)
        return pd_error_set(PD_EINVAL, "the gate needs ?base=REV&head=REV");
    if (rc < 0)
        return rc;
    r->param[1] = rev;
    rc = api_resolve(r, at);
    r->param[1] = saved;
    return rc;
}

enum MHD_Result api_gate(srv_req *r)
{
    api_at base, head;
    db_counts cb, ch;
    gate_policy pol;
    gate *g;
    json_t *res;
    char fmt[32] = "json", *md;
    enum MHD_Result ret;
    int rc;

    if ((rc = api_gate_rev(r, "base", &base)) < 0 ||
        (rc = api_gate_rev(r, "head", &head)) < 0 ||
        (rc = db_commit_stats(r->db, base.commit_id, base.rules_hash, &cb)) < 0 ||
        (rc = db_commit_stats(r->db, head.commit_id, head.rules_hash, &ch)) < 0)
        return srv_reply_error(r, rc);
    srv_query(r, "format", fmt, sizeof(fmt));
    gate_policy_default(&pol);
    if (!(g = gate_new(&pol)))
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    if ((rc = api_changed_files(r, &base, &head, api_gate_file, g)) < 0) {
        gate_free(g);
        return srv_reply_error(r, rc);
    }
    res = gate_result(g, base.oid, head.oid, &cb, &ch);
    gate_free(g);
    if (strcmp(fmt, "markdown") != 0)
        return srv_reply_json(r, 200, res);
    md = gate_markdown(res);
    json_decref(res);
    ret = md ? srv_reply_bytes(r, 200, "text/markdown; charset=utf-8", md, strlen(md))
             : srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    free(md);
    return ret;
}
