/*
 * ingest_fork.h: where a ref leaves its upstream, found by git at ingest
 * and stored for the trend, the backfill and the forecast (db_fork.h).
 */
#ifndef INGEST_FORK_H
#define INGEST_FORK_H

#include <stdint.h>

#include <git2.h>
#include <sqlite3.h>

/*
 * Find and store the fork of `ref` (tip `tip`, already stored with its
 * first-parent chain) from upstream ref `upstream`, or, when NULL, the
 * first of main, master, origin/main, origin/master that the repository
 * has, unless `ref` is one of those names (a main line has no
 * upstream).  The ref's own commits are its first-parent commits that the
 * upstream cannot reach (`git rev-list --first-parent UPSTREAM..REF`); the
 * base is the first parent of the
 * oldest of them (the tip itself when there are none).  *own receives
 * their number (-1 when no upstream was found: the record is then removed
 * and the history falls back to the first HPy token).  0, PD_ENOTFOUND for
 * a named upstream the repository does not have, PD_EGIT, PD_EDB.
 */
int ingest_fork_record(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                       const git_oid *tip, const char *upstream, int64_t *own);

/*
 * Of the `n` newest commits of `ref`'s first-parent chain (tip `tip`),
 * how many are the ref's own, as ingest_fork_record() counts them, into
 * *below, before anything is stored: the ingest computes patch ids for
 * these alone (doc/history.md, "Patch ids").  Without an upstream
 * (`upstream` unknown, or none guessed: see ingest_fork_record) every
 * commit is the ref's own: *below = n.  0 or PD_EGIT.
 */
int ingest_fork_own(git_repository *repo, const char *ref, const git_oid *tip,
                    const char *upstream, size_t n, size_t *below);

#endif
