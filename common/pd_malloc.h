/*
 * pd_malloc.h: how the C library's allocator hands memory back, for the
 * commands that allocate and free large buffers over and over (ingest,
 * analyze).
 */
#ifndef PD_MALLOC_H
#define PD_MALLOC_H

/*
 * Keep freed memory for reuse (glibc mallopt): buffers up to 32 MiB come
 * from the heap instead of their own mmap, and the heap is trimmed only
 * when 128 MiB lie free at its top.  By default every template expansion,
 * blob and findings buffer of a few MB is mapped, faulted in page by page,
 * and unmapped again (or the arena shrunk with madvise), and each unmap
 * stops both cores to flush their TLBs: that was a quarter of the writer's
 * and a seventh of the analysis threads' time in an ingest of numpy/core
 * (doc/benchmarks.md, issue 26), and about 10 s of CPU of that ingest.
 * Peak RSS grows by what the heap then keeps (about 5 MB there).  Call
 * once, before the threads start.  No effect on other C libraries.
 */
void pd_malloc_keep(void);

#endif
