/*
 * srv_cache.c: the answer cache (see srv_cache.h for what a key is made of).
 *
 * One hash table of entries (pd_map, seeded: the keys are request data)
 * under one mutex, kept in LRU order and bounded
 * in bytes.  An entry holds the body once (shared, reference-counted, with
 * its gzip form) and up to six libmicrohttpd responses built from it
 * (identity, gzip, 304; each with Cache-Control no-cache or immutable):
 * libmicrohttpd counts the connections a response is queued on, so a hit
 * queues a ready response and copies nothing.  An evicted entry's body is
 * freed when the last connection sending it is done.
 *
 * Requests for a commit route by ref name or abbreviated id are "alias"
 * entries: the key as asked, pointing to the entry of the full commit id,
 * valid for one database generation.
 */
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_cache.h"
#include "pd_buf_huge.h"
#include "pd_error.h"
#include "pd_map.h"
#include "srv_cache.h"
#include "srv_capture.h"
#include "srv_cache_key.h"
#include "srv_reply.h"
#include "srv_routes.h"
#include "srv_warm.h"

/* Headers, response objects and bookkeeping of one entry, roughly. */
#define SRV_CACHE_OVERHEAD 1024

/* A body shared by an entry and the responses sending it. */
typedef struct {
    int refs;
    char *buf;
    size_t len;
    unsigned char *gz;
    size_t gzlen;
    int gz_later;            /* compressible, its gzip form not made yet */
} srv_cache_body;

typedef struct srv_cache_entry {
    struct srv_cache_entry *prev, *next;   /* LRU list */
    char *key;                         /* the table's key (borrowed by it) */
    size_t keylen;
    char *dkey;              /* the data key it was computed under */
    uint64_t epoch;          /* generation at which dkey was last seen valid */
    char *target;            /* alias: key of the answer's entry; else NULL */
    char etag[2][SRV_ETAG_SIZE];       /* [identity, gzip] */
    int immutable;           /* the handler's word about the full commit id */
    char ctype[128];
    char *link;
    srv_cache_body *body;
    struct MHD_Response *resp[2][4];   /* [immutable][identity, gzip, 304 of
                                        * identity, 304 of gzip] */
    size_t bytes;
    int refs;                /* the table's and each request's queueing it */
} srv_cache_entry;

/* An answer chosen under the lock, queued after it (srv_cache_give). */
typedef struct {
    srv_cache_entry *e;      /* referenced until queued */
    struct MHD_Response *resp;
    unsigned status;
} srv_cache_pick;

/* An answer being computed: others asking for it wait instead of computing
 * it again (64 connections asking for a cold 0.5 s history at once). */
typedef struct srv_cache_flight {
    struct srv_cache_flight *next;
    char *key;
    size_t keylen;
} srv_cache_flight;

struct srv_cache {
    pthread_mutex_t lock;
    pthread_cond_t landed;             /* a flight ended */
    srv_cache_flight *flights;
    pd_map *table;                     /* request key -> entry */
    srv_cache_entry *head, *tail;      /* most, least recently used */
    size_t bytes, max_bytes, entries;
    uint64_t epoch;                    /* database generation (atomic) */
    uint64_t clears;                   /* files replaced (atomic) */
    uint64_t hits, misses, revalidated, evictions, not_modified;
    srv_warm *warm;
};

srv_cache *srv_cache_new(size_t max_bytes)
{
    srv_cache *c = calloc(1, sizeof(*c));

    if (!c || !(c->table = pd_map_new(PD_MAP_SEEDED))) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->landed, NULL);
    c->max_bytes = max_bytes;
    c->epoch = 1;
    return c;
}

static void srv_cache_body_unref(void *arg)
{
    srv_cache_body *b = arg;

    if (__atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL) == 0) {
        free(b->buf);
        free(b->gz);
        free(b);
    }
}

static void srv_cache_entry_free(srv_cache_entry *e)
{
    int i, j;

    if (!e)
        return;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 4; j++)
            if (e->resp[i][j])
                MHD_destroy_response(e->resp[i][j]);
    if (e->body)
        srv_cache_body_unref(e->body);
    free(e->key);
    free(e->dkey);
    free(e->target);
    free(e->link);
    free(e);
}

/* Drop a reference; the last one frees (after eviction, possibly in a
 * request that was still queueing the answer). */
static void srv_cache_entry_unref(srv_cache_entry *e)
{
    if (e && __atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL) == 0)
        srv_cache_entry_free(e);
}

