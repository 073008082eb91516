/*
 * srv_cache.c: the answer cache (see srv_cache.h for what a key is made of).
 *
 * One hash table of entries under one mutex, kept in LRU order and bounded
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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "pd_error.h"
#include "srv_cache.h"
#include "srv_reply.h"
#include "srv_routes.h"
#include "srv_warm.h"

#define SRV_CACHE_BUCKETS 16384
/* Headers, response objects and bookkeeping of one entry, roughly. */
#define SRV_CACHE_OVERHEAD 1024

typedef enum { CACHE_NONE, CACHE_COMMIT, CACHE_REF, CACHE_GLOBAL } srv_cache_class;

/* A body shared by an entry and the responses sending it. */
typedef struct {
    int refs;
    char *buf;
    size_t len;
    unsigned char *gz;
    size_t gzlen;
} srv_cache_body;

typedef struct srv_cache_entry {
    struct srv_cache_entry *hnext, *prev, *next;   /* bucket chain, LRU list */
    uint64_t hash;
    char *key;
    size_t keylen;
    char *dkey;              /* the data key it was computed under */
    uint64_t epoch;          /* generation at which dkey was last seen valid */
    char *target;            /* alias: key of the answer's entry; else NULL */
    char etag[SRV_ETAG_SIZE];
    int immutable;           /* the handler's word about the full commit id */
    char ctype[128];
    char *link;
    srv_cache_body *body;
    struct MHD_Response *resp[2][3];   /* [immutable][identity, gzip, 304] */
    size_t bytes;
} srv_cache_entry;

struct srv_cache {
    pthread_mutex_t lock;
    srv_cache_entry **buckets;
    srv_cache_entry *head, *tail;      /* most, least recently used */
    size_t bytes, max_bytes, entries;
    uint64_t epoch;                    /* database generation (atomic) */
    uint64_t hits, misses, revalidated, evictions, not_modified;
    srv_warm *warm;
};

