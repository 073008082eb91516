/*
 * pd_malloc.c: allocator settings (see pd_malloc.h).
 */
#include <stdlib.h>          /* defines __GLIBC__ under glibc */

#include "pd_malloc.h"
#include "pd_error.h"

#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <malloc.h>
#endif

void pd_malloc_keep(void)
{
#ifdef __GLIBC__
    /* Setting either also stops glibc's own sliding of both thresholds. */
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 20);
#endif
}

/* On in `portdash analyze` (pd_malloc_analyze): the prefault puts the
 * heap's top on transparent huge pages. */
static int pd_huge_on;

/* How far the heap grows beyond a request in `portdash analyze`: the
 * range the prefault's madvise reaches, so that the run's later
 * allocations land on huge pages too (pd_malloc.h). */
#define PD_ANALYZE_TOP_PAD (32 << 20)

void pd_malloc_analyze(void)
{
    pd_malloc_keep();
#ifdef __GLIBC__
    mallopt(M_TOP_PAD, PD_ANALYZE_TOP_PAD);
#endif
    pd_huge_on = 1;
}

/* What a trimmed arena keeps at its top, and what it grows by beyond a
 * request (pd_malloc.h). */
#define PD_INGEST_TOP_PAD (8 << 20)

void pd_malloc_ingest(unsigned threads)
{
    pd_malloc_keep();
#ifdef __GLIBC__
    /* the analysis threads, the planner and the writer (main) */
    mallopt(M_ARENA_MAX, (int)((threads ? (threads < 64 ? threads : 64) : 1) + 2));
    mallopt(M_TRIM_THRESHOLD, 4 << 20);
    mallopt(M_TOP_PAD, PD_INGEST_TOP_PAD);
#else
    (void)threads;
#endif
}


#define PD_PREFAULT_CHUNK ((size_t)16 << 20)   /* below the mmap threshold */
#define PD_PREFAULT_MAX 16                     /* chunks: 256 MiB at most */
#define PD_HUGE ((uintptr_t)2 << 20)           /* a transparent huge page (x86-64) */

/* Once pd_malloc_analyze() is on: transparent huge pages for the whole
 * 2 MiB pages from a to the heap's end when a is in the heap (else to b),
 * where the kernel gives them on request (THP mode "madvise", Debian's
 * default, or "always"); best effort. */
static void pd_malloc_huge(uintptr_t a, uintptr_t b)
{
#ifdef MADV_HUGEPAGE
    uintptr_t top, a2, b2;

    if (!pd_huge_on)
        return;
    top = (uintptr_t)sbrk(0);
    if (top != (uintptr_t)-1 && a < top && top > b)
        b = top;
    a2 = (a + PD_HUGE - 1) & ~(PD_HUGE - 1);
    b2 = b & ~(PD_HUGE - 1);
    if (b2 > a2)
        (void)madvise((void *)a2, b2 - a2, MADV_HUGEPAGE);
#else
    (void)a;
    (void)b;
#endif
}

void pd_malloc_prefault(size_t bytes)
{
#if defined(__GLIBC__) && defined(MADV_POPULATE_WRITE)
    long pg = sysconf(_SC_PAGESIZE);
    char *chunk[PD_PREFAULT_MAX];
    size_t n = 0, i;

    /* Chunks below the mmap threshold come from the heap, one after the
     * other, and go back to its top when freed, where the run's next
     * allocations find them. */
    while (pg > 0 && bytes > 0 && n < PD_PREFAULT_MAX) {
        size_t k = bytes < PD_PREFAULT_CHUNK ? bytes : PD_PREFAULT_CHUNK;
        uintptr_t a, b;

        if (!(chunk[n] = malloc(k)))
            break;
        a = ((uintptr_t)chunk[n] + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
        b = ((uintptr_t)chunk[n] + k) & ~((uintptr_t)pg - 1);
        pd_malloc_huge(a, b);
        if (b > a && madvise((void *)a, b - a, MADV_POPULATE_WRITE) != 0) {
            n++;
            break;                      /* not supported here: best effort */
        }
        n++;
        bytes -= k;
    }
    for (i = n; i-- > 0;)
        free(chunk[i]);
#else
    (void)bytes;
#endif
}

/* Off unless a thread turns it on for itself (pd_malloc.h): a thread
 * allocates from its own arena, whose high-water mark this is. */
static _Thread_local int pd_ahead_on;
static _Thread_local size_t pd_ahead_done;

void pd_malloc_ahead_on(void)
{
    pd_ahead_on = 1;
}

void pd_malloc_ahead(size_t bytes)
{
    if (!pd_ahead_on || bytes <= pd_ahead_done)
        return;
    pd_malloc_prefault(bytes);
    pd_ahead_done = bytes;
}

int pd_grow(void **p, size_t *cap, size_t need, size_t el, size_t first, const char *what)
{
    size_t c = *cap ? *cap : (first ? first : 1);
    void *q;

    if (need <= *cap)
        return 0;
    while (c < need && c <= SIZE_MAX / 2)
        c *= 2;
    if (c < need || (el && c > SIZE_MAX / el) || !(q = realloc(*p, c * el)))
        return pd_error_nomem(what);
    *p = q;
    *cap = c;
    return 0;
}
