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
#include "db_scope.h"
#include "gate.h"
#include "pd_error.h"

/*
 * 1 when the analysis of `blob` has nothing unguarded outside object-dtype
 * paths that needs CPython (the gate's universal-ready ratchet, gate.h);
 * -1 when the file is absent.
 */
static int api_gate_ready(srv_req *r, const char *hash, const char *blob)
{
    sqlite3_stmt *st = NULL;
    db_scope_detail d;
    int64_t id = 0;
    size_t i;
    int ready;

    if (!blob)
        return -1;
    if (db_prepare(r->db, &st, "SELECT id FROM analyses WHERE blob_oid = ?1 AND "
                   "rules_hash = ?2") == 0) {
        sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
        sqlite3_bind_text(st, 2, hash, -1, SQLITE_STATIC);
        if (sqlite3_step(st) == SQLITE_ROW)
            id = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    if (!id || db_scope_detail_read(r->db, id, &d) < 0)
        return 0;
    ready = d.file_ung[1] == 0 && d.file_ung[3] == 0;
    for (i = 0; i < d.nfn && ready; i++)
        if (!d.fn[i].is_object && (d.fn[i].ung[1] || d.fn[i].ung[3]))
            ready = 0;
    db_scope_detail_free(&d);
    return ready;
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
    int rc;

    if ((rc = api_diff_load(r, c->rules_hash, a->blob, &fa)) < 0)
        return rc;
    if ((rc = api_diff_load(r, c->rules_hash, b->blob, &fb)) == 0)
        rc = gate_add_file(c->g, path, &fa, &fb, api_gate_ready(r, c->rules_hash, a->blob),
                           api_gate_ready(r, c->rules_hash, b->blob));
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
    api_gate_ctx ctx;
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
    if (strcmp(fmt, "markdown") != 0)
        return srv_reply_json(r, 200, res);
    md = gate_markdown(res);
    json_decref(res);
    ret = md ? srv_reply_bytes(r, 200, "text/markdown; charset=utf-8", md, strlen(md))
             : srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    free(md);
    return ret;
}
