/*
 * api_search.c: GET .../commits/{rev}/search?q=TEXT[&limit=N]: functions
 * whose name contains TEXT (case-insensitive) in the files at the commit,
 * with file, line, status and object state; and the C API names that
 * contain it: every one the code uses at the commit (capi and bridge
 * findings, guarded or not, with their number of uses; issue 21.9: a name
 * HPy has no replacement for, such as PyTuple_GET_ITEM before its generic
 * row, was found only through HPy's table), and those of HPy's table
 * (api_hpymap.h), each with its HPy replacement, kind and version.
 * Exact names come first, then prefixes, then the rest, each by name.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_hpymap.h"
#include "api_search.h"
#include "api_symbols.h"
#include "db.h"
#include "db_analysis.h"
#include "db_flow.h"
#include "pd_flow.h"
#include "pd_error.h"

#define API_SEARCH_MAX 500

/* 0: the name is q, 1: starts with q, 2: contains it (case-insensitive). */
static int api_search_rank(const char *name, const char *q)
{
    size_t n = strlen(q);

    if (strcasecmp(name, q) == 0)
        return 0;
    return strncasecmp(name, q, n) == 0 ? 1 : 2;
}

static int api_search_order(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t rx = json_integer_value(json_object_get(x, "rank"));
    json_int_t ry = json_integer_value(json_object_get(y, "rank"));
    int c;

    if (rx != ry)
        return rx < ry ? -1 : 1;
    if ((c = strcmp(json_string_value(json_object_get(x, "name")),
                    json_string_value(json_object_get(y, "name")))))
        return c;
    return strcmp(json_string_value(json_object_get(x, "path")),
                  json_string_value(json_object_get(y, "path")));
}

/* Sort arr by rank and name, drop the rank key, keep the first `limit`. */
static json_t *api_search_sorted(json_t *arr, size_t limit)
{
    size_t n = json_array_size(arr), i;
    json_t **v = calloc(n ? n : 1, sizeof(*v)), *out = json_array();

    for (i = 0; i < n; i++)
        v[i] = json_incref(json_array_get(arr, i));
    qsort(v, n, sizeof(*v), api_search_order);
    for (i = 0; i < n; i++) {
        json_object_del(v[i], "rank");
        if (!json_string_length(json_object_get(v[i], "path")))
            json_object_del(v[i], "path");   /* a C API name, not in a file */
        if (i < limit)
            json_array_append(out, v[i]);
        json_decref(v[i]);
    }
    free(v);
    json_decref(arr);
    return out;
}

/* What the function search callback needs. */
typedef struct {
    const char *q;
    json_t *out;
    const pd_flow *g;            /* the commit's call graph, or NULL */
} api_search_ctx;

/* db_functions_like callback: one match onto the list, with the object
 * state the commit's call graph gives it, as every other view shows it
 * (a function's own state leaves out the callees it reaches items
 * through: npy_fasttake had none here, CPython-only on its file page). */
static int api_search_match(void *arg, const db_fn_match *m)
{
    api_search_ctx *c = arg;
    const char *object = m->object_state;
    int64_t key;

    if (c->g && pd_flow_known(c->g, key = pd_flow_path_key(m->path), (size_t)m->idx)) {
        pd_objstate o = pd_flow_state(c->g, key, (size_t)m->idx);

        object = o == PD_OBJ_NONE ? NULL : pd_objstate_name(o);
    }
    json_array_append_new(c->out, json_pack("{s:o, s:o, s:I, s:I, s:s, s:s?, s:i}",
        "name", api_text(m->name), "path", api_text(m->path),
        "start_line", (json_int_t)m->start_line, "end_line", (json_int_t)m->end_line,
        "status", m->status, "object_state", object,
        "rank", api_search_rank(m->name, c->q)));
    return 0;
}

