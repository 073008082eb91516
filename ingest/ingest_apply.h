/*
 * ingest_apply.h: a commit's changes applied to the running state of an
 * ingest (ingest_ctx.h): each changed path's analysis found, taken from an
 * analysis thread or made here, stored, and its counts moved in the
 * running totals and the call graph (ingest_flow.h).
 */
#ifndef INGEST_APPLY_H
#define INGEST_APPLY_H

#include <stdint.h>

#include "ingest_ctx.h"
#include "ingest_plan.h"

/*
 * Store and apply the changes of new commit row `commit_id` as `plan`
 * (borrowed) lists them, then its patch id when the plan has one.
 * 0 or a negative pd_error code (PD_EDB, PD_EGIT, PD_ENOMEM).
 */
int ingest_apply_plan(ingest_ctx *c, const ingest_plan *plan, int64_t commit_id);

/*
 * db_ingest_changes_of callback (arg: the ingest_ctx): apply a stored
 * change of path row `path_id` to blob `blob` (NULL: deleted) at `path`,
 * for a commit revisited.  0 or a negative pd_error code.
 */
int ingest_replay_change(void *arg, int64_t path_id, const char *blob, const char *path);

/*
 * Store and apply, of stored commit `commit_id`'s plan, only the changes
 * of paths whose kind is newer than generation `since` (pd_path_kind_since;
 * ingest_kinds.h); the patch id stays as stored.  0 or the store's error.
 */
int ingest_apply_new_kinds(ingest_ctx *c, const ingest_plan *plan, int64_t commit_id,
                           int since);

/* Free the counts cache (ingest_ctx.counts); the run's end. */
void ingest_counts_free(ingest_ctx *c);

#endif
