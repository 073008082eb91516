/*
 * pd_map.c: the hash table (see pd_map.h).
 */
#include <assert.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "pd_error.h"
#include "pd_hash.h"
#include "pd_map.h"

#define PD_MAP_FIRST 16

typedef struct {
    const void *key;     /* NULL: empty slot */
    size_t len;
    uint64_t hash;
    void *value;
} pd_map_slot;

struct pd_map {
    pd_map_slot *slot;
    size_t mask;         /* slots - 1; slots is a power of two */
    size_t count;
    pd_map_hash kind;
};

/* One SipHash key for the process, drawn at the first seeded map, as
 * Python draws its hash key once (PEP 456): a key per map cost a getrandom
 * system call per map, 8,700 in an ingest of numpy/core's history (one per
 * findings text encoded).  Unknown outside the process, it still keeps
 * keys from a repository or a request from steering the probes. */
static unsigned char pd_map_key[crypto_shorthash_KEYBYTES];
static pthread_once_t pd_map_key_once = PTHREAD_ONCE_INIT;
static int pd_map_key_rc = -1;

static void pd_map_key_make(void)
{
    if ((pd_map_key_rc = sodium_init()) >= 0)
        crypto_shorthash_keygen(pd_map_key);
}

static uint64_t pd_map_hash_of(const pd_map *m, const void *key, size_t len)
{
    unsigned char out[crypto_shorthash_BYTES];
    uint64_t h;

    if (m->kind == PD_MAP_TRUSTED)
        return pd_fnv1a64(PD_FNV64_BASIS, key, len);
    crypto_shorthash(out, key, len, pd_map_key);
    memcpy(&h, out, sizeof(h));
    return h;
}

pd_map *pd_map_new(pd_map_hash kind)
{
    pd_map *m;

    if (kind == PD_MAP_SEEDED &&
        (pthread_once(&pd_map_key_once, pd_map_key_make) != 0 || pd_map_key_rc < 0)) {
        pd_error_set(PD_ERROR, "libsodium could not start");
        return NULL;
    }
    if (!(m = calloc(1, sizeof(*m))) ||
        !(m->slot = calloc(PD_MAP_FIRST, sizeof(*m->slot)))) {
        free(m);
        pd_error_nomem(NULL);
        return NULL;
    }
    m->mask = PD_MAP_FIRST - 1;
    m->kind = kind;
    return m;
}

void pd_map_free(pd_map *m)
{
    if (!m)
        return;
    free(m->slot);
    free(m);
}

/* The slot of the key, or of the empty slot where it would go. */
static size_t pd_map_find(const pd_map *m, const void *key, size_t len, uint64_t h)
{
    size_t i;

    /* Open addressing: the table is a power of two, never full (grown at
     * 3/4), so the probe always meets an empty slot. */
    assert(((m->mask + 1) & m->mask) == 0 && m->count <= m->mask);
    for (i = (size_t)h & m->mask; m->slot[i].key; i = (i + 1) & m->mask) {
        const pd_map_slot *s = &m->slot[i];

        if (s->hash == h && s->len == len && memcmp(s->key, key, len) == 0)
            break;
    }
    return i;
}

void *pd_map_get(const pd_map *m, const void *key, size_t len)
{
    uint64_t h;

    return pd_map_get_hashed(m, key, len, &h);
}

void *pd_map_get_hashed(const pd_map *m, const void *key, size_t len, uint64_t *hash)
{
    size_t i = pd_map_find(m, key, len, *hash = pd_map_hash_of(m, key, len));

    return m->slot[i].key ? m->slot[i].value : NULL;
}

/* Twice the slots, every entry placed again. */
static int pd_map_grow(pd_map *m)
{
    size_t n = (m->mask + 1) * 2, i, j;
    pd_map_slot *t = calloc(n, sizeof(*t));

    if (!t)
        return pd_error_set(PD_ENOMEM, "out of memory (a table of %zu entries)", n);
    for (i = 0; i <= m->mask; i++) {
        if (!m->slot[i].key)
            continue;
        for (j = (size_t)m->slot[i].hash & (n - 1); t[j].key; j = (j + 1) & (n - 1))
            ;
        t[j] = m->slot[i];
    }
    free(m->slot);
    m->slot = t;
    m->mask = n - 1;
    return 0;
}

int pd_map_put(pd_map *m, const void *key, size_t len, void *value)
{
    return pd_map_put_hashed(m, key, len, pd_map_hash_of(m, key, len), value);
}

int pd_map_put_hashed(pd_map *m, const void *key, size_t len, uint64_t h, void *value)
{
    size_t i = pd_map_find(m, key, len, h);
    int rc;

    if (!m->slot[i].key) {
        if ((m->count + 1) * 4 > (m->mask + 1) * 3) {
            if ((rc = pd_map_grow(m)) < 0)
                return rc;
            i = pd_map_find(m, key, len, h);
        }
        m->count++;
    }
    m->slot[i].key = key;
    m->slot[i].len = len;
    m->slot[i].hash = h;
    m->slot[i].value = value;
    return 0;
}

void *pd_map_del(pd_map *m, const void *key, size_t len)
{
    size_t i = pd_map_find(m, key, len, pd_map_hash_of(m, key, len)), j, home;
    void *value = m->slot[i].value;

    if (!m->slot[i].key)
        return NULL;
    /* Shift back every later entry of the run that may sit in the hole:
     * one whose home slot is not cyclically in (i, j]. */
    for (j = (i + 1) & m->mask; m->slot[j].key; j = (j + 1) & m->mask) {
        home = (size_t)m->slot[j].hash & m->mask;
        if (((j - home) & m->mask) >= ((j - i) & m->mask)) {
            m->slot[i] = m->slot[j];
            i = j;
        }
    }
    memset(&m->slot[i], 0, sizeof(m->slot[i]));
    m->count--;
    return value;
}

size_t pd_map_count(const pd_map *m)
{
    return m->count;
}

int pd_map_next(const pd_map *m, size_t *pos, const void **key, size_t *len, void **value)
{
    for (; *pos <= m->mask; (*pos)++) {
        const pd_map_slot *s = &m->slot[*pos];

        if (s->key) {
            *key = s->key;
            *len = s->len;
            *value = s->value;
            (*pos)++;
            return 1;
        }
    }
    return 0;
}
