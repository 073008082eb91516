/*
 * gate_eval.c: the gate's verdict and its pull-request comment (see gate.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "pd_error.h"

struct gate {
    gate_policy policy;
    json_t *regressions;
    json_t *lost_files;        /* paths no longer universal-ready */
    int less_ported, new_legacy, new_capi;
    int64_t ready_base, ready_head;   /* -1: not set, use the summaries */
    const char *path;          /* file being fed */
};

void gate_set_ready_totals(gate *g, int64_t base, int64_t head)
{
    g->ready_base = base;
    g->ready_head = head;
}

gate *gate_new(const gate_policy *policy)
{
    gate *g = calloc(1, sizeof(*g));

    if (!g)
        return NULL;
    g->policy = *policy;
    g->regressions = json_array();
    g->lost_files = json_array();
    g->ready_base = g->ready_head = -1;
    return g;
}

void gate_free(gate *g)
{
    if (!g)
        return;
    json_decref(g->regressions);
    json_decref(g->lost_files);
    free(g);
}

static json_t *gate_side(const gate_fn *f)
{
    if (!f)
        return json_null();
    return json_pack("{s:s, s:o}", "status", f->status, "object_state",
                     f->objstate[0] ? json_string(f->objstate) : json_null());
}

/* gate_match callback: the reasons, under the policy, this pair regressed. */
static void gate_pair(void *arg, const gate_fn *a, const gate_fn *b)
{
    gate *g = arg;
    unsigned r = g->policy.ratchets;
    json_t *why = json_array();

    if (a && b && (r & GATE_STATUS) &&
        gate_status_rank(b->status) < gate_status_rank(a->status)) {
        json_array_append_new(why, json_string("less ported"));
        g->less_ported++;
    }
    if (b && (r & GATE_OBJECT_LEGACY) && strcmp(b->objstate, "object-legacy") == 0 &&
        (!a || strcmp(a->objstate, "object-legacy") != 0)) {
        json_array_append_new(why, json_string("new object-legacy path"));
        g->new_legacy++;
    } else if (a && b && (r & GATE_OBJECT_LEGACY) && a->objstate[0] && b->objstate[0] &&
               gate_obj_rank(b->objstate) < gate_obj_rank(a->objstate)) {
        json_array_append_new(why, json_string("object path regressed"));
        g->new_legacy++;
    }
    /* A function new in head is not counted: its C API use is new code,
     * which the status and object-legacy ratchets already judge. */
    if (a && b && (r & GATE_NEW_CAPI) && a->capi == 0 && b->capi > 0) {
        json_array_append_new(why, json_string("new C API use"));
        g->new_capi++;
    }
    if (json_array_size(why) == 0) {
        json_decref(why);
        return;
    }
    json_array_append_new(g->regressions, json_pack("{s:s, s:s, s:o, s:o, s:o}",
        "path", g->path, "name", (b ? b : a)->name, "from", gate_side(a),
        "to", gate_side(b), "reasons", why));
    if (a && b && strcmp(a->name, b->name) != 0)
        json_object_set_new(json_array_get(g->regressions, json_array_size(g->regressions) - 1),
                            "renamed_from", json_string(a->name));
}

int gate_add_file(gate *g, const char *path, gate_fnlist *base, gate_fnlist *head,
                  int base_ready, int head_ready)
{
    g->path = path;
    gate_match_renames(base, head, gate_pair, g);
    if ((g->policy.ratchets & GATE_UNIVERSAL) && base_ready == 1 && head_ready == 0)
        json_array_append_new(g->lost_files, json_string(path));
    g->path = NULL;
    return 0;
}

/* One condition row: the totals of `measure` on both sides as context,
 * and `found`, the figure the condition tests (what `tested` says). */
static int gate_cond(json_t *conds, const char *measure, const char *rule,
                     const pd_counts *b, const pd_counts *h, int ok,
                     const char *tested, int64_t found)
{
    json_array_append_new(conds, json_pack("{s:s, s:s, s:I, s:I, s:b, s:s, s:I}", "measure",
        measure, "rule", rule, "base", (json_int_t)gate_measure(b, measure),
        "head", (json_int_t)gate_measure(h, measure), "ok", ok, "tested", tested,
        "found", (json_int_t)found));
    return ok;
}

json_t *gate_result(gate *g, const char *base_oid, const char *head_oid,
                    const pd_counts *b, const pd_counts *h)
{
    json_t *conds = json_array();
    unsigned r = g->policy.ratchets;
    char rule[160];
    int pass = 1;
    size_t i;

    if (r & GATE_STATUS)
        pass &= gate_cond(conds, "functions.ported", "no function less ported than "
                          "before", b, h, g->less_ported == 0,
                          "functions less ported than at base", g->less_ported);
    if (r & GATE_OBJECT_LEGACY)
        pass &= gate_cond(conds, "object_paths.object-legacy", "no new object-legacy "
                          "path", b, h, g->new_legacy == 0, "functions newly on the "
                          "legacy API for object-array items, or further from HPyField",
                          g->new_legacy);
    if (r & GATE_UNIVERSAL) {
        size_t lost = json_array_size(g->lost_files);

        json_array_append_new(conds, json_pack("{s:s, s:s, s:I, s:I, s:b, s:s, s:I}", "measure",
            "universal_ready_files", "rule", "no file stops being universal-ready "
            "outside object-dtype paths", "base", (json_int_t)(g->ready_base >= 0
            ? g->ready_base : gate_measure(b, "universal_ready_files")), "head",
            (json_int_t)(g->ready_head >= 0 ? g->ready_head
                                            : gate_measure(h, "universal_ready_files")),
            "ok", lost == 0, "tested", "files no longer universal-ready outside "
            "object-dtype paths", "found", (json_int_t)lost));
        /* The totals are the no-object-dtype scope's when the caller set
         * them (the command always, the API when that scope exists): name
         * it, as the unscoped summary's universal_ready_files differs. */
        if (g->ready_base >= 0)
            json_object_set_new(json_array_get(conds, json_array_size(conds) - 1), "scope",
                                json_string("no-object-dtype"));
        pass &= lost == 0;
    }
    if (r & GATE_NEW_CAPI)
        pass &= gate_cond(conds, "tokens.capi", "no new C API use in a function that "
                          "had none", b, h, g->new_capi == 0, "functions that had no "
                          "C API use at base and have some at head", g->new_capi);
    for (i = 0; i < g->policy.nbounds; i++) {
        int64_t v = gate_measure(h, g->policy.bounds[i].measure);

        snprintf(rule, sizeof(rule), "%s %s %lld", g->policy.bounds[i].measure,
                 g->policy.bounds[i].is_max ? "<=" : ">=",
                 (long long)g->policy.bounds[i].limit);
        pass &= gate_cond(conds, g->policy.bounds[i].measure, rule, b, h,
                          g->policy.bounds[i].is_max ? v <= g->policy.bounds[i].limit
                                                     : v >= g->policy.bounds[i].limit,
                          "the head's value", v);
    }
    return json_pack("{s:s, s:s, s:s, s:o, s:O, s:O}", "result", pass ? "pass" : "fail",
                     "base", base_oid, "head", head_oid, "conditions", conds,
                     "regressions", g->regressions, "files_no_longer_universal_ready",
                     g->lost_files);
}
