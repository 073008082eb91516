/*
 * srv_cache.h: the answer cache, one layer between the route table and the
 * GET handlers.
 *
 * An answer is a pure function of what it is computed from, so it is
 * computed once and kept (bytes, gzip form and ready-made libmicrohttpd
 * responses) under a key of
 *   - the route and its decoded captures and query arguments, with the
 *     {rev} of a commit route replaced by the full commit id it resolves to
 *     (a request by ref name and one by commit id share one entry);
 *   - a data key: for commit routes the analysis key (meta rules_hash: rules
 *     hash and analyzer version) and the SARIF runs stored for the commit;
 *     for ref routes the ref's tip and the analysis key; for the other
 *     routes the database generation (any write anywhere changes it).
 * The scopes file is read once per server, and so is the cache: a server
 * with another scopes file starts with an empty cache.
 *
 * The data key is only recomputed (a few indexed SQLite reads) after the
 * database changed, which PRAGMA data_version tells on every request; a
 * write through this server (POST) bumps the generation itself.
 *
 * Every answer carries a strong ETag: the git blob id of its bytes, so an
 * answer whose bytes a write did not change keeps its ETag (a SARIF upload
 * changes the summary and the file pages it adds findings to, nothing
 * else).  If-None-Match gets 304.  Answers the handler marked immutable
 * (about a full commit id, not changed by uploads) get "immutable" when
 * asked by full commit id, every other answer "no-cache".
 */
#ifndef SRV_CACHE_H
#define SRV_CACHE_H

#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "srv_req.h"
#include "srv_routes.h"

typedef struct srv_cache srv_cache;

/* Default bound of the cache (serve --cache-mb). */
#define SRV_CACHE_DEFAULT_MB 64

/* A cache bounded to `max_bytes` of answers (bytes, gzip form, keys);
 * NULL when out of memory.  max_bytes 0 disables caching. */
srv_cache *srv_cache_new(size_t max_bytes);

/* Free every entry; accepts NULL.  No request may be running. */
void srv_cache_free(srv_cache *c);

/*
 * Run the matched route's handler (route `rt`, r->route) through the cache:
 * GET and HEAD answers of routes whose policy caches them are served from
 * the cache or computed and stored; any other method runs the handler and
 * then counts as a database write.  Returns what the handler or the cached
 * reply returns.
 */
enum MHD_Result srv_cache_dispatch(srv_cache *c, srv_req *r, const srv_route *rt);

/* Something was written to the database: answers of non-commit routes and
 * every data key are checked again. */
void srv_cache_bump(srv_cache *c);

/* How many times the database file was replaced (srv_cache_clear), plus
 * 1: what keeps data read from one file apart from another's (a commit
 * row id and a commit id name the same data only within one file).  0 for
 * NULL (no cache). */
uint64_t srv_cache_file_generation(srv_cache *c);

/* The database file was replaced (another inode at its path): drop every
 * entry, since a data key computed from the new file may equal one of the
 * old file's for other content.  Accepts NULL. */
void srv_cache_clear(srv_cache *c);

typedef struct {
    uint64_t hits;          /* answered from the cache */
    uint64_t misses;        /* computed by the handler */
    uint64_t revalidated;   /* data key recomputed after a write, unchanged */
    uint64_t evictions;     /* entries dropped to stay within the bound */
    uint64_t not_modified;  /* 304 answers */
    size_t bytes;           /* bytes held */
    size_t max_bytes;
    size_t entries;
    unsigned warm_rounds;   /* warming rounds finished */
} srv_cache_counts;

/* The counters (consistent with each other). */
void srv_cache_count(srv_cache *c, srv_cache_counts *out);

/* The counters in Prometheus text format (portdash_cache_*). */
void srv_cache_metrics_write(srv_cache *c, FILE *f);

/* Warm the cache (srv_warm.h) from a thread asking the server at `addr`
 * (its bound address) on `port`, once now and after every write.  Without
 * a call, nothing is warmed. */
void srv_cache_warm_start(srv_cache *c, const struct sockaddr *addr, socklen_t len,
                          unsigned short port);

/* Ask for a warming round (`cache` is the srv_cache; void * so that it
 * serves as srv_jobs' on-done hook).  Accepts NULL. */
void srv_cache_warm_soon(void *cache);

/* Stop warming (before the server stops); accepts NULL. */
void srv_cache_warm_stop(srv_cache *c);

#endif
