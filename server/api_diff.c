/*
 * api_diff.c: function-level differences between file versions and between
 * commits (see api_diff.h for the tags and their meaning).
 */
#include <stdlib.h>
#include <string.h>

#include "api_diff.h"
#include "db.h"
#include "pd_error.h"

typedef struct {
    char *name;
    char status[16];
    char objstate[24];     /* "" when not an object path */
    int64_t start_line;
    int matched;
} api_fn;

typedef struct {
    api_fn *v;
    size_t n;
} api_fnlist;

static void api_fnlist_free(api_fnlist *l)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* Functions of the analysis of `blob` under the rules, in file order. */
static int api_fnlist_load(srv_req *r, const char *blob, const char *rules_hash,
                           api_fnlist *out)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    int rc;

    memset(out, 0, sizeof(*out));
    if (!blob)
        return 0;
    if ((rc = db_prepare(r->db, &st, "SELECT f.name, f.status, f.object_state, "
                         "f.start_line FROM functions f JOIN analyses a ON "
                         "a.id = f.analysis_id WHERE a.blob_oid = ?1 AND "
                         "a.rules_hash = ?2 ORDER BY f.idx")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while (sqlite3_step(st) == SQLITE_ROW) {
        api_fn *f;
        const char *os = (const char *)sqlite3_column_text(st, 2);

        if (out->n == cap) {
            api_fn *v = realloc(out->v, (cap = cap ? cap * 2 : 64) * sizeof(*v));
            if (!v)
                break;
            out->v = v;
        }
        f = &out->v[out->n++];
        memset(f, 0, sizeof(*f));
        f->name = strdup((const char *)sqlite3_column_text(st, 0));
        snprintf(f->status, sizeof(f->status), "%s", sqlite3_column_text(st, 1));
        snprintf(f->objstate, sizeof(f->objstate), "%s", os ? os : "");
        f->start_line = sqlite3_column_int64(st, 3);
    }
    sqlite3_finalize(st);
    return 0;
}

static int api_status_rank(const char *s)
{
    return strcmp(s, "legacy") == 0 ? 0 : strcmp(s, "bridged") == 0 ? 1 : 2;
}

static int api_obj_rank(const char *s)
{
    return strcmp(s, "object-legacy") == 0 ? 0
         : strcmp(s, "object-cpython-only") == 0 ? 1 : 2;
}

/* {"status", "object_state"[, "start_line"]} of one side, or null. */
static json_t *api_fn_side(const api_fn *f, int with_line)
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
static json_t *api_fn_tags(const api_fn *a, const api_fn *b, int *regressed)
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
    ra = api_status_rank(a->status);
    rb = api_status_rank(b->status);
    if (rb != ra)
        json_array_append_new(t, json_string(rb > ra ? "progressed" : "regressed"));
    if (rb < ra)
        *regressed = 1;
    if (a->objstate[0] && b->objstate[0]) {
        ra = api_obj_rank(a->objstate);
        rb = api_obj_rank(b->objstate);
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

/* Record one function change if anything moved. */
static void api_diff_emit(const char *path, const api_fn *a, const api_fn *b,
                          json_t *functions, json_t *regressions)
{
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
                  const char *from_blob, const char *to_blob, json_t *functions,
                  json_t *regressions)
{
    api_fnlist a, b;
    size_t i, j;
    int rc;

    if (from_blob && to_blob && strcmp(from_blob, to_blob) == 0)
        return 0;
    if ((rc = api_fnlist_load(r, from_blob, rules_hash, &a)) < 0)
        return rc;
    if ((rc = api_fnlist_load(r, to_blob, rules_hash, &b)) < 0) {
        api_fnlist_free(&a);
        return rc;
    }
    /* The k-th function of a name on one side pairs with the k-th on the other. */
    for (j = 0; j < b.n; j++) {
        api_fn *match = NULL;

        for (i = 0; i < a.n && !match; i++)
            if (!a.v[i].matched && strcmp(a.v[i].name, b.v[j].name) == 0)
                match = &a.v[i];
        if (match)
            match->matched = 1;
        api_diff_emit(path, match, &b.v[j], functions, regressions);
    }
    for (i = 0; i < a.n; i++)
        if (!a.v[i].matched)
            api_diff_emit(path, &a.v[i], NULL, functions, regressions);
    api_fnlist_free(&a);
    api_fnlist_free(&b);
    return 0;
}

json_t *api_stats_obj(const db_counts *c)
{
    return json_pack("{s:I, s:o, s:o, s:o, s:I}", "files", (json_int_t)c->files,
                     "functions", api_functions_obj(c->fn), "tokens",
                     api_tokens_obj(c->tok), "object_paths", api_objpaths_obj(c->obj),
                     "universal_ready_files", (json_int_t)c->universal_ready_files);
}
