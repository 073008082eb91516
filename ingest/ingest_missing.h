/*
 * ingest_missing.h: objects a clone does not hold (issue 23, point 6).
 *
 * A partial clone (--filter=blob:none) or a damaged pack lacks blobs; a
 * shallow clone lacks the commits before its boundary.  Ingest reads what
 * is there: a missing blob is recorded per commit and path (table
 * missing_objects) and counted as an absent file in the commit's summary;
 * a missing first parent ends the history there, as a root commit does.
 * When a later run finds recorded blobs in the clone, it drops the
 * summaries from the first commit that lacked one and computes them again.
 */
#ifndef INGEST_MISSING_H
#define INGEST_MISSING_H

#include <stddef.h>
#include <stdint.h>
#include <git2.h>
#include <sqlite3.h>

/*
 * Record that the clone lacks blob `hex` for path row `path_id` at commit
 * row `commit_id` (a repeat is ignored).  In the caller's transaction.
 * 0 or PD_EDB.
 */
int ingest_missing_record(sqlite3 *db, int64_t commit_id, int64_t path_id,
                          const char *hex);

/*
 * For repository `repo_id`: the recorded blobs that `repo` now holds, or
 * that have an analysis under `rules_hash` now (another repository's
 * ingest read them), lose their records, and every summary of the repository's commits stored
 * from the first commit that lacked one of them on is deleted, so that the
 * walk recomputes them (ingest_missing_tips lists where to start).
 * *filled: how many blobs arrived.  In the caller's transaction.
 * 0, PD_EDB.
 */
int ingest_missing_refill(sqlite3 *db, git_repository *repo, int64_t repo_id,
                          const char *rules_hash, size_t *filled);

/*
 * The commits of repository `repo_id` without a summary under `rules_hash`
 * that no stored commit has as first parent (the tips a refill left
 * without summaries, refs or not) and that `repo` can read: *out (free())
 * holds *n ids of 41 bytes each.  0, PD_ENOMEM, PD_EDB.
 */
int ingest_missing_tips(sqlite3 *db, git_repository *repo, int64_t repo_id,
                        const char *rules_hash, char (**out)[41], size_t *n);

/* What a failed object lookup met (ingest_missing_kind). */
enum {
    INGEST_MISSING_NO = 0,       /* another error: the run stops on it */
    INGEST_MISSING_ABSENT = 1,   /* not in the clone (GIT_ENOTFOUND) */
    INGEST_MISSING_DAMAGED = 2   /* there, but its data does not inflate or
                                  * hash to its id (libgit2's error classes
                                  * ZLIB and ODB) */
};

/*
 * The kind of libgit2's return `git_rc` of a lookup and its last error.
 * A blob ABSENT or DAMAGED is recorded as missing, as doc/guide.md says of
 * a partial clone and of a damaged pack, so that it does not stop the run.
 */
int ingest_missing_kind(int git_rc);

#endif
