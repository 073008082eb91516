/*
 * ingest_pipe.h: the threads of a parallel ingest.
 *
 * One planner thread walks the commits of a chain in the order the writer
 * will store them, computes each commit's plan (ingest_plan.h) and hands
 * every blob not analysed yet to a pool of analysis threads, each with its
 * own libgit2 repository handle.  The workers read, analyse and encode
 * (ingest_enc) the blob.  The caller's thread is the only one that touches
 * the database: it takes the plans in chain order and the encoded analyses
 * as it needs them, so it stores exactly what a one-thread ingest stores,
 * in the same order, whatever the number of threads.
 *
 * Memory is bounded: the planner stays at most INGEST_PIPE_AHEAD plans
 * ahead and starts a new commit only while fewer than INGEST_PIPE_ROOM
 * analyses per thread are waiting to be taken (a commit with more new
 * blobs than that is planned whole), and no blob is held longer than its
 * analysis.
 * What the planner hands out is a prediction: an analysis the writer does
 * not take by the time it has stored that commit is dropped, and the
 * writer analyses itself anything the planner did not foresee.
 */
#ifndef INGEST_PIPE_H
#define INGEST_PIPE_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>

#include "analyzer/analyzer.h"
#include "ingest_plan.h"
#include "ingest_store.h"
#include "pathfilter.h"

#define INGEST_PIPE_AHEAD 64

/* Analyses per thread handed out and not yet taken by the writer.  With 4,
 * one long analysis at the head of the queue (a large template file) soon
 * left the other threads nothing to do, and the writer then waited for
 * each result in turn (numpy/core, both refs: 590-810 waits); with 8, 270
 * to 350; with 16, 160-220.  With 8 the analysis threads still waited 1.9 s
 * for work in all, in an ingest of 7.4 s on two cores; with 32, 1.2-1.5 s,
 * and the ingest took 0.3-0.6 s less (three runs of five turns, 2026-12-04;
 * 64: the same as 32, the plans ahead then the bound).  The peak resident
 * size did not move (115-119 MB): the encodings waiting are compressed,
 * and since the arenas keep a pad (pd_malloc.h) what they leave is reused. */
#define INGEST_PIPE_ROOM 32

typedef struct ingest_pipe ingest_pipe;

typedef struct {
    const char *repo_path;     /* git directory, opened once per thread */
    const rules *rules;        /* shared, read-only */
    an_memo *memo;             /* shared chunk memo (thread-safe), or NULL */
    const pathfilter *filter;        /* shared, read-only */
    unsigned threads;          /* analysis threads, >= 1 */
    size_t patch_below;        /* plans of chain[i], i < this, carry patch ids */
    const git_oid *chain;      /* commits, newest first (as ingest_chain) */
    const git_oid *parent_trees; /* parent_trees[i]: chain[i]'s first
                                * parent's tree, zero when unknown
                                * (ingest_plan_commit); NULL: none known */
    const int *known;          /* known[i]: chain[i] is stored already, so
                                * only its blobs are wanted, not its plan */
    size_t n;
    const git_oid *analysed;   /* blobs stored already, never analysed */
    size_t nanalysed;
    /* 1: a background ingest.  The planner and the analysis threads run at
     * SCHED_IDLE (pd_sched.h), so they may wait as long as the machine is
     * busy; the writer, which holds the database's write lock, never waits
     * for them longer than `stall_ms`: a plan or an analysis late by that
     * much it makes itself (ingest_pipe_next gives no plan,
     * ingest_pipe_take returns 0), and the late one is dropped. */
    int background;
    unsigned stall_ms;
} ingest_pipe_options;

/*
 * Start the threads for one chain.  All pointers in `o` are borrowed and
 * must stay valid until ingest_pipe_free().  0, PD_ENOMEM, PD_EGIT (the
 * repository cannot be opened) or PD_ERROR (a thread cannot start).
 */
int ingest_pipe_start(ingest_pipe **out, const ingest_pipe_options *o);

/*
 * The plan of the next commit of the chain (oldest first), waiting for it;
 * in the background, *plan NULL when it is late (the caller plans it).
 * *plan is owned by the pipe until the next call or ingest_pipe_free().  Returns 0
 * or the plan's error code (message set on this thread); a known commit's
 * plan is empty.
 */
int ingest_pipe_next(ingest_pipe *p, const ingest_plan **plan);

/*
 * The analysis of `blob` when the planner handed it out for the same
 * `path` (the suffix selects the language), waiting for it: returns 1 and
 * *out (freed by the caller with ingest_enc_free), 0 when it was not handed
 * out or, in the background, not done within stall_ms (the caller analyses
 * it), or the worker's negative error code with its message set on this
 * thread.
 */
int ingest_pipe_take(ingest_pipe *p, const git_oid *blob, const char *path,
                     ingest_enc **out);

/* Waits the writer gave up since the start (background only): the plans
 * and the analyses it made itself. */
void ingest_pipe_stalls(const ingest_pipe *p, uint64_t *plans, uint64_t *blobs);

/* Stop the threads and add the CPU seconds the planner and the analysis
 * threads used (CLOCK_THREAD_CPUTIME_ID, each read as its thread ends) to
 * *plan_s and *analyse_s.  The pipe takes no more work after it: call
 * just before ingest_pipe_free.  Accepts NULL (adds nothing). */
void ingest_pipe_cpu(ingest_pipe *p, double *plan_s, double *analyse_s);

/* Stop the threads, drop what is pending, free; accepts NULL. */
void ingest_pipe_free(ingest_pipe *p);

#endif
