/*
 * pd_hash.h: the one string hash of the code base, FNV-1a (Fowler, Noll,
 * Vo; http://www.isthe.com/chongo/tech/comp/fnv/), in its 32- and 64-bit
 * forms.  Continuable: pass the offset basis first, then the previous
 * result to hash several parts as one.  Not for anything an attacker must
 * not steer (hash tables keyed by request data use their own seeds).
 */
#ifndef PD_HASH_H
#define PD_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The offset bases. */
#define PD_FNV32_BASIS 2166136261u
#define PD_FNV64_BASIS 0xcbf29ce484222325ULL

/* FNV-1a 32 of `n` bytes at `p`, continuing from `h`. */
static inline uint32_t pd_fnv1a32(uint32_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

/* FNV-1a 64 of `n` bytes at `p`, continuing from `h`. */
static inline uint64_t pd_fnv1a64(uint64_t h, const void *p, size_t n)
{
    const unsigned char *s = p;
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ s[i]) * 0x100000001b3ULL;
    return h;
}

#endif