void srv_cache_free(srv_cache *c)
{
    srv_cache_entry *e, *next;

    if (!c)
        return;
    srv_warm_stop(c->warm);
    for (e = c->head; e; e = next) {
        next = e->next;
        srv_cache_entry_unref(e);
    }
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->landed);
    pd_map_free(c->table);
    free(c);
}

/* ---- table and LRU list (caller holds the lock) ---- */

static srv_cache_entry *srv_cache_find(srv_cache *c, const char *key, size_t n)
{
    return pd_map_get(c->table, key, n);
}

static void srv_cache_unlink_lru(srv_cache *c, srv_cache_entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        c->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        c->tail = e->prev;
    e->prev = e->next = NULL;
}

static void srv_cache_push_front(srv_cache *c, srv_cache_entry *e)
{
    e->prev = NULL;
    e->next = c->head;
    if (c->head)
        c->head->prev = e;
    c->head = e;
    if (!c->tail)
        c->tail = e;
}

/* Mark `e` (in the list) most recently used. */
static void srv_cache_touch(srv_cache *c, srv_cache_entry *e)
{
    if (c->head == e)
        return;
    srv_cache_unlink_lru(c, e);
    srv_cache_push_front(c, e);
}

static void srv_cache_remove(srv_cache *c, srv_cache_entry *e)
{
    pd_map_del(c->table, e->key, e->keylen);
    srv_cache_unlink_lru(c, e);
    c->bytes -= e->bytes;
    c->entries--;
    srv_cache_entry_unref(e);
}

/* Insert `e` (replacing an entry of the same key), then evict from the
 * old end until the bound holds; `e` itself is kept.  0, or PD_ENOMEM
 * (not inserted: the caller keeps its reference). */
static int srv_cache_insert(srv_cache *c, srv_cache_entry *e)
{
    srv_cache_entry *old = srv_cache_find(c, e->key, e->keylen);

    if (old)
        srv_cache_remove(c, old);
    if (pd_map_put(c->table, e->key, e->keylen, e) < 0)
        return PD_ENOMEM;
    srv_cache_push_front(c, e);
    c->bytes += e->bytes;
    c->entries++;
    while (c->bytes > c->max_bytes && c->tail && c->tail != e) {
        srv_cache_remove(c, c->tail);
        c->evictions++;
    }
    return 0;
}

/* ---- the database generation ---- */

static __thread sqlite3 *srv_cache_tl_db;
static __thread int64_t srv_cache_tl_version;

void srv_cache_bump(srv_cache *c)
{
    if (c)
        __atomic_add_fetch(&c->epoch, 1, __ATOMIC_ACQ_REL);
}

void srv_cache_clear(srv_cache *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    while (c->head)
        srv_cache_remove(c, c->head);
    pthread_mutex_unlock(&c->lock);
    __atomic_add_fetch(&c->clears, 1, __ATOMIC_ACQ_REL);
    srv_cache_bump(c);
}

uint64_t srv_cache_file_generation(srv_cache *c)
{
    return c ? __atomic_load_n(&c->clears, __ATOMIC_ACQUIRE) + 1 : 0;
}

/*
 * The generation to check entries against into *out.  PRAGMA data_version
 * changes on this thread's connection when another connection (another
 * thread, an ingest job, another process) committed; a thread's first look
 * cannot know what happened before, so it bumps too.  0, or PD_EDB when
 * the database cannot be read (busy): no entry can then be known valid.
 */
static int srv_cache_epoch(srv_cache *c, sqlite3 *db, uint64_t *out)
{
    int64_t v;
    int rc;

    if ((rc = db_data_version(db, &v)) < 0) {
        srv_cache_tl_db = NULL;
        return rc;
    }
    if (srv_cache_tl_db != db || v != srv_cache_tl_version) {
        srv_cache_tl_db = db;
        srv_cache_tl_version = v;
        srv_cache_bump(c);
    }
    *out = __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE);
    return 0;
}

/* ---- replies ---- */

