/*
 * ingest_fork.h: where a ref leaves its upstream, found by git at ingest
 * and stored for the trend, the backfill and the forecast (db_fork.h).
 */
#ifndef INGEST_FORK_H
#define INGEST_FORK_H

#include <stdint.h>

#include <git2.h>
#include <sqlite3.h>

/* How ingest_fork_record found the fork it stored. */
enum {
    INGEST_FORK_NONE = 0,    /* no upstream: none stored, the history falls
                                back to the first HPy token */
    INGEST_FORK_FOUND,       /* from an upstream the git directory has */
    INGEST_FORK_KEPT,        /* the git directory lacks the stored fork's
                                upstream: its base counted from */
    INGEST_FORK_DROPPED      /* ... and the ref no longer has that base on
                                its chain (rewritten): the record removed */
};

/*
 * Find and store the fork of `ref` (tip `tip`, row `tip_id`, already
 * stored with its first-parent chain).  The upstream is `upstream`; when NULL, the one the
 * ref's stored fork names; when the git directory lacks that one, the
 * stored fork's base stands for it (a push from a clone of the port branch
 * alone), unless the ref was rewritten off it; with no stored fork, the
 * first of main, master, origin/main, origin/master the repository has,
 * unless `ref` is one of those names (a main line has no upstream).  The
 * ref's own commits are its first-parent commits that the upstream cannot
 * reach (`git rev-list --first-parent UPSTREAM..REF`); the base is the
 * first parent of the oldest of them (the tip itself when there are none).
 * *own receives their number (-1 when no upstream was found: the record
 * is then removed and the history falls back to the first HPy token), *how
 * an INGEST_FORK_* value (doc/history.md).  0, PD_ENOTFOUND for a named
 * upstream the repository does not have, PD_EGIT, PD_EDB.
 */
int ingest_fork_record(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                       const git_oid *tip, int64_t tip_id, const char *upstream,
                       int64_t *own, int *how);

/*
 * Of the `n` newest commits of `ref`'s first-parent chain (tip `tip`),
 * how many are the ref's own, as ingest_fork_record() counts them from the
 * fork stored in `db` for repository `repo_id` so far, into *below, before
 * anything is stored: the ingest computes patch ids for these alone
 * (doc/history.md, "Patch ids").  Without an upstream (`upstream` unknown,
 * none stored or guessed, a stored base off the chain) every commit is the
 * ref's own: *below = n.  0, PD_EGIT or PD_EDB.
 */
int ingest_fork_own(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                    const git_oid *tip, const char *upstream, size_t n, size_t *below);

#endif
