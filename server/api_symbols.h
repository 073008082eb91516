/*
 * api_symbols.h: universal blockers by C API symbol, with the HPy API that
 * replaces each; search of functions and symbols by name.  Shapes in
 * doc/api.md ("Blockers by C API symbol").
 */
#ifndef API_SYMBOLS_H
#define API_SYMBOLS_H

#include <jansson.h>

#include "api.h"
#include "db_scope.h"
#include "q_symbols.h"
#include "srv_reply.h"
#include "srv_req.h"

/* GET .../commits/{rev}/symbols[?scope=NAME]: every symbol with blocking
 * uses under the scope (default no-object-dtype), most uses first. */
enum MHD_Result api_symbols(srv_req *r);

/* GET .../commits/{rev}/symbols/{symbol}[?scope=NAME]: its sites. */
enum MHD_Result api_symbol(srv_req *r);

/*
 * Every C API or bridge name used at the commit `at` (findings of class
 * capi or bridge in any file, in or out of functions, guarded or not)
 * whose text contains q (case-insensitive), added to the object agg as
 * {NAME: [class, uses]}.  0, or a database error (PD_EDB ...).
 */
int api_symbols_in_use(srv_req *r, const api_at *at, const char *q, json_t *agg);

/* Set "hpy" (the replacement or null), "hpy_source", "hpy_kind" and
 * "hpy_since" (api_hpymap.h) on the object o for `symbol`; returns o. */
json_t *api_sym_hpy(json_t *o, const char *symbol);

/* One blocking use, as api_symbols_walk reports it (q_symbols.h). */
typedef q_sym_use api_sym_use;

typedef q_sym_cb api_sym_cb;

/* Every symbol with blocking uses (`s`) as the API answers it (GET
 * .../symbols, before paging): a new reference.  The command line
 * (portdash show symbols --format json) prints the same. */
json_t *api_symbols_json(const q_symbols *s);

/* One symbol's sites (`s`) as the API answers it (GET .../symbols/{symbol},
 * before paging): a new reference. */
json_t *api_symbol_json(const q_symbol *s);

/*
 * Report to cb every blocking use at `at` under scope `sc` (unguarded
 * capi or bridge, object-dtype paths left out when the scope says so),
 * files in path order.  0, cb's non-zero return, PD_EDB, PD_ENOMEM.  The
 * walk of the symbols endpoint, shared with the cross-port view
 * (api_hpyneeds.c).
 */
int api_symbols_walk(srv_req *r, const api_at *at, const db_scope *sc, api_sym_cb cb,
                     void *arg);

#endif
