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
 * The settings of `portdash analyze FILE...` (one thread, each file's
 * analysis kept or freed in turn): pd_malloc_keep(), the heap grown 32 MiB
 * beyond a request (M_TOP_PAD), and from then on pd_malloc_prefault() and
 * pd_malloc_ahead() ask for transparent huge pages (madvise MADV_HUGEPAGE)
 * from what they fault in to the heap's end, so that the analysis writes
 * its memory with one page fault per 2 MiB instead of one per 4 KiB.  On a
 * virtual machine a fault costs about 10 microseconds: numpy/core's files
 * took 518 faults and 93-99 ms of CPU, and take 100-210 faults and 76-88
 * ms where the kernel gives huge pages on request (THP mode "madvise",
 * Debian's default, or "always"); elsewhere nothing changes.  Peak RSS
 * grows by at most the part of a huge page the heap does not use (numpy's
 * whole tree: 20.6 -> 22.2 MB).  Call once, before any big buffer.
 */
void pd_malloc_analyze(void);

/*
 * The settings of an ingest (one process that analyses on `threads`
 * threads, plans on one more and writes on the main one): pd_malloc_keep(),
 * then an arena for every one of those threads, and the heap trimmed when
 * more than 4 MiB lie free at its top, keeping 8 MiB there.
 * - Arenas: with one arena for all (the setting until issue 26's ninth
 *   session) the threads queued on its lock; the futex calls and the
 *   switches they caused were 8 % of an ingest of numpy/core's CPU
 *   (perf), and a thread waiting for the lock does not analyse.
 * - Trim: each arena keeps what its thread freed; at 128 MiB (before)
 *   nothing went back, and an arena per thread kept each thread's
 *   high-water mark apart (135-150 MB of peak RSS on numpy/core).  At
 *   16 MiB an arena gave back what its largest template expansion left
 *   at its top, but the peak still moved with the threads' timing
 *   (114-142 MB in nine runs: each analysis arena held 32-37 MB at the
 *   peak); at 4 MiB it was 114-123 MB in eight, for the same CPU.
 * - Pad: a trim keeps 8 MiB at the arena's top (glibc's own pad is 128
 *   KiB), and the arena grows by as much beyond a request.  Trimmed to
 *   128 KiB, each analysis of a file of a few MB wrote its memory into
 *   pages given back after the one before: 240,000 page faults in an
 *   ingest of numpy/core, a sixth of its CPU on a virtual machine; with
 *   the pad 50,000, 15 % less CPU, 5-10 MB more peak RSS (4 MiB: 110,000
 *   faults; 16 MiB: 38,000, but a peak of 132 MB).
 * doc/benchmarks.md has the runs.  Call once, before the threads start;
 * nothing else may set these after it.  `threads` 0 counts as 1.  No
 * effect on other C libraries.
 */
void pd_malloc_ingest(unsigned threads);

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

/*
 * Fault in the heap's next `bytes` as pd_malloc_prefault() does, when
 * pd_malloc_ahead_on() was called on this thread and no earlier call on
 * it asked for as much: the heap keeps what it had, so only a new
 * high-water mark costs a populate.  For `portdash analyze --format
 * functions FILE...`, which prints file by file, so its heap goes as high
 * as its largest file needs: a template's analysis fills about twice its
 * expansion (tmpl.c calls this once the expansion's size is known),
 * numpy's largest 10 MB (2,800 page faults, a fifth of its CPU time on a
 * virtual machine).  Both are per thread: each of `analyze --threads`'
 * threads allocates from an arena of its own (glibc), whose high-water
 * mark its own calls keep; a thread that did not call
 * pd_malloc_ahead_on() is not affected.
 */
void pd_malloc_ahead_on(void);
void pd_malloc_ahead(size_t bytes);

/*
 * Room for `need` elements of `el` bytes in the array *p of capacity *cap
 * (elements): when *cap is smaller, realloc to a capacity doubled from
 * `first` (at least 1) until it holds `need`, and update *p and *cap.
 * The array's doubling, written once for the template expansion, the
 * macro expansion and the call graph.  0, or PD_ENOMEM (message "out of
 * memory `what`") leaving *p and *cap as they were, also when the size
 * would overflow.
 */
int pd_grow(void **p, size_t *cap, size_t need, size_t el, size_t first, const char *what);

#endif
