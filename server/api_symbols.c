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
#include "pd_error.h"
#include "q_symbols.h"
#include "srv_page.h"


int api_symbols_walk(srv_req *r, const api_at *at, const db_scope *sc, api_sym_cb cb,
                     void *arg)
{
    return q_symbols_walk(r->db, at, sc, 0, cb, arg);
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

json_t *api_symbols_json(const q_symbols *s)
{
    json_t *arr = json_array();
    json_int_t no_hpy = 0, no_hpy_bridge = 0;
    size_t i;

    for (i = 0; i < s->n; i++) {
        const q_symbol_row *e = &s->v[i];
        json_t *o = api_sym_hpy(json_pack("{s:s, s:s, s:I, s:I, s:I}", "symbol", e->symbol,
            "class", e->cls, "uses", (json_int_t)e->uses, "functions",
            (json_int_t)e->functions, "files", (json_int_t)e->files), e->symbol);

        if (json_is_null(json_object_get(o, "hpy"))) {
            no_hpy++;
            no_hpy_bridge += strcmp(e->cls, "bridge") == 0;
        }
        json_array_append_new(arr, o);
    }
    /* without_hpy_bridge: the bridge names among them, which HPy has (its
     * legacy API); the rest are the C API names of "what HPy must add". */
    return json_pack("{s:s, s:s, s:s, s:I, s:I, s:I, s:I, s:o}",
        "commit", s->commit, "scope", s->scope, "hpy_version", api_hpymap_version(),
        "total", (json_int_t)s->n, "uses_total", (json_int_t)s->uses_total,
        "without_hpy", no_hpy, "without_hpy_bridge", no_hpy_bridge, "symbols", arr);
}

/* The member `key` of o cut to the page the client asked for; 0, or
 * PD_EINVAL on a bad page argument. */
static int api_sym_paginate(srv_req *r, json_t *o, const char *key)
{
    json_t *arr = srv_paginate(r, json_incref(json_object_get(o, key)), 1000);

    if (!arr)
        return PD_EINVAL;
    json_object_set_new(o, key, arr);
    return 0;
}

enum MHD_Result api_symbols(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    q_symbols *s = NULL;
    json_t *o;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_sym_scope(r, &sc)) < 0 ||
        (rc = q_symbols_get(r->db, &at, sc, &s)) < 0)
        return srv_reply_error(r, rc);
    o = api_symbols_json(s);
    q_symbols_free(s);
    if ((rc = api_sym_paginate(r, o, "symbols")) < 0) {
        json_decref(o);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, o);
}

/* ---------- one symbol ---------- */

json_t *api_symbol_json(const q_symbol *s)
{
    json_t *sites = json_array();
    size_t i;

    for (i = 0; i < s->nsites; i++) {
        const q_site *x = &s->sites[i];

        json_array_append_new(sites, json_pack("{s:o, s:I, s:I, s:o, s:o}",
            "path", api_text(x->path), "line", (json_int_t)x->line,
            "column", (json_int_t)x->column,
            "function", x->function ? api_text(x->function) : json_null(),
            "function_line", x->function ? json_integer(x->function_line) : json_null()));
    }
    return api_sym_hpy(json_pack("{s:s, s:s, s:o, s:s?, s:s, s:I, s:I, s:I, s:o}",
        "commit", s->commit, "scope", s->scope, "symbol", api_text(s->symbol),
        "class", s->cls, "hpy_version", api_hpymap_version(), "uses", (json_int_t)s->nsites,
        "functions", (json_int_t)s->functions, "files", (json_int_t)s->files,
        "sites", sites), s->symbol);
}

enum MHD_Result api_symbol(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    q_symbol *s = NULL;
    json_t *o;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_sym_scope(r, &sc)) < 0 ||
        (rc = q_symbol_get(r->db, &at, sc, r->param[2], &s)) < 0)
        return srv_reply_error(r, rc);
    o = api_symbol_json(s);
    q_symbol_free(s);
    if ((rc = api_sym_paginate(r, o, "sites")) < 0) {
        json_decref(o);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, o);
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

    return q_symbols_walk(r->db, at, &all, 1, api_sym_search_use, &s);
}
