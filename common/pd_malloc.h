/*
 * pd_malloc.h: how the C library's allocator hands memory back, for the
 * commands that allocate and free large buffers over and over (ingest,
 * analyze).
 */
#ifndef PD_MALLOC_H
#define PD_MALLOC_H

#include <stddef.h>

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

/*
 * The settings of an ingest (one process that analyses on several threads
 * and writes on another): pd_malloc_keep() and one arena for every thread.
 * An arena per thread (glibc's default) keeps each thread's high-water
 * mark apart: with the buffers kept, two arenas made 135 MB of peak RSS
 * on numpy/core where one makes 120-125 MB (doc/benchmarks.md).  Call
 * once, before the threads start; nothing else may set the mmap threshold
 * after it (a 256 KiB one did until issue 26's sixth session, and every
 * template expansion's buffers were mapped, faulted in and unmapped
 * again: a third of the ingest's CPU).  No effect on other C libraries.
 */
void pd_malloc_ingest(void);

/*
 * Fault in the heap's next `bytes` (at most the mmap threshold above) with
 * one madvise(MADV_POPULATE_WRITE) call, then free them for reuse: on a
 * virtual machine a page fault costs microseconds, and a run that
 * allocates most of its memory once (`portdash analyze FILE...` keeps
 * every file's result) spends less in one populate than in thousands of
 * faults (issue 26).  Best effort: nothing happens where the call or the
 * allocation fails.  Call after pd_malloc_keep().
 */
void pd_malloc_prefault(size_t bytes);

#endif
