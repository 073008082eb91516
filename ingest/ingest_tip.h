/*
 * ingest_tip.h: a ref's tip in the git directory against its stored tip,
 * before and after the ref's walk: behind it (the stored tip kept) or off
 * it (a rewrite recorded).  doc/guide.md, "History is kept whole".
 */
#ifndef INGEST_TIP_H
#define INGEST_TIP_H

#include <stdint.h>

#include <git2.h>

#include "ingest_ctx.h"

/*
 * Whether the git directory's tip `tip` of a ref is behind its stored tip
 * (row `old_id`, 0: a new ref): `tip` is stored on the stored tip's
 * first-parent chain, and the directory lacks the stored tip, which came
 * from another (a push from a CI checkout, then an ingest from a mirror
 * not fetched since).  Moving the ref would undo that push and record it
 * as a rewrite.  A directory that has the stored tip and a tip behind it
 * was reset: not "behind", a rewrite.  1 or 0; PD_EDB.
 */
int ingest_tip_behind(ingest_ctx *c, int64_t old_id, const git_oid *tip);

/*
 * A ref that moved from row `old_id` to row `new_id` (git commit `tip`)
 * without descending from it was rebased or force-pushed: record it (table
 * rewrites) and count it in c->st.  Descent is checked on the stored
 * first-parent chain first, then by git (a merge may bring the old tip in
 * through another parent).  Nothing stored is removed either way.  0 or
 * PD_EDB.
 */
int ingest_tip_rewrite(ingest_ctx *c, const char *ref, int64_t old_id, int64_t new_id,
                       const git_oid *tip);

#endif
