/*
 * api_scope_series.h: a scope's replayed totals along a ref's history
 * (db_scope_history), kept by the server so that the scoped trend's
 * measures are read from one replay.  A week card under a scope asks six
 * measures of one ref at once; each replay reads every commit's stored set
 * of call-graph results (about 0.4 s of CPU on numpy-hpy's hpy), and the
 * answer cache keys each measure apart.
 */
#ifndef API_SCOPE_SERIES_H
#define API_SCOPE_SERIES_H

#include <stdint.h>

#include "api_common.h"
#include "db_scope.h"
#include "srv_req.h"

/* Series kept at once (the least recently used is dropped); each is about
 * 192 bytes per commit: 3 MB for numpy-hpy's 14,943. */
#define API_SCOPE_SERIES_KEEP 4

typedef struct api_scope_series api_scope_series;

/* An empty store of series; NULL when out of memory. */
api_scope_series *api_scope_series_new(void);

/*
 * Call fn for each commit of the first-parent chain ending at commit `at`
 * as db_scope_history does (same points, same order, same errors), for
 * scope `sc` (one of the server's scopes: kept by its address).  The
 * series is replayed once and kept in the server's store (srv_get_series)
 * under what the answer cache keys a ref's answers by: the commit, the
 * rules hash, the fill generation (missing blobs that arrived), and the
 * database file (srv_cache_file_generation); the data under that key does
 * not change.  A request that asks while another replays the same series
 * waits for it.  Without an answer cache (serve --cache-mb 0) nothing is
 * kept.  Returns 0, fn's non-zero return, or an error code (pd_error.h).
 */
int api_scope_series_walk(srv_req *r, const db_scope *sc, const api_at *at,
                          db_scope_commit_fn fn, void *arg);

/* Free the store and every kept series; accepts NULL.  No request may be
 * running. */
void api_scope_series_free(api_scope_series *m);

#endif
