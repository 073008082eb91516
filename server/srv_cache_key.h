/*
 * srv_cache_key.h: what the answer cache (srv_cache.c) keys an answer on:
 * the request key and the data key, under the route's cache policy
 * (srv_routes.h) (srv_cache.h says
 * what goes into each).  Only srv_cache.c uses these.
 */
#ifndef SRV_CACHE_KEY_H
#define SRV_CACHE_KEY_H

#include <stddef.h>
#include <stdint.h>

#include "srv_req.h"
#include "srv_routes.h"

/*
 * The request key of r: route, captures (param[1] replaced by `rev` when
 * not NULL), tail and the sorted query arguments, each length-prefixed so
 * that no two requests join the same way.  malloc'd (*len bytes), or NULL.
 */
char *srv_cache_key(srv_req *r, const char *rev, size_t *len);

/*
 * The data key of r under policy `cls` into dkey (size n; generation
 * `epoch` for SRV_CACHE_DB) and, for commit and ref routes, the full commit
 * id {rev} or the ref's tip resolves to into oid (41 bytes).  0; PD_EDB
 * when the database cannot be read (the request is then answered with that
 * error: 503 when busy); another negative code when the request cannot be
 * resolved (the handler then answers it, uncached, with its own error).
 */
int srv_cache_data_key(srv_req *r, srv_cache_policy cls, uint64_t epoch, char *oid,
                       char *dkey, size_t n);

/* 1 when `s` is a full commit id as the database stores them (40 lowercase
 * hex digits), else 0. */
int srv_cache_is_oid(const char *s);

/* The raw URL with its segment number `seg` (0: the one after the first
 * '/') replaced by `oid`; malloc'd, or NULL. */
char *srv_cache_url_with(const char *url, int seg, const char *oid);

/* The segment number of {rev} in a route pattern that has one. */
int srv_cache_rev_segment(const char *pattern);

#endif
