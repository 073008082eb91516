/*
 * api_traverse.c: GET /api/v1/repos/{repo}/commits/{rev}/traverse, the
 * traverse coverage of every HPy type at a commit.
 *
 * A moving GC (PyPy) needs a type's tp_traverse to HPy_VISIT every HPyField
 * of its struct (DOMAIN.md); an unvisited member is a defect.  The analyzer
 * stores per file what it found (analyze_types.c, analyses.hpy_types); this
 * joins the files of the commit: each HPyType_Spec gives its struct
 * (`.basicsize = sizeof(S)`, else the file's one HPyType_HELPERS), the
 * struct's HPyField members (often in a header), the tp_traverse slot in its
 * `.defines` array and the members that slot's implementation visits.
 * Names are looked up in the spec's own file first, then in every file in
 * path order.
 *
 * History: for each member, the first-parent history of the commit is read
 * at the commits that changed the struct's file or the traverse's file
 * (nothing else can change the answer under these names):
 * "introduced_in" is the commit from which the member is present without a
 * break up to {rev}, "visited_since" the same for its visit.  Renamed
 * files, structs or traverse functions are not followed.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_traverse.h"
#include "db.h"
#include "db_history.h"
#include "pd_error.h"

/* db_commit_types callback: {"path", "path_id", "t": parsed types}. */
static int tr_file(void *arg, const char *path, int64_t path_id, const char *types)
{
    json_t *t = json_loads(types, 0, NULL);

    if (t)
        json_array_append_new(arg, json_pack("{s:s, s:I, s:o}", "path", path,
                                             "path_id", (json_int_t)path_id, "t", t));
    return 0;
}

/* The files of a commit whose analysis found HPy types, in path order:
 * [{"path", "path_id", "t": parsed hpy_types}]; NULL with *rc < 0. */
static json_t *tr_load_files(srv_req *r, const api_at *at, int *rc)
{
    json_t *files = json_array();

    if ((*rc = db_commit_types(r->db, at->commit_id, at->rules_hash, tr_file, files)) < 0) {
        json_decref(files);
        return NULL;
    }
    return files;
}

/* 1 if string s equals the JSON string v. */
static int tr_eq(json_t *v, const char *s)
{
    return s && json_is_string(v) && strcmp(json_string_value(v), s) == 0;
}

/* The struct named `name` (typedef name, tag, or through an alias) in one
 * file's types, or NULL. */
static json_t *tr_struct_in(json_t *t, const char *name)
{
    json_t *s, *a;
    size_t i;
    const char *tag = NULL;

    json_array_foreach(json_object_get(t, "structs"), i, s)
        if (tr_eq(json_object_get(s, "name"), name) || tr_eq(json_object_get(s, "tag"), name))
            return s;
    json_array_foreach(json_object_get(t, "aliases"), i, a)
        if (tr_eq(json_array_get(a, 1), name))
            tag = json_string_value(json_array_get(a, 0));
    if (tag)
        json_array_foreach(json_object_get(t, "structs"), i, s)
            if (tr_eq(json_object_get(s, "tag"), tag))
                return s;
    return NULL;
}

/*
 * Find in `files` (own file `own` first) the element of section `key`
 * whose `field` equals `name`; *file_out gets its file.  NULL if none.
 * field NULL: the struct lookup of tr_struct_in().
 */
static json_t *tr_find(json_t *files, json_t *own, const char *key,
                       const char *field, const char *name, json_t **file_out)
{
    json_t *f, *e;
    size_t i, j;
    int pass;

    if (!name)
        return NULL;
    for (pass = 0; pass < 2; pass++) {
        json_array_foreach(files, i, f) {
            json_t *t = json_object_get(f, "t");

            if ((pass == 0) != (f == own))
                continue;
            if (!field) {
                if ((e = tr_struct_in(t, name))) {
                    *file_out = f;
                    return e;
                }
                continue;
            }
            json_array_foreach(json_object_get(t, key), j, e) {
                if (tr_eq(json_object_get(e, field), name)) {
                    *file_out = f;
                    return e;
                }
            }
        }
    }
    return NULL;
}