/* The response of variant [imm][kind] of `e`, made on first use. */
static struct MHD_Response *srv_cache_response(srv_cache_entry *e, int imm, int kind,
                                               int private_reads)
{
    struct MHD_Response *resp = e->resp[imm][kind];
    srv_cache_body *b = e->body;

    if (resp)
        return resp;
    if (kind >= 2) {
        resp = MHD_create_response_from_buffer(0, (void *)"", MHD_RESPMEM_PERSISTENT);
    } else {
        resp = MHD_create_response_from_buffer_with_free_callback_cls(
            kind ? b->gzlen : b->len, kind ? (void *)b->gz : (void *)b->buf,
            srv_cache_body_unref, b);
        if (resp)
            __atomic_add_fetch(&b->refs, 1, __ATOMIC_ACQ_REL);
    }
    if (!resp)
        return NULL;
    srv_reply_add_headers(resp, kind >= 2 ? NULL : e->ctype, e->link);
    if (kind == 1)
        MHD_add_response_header(resp, "Content-Encoding", "gzip");
    MHD_add_response_header(resp, "ETag", e->etag[kind & 1]);
    srv_reply_cache_headers(resp, imm, private_reads);
    e->resp[imm][kind] = resp;
    return resp;
}

/* Make the gzip form of `e` that srv_cache_entry_new left for later
 * (caller holds the lock; once per entry, and only when a client that did
 * not take gzip asked first). */
static void srv_cache_gzip_later(srv_cache *c, srv_cache_entry *e)
{
    srv_cache_body *b = e->body;

    b->gz_later = 0;
    if (!(b->gz = srv_reply_gzip(b->buf, b->len, &b->gzlen)))
        return;
    e->bytes += b->gzlen;
    if (srv_cache_find(c, e->key, e->keylen) == e)
        c->bytes += b->gzlen;
}

/* Choose the response of `e` for r (caller holds the lock) and keep e
 * alive until srv_cache_give queued it: the lock is not held while
 * libmicrohttpd queues, so a worker preempted there stalls no other.
 * 0 when no response can be made (out of memory). */
static int srv_cache_pick_for(srv_cache *c, srv_cache_entry *e, srv_req *r, int imm,
                              srv_cache_pick *p)
{
    /* The coding first: each has its own ETag to match. */
    int want_gz = srv_reply_accepts_gzip(r), kind;

    if (want_gz && e->body->gz_later)
        srv_cache_gzip_later(c, e);
    kind = e->body->gz && want_gz ? 1 : 0;

    if (srv_reply_etag_matches(r, e->etag[kind]))
        kind += 2;
    if (!(p->resp = srv_cache_response(e, imm, kind, r->private_reads)))
        return 0;
    c->not_modified += kind >= 2;
    p->status = kind >= 2 ? 304 : 200;
    p->e = e;
    __atomic_add_fetch(&e->refs, 1, __ATOMIC_ACQ_REL);
    return 1;
}

/* Queue what srv_cache_pick_for chose (without the lock). */
static enum MHD_Result srv_cache_give(srv_req *r, srv_cache_pick *p)
{
    enum MHD_Result ret;

    r->status = p->status;
    if (!r->conn) {             /* an internal request (srv_req.sink) */
        if (p->status == 200)
            srv_sink_keep(r, p->e->body->buf, p->e->body->len);
        srv_cache_entry_unref(p->e);
        return MHD_YES;
    }
    ret = MHD_queue_response(r->conn, p->status, p->resp);
    srv_cache_entry_unref(p->e);
    return ret;
}

/* A new entry holding what the handler replied (cap->buf is taken). */
static srv_cache_entry *srv_cache_entry_new(srv_cache_capture *cap, char *key, size_t keylen,
                                            const char *dkey, int want_gz)
{
    srv_cache_entry *e = calloc(1, sizeof(*e));
    srv_cache_body *b = calloc(1, sizeof(*b));
    size_t held;

    if (!e || !b || !(e->dkey = strdup(dkey)) ||
        (cap->link[0] && !(e->link = strdup(cap->link)))) {
        free(b);
        srv_cache_entry_free(e);
        return NULL;
    }
    b->refs = 1;
    e->refs = 1;
    b->buf = cap->buf;
    b->len = cap->len;
    cap->buf = NULL;
    /* The gzip form when this client takes it, else on the first request
     * that does (srv_cache_gzip_later): compressing a 1.2 MB file page was
     * a fifth of its cold answer, for clients that never read it. */
    if (srv_reply_compressible(cap->ctype)) {
        if (want_gz)
            b->gz = srv_reply_gzip(b->buf, b->len, &b->gzlen);
        else
            b->gz_later = 1;
    }
    e->body = b;
    e->key = key;
    e->keylen = keylen;
    e->immutable = cap->immutable;
    snprintf(e->ctype, sizeof(e->ctype), "%s", cap->ctype);
    srv_reply_etag(e->etag[0], b->buf, b->len);
    srv_reply_etag_gzip(e->etag[1], e->etag[0]);
    /* The memory the body holds: a big answer's room in huge pages is
     * resident whole (pd_buf_huge.h; 2 MiB for the 1.2 MB page), where the
     * untouched end of other rooms is not. */
    held = b->len;
    if ((uintptr_t)b->buf % PD_BUF_HUGE_PAGE == 0 && b->len >= PD_BUF_HUGE_MIN &&
        malloc_usable_size(b->buf) > held)
        held = malloc_usable_size(b->buf);
    e->bytes = keylen + held + b->gzlen + strlen(dkey) + SRV_CACHE_OVERHEAD;
    return e;
}