srv_cache *srv_cache_new(size_t max_bytes)
{
    srv_cache *c = calloc(1, sizeof(*c));

    if (!c || !(c->buckets = calloc(SRV_CACHE_BUCKETS, sizeof(*c->buckets)))) {
        free(c);
        return NULL;
    }
    pthread_mutex_init(&c->lock, NULL);
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
        for (j = 0; j < 3; j++)
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

void srv_cache_free(srv_cache *c)
{
    srv_cache_entry *e, *next;

    if (!c)
        return;
    srv_warm_stop(c->warm);
    for (e = c->head; e; e = next) {
        next = e->next;
        srv_cache_entry_free(e);
    }
    pthread_mutex_destroy(&c->lock);
    free(c->buckets);
    free(c);
}

/* FNV-1a, 64 bits. */
static uint64_t srv_cache_hash(const char *s, size_t n)
{
    uint64_t h = 14695981039346656037ULL;
    size_t i;

    for (i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

/* ---- table and LRU list (caller holds the lock) ---- */

static srv_cache_entry *srv_cache_find(srv_cache *c, const char *key, size_t n)
{
    uint64_t h = srv_cache_hash(key, n);
    srv_cache_entry *e;

    for (e = c->buckets[h % SRV_CACHE_BUCKETS]; e; e = e->hnext)
        if (e->hash == h && e->keylen == n && memcmp(e->key, key, n) == 0)
            return e;
    return NULL;
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
    srv_cache_entry **pp = &c->buckets[e->hash % SRV_CACHE_BUCKETS];

    while (*pp != e)
        pp = &(*pp)->hnext;
    *pp = e->hnext;
    srv_cache_unlink_lru(c, e);
    c->bytes -= e->bytes;
    c->entries--;
    srv_cache_entry_free(e);
}

/* Insert `e` (replacing an entry of the same key), then evict from the
 * old end until the bound holds; `e` itself is kept. */
static void srv_cache_insert(srv_cache *c, srv_cache_entry *e)
{
    srv_cache_entry *old = srv_cache_find(c, e->key, e->keylen);

    if (old)
        srv_cache_remove(c, old);
    e->hash = srv_cache_hash(e->key, e->keylen);
    e->hnext = c->buckets[e->hash % SRV_CACHE_BUCKETS];
    c->buckets[e->hash % SRV_CACHE_BUCKETS] = e;
    srv_cache_push_front(c, e);
    c->bytes += e->bytes;
    c->entries++;
    while (c->bytes > c->max_bytes && c->tail && c->tail != e) {
        srv_cache_remove(c, c->tail);
        c->evictions++;
    }
}

/* ---- keys ---- */

static srv_cache_class srv_cache_route_class(const char *pattern)
{
    if (strncmp(pattern, "/api/", 5) != 0 && strncmp(pattern, "/badge/", 7) != 0)
        return CACHE_NONE;
    if (strstr(pattern, "/jobs/"))
        return CACHE_NONE;          /* progress of a running job */
    if (strstr(pattern, "/commits/{rev}"))
        return CACHE_COMMIT;
    /* Rewrites can be recorded without the tip changing (A, B, back to A). */
    if (strstr(pattern, "/refs/{ref}/") && !strstr(pattern, "/rewrites"))
        return CACHE_REF;
    return CACHE_GLOBAL;
}

typedef struct {
    char **v;
    size_t n, cap;
} srv_cache_args;

static enum MHD_Result srv_cache_arg(void *cls, enum MHD_ValueKind kind, const char *key,
                                     const char *value)
{
    srv_cache_args *a = cls;
    char **v;

    if (a->n == a->cap) {
        if (!(v = realloc(a->v, (a->cap ? a->cap * 2 : 8) * sizeof(*v))))
            return MHD_NO;
        a->v = v;
        a->cap = a->cap ? a->cap * 2 : 8;
    }
    /* Length-prefixed, so that no two argument lists join the same way. */
    if (asprintf(&a->v[a->n], "%zu:%s=%zu:%s", strlen(key), key,
                 value ? strlen(value) : 0, value ? value : "") < 0)
        return MHD_NO;
    a->n++;
    return MHD_YES;
}

static int srv_cache_strcmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The request key: route, captures (param[1] replaced by `rev` when not
 * NULL), tail and the sorted query arguments.  malloc'd, or NULL.
 */
static char *srv_cache_key(srv_req *r, const char *rev, size_t *len)
{
    srv_cache_args a = {0};
    char *buf = NULL;
    size_t n = 0, i;
    FILE *f = open_memstream(&buf, &n);

    if (!f)
        return NULL;
    fprintf(f, "%d", r->route);
    for (i = 0; i < SRV_MAX_PARAMS && r->param[i]; i++) {
        const char *p = i == 1 && rev ? rev : r->param[i];

        fprintf(f, "|%zu:%s", strlen(p), p);
    }
    if (r->tail)
        fprintf(f, "|t%zu:%s", strlen(r->tail), r->tail);
    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, srv_cache_arg, &a);
    if (a.n)
        qsort(a.v, a.n, sizeof(*a.v), srv_cache_strcmp);
    for (i = 0; i < a.n; i++) {
        fprintf(f, "&%s", a.v[i]);
        free(a.v[i]);
    }
    free(a.v);
    fclose(f);
    *len = n;
    return buf;
}

/*
 * The data key of the request into dkey (size n) and, for commit routes,
 * the full commit id into oid.  Negative when the request cannot be
 * resolved: the handler then answers it (with its error) uncached.
 */
static int srv_cache_data_key(srv_req *r, srv_cache_class cls, uint64_t epoch,
                              char *oid, char *dkey, size_t n)
{
    char rules[64];
    int64_t repo_id, commit_id;
    sqlite3_stmt *st = NULL;
    long long gen = 0, runs = 0, last = 0;
    int rc;

    if (cls == CACHE_GLOBAL) {
        snprintf(dkey, n, "g:%llu", (unsigned long long)epoch);
        return 0;
    }
    if ((rc = db_meta_get(r->db, "rules_hash", rules, sizeof(rules))) < 0 ||
        (rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(r->db, repo_id, r->param[1], &commit_id, oid)) < 0)
        return rc;
    if (cls == CACHE_REF) {
        snprintf(dkey, n, "r:%s:%s", oid, rules);
        return 0;
    }
    /* Every change to the commit's SARIF runs raises its generation
     * (migration 006); count and highest id also cover runs stored before. */
    if ((rc = db_prepare(r->db, &st, "SELECT (SELECT coalesce(max(gen), 0) FROM "
                         "sarif_generation WHERE commit_id = ?1), count(*), "
                         "coalesce(max(id), 0) FROM sarif_runs WHERE commit_id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    if (sqlite3_step(st) == SQLITE_ROW) {
        gen = sqlite3_column_int64(st, 0);
        runs = sqlite3_column_int64(st, 1);
        last = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    snprintf(dkey, n, "c:%s:%s:%lld:%lld:%lld", oid, rules, gen, runs, last);
    return 0;
}

/* 1 when `s` is a full commit id as the database stores them. */
static int srv_cache_is_oid(const char *s)
{
    size_t i;

    for (i = 0; i < 40; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return 0;
    return s[40] == '\0';
}

/* ---- the database generation ---- */

static __thread sqlite3 *srv_cache_tl_db;
static __thread long long srv_cache_tl_version;

void srv_cache_bump(srv_cache *c)
{
    if (c)
        __atomic_add_fetch(&c->epoch, 1, __ATOMIC_ACQ_REL);
}

/*
 * The generation to check entries against.  PRAGMA data_version changes on
 * this thread's connection when another connection (another thread, an
 * ingest job, another process) committed; a thread's first look cannot
 * know what happened before, so it bumps too.
 */
static uint64_t srv_cache_epoch(srv_cache *c, sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    long long v = -1;

    if (sqlite3_prepare_v2(db, "PRAGMA data_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    if (v < 0 || srv_cache_tl_db != db || v != srv_cache_tl_version) {
        srv_cache_tl_db = db;
        srv_cache_tl_version = v;
        srv_cache_bump(c);
    }
    return __atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE);
}

/* ---- replies ---- */

/* The response of variant [imm][kind] of `e`, made on first use. */
static struct MHD_Response *srv_cache_response(srv_cache_entry *e, int imm, int kind)
{
    struct MHD_Response *resp = e->resp[imm][kind];
    srv_cache_body *b = e->body;

    if (resp)
        return resp;
    if (kind == 2) {
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
    srv_reply_add_headers(resp, kind == 2 ? NULL : e->ctype, e->link);
    if (kind == 1)
        MHD_add_response_header(resp, "Content-Encoding", "gzip");
    MHD_add_response_header(resp, "ETag", e->etag);
    MHD_add_response_header(resp, "Cache-Control",
                            imm ? "public, max-age=31536000, immutable" : "no-cache");
    e->resp[imm][kind] = resp;
    return resp;
}

/* Queue the answer of `e` (caller holds the lock, so e stays alive). */
static enum MHD_Result srv_cache_send(srv_cache *c, srv_cache_entry *e, srv_req *r, int imm)
{
    int kind = 0;
    struct MHD_Response *resp;

    if (srv_reply_etag_matches(r, e->etag)) {
        kind = 2;
        c->not_modified++;
    } else if (e->body->gz && srv_reply_accepts_gzip(r)) {
        kind = 1;
    }
    r->status = kind == 2 ? 304 : 200;
    if (!(resp = srv_cache_response(e, imm, kind)))
        return MHD_NO;
    return MHD_queue_response(r->conn, r->status, resp);
}

/* A new entry holding what the handler replied (cap->buf is taken). */
static srv_cache_entry *srv_cache_entry_new(srv_cache_capture *cap, char *key, size_t keylen,
                                            const char *dkey)
{
    srv_cache_entry *e = calloc(1, sizeof(*e));
    srv_cache_body *b = calloc(1, sizeof(*b));

    if (!e || !b || !(e->dkey = strdup(dkey)) ||
        (cap->link[0] && !(e->link = strdup(cap->link)))) {
        free(b);
        srv_cache_entry_free(e);
        return NULL;
    }
    b->refs = 1;
    b->buf = cap->buf;
    b->len = cap->len;
    cap->buf = NULL;
    if (srv_reply_compressible(cap->ctype))
        b->gz = srv_reply_gzip(b->buf, b->len, &b->gzlen);
    e->body = b;
    e->key = key;
    e->keylen = keylen;
    e->immutable = cap->immutable;
    snprintf(e->ctype, sizeof(e->ctype), "%s", cap->ctype);
    srv_reply_etag(e->etag, b->buf, b->len);
    e->bytes = keylen + b->len + b->gzlen + strlen(dkey) + SRV_CACHE_OVERHEAD;
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
    e->bytes = 2 * keylen + strlen(target) + 128;
    srv_cache_insert(c, e);
}

int srv_cache_capture_reply(srv_req *r, unsigned status, const char *ctype,
                            const void *buf, size_t len)
{
    srv_cache_capture *cap = r->capture;

    if (!cap || status != 200 || cap->done || !(cap->buf = malloc(len + 1)))
        return 0;
    memcpy(cap->buf, buf, len);
    cap->buf[len] = '\0';
    cap->len = len;
    cap->done = 1;
    cap->immutable = r->immutable;
    snprintf(cap->ctype, sizeof(cap->ctype), "%s", ctype);
    snprintf(cap->link, sizeof(cap->link), "%s", r->link);
    return 1;
}

/* The raw URL with its segment number `seg` (0: the one after the first
 * '/') replaced by `oid`; malloc'd, or NULL. */
static char *srv_cache_url_with(const char *url, int seg, const char *oid)
{
    const char *start = url + (*url == '/'), *end;
    char *out = NULL;

    for (; seg > 0; seg--) {
        if (!(start = strchr(start, '/')))
            return NULL;
        start++;
    }
    end = start + strcspn(start, "/");
    if (asprintf(&out, "%.*s%s%s", (int)(start - url), url, oid, end) < 0)
        return NULL;
    return out;
}

/* The segment number of {rev} in a route pattern. */
static int srv_cache_rev_segment(const char *pattern)
{
    const char *at = strstr(pattern, "/{rev}"), *p;
    int n = 0;

    for (p = pattern + 1; p < at; p++)
        n += *p == '/';
    return n + 1;
}

/* Serve `e` when it exists and holds an answer (caller holds the lock). */
static int srv_cache_try(srv_cache *c, srv_cache_entry *e, srv_req *r, int imm_ok,
                         enum MHD_Result *ret)
{
    if (!e || !e->body)
        return 0;
    c->hits++;
    srv_cache_touch(c, e);
    *ret = srv_cache_send(c, e, r, imm_ok && e->immutable);
    return 1;
}

/* Run the handler with the request rewritten to the full commit id (commit
 * routes), keep its answer under `key` (taken) and serve it. */
static enum MHD_Result srv_cache_compute(srv_cache *c, srv_req *r, srv_handler handler,
                                         srv_cache_class cls, char *oid, char *key,
                                         size_t keylen, const char *dkey, uint64_t epoch,
                                         int imm_ok)
{
    srv_cache_capture cap = {0};
    const char *param1 = r->param[1], *url = r->url;
    char *url2 = NULL;
    srv_cache_entry *e;
    enum MHD_Result ret;

    if (cls == CACHE_COMMIT) {
        /* The answer by commit id, so that it can serve every name of it;
         * Link headers then name the commit id too. */
        r->param[1] = oid;
        if (strcmp(param1, oid) != 0 &&
            (url2 = srv_cache_url_with(url, srv_cache_rev_segment(
                srv_routes[r->route].pattern), oid)))
            r->url = url2;
    }
    r->capture = &cap;
    ret = handler(r);
    r->capture = NULL;
    r->param[1] = param1;
    r->url = url;
    free(url2);
    if (!cap.done) {
        free(key);
        return ret;           /* an error went out as usual */
    }
    if (!(e = srv_cache_entry_new(&cap, key, keylen, dkey))) {
        free(cap.buf);
        free(key);
        return srv_reply_problem(r, 500, "Internal Server Error", "out of memory");
    }
    e->epoch = epoch;
    pthread_mutex_lock(&c->lock);
    if (e->bytes <= c->max_bytes / 2) {
        srv_cache_insert(c, e);
        ret = srv_cache_send(c, e, r, imm_ok && e->immutable);
    } else {
        ret = srv_cache_send(c, e, r, imm_ok && e->immutable);
        srv_cache_entry_free(e);      /* too big to keep: sent once */
    }
    pthread_mutex_unlock(&c->lock);
    return ret;
}

enum MHD_Result srv_cache_dispatch(srv_cache *c, srv_req *r, srv_handler handler)
{
    srv_cache_class cls = srv_cache_route_class(srv_routes[r->route].pattern);
    char oid[41] = "", dkey[256], *rkey, *key;
    size_t rlen, klen;
    srv_cache_entry *e;
    enum MHD_Result ret;
    uint64_t epoch;
    int by_id, imm_ok;

    if (strcmp(r->method, "GET") != 0 && strcmp(r->method, "HEAD") != 0) {
        ret = handler(r);
        srv_cache_bump(c);        /* this connection's writes: data_version misses them */
        if (r->status >= 200 && r->status < 300)
            srv_cache_warm_soon(c);
        return ret;
    }
    if (!c || cls == CACHE_NONE || c->max_bytes == 0)
        return handler(r);
    epoch = srv_cache_epoch(c, r->db);
    by_id = cls == CACHE_COMMIT && srv_cache_is_oid(r->param[1]);
    /* Asked by ref name or short id, an answer is never "immutable". */
    imm_ok = cls != CACHE_COMMIT || by_id;
    if (!(rkey = srv_cache_key(r, NULL, &rlen)))
        return handler(r);
    pthread_mutex_lock(&c->lock);
    e = srv_cache_find(c, rkey, rlen);
    if (e && e->target)
        e = e->epoch == epoch ? srv_cache_find(c, e->target, strlen(e->target)) : NULL;
    if (e && e->epoch == epoch && srv_cache_try(c, e, r, imm_ok, &ret)) {
        pthread_mutex_unlock(&c->lock);
        free(rkey);
        return ret;
    }
    pthread_mutex_unlock(&c->lock);
    if (srv_cache_data_key(r, cls, epoch, oid, dkey, sizeof(dkey)) < 0) {
        free(rkey);
        return handler(r);
    }
    key = rkey;
    klen = rlen;
    if (cls == CACHE_COMMIT && !by_id && !(key = srv_cache_key(r, oid, &klen))) {
        free(rkey);
        return handler(r);
    }
    pthread_mutex_lock(&c->lock);
    if (key != rkey)
        srv_cache_alias(c, rkey, rlen, key, epoch);
    e = srv_cache_find(c, key, klen);
    if (e && e->body && strcmp(e->dkey, dkey) == 0) {
        e->epoch = epoch;
        c->revalidated++;
        srv_cache_try(c, e, r, imm_ok, &ret);
        pthread_mutex_unlock(&c->lock);
        free(key);
        return ret;
    }
    c->misses++;
    pthread_mutex_unlock(&c->lock);
    return srv_cache_compute(c, r, handler, cls, oid, key, klen, dkey, epoch, imm_ok);
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
