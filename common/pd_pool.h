/*
 * pd_pool.h: an ordered pool of worker threads.  Items are submitted in
 * order, worked on by N threads in any order, and taken back on the
 * submitting thread in the order they were submitted: the output of a
 * run is then the same for any number of threads.  `portdash analyze
 * --threads` analyses its files with it (cli/cli_analyze.c).
 *
 * At most `window` items are submitted and not yet taken, so that a run
 * holds a few results at a time, not every file's.
 */
#ifndef PD_POOL_H
#define PD_POOL_H

/*
 * The work on one item, on a worker thread: 0 or a PD_E* code, with its
 * message set by pd_error_set() on that thread (the pool hands the
 * message to the taking thread).
 */
typedef int (*pd_pool_work_fn)(void *ctx, void *item);

/*
 * One item taken back, on the submitting thread, in submission order.
 * `rc` is the work's result: 0, a PD_E* code (its message is then the
 * thread's pd_error_last()), or PD_POOL_SKIPPED when the item was not
 * worked on because an earlier item failed.  The function owns the item
 * from then on (it frees it).  Returns 0, or a PD_E* code that stops the
 * pool as a failed work does.
 */
typedef int (*pd_pool_take_fn)(void *ctx, void *item, int rc);

/* The `rc` of an item that was not worked on (pd_pool_take_fn). */
#define PD_POOL_SKIPPED 1

typedef struct pd_pool pd_pool;

/*
 * A pool of `threads` workers (1 to 256) holding at most `window` items
 * (at least `threads`; 0 means 4 per thread).  `work`, `take` and `ctx`
 * are borrowed for the pool's life.  0, PD_EINVAL for a bad count,
 * PD_ENOMEM, or PD_ERROR when a thread cannot be started (the threads
 * started are joined again); *out is NULL on failure.
 */
int pd_pool_new(pd_pool **out, unsigned threads, unsigned window,
                pd_pool_work_fn work, pd_pool_take_fn take, void *ctx);

/*
 * Queue `item` (owned by the pool until it is taken).  When the window is
 * full, it first waits for the oldest item and takes it, with those that
 * follow it already done.  After a failure (a work's or a take's) the
 * item is taken at once with PD_POOL_SKIPPED.  Returns 0, or the first
 * failure's code, its message set on this thread.
 */
int pd_pool_submit(pd_pool *p, void *item);

/*
 * Wait for every item submitted and take each in order (items not yet
 * started after a failure are taken with PD_POOL_SKIPPED).  Returns 0 or
 * the first failure's code, with its message set on this thread.  The
 * pool may be freed after, not used again.
 */
int pd_pool_finish(pd_pool *p);

/* Finish the pool (pd_pool_finish's takes happen here when it was not
 * called), stop its threads and free it.  NULL is allowed. */
void pd_pool_free(pd_pool *p);

#endif
