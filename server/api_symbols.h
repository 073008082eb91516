/*
 * api_symbols.h: universal blockers by C API symbol, with the HPy API that
 * replaces each; search of functions and symbols by name.  Shapes in
 * doc/api.md ("Blockers by C API symbol").
 */
#ifndef API_SYMBOLS_H
#define API_SYMBOLS_H

#include "srv.h"

/* GET .../commits/{rev}/symbols[?scope=NAME]: every symbol with blocking
 * uses under the scope (default no-object-dtype), most uses first. */
enum MHD_Result api_symbols(srv_req *r);

/* GET .../commits/{rev}/symbols/{symbol}[?scope=NAME]: its sites. */
enum MHD_Result api_symbol(srv_req *r);

/* GET .../commits/{rev}/search?q=TEXT: functions and symbols by name. */
enum MHD_Result api_search(srv_req *r);

#endif
