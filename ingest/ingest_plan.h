/*
 * ingest_plan.h: what one commit changes in the paths its filter selects, computed from git alone
 * (no database), so that it can be computed ahead of the database writer
 * in another thread (ingest_pipe.h) or inline by a one-thread ingest.
 */
#ifndef INGEST_PLAN_H
#define INGEST_PLAN_H

#include <stddef.h>
#include <git2.h>

#include "db_ingest.h"
#include "pathfilter.h"

/* One selected change, in the order ingest stores them. */
typedef struct {
    char *path;
    int deleted;           /* 1: path removed (or renamed away) */
    git_oid blob;          /* new content when !deleted */
    char *old_path;        /* the path this one was renamed from, or NULL */
} ingest_plan_change;

/* A commit's row of the commits table, made from the parsed commit: the
 * planner hands it on, so that the writer need not read the commit again. */
typedef struct {
    char *text;            /* one block holding the row's strings */
    db_commit_row row;     /* first_parent_id 0: the writer knows it */
} ingest_commit_meta;

/* The row of parsed commit c into *m (freed with ingest_commit_meta_free
 * in every case).  0 or PD_ENOMEM. */
int ingest_commit_meta_of(ingest_commit_meta *m, const git_commit *c);

/* Free what *m holds and empty it; accepts an empty one. */
void ingest_commit_meta_free(ingest_commit_meta *m);

typedef struct {
    git_oid commit;
    ingest_commit_meta meta;  /* the commit's row, when rc is 0 */
    ingest_plan_change *ch;
    size_t nch;
    int has_patch_id;      /* 0: merge, root, nothing selected, or unreadable */
    git_oid patch_id;      /* git patch-id of the selected diff */
    int rc;                /* 0, or the PD_E* code of a failed plan ... */
    char *err;             /* ... and its message (the planning thread's) */
} ingest_plan;

/*
 * Diff commit `oid` against its first parent (renames paired as git -M
 * when a selected file was both added and deleted) and list its selected
 * changes: a rename from a selected path is a deletion of the old path
 * followed by the new path naming the old one; a file that stops being a
 * regular file is a deletion.  With `patch_ids`, also the patch id.
 * `parent_tree` is the first parent's tree id when the caller knows it
 * (the chain's walk read the parent: ingest.c), NULL or zero to read the
 * parent commit for it: a commit read costs about 45,000 instructions,
 * most of them inflating it (issue 26).  `repo_path` names the repository
 * in messages.  Returns 0, or PD_EGIT / PD_ENOMEM with pd_error_set (then
 * out->rc and out->err say the same).
 * The plan is freed with ingest_plan_clear() either way.
 */
int ingest_plan_commit(ingest_plan *out, git_repository *repo, const pathfilter *pf,
                       const git_oid *oid, const git_oid *parent_tree, int patch_ids,
                       const char *repo_path);

/*
 * The repository handle to plan with: opened when *repo is NULL, opened
 * afresh every INGEST_PLAN_REOPEN calls (counted in *calls).  A history walk
 * fills libgit2's object cache with every commit and small tree it diffs;
 * a fresh handle drops them, which costs far less than the cache's own
 * eviction (libgit2 1.5 scans its table from the start each time).  A
 * failed reopen keeps the old handle.  0, or PD_EGIT when there is none.
 */
#define INGEST_PLAN_REOPEN 500
int ingest_plan_repo(git_repository **repo, size_t *calls, const char *repo_path);

/* Free what a plan holds (not the struct itself); accepts NULL. */
void ingest_plan_clear(ingest_plan *p);

#endif
