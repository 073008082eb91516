/*
 * srv_budget.h: how much work one answer may cost, and stopping work in
 * flight when the server stops (issue 27).
 *
 * A worker thread handles one request at a time, so the budget is the
 * thread's: srv_budget_begin before the handler, srv_budget_end after.
 * Long work checks srv_budget_over(): SQLite through the progress handler
 * every worker connection has (srv_budget_progress, which interrupts the
 * statement), an ingest a request runs through ingest_options.interrupted,
 * a wait for a lock through srv_budget_deadline.  An answer whose work was
 * cut is 503 with Retry-After (srv_reply_error), never a partial answer.
 */
#ifndef SRV_BUDGET_H
#define SRV_BUDGET_H

#include <time.h>

/*
 * Start the calling thread's budget: `seconds` of wall-clock time from now,
 * or less when `*stopping` (the server's flag, borrowed; may be NULL)
 * becomes non-zero.  Wall-clock time bounds CPU time too: the work is on
 * this thread.
 */
void srv_budget_begin(double seconds, const volatile int *stopping);

/* End the calling thread's budget (no limit until the next begin). */
void srv_budget_end(void);

/* 1 when the calling thread's budget is spent or its server is stopping. */
int srv_budget_over(void);

/* 1 when the thread's server is stopping (the reason srv_budget_over is 1). */
int srv_budget_stopping(void);

/* The seconds the calling thread's budget had (0: none). */
double srv_budget_seconds(void);

/* The thread's deadline as CLOCK_REALTIME for pthread_*_timedlock;
 * 0 when the thread has a budget, -1 (ts untouched) when none. */
int srv_budget_deadline(struct timespec *ts);

/* sqlite3_progress_handler / ingest_options.interrupted callback: non-zero
 * (interrupt) when srv_budget_over(); `arg` is unused. */
int srv_budget_progress(void *arg);

#endif
