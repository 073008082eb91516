/*
 * pd_malloc.c: allocator settings (see pd_malloc.h).
 */
#include <stdlib.h>          /* defines __GLIBC__ under glibc */

#include "pd_malloc.h"

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
