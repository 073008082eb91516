/*
 * api_diff.c: function-level differences between file versions and between
 * commits (see api_diff.h for the tags and their meaning).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_diff.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "gate.h"
#include "db.h"
#include "pd_error.h"

/* db_blob_functions callback: one function onto the gate's list. */
static int api_diff_push(void *arg, const db_fn_brief *f)
{
    return gate_fnlist_push(arg, f->name, f->status, f->object_state, f->start_line,
                            f->tok_capi);
}

int api_diff_load(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *side, gate_fnlist *out)
{
    db_flow *flow = NULL;
    int64_t key = pd_flow_path_key(path);
    size_t i;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!side->blob)
        return 0;
    if ((rc = db_blob_functions(r->db, side->blob, rules_hash, api_diff_push, out)) < 0 ||
        !side->commit_id || (rc = db_flow_get(r->db, side->commit_id, rules_hash, &flow)) < 0)
        return rc;
    for (i = 0; i < out->n; i++)          /* the states of the side's commit */
        if (pd_flow_known(db_flow_graph(flow), key, i)) {
            const char *s = pd_objstate_name(pd_flow_state(db_flow_graph(flow), key, i));

            snprintf(out->v[i].objstate, sizeof(out->v[i].objstate), "%s", s ? s : "");
        }
    db_flow_release(flow);
    return 0;
}

/* {"status", "object_state"[, "start_line"]} of one side, or null. */
static json_t *api_fn_side(const gate_fn *f, int with_line)
{
    json_t *o;

    if (!f)
        return json_null();
    o = json_pack("{s:s, s:o}", "status", f->status, "object_state",
                  f->objstate[0] ? json_string(f->objstate) : json_null());
    if (with_line)
        json_object_set_new(o, "start_line", json_integer(f->start_line));
    return o;
}

/* Tags for a change from `a` to `b` (either NULL); empty if nothing moved. */
static json_t *api_fn_tags(const gate_fn *a, const gate_fn *b, int *regressed)
{
    json_t *t = json_array();
    int ra, rb;

    *regressed = 0;
    if (!a || !b) {
        json_array_append_new(t, json_string(a ? "removed" : "added"));
        if (b && b->objstate[0])
            json_array_append_new(t, json_string("introduced"));
        return t;
    }
    ra = gate_status_rank(a->status);
    rb = gate_status_rank(b->status);
    if (rb != ra)
        json_array_append_new(t, json_string(rb > ra ? "progressed" : "regressed"));
    if (rb < ra)
        *regressed = 1;
    if (a->objstate[0] && b->objstate[0]) {
        ra = gate_obj_rank(a->objstate);
        rb = gate_obj_rank(b->objstate);
        if (rb != ra)
            json_array_append_new(t, json_string(rb > ra ? "converted"
                                                         : "object-regressed"));
        if (rb < ra)
            *regressed = 1;
    } else if (a->objstate[0] != b->objstate[0]) {
        json_array_append_new(t, json_string(b->objstate[0] ? "introduced"
                                                            : "object-dropped"));
    }
    return t;
}

typedef struct {
    const char *path;
    json_t *functions, *regressions;
} api_diff_out;

/* gate_match callback: record one function change if anything moved. */
static void api_diff_emit(void *arg, const gate_fn *a, const gate_fn *b)
{
    api_diff_out *out = arg;
    const char *path = out->path;
    json_t *functions = out->functions, *regressions = out->regressions;
    int regressed;
    json_t *tags = api_fn_tags(a, b, &regressed), *o;

    if (json_array_size(tags) == 0) {
        json_decref(tags);
        return;
    }
    o = json_pack("{s:o, s:o, s:o, s:o, s:o}", "path", api_text(path),
                  "name", api_text(a ? a->name : b->name), "from", api_fn_side(a, 0),
                  "to", api_fn_side(b, 1), "changes", tags);
    if (regressed && regressions)
        json_array_append(regressions, o);
    json_array_append_new(functions, o);
}

int api_diff_file(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *from, const api_side *to, json_t *functions,
                  json_t *regressions)
{
    gate_fnlist a, b;
    api_diff_out out = {path, functions, regressions};
    int rc;

    if (from->blob && to->blob && strcmp(from->blob, to->blob) == 0)
        return 0;
    if ((rc = api_diff_load(r, rules_hash, path, from, &a)) < 0)
        return rc;
    if ((rc = api_diff_load(r, rules_hash, path, to, &b)) < 0) {
        gate_fnlist_free(&a);
        return rc;
    }
    gate_match(&a, &b, api_diff_emit, &out);
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
    return 0;
}

json_t *api_stats_obj(const db_counts *c)
{
    return api_measures_obj(c);
}
