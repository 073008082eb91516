/*
 * api_diff.c: function moves (q_diff.h) as JSON, for the commit page,
 * compare and the report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_diff.h"
#include "db.h"
#include "pd_error.h"

int api_diff_load(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *side, gate_fnlist *out)
{
    return q_diff_load(r->db, rules_hash, path, side, out);
}

/* {"status", "object_state"[, "start_line"]} of one side, or null. */
static json_t *api_fn_side(const q_fn_side *f, int with_line)
{
    json_t *o;

    if (!f->present)
        return json_null();
    o = json_pack("{s:s, s:o}", "status", f->status, "object_state",
                  f->objstate[0] ? json_string(f->objstate) : json_null());
    if (with_line)
        json_object_set_new(o, "start_line", json_integer(f->start_line));
    return o;
}

json_t *api_move_json(const q_move *m)
{
    json_t *tags = json_array();
    size_t i;

    for (i = 0; i < m->nchanges; i++)
        json_array_append_new(tags, json_string(m->changes[i]));
    json_t *o = json_pack("{s:o, s:o, s:o, s:o, s:o}", "path", api_text(m->path),
                          "name", api_text(m->name), "from", api_fn_side(&m->from, 0),
                          "to", api_fn_side(&m->to, 1), "changes", tags);

    if (m->call_graph)
        json_object_set_new(o, "call_graph", json_true());
    return o;
}

json_t *api_moves_json(const q_moves *l)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < l->n; i++)
        json_array_append_new(arr, api_move_json(&l->v[i]));
    return arr;
}

/* Append the moves of `l` to `arr`. */
static void api_moves_append(json_t *arr, const q_moves *l)
{
    json_t *more = api_moves_json(l);

    json_array_extend(arr, more);
    json_decref(more);
}

int api_diff_file(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *from, const api_side *to, json_t *functions,
                  json_t *regressions)
{
    q_moves fns = {0}, regs = {0};
    int rc = q_diff_file(r->db, rules_hash, path, from, to, &fns,
                         regressions ? &regs : NULL);

    if (rc == 0) {
        api_moves_append(functions, &fns);
        if (regressions)
            api_moves_append(regressions, &regs);
    }
    q_moves_free(&fns);
    q_moves_free(&regs);
    return rc;
}

json_t *api_stats_obj(const db_counts *c)
{
    return api_measures_obj(c);
}
