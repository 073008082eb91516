/*
 * api_symbols.c: universal blockers by C API symbol, with the HPy API that
 * replaces each (api_hpymap.h).
 *
 *   GET .../commits/{rev}/symbols[?scope=NAME]
 *   GET .../commits/{rev}/symbols/{symbol}[?scope=NAME]
 *
 * A blocking use is what the blockers endpoint (api_scope.c) counts: an
 * unguarded finding of class capi or bridge in a file of the scope, inside
 * a function the scope keeps (no-object-dtype leaves out object-dtype
 * paths) or outside any function.  The symbol is the finding's text, the
 * name the analyzer matched (PyErr_SetString, Py_INCREF, PyObject, ...).
 * The scope defaults to no-object-dtype, as for blockers, so the sum of
 * "uses" equals the capi + bridge uses the blockers endpoint lists.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_hpymap.h"
#include "api_symbols.h"
#include "api_scope.h"
#include "db.h"
#include "pd_error.h"

/* One blocking use, as the walk reports it. */
typedef struct {
    const char *path;
    const char *cls;             /* "capi" or "bridge" */
    const char *text;            /* the symbol */
    json_int_t line, column;
    json_int_t fn;               /* function index in the file, -1: none */
    const char *fn_name;         /* NULL outside functions */
    json_int_t fn_line;
    json_int_t file_seq;         /* 0, 1, 2 ... per file walked */
} api_sym_use;

typedef int (*api_sym_cb)(void *arg, const api_sym_use *u);

