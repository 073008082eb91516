/*
 * pd_map.h: the one hash table: byte-string keys to pointers, open
 * addressing with linear probing (deletion shifts the run back, so no
 * tombstones), at most three quarters full.
 *
 * Keys are borrowed: the map keeps the pointer and length it was given, so
 * a key must stay unchanged in memory for as long as its entry is in the
 * map (entries that hold their own key, as the answer cache's, do that).
 *
 * Hash: FNV-1a 64 (pd_hash.h) for keys the program or the operator chose;
 * for keys an outsider chooses (request data, repository text) SipHash-2-4
 * (libsodium's crypto_shorthash) under a random key per map, so that no
 * one can make many keys collide (hash flooding).
 */
#ifndef PD_MAP_H
#define PD_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct pd_map pd_map;

/* Hash of a map. */
typedef enum {
    PD_MAP_TRUSTED = 0,   /* FNV-1a 64: keys the program or operator chose */
    PD_MAP_SEEDED = 1     /* SipHash-2-4, a random key drawn once per
                           * process: keys from outside */
} pd_map_hash;

/* A new empty map.  NULL when out of memory or libsodium cannot start
 * (pd_error says which). */
pd_map *pd_map_new(pd_map_hash kind);

/* Free the map (not the keys nor the values); accepts NULL. */
void pd_map_free(pd_map *m);

/* The value of key[0..len), or NULL when absent. */
void *pd_map_get(const pd_map *m, const void *key, size_t len);

/*
 * Set key[0..len) (borrowed, see above; not NULL) to `value` (not NULL),
 * replacing the value and the key pointer of an equal key.  0, or
 * PD_ENOMEM (the map is unchanged).
 */
int pd_map_put(pd_map *m, const void *key, size_t len, void *value);

/*
 * pd_map_get that also gives the key's hash in *hash, for a
 * pd_map_put_hashed of the same bytes right after: a miss that is then
 * added costs one hash instead of two (a SipHash call each is what an
 * interning table spends most on: issue 26).
 */
void *pd_map_get_hashed(const pd_map *m, const void *key, size_t len, uint64_t *hash);

/* pd_map_put for key bytes whose hash pd_map_get_hashed gave on this map
 * (another value is a wrong table).  0 or PD_ENOMEM. */
int pd_map_put_hashed(pd_map *m, const void *key, size_t len, uint64_t hash, void *value);

/* Remove key[0..len): its value, or NULL when it was absent. */
void *pd_map_del(pd_map *m, const void *key, size_t len);

/* Entries in the map. */
size_t pd_map_count(const pd_map *m);

/*
 * Iterate: start with *pos = 0; each call gives one entry (1) or says the
 * end (0).  Any order.  The map must not change during an iteration.
 */
int pd_map_next(const pd_map *m, size_t *pos, const void **key, size_t *len, void **value);

#endif