/* The functions of every file at the commit whose name contains q. */
static int api_search_functions(srv_req *r, const api_at *at, const char *q, json_t *out)
{
    api_search_ctx c = {q, out, NULL};
    db_flow *flow = NULL;
    char like[300];
    int rc;

    if ((rc = db_flow_get(r->db, at->commit_id, at->rules_hash, &flow)) < 0)
        return rc;
    c.g = db_flow_graph(flow);
    snprintf(like, sizeof(like), "%%%s%%", q);
    rc = db_functions_like(r->db, at->commit_id, at->rules_hash, like, api_search_match, &c);
    db_flow_release(flow);
    return rc;
}

/* Escape LIKE's wildcards so that q is matched as written. */
static int api_search_query(srv_req *r, char *q, size_t n)
{
    char raw[120];
    size_t i, o = 0;
    int rc;

    if ((rc = srv_query(r, "q", raw, sizeof(raw))) == PD_ENOTFOUND || (!rc && !raw[0]))
        return pd_error_set(PD_EINVAL, "give the text to search for with ?q=TEXT");
    if (rc < 0)
        return rc;
    for (i = 0; raw[i] && o + 2 < n; i++) {
        if (raw[i] == '%' || raw[i] == '_' || raw[i] == '\\')
            q[o++] = '\\';
        q[o++] = raw[i];
    }
    q[o] = '\0';
    return 0;
}

/* The symbols for q: those used at the commit, then the table's others. */
static int api_search_symbols(srv_req *r, const api_at *at, const char *q, json_t **out)
{
    json_t *used = json_object(), *table = api_hpymap_matching(q), *e, *arr = json_array();
    const char *name;
    size_t i;
    int rc;

    if ((rc = api_symbols_in_use(r, at, q, used)) < 0) {
        json_decref(used);
        json_decref(table);
        json_decref(arr);
        return rc;
    }
    json_object_foreach(used, name, e) {
        json_array_append_new(arr, api_sym_hpy(json_pack("{s:s, s:O, s:O, s:s, s:i}",
            "name", name, "class", json_array_get(e, 0), "uses", json_array_get(e, 1),
            "path", "", "rank", api_search_rank(name, q)), name));
    }
    json_array_foreach(table, i, e) {
        if (json_object_get(used, json_string_value(json_object_get(e, "name"))))
            continue;
        json_object_set_new(e, "uses", json_integer(0));
        json_object_set_new(e, "class", json_null());
        json_array_append(arr, e);
    }
    json_decref(used);
    json_decref(table);
    *out = arr;
    return 0;
}

enum MHD_Result api_search(srv_req *r)
{
    char q[256], raw[120], lim[16];
    api_at at;
    json_t *fns, *syms;
    size_t limit = 100, total;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_search_query(r, q, sizeof(q))) < 0)
        return srv_reply_error(r, rc);
    srv_query(r, "q", raw, sizeof(raw));
    if (srv_query(r, "limit", lim, sizeof(lim)) == 0) {
        char *end;
        long v = strtol(lim, &end, 10);

        if (*end || v < 1 || v > API_SEARCH_MAX)
            return srv_reply_problem(r, 400, "Bad Request", "limit must be 1 to %d",
                                     API_SEARCH_MAX);
        limit = (size_t)v;
    }
    fns = json_array();
    if ((rc = api_search_functions(r, &at, q, fns)) < 0) {
        json_decref(fns);
        return srv_reply_error(r, rc);
    }
    total = json_array_size(fns);
    fns = api_search_sorted(fns, limit);
    if ((rc = api_search_symbols(r, &at, raw, &syms)) < 0) {
        json_decref(fns);
        return srv_reply_error(r, rc);
    }
    syms = api_search_sorted(syms, limit);
    return srv_reply_json(r, 200, json_pack("{s:s, s:o, s:I, s:o, s:o}", "commit", at.oid,
        "q", api_text(raw), "functions_total", (json_int_t)total, "functions", fns,
        "symbols", syms));
}
