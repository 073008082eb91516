/*
 * ingest_ctx.h: the state of one ingest run, shared by the files that walk
 * history (ingest.c) and apply each commit's changes (ingest_apply.c).
 * Private to those two.
 */
#ifndef INGEST_CTX_H
#define INGEST_CTX_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "db.h"
#include "db_aside.h"
#include "db_ingest.h"
#include "db_lock.h"
#include "ingest.h"
#include "ingest_flow.h"
#include "ingest_pipe.h"
#include "ingest_progress.h"
#include "pathfilter_value.h"

/* A page of the counts cache: the counts of INGEST_COUNTS_PAGE analysis
 * ids, and which of them are known. */
#define INGEST_COUNTS_PAGE 256
struct ingest_counts_page {
    db_counts k[INGEST_COUNTS_PAGE];
    unsigned char known[INGEST_COUNTS_PAGE];
};

typedef struct {
    const ingest_options *opt;
    db_lock *lock;                /* the database's work lock, held throughout */
    git_repository *repo;
    sqlite3 *db;
    db_aside *aside;              /* db is PATH.new, put in place at the end
                                   * (db_aside.h: nothing was at PATH), or NULL */
    db_ingest *store;
    rules *rules;
    const char *rules_hash;       /* analysis key: rules hash + analyzer version */
    char analysis_key[GIT_OID_HEXSZ + 1];
    pathfilter filter;
    int64_t repo_id;
    int repo_new;                 /* this run created the repository row */
    int64_t cur_commit;           /* row of the commit being stored/replayed */
    int64_t *path_analysis;       /* by path id: analysis id, 0 if absent */
    size_t npath_analysis;
    /* Counts by analysis id, in pages made on first use (ingest_apply.c):
     * a push touches a few of thousands of ids, and one array grown past
     * its first size was copied and zeroed whole (680 pages faulted in). */
    struct ingest_counts_page **counts;
    size_t ncounts;               /* pages */
    db_counts totals;
    ingest_stats st;
    ingest_progress *progress;
    unsigned batch;               /* commits in the open transaction */
    pathfilter_owned stored_filter; /* the repository's, read back from the
                                     * database; `filter` may point into it */
    unsigned threads;             /* analysis threads (1: none started) */
    unsigned batch_commits;       /* commits per transaction */
    ingest_pipe *pipe;            /* the ref's threads, or NULL */
    int *pipe_known;              /* borrowed by pipe */
    git_tree *base_tree;          /* tree of the ref's base commit, or NULL */
    unsigned char *path_known;    /* by path id: path_analysis[] is set */
    size_t npath_known;
    git_repository *plan_repo;    /* for plans made on this thread */
    size_t plan_calls;
    int plan_on_repo;             /* 1: plans on `repo` (a short chain) */
    an_memo *memo;                /* chunk analyses of this run, or NULL */
    ingest_flow *flow;            /* the call graph of the current commit */
    size_t patch_below;           /* chain[i] with i < this gets a patch id */
    int patch_here;               /* 1: the commit being stored gets one */
    int kinds_since;              /* source-kind generation the repository
                                   * was stored under (ingest_kinds.h) */
} ingest_ctx;

#endif
