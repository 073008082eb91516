/*
 * api_symbols.h: universal blockers by C API symbol, with the HPy API that
 * replaces each; search of functions and symbols by name.  Shapes in
 * doc/api.md ("Blockers by C API symbol").
 */
#ifndef API_SYMBOLS_H
#define API_SYMBOLS_H

#include <jansson.h>

#include "api.h"
#include "srv.h"

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

#endif
