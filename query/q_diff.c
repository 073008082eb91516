/*
 * q_diff.c: function-level differences between two versions of a file
 * (see q_diff.h for the tags and their meaning).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "pd_error.h"
#include "q_diff.h"

/* db_blob_functions callback: one function onto the gate's list. */
static int q_diff_push(void *arg, const db_fn_brief *f)
{
    return gate_fnlist_push(arg, f->name, f->status, f->object_state, f->start_line,
                            f->tok_capi);
}

int q_diff_load(sqlite3 *db, const char *rules_hash, const char *path, const q_side *side,
                gate_fnlist *out)
{
    db_flow *flow = NULL;
    int64_t key = pd_flow_path_key(path);
    size_t i;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!side->blob)
        return 0;
    if ((rc = db_blob_functions(db, side->blob, rules_hash, q_diff_push, out)) < 0 ||
        !side->commit_id || (rc = db_flow_get(db, side->commit_id, rules_hash, &flow)) < 0)
        return rc;
    for (i = 0; i < out->n; i++)          /* the states of the side's commit */
        if (pd_flow_known(db_flow_graph(flow), key, i)) {
            const char *s = pd_objstate_name(pd_flow_state(db_flow_graph(flow), key, i));

            snprintf(out->v[i].objstate, sizeof(out->v[i].objstate), "%s", s ? s : "");
        }
    db_flow_release(flow);
    return 0;
}

void q_moves_free(q_moves *l)
{
    size_t i;

    for (i = 0; i < l->n; i++) {
        free(l->v[i].path);
        free(l->v[i].name);
    }
    free(l->v);
    l->v = NULL;
    l->n = l->cap = l->total = 0;
}

/* Append a copy of *m (counted; kept when under the list's `most`). */
static int q_moves_push(q_moves *l, const q_move *m)
{
    q_move *c;

    l->total++;
    if (l->most && l->n >= l->most)
        return 0;
    if (l->n == l->cap) {
        q_move *p = realloc(l->v, (l->cap = l->cap ? l->cap * 2 : 16) * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        l->v = p;
    }
    c = &l->v[l->n];
    *c = *m;
    c->path = strdup(m->path);
    c->name = strdup(m->name);
    if (!c->path || !c->name) {
        free(c->path);
        free(c->name);
        return pd_error_nomem(NULL);
    }
    l->n++;
    return 0;
}

/* One side of a move from a gate function (NULL: absent). */
static void q_fn_side_of(q_fn_side *s, const gate_fn *f)
{
    memset(s, 0, sizeof(*s));
    if (!f)
        return;
    s->present = 1;
    memcpy(s->status, f->status, sizeof(s->status));
    memcpy(s->objstate, f->objstate, sizeof(s->objstate));
    s->start_line = f->start_line;
}

/* The tags of a move from `a` to `b` (either NULL) into m. */
static void q_diff_tags(const gate_fn *a, const gate_fn *b, q_move *m)
{
    int ra, rb;

    if (!a || !b) {
        m->changes[m->nchanges++] = a ? "removed" : "added";
        if (b && b->objstate[0])
            m->changes[m->nchanges++] = "introduced";
        /* A removed object path leaves the object paths as surely as one
         * that stops touching items: the object-dtype list shows it. */
        if (a && a->objstate[0])
            m->changes[m->nchanges++] = "object-dropped";
        return;
    }
    ra = gate_status_rank(a->status);
    rb = gate_status_rank(b->status);
    if (rb != ra)
        m->changes[m->nchanges++] = rb > ra ? "progressed" : "regressed";
    if (rb < ra)
        m->regressed = 1;
    if (a->objstate[0] && b->objstate[0]) {
        ra = gate_obj_rank(a->objstate);
        rb = gate_obj_rank(b->objstate);
        if (rb != ra)
            m->changes[m->nchanges++] = rb > ra ? "converted" : "object-regressed";
        if (rb < ra)
            m->regressed = 1;
    } else if (a->objstate[0] != b->objstate[0]) {
        m->changes[m->nchanges++] = b->objstate[0] ? "introduced" : "object-dropped";
    }
}

typedef struct {
    const char *path;
    q_moves *functions, *regressions;
    int call_graph;              /* the same blob on both sides */
    int rc;
} q_diff_out;

/* gate_match callback: record one function move if anything moved. */
static void q_diff_emit(void *arg, const gate_fn *a, const gate_fn *b)
{
    q_diff_out *out = arg;
    q_move m;
    int rc;

    memset(&m, 0, sizeof(m));
    q_diff_tags(a, b, &m);
    if (m.nchanges == 0 || out->rc < 0)
        return;
    m.path = (char *)out->path;
    m.name = a ? a->name : b->name;
    q_fn_side_of(&m.from, a);
    q_fn_side_of(&m.to, b);
    m.call_graph = out->call_graph;
    if ((rc = q_moves_push(out->functions, &m)) < 0 ||
        (m.regressed && out->regressions &&
         (rc = q_moves_push(out->regressions, &m)) < 0))
        out->rc = rc;
}

int q_diff_file(sqlite3 *db, const char *rules_hash, const char *path, const q_side *from,
                const q_side *to, q_moves *functions, q_moves *regressions)
{
    gate_fnlist a, b;
    q_diff_out out = {path, functions, regressions, 0, 0};
    int rc;

    /* The same blob moves only through the commits' call graphs. */
    if (from->blob && to->blob && strcmp(from->blob, to->blob) == 0) {
        if (from->commit_id == to->commit_id)
            return 0;
        out.call_graph = 1;
    }
    if ((rc = q_diff_load(db, rules_hash, path, from, &a)) < 0)
        return rc;
    if ((rc = q_diff_load(db, rules_hash, path, to, &b)) < 0) {
        gate_fnlist_free(&a);
        return rc;
    }
    gate_match(&a, &b, q_diff_emit, &out);
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
    return out.rc;
}