/* Remember that request key `key` (by ref name or short id) is answered by
 * entry `target` during generation `epoch`. */
static void srv_cache_alias(srv_cache *c, char *key, size_t keylen, const char *target,
                            uint64_t epoch)
{
    srv_cache_entry *e = srv_cache_find(c, key, keylen);

    if (e && e->target && strcmp(e->target, target) == 0) {
        e->epoch = epoch;
        free(key);
        return;
    }
    if (!(e = calloc(1, sizeof(*e))) || !(e->target = strdup(target))) {
        free(e);
        free(key);
        return;
    }
    e->key = key;
    e->keylen = keylen;
    e->epoch = epoch;
    e->refs = 1;
    e->bytes = 2 * keylen + strlen(target) + 128;
    if (srv_cache_insert(c, e) < 0)
        srv_cache_entry_free(e);
}

/* Choose the answer of `e` when it exists and holds one (caller holds the
 * lock). */
static int srv_cache_try(srv_cache *c, srv_cache_entry *e, srv_req *r, int imm_ok,
                         srv_cache_pick *p)
{
    if (!e || !e->body || !srv_cache_pick_for(c, e, r, imm_ok && e->immutable, p))
        return 0;
    c->hits++;
    srv_cache_touch(c, e);
    return 1;
}

/* 1 for the policies keyed on the full commit id of {rev}. */
static int srv_cache_by_commit(srv_cache_policy cls)
{
    return cls == SRV_CACHE_COMMIT || cls == SRV_CACHE_COMMIT_LIVE;
}

/* Run the handler with the request rewritten to the full commit id (commit
 * routes), keep its answer under `key` (taken) and serve it. */
static enum MHD_Result srv_cache_compute(srv_cache *c, srv_req *r, const srv_route *rt,
                                         char *oid, char *key,
                                         size_t keylen, const char *dkey, uint64_t epoch,
                                         int imm_ok)
{
    srv_cache_capture cap = {0};
    const char *param1 = r->param[1], *url = r->url;
    char *url2 = NULL;
    srv_cache_entry *e;
    srv_cache_pick p;
    enum MHD_Result ret;
    int ok, keep;

    if (srv_cache_by_commit(rt->cache)) {
        /* The answer by commit id, so that it can serve every name of it;
         * Link headers then name the commit id too. */
        r->param[1] = oid;
        if (strcmp(param1, oid) != 0 &&
            (url2 = srv_cache_url_with(url, srv_cache_rev_segment(
                rt->pattern), oid)))
            r->url = url2;
    }
    r->capture = &cap;
    ret = rt->handler(r);
    r->capture = NULL;
    r->param[1] = param1;
    r->url = url;
    free(url2);
    if (!cap.done) {
        free(key);
        return ret;           /* an error went out as usual */
    }
    if (!(e = srv_cache_entry_new(&cap, key, keylen, dkey, srv_reply_accepts_gzip(r)))) {
        free(cap.buf);
        free(key);
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    }
    e->epoch = epoch;
    keep = e->bytes <= c->max_bytes / 2;
    pthread_mutex_lock(&c->lock);
    /* The table takes the first reference (unless out of memory). */
    keep = keep && srv_cache_insert(c, e) == 0;
    ok = srv_cache_pick_for(c, e, r, imm_ok && e->immutable, &p);
    pthread_mutex_unlock(&c->lock);
    ret = ok ? srv_cache_give(r, &p) : MHD_NO;
    if (!keep)
        srv_cache_entry_unref(e);     /* too big to keep: sent once */
    return ret;
}

/* 1 when `key` is being computed (caller holds the lock). */
static int srv_cache_in_flight(srv_cache *c, const char *key, size_t n)
{
    srv_cache_flight *f;

    for (f = c->flights; f; f = f->next)
        if (f->keylen == n && memcmp(f->key, key, n) == 0)
            return 1;
    return 0;
}