/* 1 if the JSON array of strings arr holds s. */
static int tr_has(json_t *arr, const char *s)
{
    json_t *v;
    size_t i;

    json_array_foreach(arr, i, v)
        if (tr_eq(v, s))
            return 1;
    return 0;
}

/* A resolved type, before its history. */
typedef struct {
    const char *struct_name, *impl;
    json_t *sfile, *tfile;      /* files of the struct and the traverse */
} tr_type;

/* The traverse implementation of a spec: the tp_traverse slot listed in
 * its defines array.  NULL when there is none. */
static const char *tr_traverse_of(json_t *files, json_t *own, json_t *spec,
                                  json_t **tfile)
{
    json_t *dfile = NULL, *defs, *item, *slot;
    size_t i;

    defs = tr_find(files, own, "defines", "name",
                   json_string_value(json_object_get(spec, "defines")), &dfile);
    json_array_foreach(json_object_get(defs, "items"), i, item) {
        slot = tr_find(files, dfile, "traverse", "def", json_string_value(item), tfile);
        if (slot)
            return json_string_value(json_object_get(slot, "impl"));
    }
    return NULL;
}

/* The struct name of a spec: .basicsize, else the file's one helper. */
static const char *tr_struct_name(json_t *spec, json_t *own)
{
    json_t *h = json_object_get(json_object_get(own, "t"), "helpers");

    if (json_is_string(json_object_get(spec, "struct")))
        return json_string_value(json_object_get(spec, "struct"));
    return json_array_size(h) == 1 ? json_string_value(json_array_get(h, 0)) : NULL;
}

/* Members visited by function impl in types t (NULL if it visits none),
 * and whether it visits items (*items). */
static json_t *tr_visits(json_t *t, const char *impl, int *items)
{
    json_t *v;
    size_t i;

    *items = 0;
    json_array_foreach(json_object_get(t, "visits"), i, v) {
        if (tr_eq(json_object_get(v, "function"), impl)) {
            *items = json_is_true(json_object_get(v, "items"));
            return json_object_get(v, "members");
        }
    }
    return NULL;
}

/* What the history walk of one type keeps between changes. */
typedef struct {
    const tr_type *ty;
    json_t *fields;
    int64_t spath, tpath;
    json_t *stypes, *ttypes;     /* the files' types after the commits so far */
    char (*intro)[41], (*vis)[41];
    char oid[41];                /* the commit being read, "" before the first */
    int64_t depth;
} tr_walk;

/* The state after commit w->oid: which fields exist and are visited. */
static void tr_commit_done(tr_walk *w)
{
    json_t *s, *members, *f;
    size_t i;
    int items;

    if (!w->oid[0])
        return;
    s = w->stypes ? tr_struct_in(w->stypes, w->ty->struct_name) : NULL;
    members = w->ttypes && w->ty->impl ? tr_visits(w->ttypes, w->ty->impl, &items) : NULL;
    json_array_foreach(w->fields, i, f) {
        const char *m = json_string_value(json_object_get(f, "name"));

        if (!tr_has(json_object_get(s, "fields"), m))
            w->intro[i][0] = '\0';
        else if (!w->intro[i][0])
            memcpy(w->intro[i], w->oid, 41);
        if (!tr_has(members, m))
            w->vis[i][0] = '\0';
        else if (!w->vis[i][0])
            memcpy(w->vis[i], w->oid, 41);
    }
}

/* Parse hpy_types text into *slot (replacing the old value). */
static void tr_set_types(json_t **slot, const char *types)
{
    json_decref(*slot);
    *slot = types ? json_loads(types, 0, NULL) : NULL;
}

/* db_types_history callback: every change of a commit first, then the
 * state after it (when the next commit's first change arrives). */
static int tr_change(void *arg, const db_types_change *c)
{
    tr_walk *w = arg;

    if (!w->oid[0] || c->depth != w->depth) {
        tr_commit_done(w);
        snprintf(w->oid, sizeof(w->oid), "%s", c->oid);
        w->depth = c->depth;
    }
    if (c->path_id == w->spath)
        tr_set_types(&w->stypes, c->types);
    if (c->path_id == w->tpath)
        tr_set_types(&w->ttypes, c->types);
    return 0;
}

/*
 * Fill "introduced_in" and "visited_since" of every element of `fields`
 * from the history of the struct's and the traverse's files.
 */
