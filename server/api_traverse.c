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
#include "api_port.h"
#include "db.h"
#include "pd_error.h"

#define TR_CHAIN_CTE \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "

/* Files of a commit whose analysis found HPy types, in path order. */
static const char tr_files_sql[] =
    TR_CHAIN_CTE ", latest AS (SELECT ch.path_id, ch.blob_oid, min(chain.depth) AS d "
    "FROM chain JOIN changes ch ON ch.commit_id = chain.cid GROUP BY ch.path_id) "
    "SELECT p.path, p.id, a.hpy_types FROM latest l JOIN paths p ON p.id = l.path_id "
    "JOIN analyses a ON a.blob_oid = l.blob_oid AND a.rules_hash = ?2 "
    "WHERE l.blob_oid IS NOT NULL AND a.hpy_types IS NOT NULL ORDER BY p.path";

/* One file's types: {"path", "path_id", "t": parsed hpy_types}. */
static json_t *tr_load_files(srv_req *r, const api_at *at, int *rc)
{
    sqlite3_stmt *st = NULL;
    json_t *files = json_array();

    if ((*rc = db_prepare(r->db, &st, tr_files_sql)) < 0) {
        json_decref(files);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, at->commit_id);
    sqlite3_bind_text(st, 2, at->rules_hash, -1, SQLITE_STATIC);
    while ((*rc = db_step(st)) > 0) {
        json_t *t = json_loads((const char *)sqlite3_column_text(st, 2), 0, NULL);

        if (!t)
            continue;
        json_array_append_new(files, json_pack("{s:s, s:I, s:o}",
            "path", (const char *)sqlite3_column_text(st, 0),
            "path_id", (json_int_t)sqlite3_column_int64(st, 1), "t", t));
    }
    sqlite3_finalize(st);
    if (*rc < 0) {
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

/* Parse a hpy_types column into *slot (replacing the old value). */
static void tr_set_types(json_t **slot, sqlite3_stmt *st, int col)
{
    json_decref(*slot);
    *slot = sqlite3_column_type(st, col) == SQLITE_NULL ? NULL
            : json_loads((const char *)sqlite3_column_text(st, col), 0, NULL);
}

/*
 * Fill "introduced_in" and "visited_since" of every element of `fields`
 * from the history of the struct's and the traverse's files.
 */
static int tr_history(srv_req *r, const api_at *at, const tr_type *ty, json_t *fields)
{
    sqlite3_stmt *st = NULL;
    json_t *stypes = NULL, *ttypes = NULL, *f;
    json_int_t spath = json_integer_value(json_object_get(ty->sfile, "path_id"));
    json_int_t tpath = ty->tfile ? json_integer_value(json_object_get(ty->tfile, "path_id"))
                                 : spath;
    size_t i, n = json_array_size(fields);
    char (*intro)[41] = calloc(n + 1, 41), (*vis)[41] = calloc(n + 1, 41);
    int rc = 0, row;

    if (!intro || !vis) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto done;
    }
    if ((rc = db_prepare(r->db, &st, TR_CHAIN_CTE
        "SELECT c.oid, ch.path_id, a.hpy_types, chain.depth FROM chain "
        "JOIN changes ch ON ch.commit_id = chain.cid AND ch.path_id IN (?2, ?3) "
        "JOIN commits c ON c.id = chain.cid LEFT JOIN analyses a "
        "ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?4 "
        "ORDER BY chain.depth DESC")) < 0)
        goto done;
    sqlite3_bind_int64(st, 1, at->commit_id);
    sqlite3_bind_int64(st, 2, spath);
    sqlite3_bind_int64(st, 3, tpath);
    sqlite3_bind_text(st, 4, at->rules_hash, -1, SQLITE_STATIC);
    row = sqlite3_step(st);
    while (row == SQLITE_ROW) {
        char oid[41];
        int64_t depth = sqlite3_column_int64(st, 3);
        json_t *s, *members;
        int items;

        snprintf(oid, sizeof(oid), "%s", (const char *)sqlite3_column_text(st, 0));
        /* Every change of this commit first, then the state after it. */
        while (row == SQLITE_ROW && sqlite3_column_int64(st, 3) == depth) {
            if (sqlite3_column_int64(st, 1) == spath)
                tr_set_types(&stypes, st, 2);
            if (sqlite3_column_int64(st, 1) == tpath)
                tr_set_types(&ttypes, st, 2);
            row = sqlite3_step(st);
        }
        s = stypes ? tr_struct_in(stypes, ty->struct_name) : NULL;
        members = ttypes && ty->impl ? tr_visits(ttypes, ty->impl, &items) : NULL;
        json_array_foreach(fields, i, f) {
            const char *m = json_string_value(json_object_get(f, "name"));

            if (!tr_has(json_object_get(s, "fields"), m))
                intro[i][0] = '\0';
            else if (!intro[i][0])
                memcpy(intro[i], oid, 41);
            if (!tr_has(members, m))
                vis[i][0] = '\0';
            else if (!vis[i][0])
                memcpy(vis[i], oid, 41);
        }
    }
    json_array_foreach(fields, i, f) {
        json_object_set_new(f, "introduced_in", intro[i][0] ? json_string(intro[i]) : json_null());
        json_object_set_new(f, "visited_since", vis[i][0] ? json_string(vis[i]) : json_null());
    }
done:
    sqlite3_finalize(st);
    json_decref(stypes);
    json_decref(ttypes);
    free(intro);
    free(vis);
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
