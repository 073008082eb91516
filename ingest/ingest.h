/*
 * ingest.h: reading a repository's history into the database.
 *
 * For each ref, the first-parent chain is walked from the tip back to the
 * newest commit already summarised under the current rules (or to the root),
 * then replayed oldest first: each commit's selected changes (the path filter's) against its
 * first parent are stored, each new blob is analysed once (keyed by blob id
 * and rules hash), and the commit's summary is computed incrementally from
 * its parent's.  Work is committed in batches, so an interrupted ingest keeps
 * every batch it finished and the next run resumes from there.
 *
 * With threads, commits are diffed ahead and blobs analysed by other
 * threads (ingest_pipe.h), but one thread writes, in the one-thread order,
 * so the stored result does not depend on the thread count.
 */
#ifndef INGEST_H
#define INGEST_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    const char *db_path;      /* database file (created if missing) */
    const char *repo_path;    /* git directory, bare or not */
    const char *name;         /* repository name in the dashboard */
    const char **refs;        /* refs to walk; none: the repository's HEAD */
    size_t nrefs;
    const char **include;     /* path globs, see pathfilter.h */
    size_t ninclude;
    const char **exclude;
    size_t nexclude;
    const char *rules_path;   /* NULL: the built-in default rules */
    int progress;             /* 1: show progress on stderr */
    int no_patch_ids;         /* 1: skip patch ids (no rebase links) */
    int no_refs;              /* 1: store the commits and analyses of `refs`
                                 (any revision: branch, tag, commit id) but
                                 no ref: the API gate of an unstored rev */
    unsigned threads;         /* analysis threads; 0: one per online CPU;
                               * 1: everything on the calling thread.  The
                               * stored result is the same for any value. */
    unsigned batch_commits;   /* commits per transaction; 0: 2,000 */
    int no_memo;              /* 1: no chunk memo (an_memo), every chunk
                               * analysed; the stored result is the same.
                               * Its size: PORTDASH_MEMO_MB (analyze.h). */
    /* Called after every 256 commits and at the end of each ref, from the
     * ingesting thread (for the server's job progress); may be NULL. */
    void (*on_progress)(void *arg, const char *ref, size_t done, size_t total);
    void *progress_arg;
    /* Called between database statements (SQLite's progress handler, about
     * every 1,000 steps of its machine): non-zero ends the run with PD_EDB
     * ("interrupted"), the running batch rolled back.  A server request's
     * budget and a stopping server (srv_budget.h); may be NULL. */
    int (*interrupted)(void *arg);
    void *interrupt_arg;
    const char *upstream;     /* the upstream the refs were forked from (their
                                 own commits are those it cannot reach);
                                 NULL: main or master when present
                                 (ingest_fork.h) */
    int lock_wait_s;          /* seconds to wait while another ingest or
                                 snapshot holds the database (db_lock.h);
                                 0: fail at once with PD_EBUSY */
    int background;           /* 1: the analysis threads and the planner run
                               * at SCHED_IDLE (pd_sched.h), taking only CPU
                               * nothing else wants; the writer, which holds
                               * the write lock, does what they are late
                               * with itself (ingest_pipe.h), so it keeps
                               * at least a one-thread ingest's pace.  The
                               * stored result is the same.  For the
                               * server's jobs and the hourly unit, so
                               * reads keep the CPU. */
    int graph_files_kb;       /* a push's call graph is kept as its base's
                               * block and the files changed since it
                               * while their facts are at most this many
                               * KiB (db_flow_graph.h); 0: 128; -1: a new
                               * block each time (tests).  The stored
                               * results are the same. */
    unsigned stall_ms;        /* background: how long the writer waits for
                               * its threads before it plans a commit or
                               * analyses a blob itself; 0: 20 ms (tests
                               * set 1 to reach those paths) */
} ingest_options;

