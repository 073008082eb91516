/*
 * api_scope_series.c: a scope's replayed totals kept per server (see
 * api_scope_series.h).
 *
 * A few slots, each one series: its key (file generation, repo, commit,
 * rules hash and fill generation, scope), its points, and whether it is replayed yet.  The slot's
 * replayer fills it outside the lock; a request for the same series waits
 * on `done` instead of replaying it again (a week card asks six at once).
 * A slot in use (readers walking it, or being replayed) is never reused;
 * with every slot in use the request replays for itself.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_scope_series.h"
#include "pd_error.h"
#include "pd_malloc.h"
#include "db_stmt.h"
#include "srv_cache.h"

typedef struct {
    db_scope_commit cm;
    db_counts c;
} ass_point;

typedef struct {
    uint64_t gen;                /* file generation; 0: empty */
    int64_t repo_id, tip;
    const db_scope *sc;
    char oid[41];
    char rules_hash[64];
    char key[128];               /* rules hash + fill generation */
    ass_point *p;
    size_t n, cap;
    int ready;                   /* replayed; else being replayed */
    unsigned refs;               /* the replayer and the readers */
    uint64_t used;               /* last use, for the least recently used */
} ass_slot;

struct api_scope_series {
    pthread_mutex_t lock;
    pthread_cond_t done;         /* a replay ended */
    ass_slot slot[API_SCOPE_SERIES_KEEP];
    uint64_t clock;
};

api_scope_series *api_scope_series_new(void)
{
    api_scope_series *m = calloc(1, sizeof(*m));

    if (!m)
        return NULL;
    pthread_mutex_init(&m->lock, NULL);
    pthread_cond_init(&m->done, NULL);
    return m;
}

void api_scope_series_free(api_scope_series *m)
{
    size_t i;

    if (!m)
        return;
    for (i = 0; i < API_SCOPE_SERIES_KEEP; i++)
        free(m->slot[i].p);
    pthread_mutex_destroy(&m->lock);
    pthread_cond_destroy(&m->done);
    free(m);
}

/* db_scope_history callback: keep the point. */
static int ass_collect(void *arg, const db_scope_commit *cm, const db_counts *c)
{
    ass_slot *s = arg;

    if (pd_grow((void **)&s->p, &s->cap, s->n + 1, sizeof(*s->p), 1024, "in a scoped history") < 0)
        return PD_ENOMEM;
    s->p[s->n].cm = *cm;
    s->p[s->n].c = *c;
    s->n++;
    return 0;
}

/* The slot of a key, or NULL; under the lock. */
static ass_slot *ass_find(api_scope_series *m, const ass_slot *k)
{
    size_t i;

    for (i = 0; i < API_SCOPE_SERIES_KEEP; i++) {
        ass_slot *s = &m->slot[i];

        if (s->gen == k->gen && s->repo_id == k->repo_id && s->tip == k->tip &&
            s->sc == k->sc && strcmp(s->oid, k->oid) == 0 && strcmp(s->key, k->key) == 0)
            return s;
    }
    return NULL;
}

/* A slot to replay into (empty, or the least recently used not in use),
 * or NULL; under the lock. */
static ass_slot *ass_take(api_scope_series *m)
{
    ass_slot *best = NULL;
    size_t i;

    for (i = 0; i < API_SCOPE_SERIES_KEEP; i++) {
        ass_slot *s = &m->slot[i];

        if (!s->refs && (!best || !s->gen || (best->gen && s->used < best->used)))
            best = s;
    }
    return best;
}

/* Walk the points of a slot the caller holds a reference on. */
static int ass_walk(const ass_slot *s, db_scope_commit_fn fn, void *arg)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < s->n && rc == 0; i++)
        rc = fn(arg, &s->p[i].cm, &s->p[i].c);
    return rc;
}

/* Replay into slot s (held, not ready) outside the lock; then make it
 * ready, or empty it when the replay failed. */
static int ass_replay(api_scope_series *m, ass_slot *s, srv_req *r)
{
    int rc = db_scope_history(r->db, s->sc, s->tip, s->rules_hash, ass_collect, s);

    pthread_mutex_lock(&m->lock);
    if (rc < 0) {
        s->gen = 0;                  /* not kept: the next request tries again */
        s->n = 0;
    } else {
        s->ready = 1;
    }
    pthread_cond_broadcast(&m->done);
    pthread_mutex_unlock(&m->lock);
    return rc;
}

int api_scope_series_walk(srv_req *r, const db_scope *sc, const api_at *at,
                          db_scope_commit_fn fn, void *arg)
{
    api_scope_series *m = srv_get_series(r->server);
    char fill[24] = "0";
    ass_slot k, *s;
    int rc = 0;

    memset(&k, 0, sizeof(k));
    k.gen = srv_cache_file_generation(srv_get_cache(r->server));
    k.repo_id = at->repo_id;
    k.tip = at->commit_id;
    k.sc = sc;
    memcpy(k.oid, at->oid, sizeof(k.oid));
    memcpy(k.rules_hash, at->rules_hash, sizeof(k.rules_hash));
    /* the answer cache's key of a ref's answers (srv_cache_key.c) */
    if ((rc = db_meta_get(r->db, "fill_generation", fill, sizeof(fill))) < 0 &&
        rc != PD_ENOTFOUND)
        return rc;
    rc = 0;
    snprintf(k.key, sizeof(k.key), "%s+%s", at->rules_hash, fill);
    if (!m || !k.gen)
        return db_scope_history(r->db, sc, at->commit_id, at->rules_hash, fn, arg);
    pthread_mutex_lock(&m->lock);
    while ((s = ass_find(m, &k)) && !s->ready)
        pthread_cond_wait(&m->done, &m->lock);     /* another request replays it */
    if (!s && (s = ass_take(m))) {
        ass_point *p = s->p;
        size_t cap = s->cap;

        *s = k;
        s->p = p;
        s->cap = cap;
        s->refs = 1;
        s->used = ++m->clock;
        pthread_mutex_unlock(&m->lock);
        rc = ass_replay(m, s, r);
        pthread_mutex_lock(&m->lock);
    } else if (s) {
        s->refs++;
        s->used = ++m->clock;
    }
    pthread_mutex_unlock(&m->lock);
    if (!s)                          /* every slot in use: replay for this one */
        return db_scope_history(r->db, sc, at->commit_id, at->rules_hash, fn, arg);
    if (rc == 0)
        rc = ass_walk(s, fn, arg);
    pthread_mutex_lock(&m->lock);
    s->refs--;
    pthread_mutex_unlock(&m->lock);
    return rc;
}
