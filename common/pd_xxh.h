/*
 * pd_xxh.h: XXH3's streaming hash (xxHash, https://github.com/Cyan4973/xxHash)
 * fed through a gathering buffer, for hashes made of many small pieces:
 * the chunk memo's keys (analyze_memo.c) and a file's flow facts hash
 * (pd_flow_read.c).
 *
 * Why: a streaming update costs about 120-160 instructions whatever its
 * length, and those hashes came in 4 to 19 pieces of a few bytes each
 * (together 7 % of an ingest's instructions, issue 26, 2026-12-07).  The
 * hash of a stream does not depend on how it is split, so gathering gives
 * the value that hashing piece by piece, or the whole at once, gives.
 * On x86 the updates go through libxxhash's run-time dispatch (AVX2 where
 * the CPU has it; Debian builds the plain functions for SSE2): the same
 * values.
 */
#ifndef PD_XXH_H
#define PD_XXH_H

#include <stddef.h>
#include <string.h>

#ifndef XXH_STATIC_LINKING_ONLY
#define XXH_STATIC_LINKING_ONLY   /* XXH3_state_t on the stack */
#endif
#include <xxhash.h>
#if defined(__x86_64__) || defined(__i386__)
#include <xxh_x86dispatch.h>
#define PD_XXH3_64_UPDATE XXH3_64bits_update_dispatch
#define PD_XXH3_128_UPDATE XXH3_128bits_update_dispatch
#else
#define PD_XXH3_64_UPDATE XXH3_64bits_update
#define PD_XXH3_128_UPDATE XXH3_128bits_update
#endif

/* A hash being gathered: its XXH3 state, the update of its width, and
 * the bytes not yet handed to it. */
typedef struct {
    XXH3_state_t xs;
    XXH_errorcode (*update)(XXH3_state_t *, const void *, size_t);
    size_t n;
    unsigned char b[2048];
} pd_xxh;

/* Start h as XXH3-64 (unseeded). */
static inline void pd_xxh_start64(pd_xxh *h)
{
    XXH3_64bits_reset(&h->xs);
    h->update = PD_XXH3_64_UPDATE;
    h->n = 0;
}

/* Start h as XXH3-128 (unseeded). */
static inline void pd_xxh_start128(pd_xxh *h)
{
    XXH3_128bits_reset(&h->xs);
    h->update = PD_XXH3_128_UPDATE;
    h->n = 0;
}

/* Append len bytes at p (a piece larger than the buffer goes to XXH3
 * directly, after what was gathered before it). */
static inline void pd_xxh_put(pd_xxh *h, const void *p, size_t len)
{
    if (h->n + len > sizeof(h->b)) {
        h->update(&h->xs, h->b, h->n);
        h->n = 0;
        if (len > sizeof(h->b)) {
            h->update(&h->xs, p, len);
            return;
        }
    }
    memcpy(h->b + h->n, p, len);
    h->n += len;
}

/* Hand what is gathered to the state: then more may go straight to
 * h->update, or the digest be taken. */
static inline void pd_xxh_flush(pd_xxh *h)
{
    h->update(&h->xs, h->b, h->n);
    h->n = 0;
}

/* The XXH3-64 of everything put (h started by pd_xxh_start64). */
static inline uint64_t pd_xxh_digest64(pd_xxh *h)
{
    pd_xxh_flush(h);
    return XXH3_64bits_digest(&h->xs);
}

/* The XXH3-128 of everything put (h started by pd_xxh_start128). */
static inline XXH128_hash_t pd_xxh_digest128(pd_xxh *h)
{
    pd_xxh_flush(h);
    return XXH3_128bits_digest(&h->xs);
}

#endif
