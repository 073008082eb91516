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
#include <strings.h>

#include "api.h"
#include "api_hpymap.h"
#include "api_symbols.h"
#include "api_scope.h"
#include "db.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "pd_error.h"
#include "srv_page.h"


/* A function of the file being walked: what a use inside it reports. */
typedef struct {
    char *name;                  /* NULL when not stored */
    json_int_t start_line;
    int object;                  /* on an object path */
} api_sym_fn;

/* One file's walk: its functions, and where its uses go. */
typedef struct {
    const db_scope *sc;
    int guarded_too;             /* guarded uses count too (search) */
    const char *path;
    json_int_t seq;
    api_sym_fn *fns;
    size_t nfns, cap;
    api_sym_cb cb;
    void *arg;
} api_sym_walk_file;

/* db_analysis_functions callback: one function kept. */
static int api_sym_function(void *arg, const db_fn_brief *f)
{
    api_sym_walk_file *w = arg;
    api_sym_fn *fn;

    if (w->nfns == w->cap) {
        api_sym_fn *p = realloc(w->fns, (w->cap = w->cap ? w->cap * 2 : 32) * sizeof(*p));

        if (!p)
            return pd_error_nomem(NULL);
        w->fns = p;
    }
    fn = &w->fns[w->nfns];
    if (f->name && !(fn->name = strdup(f->name)))
        return pd_error_nomem(NULL);
    if (!f->name)
        fn->name = NULL;
    fn->start_line = (json_int_t)f->start_line;
    fn->object = f->object_state != NULL;
    w->nfns++;
    return 0;
}

/* db_findings_each callback: a blocking use (unguarded capi or bridge, not
 * in a function the scope leaves out) reported to the walk's cb. */
static int api_sym_finding(void *arg, const db_finding *f)
{
    api_sym_walk_file *w = arg;
    api_sym_use u = {w->path, f->cls, f->text, (json_int_t)f->line, (json_int_t)f->column,
                     -1, NULL, 0, w->seq};

    if ((f->guarded && !w->guarded_too) ||
        (strcmp(f->cls, "capi") != 0 && strcmp(f->cls, "bridge") != 0))
        return 0;
    if (f->function >= 0 && (size_t)f->function < w->nfns) {
        const api_sym_fn *fn = &w->fns[f->function];

        if (w->sc->exclude_object_paths && fn->object)
            return 0;
        u.fn = (json_int_t)f->function;
        u.fn_name = fn->name;
        u.fn_line = fn->start_line;
    }
    return w->cb(w->arg, &u);
}

/* Report the blocking uses of one file to cb.  An analysis gone meanwhile
 * has no uses. */
static int api_sym_file(srv_req *r, const db_scope *sc, int guarded_too, int64_t aid,
                        const char *path, json_int_t seq, api_sym_cb cb, void *arg)
{
    api_sym_walk_file w = {sc, guarded_too, path, seq, NULL, 0, 0, cb, arg};
    int rc;

    if ((rc = db_analysis_functions(r->db, aid, api_sym_function, &w)) == 0 &&
        (rc = db_findings_each(r->db, aid, api_sym_finding, &w)) == PD_ENOTFOUND)
        rc = 0;
    while (w.nfns)
        free(w.fns[--w.nfns].name);
    free(w.fns);
    return rc;
}

/* Walk every blocking use at the commit under the scope (with
 * guarded_too, every use, guarded or not). */
static int api_sym_walk(srv_req *r, const api_at *at, const db_scope *sc, int guarded_too,
                        api_sym_cb cb, void *arg)
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
        if ((rc = api_sym_file(r, sc, guarded_too, row.analysis_id, row.path, seq++, cb,
                               arg)))
            break;
    }
    db_files_close(files);
    return rc;
}

int api_symbols_walk(srv_req *r, const api_at *at, const db_scope *sc, api_sym_cb cb,
                     void *arg)
{
    return api_sym_walk(r, at, sc, 0, cb, arg);
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

/* Set "hpy" (the replacement or null), "hpy_source", "hpy_kind" and
 * "hpy_since" on o; returns o. */
json_t *api_sym_hpy(json_t *o, const char *symbol)
{
    const char *how, *kind, *since, *h = api_hpymap_lookup_row(symbol, &how, &kind, &since);

    json_object_set_new(o, "hpy", h ? json_string(h) : json_null());
    json_object_set_new(o, "hpy_source", how ? json_string(how) : json_null());
    json_object_set_new(o, "hpy_kind", kind ? json_string(kind) : json_null());
    json_object_set_new(o, "hpy_since", since ? json_string(since) : json_null());
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
    if ((rc = api_sym_walk(r, &at, sc, 0, api_sym_count, agg)) < 0) {
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
    rc = api_sym_walk(r, &at, sc, 0, api_sym_site, &o);
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

/* ---------- symbols in use, for search ---------- */

/* What the search walk needs: the text and the aggregate. */
typedef struct {
    const char *q;
    json_t *agg;
} api_sym_search;

static int api_sym_search_use(void *arg, const api_sym_use *u)
{
    api_sym_search *s = arg;
    json_t *e;

    size_t i;

    /* names only: an item finding's text is `memcpy(&obj)` or a cast */
    for (i = 0; u->text[i]; i++)
        if (!(u->text[i] == '_' || (u->text[i] >= 'a' && u->text[i] <= 'z') ||
              (u->text[i] >= 'A' && u->text[i] <= 'Z') ||
              (i > 0 && u->text[i] >= '0' && u->text[i] <= '9')))
            return 0;
    if (!i || !strcasestr(u->text, s->q))
        return 0;
    if (!(e = json_object_get(s->agg, u->text))) {
        e = json_pack("[s, I]", u->cls, (json_int_t)0);
        json_object_set_new(s->agg, u->text, e);
    }
    json_array_set_new(e, 1, json_integer(json_integer_value(json_array_get(e, 1)) + 1));
    return 0;
}

int api_symbols_in_use(srv_req *r, const api_at *at, const char *q, json_t *agg)
{
    /* every path, every function, guarded or not: a search finds each
     * C API or bridge name the code uses, whether or not it blocks */
    static const db_scope all = {"all", "", NULL, 0, NULL, 0, 0};
    api_sym_search s = {q, agg};

    return api_sym_walk(r, at, &all, 1, api_sym_search_use, &s);
}