/* Serve the entry of `key` when it holds an answer computed under `dkey`
 * (caller holds the lock). */
static int srv_cache_try_valid(srv_cache *c, const char *key, size_t n, const char *dkey,
                               uint64_t epoch, srv_req *r, int imm_ok, srv_cache_pick *p)
{
    srv_cache_entry *e = srv_cache_find(c, key, n);

    if (!e || !e->body || strcmp(e->dkey, dkey) != 0)
        return 0;
    e->epoch = epoch;
    return srv_cache_try(c, e, r, imm_ok, p);
}

/*
 * Compute the answer of `key` (taken), called with the lock held, which it
 * releases: or wait for the request computing it and serve its answer.
 */
static enum MHD_Result srv_cache_fly(srv_cache *c, srv_req *r, const srv_route *rt,
                                     char *oid, char *key, size_t klen,
                                     const char *dkey, uint64_t epoch, int imm_ok)
{
    srv_cache_flight flight, **fp;
    srv_cache_pick p;
    enum MHD_Result ret;

    while (srv_cache_in_flight(c, key, klen)) {
        pthread_cond_wait(&c->landed, &c->lock);
        if (srv_cache_try_valid(c, key, klen, dkey, epoch, r, imm_ok, &p)) {
            pthread_mutex_unlock(&c->lock);
            free(key);
            return srv_cache_give(r, &p);
        }
    }
    c->misses++;
    if (!(flight.key = malloc(klen))) {
        pthread_mutex_unlock(&c->lock);
        free(key);
        return rt->handler(r);
    }
    memcpy(flight.key, key, klen);
    flight.keylen = klen;
    flight.next = c->flights;
    c->flights = &flight;
    pthread_mutex_unlock(&c->lock);
    ret = srv_cache_compute(c, r, rt, oid, key, klen, dkey, epoch, imm_ok);
    pthread_mutex_lock(&c->lock);
    for (fp = &c->flights; *fp != &flight; fp = &(*fp)->next)
        ;
    *fp = flight.next;
    pthread_cond_broadcast(&c->landed);
    pthread_mutex_unlock(&c->lock);
    free(flight.key);
    return ret;
}

enum MHD_Result srv_cache_dispatch(srv_cache *c, srv_req *r, const srv_route *rt)
{
    srv_cache_policy cls = rt->cache;
    srv_handler handler = rt->handler;
    char oid[41] = "", dkey[256], *rkey, *key;
    size_t rlen, klen;
    srv_cache_entry *e;
    srv_cache_pick p;
    enum MHD_Result ret;
    uint64_t epoch;
    int by_id, imm_ok, rc;

    if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
        ret = handler(r);
        /* This connection's writes, which data_version does not show it.  A
         * refused request (4xx) wrote nothing: it must not cost the cache. */
        if (r->status < 400 || r->status >= 500)
            srv_cache_bump(c);
        if (r->status >= 200 && r->status < 300)
            srv_cache_warm_soon(c);
        return ret;
    }
    if (!c || cls == SRV_CACHE_NO || c->max_bytes == 0)
        return handler(r);
    /* A database that cannot be read now (busy): no entry can be known
     * valid, nor be kept.  The handler answers, uncached: a 503 when it
     * reads the database, its answer when it does not (measures). */
    if (srv_cache_epoch(c, r->db, &epoch) < 0)
        return handler(r);
    by_id = srv_cache_by_commit(cls) && srv_cache_is_oid(r->param[1]);
    /* Asked by ref name or short id, an answer is never "immutable"; nor
     * one that SARIF uploads and dismissals change. */
    imm_ok = cls != SRV_CACHE_COMMIT_LIVE && (!srv_cache_by_commit(cls) || by_id);
    if (!(rkey = srv_cache_key(r, NULL, &rlen)))
        return handler(r);
    pthread_mutex_lock(&c->lock);
    e = srv_cache_find(c, rkey, rlen);
    if (e && e->target) {
        imm_ok = 0;           /* a name of the commit, not its id */
        e = e->epoch == epoch ? srv_cache_find(c, e->target, strlen(e->target)) : NULL;
    }
    if (e && e->epoch == epoch && srv_cache_try(c, e, r, imm_ok, &p)) {
        pthread_mutex_unlock(&c->lock);
        free(rkey);
        return srv_cache_give(r, &p);
    }
    pthread_mutex_unlock(&c->lock);
    if ((rc = srv_cache_data_key(r, cls, epoch, oid, dkey, sizeof(dkey))) < 0) {
        free(rkey);
        return rc == PD_EDB ? srv_reply_error(r, rc) : handler(r);
    }
    /* A ref whose name looks like a commit id is a name all the same. */
    if (by_id && strcmp(oid, r->param[1]) != 0)
        by_id = imm_ok = 0;
    key = rkey;
    klen = rlen;
    if (srv_cache_by_commit(cls) && !by_id && !(key = srv_cache_key(r, oid, &klen))) {
        free(rkey);
        return handler(r);
    }
    pthread_mutex_lock(&c->lock);
    if (key != rkey)
        srv_cache_alias(c, rkey, rlen, key, epoch);
    if (srv_cache_try_valid(c, key, klen, dkey, epoch, r, imm_ok, &p)) {
        c->revalidated++;
        pthread_mutex_unlock(&c->lock);
        free(key);
        return srv_cache_give(r, &p);
    }
    return srv_cache_fly(c, r, rt, oid, key, klen, dkey, epoch, imm_ok);
}