/* The functions of an analysis: names, start lines and object flags. */
static int api_sym_functions(sqlite3 *db, int64_t aid, json_t **out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *out = json_array();
    if ((rc = db_prepare(db, &st, "SELECT name, start_line, object_state IS NOT NULL "
                         "FROM functions WHERE analysis_id = ?1 ORDER BY idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, aid);
    while ((rc = db_step(st)) > 0)
        json_array_append_new(*out, json_pack("[s?, I, b]",
            (const char *)sqlite3_column_text(st, 0),
            (json_int_t)sqlite3_column_int64(st, 1), sqlite3_column_int(st, 2)));
    sqlite3_finalize(st);
    return rc;
}

/* The stored findings rows of an analysis, parsed; NULL after pd_error_set. */
static json_t *api_sym_findings(sqlite3 *db, int64_t aid)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    json_t *rows = NULL;

    if (db_prepare(db, &st, "SELECT findings, findings_len FROM analyses WHERE id = ?1") < 0)
        return NULL;
    sqlite3_bind_int64(st, 1, aid);
    if (sqlite3_step(st) == SQLITE_ROW &&
        db_inflate(&text, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0),
                   (size_t)sqlite3_column_int64(st, 1)) == 0 &&
        !(rows = json_loads(text, 0, NULL)))
        pd_error_set(PD_EINVAL, "analysis %lld: findings are not JSON", (long long)aid);
    free(text);
    sqlite3_finalize(st);
    return rows;
}

/* Report the blocking uses of one file to cb. */
static int api_sym_file(srv_req *r, const db_scope *sc, int64_t aid, const char *path,
                        json_int_t seq, api_sym_cb cb, void *arg)
{
    json_t *fns = NULL, *rows, *row;
    size_t i;
    int rc = 0;

    if (!(rows = api_sym_findings(r->db, aid)))
        return PD_EDB;
    if ((rc = api_sym_functions(r->db, aid, &fns)) < 0)
        goto done;
    json_array_foreach(rows, i, row) {
        api_sym_use u = {path, json_string_value(json_array_get(row, 2)),
                         json_string_value(json_array_get(row, 4)),
                         json_integer_value(json_array_get(row, 0)),
                         json_integer_value(json_array_get(row, 1)), -1, NULL, 0, seq};
        json_t *fn;

        if (!u.cls || !u.text || json_is_true(json_array_get(row, 6)) ||
            (strcmp(u.cls, "capi") != 0 && strcmp(u.cls, "bridge") != 0))
            continue;
        if (json_is_integer(json_array_get(row, 5)) &&
            (fn = json_array_get(fns, (size_t)json_integer_value(json_array_get(row, 5))))) {
            if (sc->exclude_object_paths && json_is_true(json_array_get(fn, 2)))
                continue;
            u.fn = json_integer_value(json_array_get(row, 5));
            u.fn_name = json_string_value(json_array_get(fn, 0));
            u.fn_line = json_integer_value(json_array_get(fn, 1));
        }
        if ((rc = cb(arg, &u)) != 0)
            break;
    }
done:
    json_decref(fns);
    json_decref(rows);
    return rc;
}

/* Walk every blocking use at the commit under the scope. */
static int api_sym_walk(srv_req *r, const api_at *at, const db_scope *sc, api_sym_cb cb,
                        void *arg)
{
    db_files *files = NULL;
    db_file_row row;
    json_int_t seq = 0;
    int rc;

    if ((rc = db_files_open(r->db, &files, at->commit_id, at->rules_hash)) < 0)
        return rc;
    while ((rc = db_files_next(files, &row)) > 0) {
        if (!row.status || !db_scope_has_path(sc, row.path))
            continue;
        if (pd_universal_ready_rule(pd_classes_present(row.counts.tok)))
            continue;           /* no capi or bridge use at all */
        if ((rc = api_sym_file(r, sc, row.analysis_id, row.path, seq++, cb, arg)))
            break;
    }
    db_files_close(files);
    return rc;
}

/* The scope argument, defaulting to no-object-dtype as the blockers do. */
static int api_sym_scope(srv_req *r, const db_scope **sc)
{
    int rc;

    if ((rc = api_scope_arg(r, sc)) < 0)
        return rc;
    if (!*sc && !(*sc = db_scopes_find(srv_get_scopes(r->server), "no-object-dtype")))
        return pd_error_set(PD_EINVAL, "name a scope with ?scope=NAME");
    return 0;
}

/* Set "hpy" (the replacement or null) and "hpy_source" on o; returns o. */
static json_t *api_sym_hpy(json_t *o, const char *symbol)
{
    const char *how, *h = api_hpymap_lookup(symbol, &how);

    json_object_set_new(o, "hpy", h ? json_string(h) : json_null());
    json_object_set_new(o, "hpy_source", how ? json_string(how) : json_null());
    return o;
}

/* ---------- the list ---------- */

/* Per symbol: [class, uses, functions, files, last file seq, {fn keys}]. */
static int api_sym_count(void *arg, const api_sym_use *u)
{
    json_t *agg = arg, *e = json_object_get(agg, u->text);

    if (!e) {
        e = json_pack("[s, I, I, I, I, {}]", u->cls, (json_int_t)0, (json_int_t)0,
                      (json_int_t)0, (json_int_t)-1);
        json_object_set_new(agg, u->text, e);
    }
    json_array_set_new(e, 1, json_integer(json_integer_value(json_array_get(e, 1)) + 1));
    if (json_integer_value(json_array_get(e, 4)) != u->file_seq) {
        json_array_set_new(e, 3, json_integer(json_integer_value(json_array_get(e, 3)) + 1));
        json_array_set_new(e, 4, json_integer(u->file_seq));
        json_object_clear(json_array_get(e, 5));
    }
    if (u->fn >= 0) {
        char key[24];

        snprintf(key, sizeof(key), "%lld", (long long)u->fn);
        if (!json_object_get(json_array_get(e, 5), key)) {
            json_object_set_new(json_array_get(e, 5), key, json_true());
            json_array_set_new(e, 2, json_integer(json_integer_value(json_array_get(e, 2)) + 1));
        }
    }
    return 0;
}

/* Most uses first, then by name, so the order is stable. */
static int api_sym_order(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t ux = json_integer_value(json_object_get(x, "uses"));
    json_int_t uy = json_integer_value(json_object_get(y, "uses"));

    if (ux != uy)
        return ux > uy ? -1 : 1;
    return strcmp(json_string_value(json_object_get(x, "symbol")),
                  json_string_value(json_object_get(y, "symbol")));
}

/* The aggregate as a sorted array of symbol objects; counts the totals. */
static json_t *api_sym_list(json_t *agg, json_int_t *uses, json_int_t *no_hpy)
{
    size_t n = json_object_size(agg), i = 0;
    json_t **v = calloc(n ? n : 1, sizeof(*v)), *arr = json_array(), *e;
    const char *name;

    json_object_foreach(agg, name, e) {
        v[i] = api_sym_hpy(json_pack("{s:s, s:O, s:O, s:O, s:O}", "symbol", name,
                         "class", json_array_get(e, 0), "uses", json_array_get(e, 1),
                         "functions", json_array_get(e, 2), "files", json_array_get(e, 3)),
                         name);
        *uses += json_integer_value(json_array_get(e, 1));
        *no_hpy += json_is_null(json_object_get(v[i], "hpy"));
        i++;
    }
    qsort(v, n, sizeof(*v), api_sym_order);
    for (i = 0; i < n; i++)
        json_array_append_new(arr, v[i]);
    free(v);
    return arr;
}

enum MHD_Result api_symbols(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    json_t *agg, *arr;
    json_int_t uses = 0, no_hpy = 0;
    size_t n;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_sym_scope(r, &sc)) < 0)
        return srv_reply_error(r, rc);
    agg = json_object();
    if ((rc = api_sym_walk(r, &at, sc, api_sym_count, agg)) < 0) {
        json_decref(agg);
        return srv_reply_error(r, rc);
    }
    arr = api_sym_list(agg, &uses, &no_hpy);
    json_decref(agg);
    n = json_array_size(arr);
    if (!(arr = srv_paginate(r, arr, 1000)))
        return srv_reply_error(r, PD_EINVAL);
    return srv_reply_json(r, 200, json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:o}",
        "commit", at.oid, "scope", sc->name, "hpy_version", api_hpymap_version(),
        "total", (json_int_t)n, "uses_total", uses, "without_hpy", no_hpy,
        "symbols", arr));
}