typedef struct {
    uint64_t commits_seen;    /* commits on the walked chains not yet summarised */
    uint64_t commits_new;     /* commit rows inserted */
    uint64_t commits_kept;    /* ... of them in transactions committed: a
                                 stopped run keeps these */
    uint64_t blobs_analysed;
    uint64_t templates_analysed;  /* ... of them numpy templates (PD_SRC_TEMPLATE) */
    uint64_t bytes_analysed;
    uint64_t memo_hits;       /* chunks reused from the memo (an_memo) */
    uint64_t memo_hit_bytes;  /* ... their bytes (templates expanded) */
    uint64_t refs_behind;     /* refs whose tip in the git directory is behind
                                 the stored one, which it lacks: left as
                                 stored (a push came from elsewhere) */
    char behind_ref[128];     /* the last of them */
    uint64_t rewrites;        /* refs found rebased or force-pushed */
    char rewrite_ref[128];    /* the last of them, its old and new tips */
    char rewrite_from[41], rewrite_to[41];  /* hex, as stored */
    uint64_t blobs_missing;   /* blob reads the clone could not answer (a
                                 partial clone): recorded, counted absent */
    uint64_t blobs_damaged;   /* of those, objects there but damaged (they
                                 do not inflate or match their id) */
    char damaged_first[512];  /* the first: "BLOB (PATH): libgit2's error" */
    size_t blobs_filled;      /* recorded missing blobs found this time */
    int shallow;              /* a walk stopped at a shallow boundary */
    int git_dir_kept;         /* this git directory lacks refs stored for the
                                 repository: the stored one stays its git
                                 directory (ingest_gitdir.h) */
    int rules_changed;        /* the repository's commits were stored under
                                 another rules file: analysed again */
    uint64_t forks_kept;      /* refs whose stored upstream the git directory
                                 lacks: counted from the stored fork base */
    uint64_t forks_dropped;   /* ... and whose chain no longer has that base:
                                 their port starts at the first HPy token */
    double seconds;           /* wall-clock time of the run */
    uint64_t stalled_plans;   /* background: commits the writer planned
                                 itself, the planner being late */
    uint64_t stalled_blobs;   /* background: blobs the writer analysed
                                 itself, its thread being late */
    /* CPU seconds of each stage's threads (CLOCK_THREAD_CPUTIME_ID), so
     * that a benchmark can tell which stage a change made cheaper: the
     * planner, the analysis threads together, and the calling (writer)
     * thread, which also plans and analyses when there are no threads. */
    double cpu_plan_s, cpu_analyse_s, cpu_write_s;
    int close_failed;         /* the run's error is the close's: a new
                                 database not put in place (db_aside.h) */
    int locked;               /* the run took the database's lock */
    int restarted;            /* it removed the PATH.new a first ingest
                                 stopped before it ended left (db_aside.h) */
} ingest_stats;

/* The analysis threads an ingest with `opt` runs: opt->threads, or one per
 * online CPU when it is 0 (1 when that cannot be told). */
unsigned ingest_threads(const ingest_options *opt);

/*
 * Run one ingest.  `stats` (may be NULL) receives the figures of the run.
 * Returns 0, or a negative PD_E* code with a message naming the repository,
 * ref or object that failed (PD_ENOTFOUND for an unknown ref, PD_EGIT for
 * a repository that cannot be opened or an unreadable object, PD_EINVAL for
 * a path filter that disagrees with the stored one, PD_EBUSY "another ingest is
 * running (...)" when another ingest or snapshot holds the database's work
 * lock past opt->lock_wait_s; nothing is written then).  Batches committed before a
 * failure stay; the failing batch is rolled back; but a repository the run
 * created that has no ref stored is removed, so a failed first run keeps
 * nothing.  A blob the clone lacks is no failure (ingest_missing.h), nor is
 * a first parent it lacks (a shallow clone: the history starts there).
 */
int ingest_run(const ingest_options *opt, ingest_stats *stats);

#endif