void srv_cache_warm_start(srv_cache *c, const struct sockaddr *addr, socklen_t len,
                          unsigned short port)
{
    if (c && c->max_bytes && !c->warm)
        c->warm = srv_warm_start(addr, len, port);
}

void srv_cache_warm_soon(void *cache)
{
    srv_cache *c = cache;

    if (c)
        srv_warm_soon(c->warm);
}

void srv_cache_warm_stop(srv_cache *c)
{
    if (c) {
        srv_warm_stop(c->warm);
        c->warm = NULL;
    }
}

void srv_cache_count(srv_cache *c, srv_cache_counts *out)
{
    memset(out, 0, sizeof(*out));
    if (!c)
        return;
    pthread_mutex_lock(&c->lock);
    out->hits = c->hits;
    out->misses = c->misses;
    out->revalidated = c->revalidated;
    out->evictions = c->evictions;
    out->not_modified = c->not_modified;
    out->bytes = c->bytes;
    out->max_bytes = c->max_bytes;
    out->entries = c->entries;
    pthread_mutex_unlock(&c->lock);
    out->warm_rounds = srv_warm_rounds(c->warm);
}

void srv_cache_metrics_write(srv_cache *c, FILE *f)
{
    srv_cache_counts n;

    srv_cache_count(c, &n);
    fprintf(f, "# HELP portdash_cache_hits_total API answers served from the answer cache.\n"
            "# TYPE portdash_cache_hits_total counter\n"
            "portdash_cache_hits_total %llu\n"
            "# HELP portdash_cache_misses_total API answers computed by their handler.\n"
            "# TYPE portdash_cache_misses_total counter\n"
            "portdash_cache_misses_total %llu\n"
            "# HELP portdash_cache_revalidations_total Cached answers whose data key was "
            "checked again after a database write and still held.\n"
            "# TYPE portdash_cache_revalidations_total counter\n"
            "portdash_cache_revalidations_total %llu\n"
            "# HELP portdash_cache_not_modified_total 304 answers from the cache.\n"
            "# TYPE portdash_cache_not_modified_total counter\n"
            "portdash_cache_not_modified_total %llu\n"
            "# HELP portdash_cache_evictions_total Entries dropped to keep within the bound.\n"
            "# TYPE portdash_cache_evictions_total counter\n"
            "portdash_cache_evictions_total %llu\n"
            "# HELP portdash_cache_bytes Bytes held by the answer cache.\n"
            "# TYPE portdash_cache_bytes gauge\n"
            "portdash_cache_bytes %zu\n"
            "# HELP portdash_cache_max_bytes Bound of the answer cache (serve --cache-mb).\n"
            "# TYPE portdash_cache_max_bytes gauge\n"
            "portdash_cache_max_bytes %zu\n"
            "# HELP portdash_cache_entries Entries in the answer cache.\n"
            "# TYPE portdash_cache_entries gauge\n"
            "portdash_cache_entries %zu\n"
            "# HELP portdash_cache_warm_rounds_total Rounds of warming finished (start, "
            "ingests, uploads).\n"
            "# TYPE portdash_cache_warm_rounds_total counter\n"
            "portdash_cache_warm_rounds_total %u\n",
            (unsigned long long)n.hits, (unsigned long long)n.misses,
            (unsigned long long)n.revalidated, (unsigned long long)n.not_modified,
            (unsigned long long)n.evictions, n.bytes, n.max_bytes, n.entries, n.warm_rounds);
}