static int tr_history(srv_req *r, const api_at *at, const tr_type *ty, json_t *fields)
{
    size_t i, n = json_array_size(fields);
    tr_walk w;
    json_t *f;
    int rc;

    memset(&w, 0, sizeof(w));
    w.ty = ty;
    w.fields = fields;
    w.spath = json_integer_value(json_object_get(ty->sfile, "path_id"));
    w.tpath = ty->tfile ? json_integer_value(json_object_get(ty->tfile, "path_id")) : w.spath;
    w.intro = calloc(n + 1, 41);
    w.vis = calloc(n + 1, 41);
    if (!w.intro || !w.vis) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    if ((rc = db_types_history(r->db, at->commit_id, at->rules_hash, w.spath, w.tpath,
                               tr_change, &w)) < 0)
        goto done;
    tr_commit_done(&w);
    json_array_foreach(fields, i, f) {
        json_object_set_new(f, "introduced_in",
                            w.intro[i][0] ? json_string(w.intro[i]) : json_null());
        json_object_set_new(f, "visited_since",
                            w.vis[i][0] ? json_string(w.vis[i]) : json_null());
    }
done:
    json_decref(w.stypes);
    json_decref(w.ttypes);
    free(w.intro);
    free(w.vis);
    return rc;
}

/* obj[key], or JSON null when it is missing (for "O" in json_pack). */
static json_t *tr_get(json_t *obj, const char *key)
{
    json_t *v = json_object_get(obj, key);

    return v ? v : json_null();
}

/* The API object of one spec of file `own`. */
static json_t *tr_type_json(srv_req *r, const api_at *at, json_t *files, json_t *own,
                            json_t *spec, int *rc)
{
    tr_type ty = {0};
    json_t *st = NULL, *fields = json_array(), *members = NULL, *m;
    const char *path = json_string_value(json_object_get(own, "path"));
    size_t i;
    int items = 0;

    ty.struct_name = tr_struct_name(spec, own);
    st = tr_find(files, own, "structs", NULL, ty.struct_name, &ty.sfile);
    ty.impl = tr_traverse_of(files, own, spec, &ty.tfile);
    if (ty.impl)
        members = tr_visits(json_object_get(ty.tfile, "t"), ty.impl, &items);
    json_array_foreach(json_object_get(st, "fields"), i, m)
        json_array_append_new(fields, json_pack("{s:O, s:b}", "name", m,
                              "visited", tr_has(members, json_string_value(m))));
    if (st && (*rc = tr_history(r, at, &ty, fields)) < 0) {
        json_decref(fields);
        return NULL;
    }
    return json_pack("{s:O, s:O, s:o, s:s, s:O, s:o, s:o, s:o, s:o, s:o}",
        "name", tr_get(spec, "name"), "spec", tr_get(spec, "var"),
        "struct", ty.struct_name ? json_string(ty.struct_name) : json_null(),
        "path", path, "line", tr_get(spec, "line"),
        "struct_path", ty.sfile ? json_deep_copy(json_object_get(ty.sfile, "path")) : json_null(),
        "traverse", ty.impl ? json_string(ty.impl) : json_null(),
        "traverse_path", ty.impl ? json_deep_copy(json_object_get(ty.tfile, "path"))
                                 : json_null(),
        "fields", fields,
        "items_visited", ty.impl ? json_boolean(items) : json_null());
}

enum MHD_Result api_traverse(srv_req *r)
{
    api_at at;
    json_t *files, *types, *f, *spec;
    size_t i, j;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0)
        return srv_reply_error(r, rc);
    if (!(files = tr_load_files(r, &at, &rc)))
        return srv_reply_error(r, rc);
    types = json_array();
    json_array_foreach(files, i, f) {
        json_array_foreach(json_object_get(json_object_get(f, "t"), "specs"), j, spec) {
            json_t *t = tr_type_json(r, &at, files, f, spec, &rc);

            if (!t) {
                json_decref(types);
                json_decref(files);
                return srv_reply_error(r, rc);
            }
            json_array_append_new(types, t);
        }
    }
    json_decref(files);
    return srv_reply_json(r, 200, json_pack("{s:s, s:o}", "commit", at.oid, "types", types));
}