/* ---------- one symbol ---------- */

typedef struct {
    const char *symbol;
    const char *cls;
    json_t *sites;
    json_int_t files, functions, last_seq;
    json_t *fnseen;
} api_sym_one;

static int api_sym_site(void *arg, const api_sym_use *u)
{
    api_sym_one *o = arg;

    if (strcmp(u->text, o->symbol) != 0)
        return 0;
    if (!o->cls)
        o->cls = strcmp(u->cls, "capi") == 0 ? "capi" : "bridge";
    if (u->file_seq != o->last_seq) {
        o->files++;
        o->last_seq = u->file_seq;
        json_object_clear(o->fnseen);
    }
    if (u->fn >= 0) {
        char key[24];

        snprintf(key, sizeof(key), "%lld", (long long)u->fn);
        if (!json_object_get(o->fnseen, key)) {
            json_object_set_new(o->fnseen, key, json_true());
            o->functions++;
        }
    }
    json_array_append_new(o->sites, json_pack("{s:o, s:I, s:I, s:o, s:o}",
        "path", api_text(u->path), "line", u->line, "column", u->column,
        "function", u->fn_name ? api_text(u->fn_name) : json_null(),
        "function_line", u->fn_name ? json_integer(u->fn_line) : json_null()));
    return 0;
}

enum MHD_Result api_symbol(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    api_sym_one o = {r->param[2], NULL, NULL, 0, 0, -1, NULL};
    json_int_t uses;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_sym_scope(r, &sc)) < 0)
        return srv_reply_error(r, rc);
    o.sites = json_array();
    o.fnseen = json_object();
    rc = api_sym_walk(r, &at, sc, api_sym_site, &o);
    json_decref(o.fnseen);
    if (rc < 0) {
        json_decref(o.sites);
        return srv_reply_error(r, rc);
    }
    uses = (json_int_t)json_array_size(o.sites);
    if (!(o.sites = srv_paginate(r, o.sites, 1000)))
        return srv_reply_error(r, PD_EINVAL);
    return srv_reply_json(r, 200, api_sym_hpy(json_pack("{s:s, s:s, s:o, s:s?, s:s, s:I, "
        "s:I, s:I, s:o}", "commit", at.oid, "scope", sc->name, "symbol", api_text(o.symbol),
        "class", o.cls, "hpy_version", api_hpymap_version(), "uses", uses,
        "functions", o.functions, "files", o.files, "sites", o.sites), o.symbol));
}
