/*
 * ingest_gitdir.h: which git directory a stored repository keeps (column
 * repos.path), from which the server reads sources and runs its ingest
 * jobs (doc/guide.md, "Ingest").
 */
#ifndef INGEST_GITDIR_H
#define INGEST_GITDIR_H

#include <stddef.h>
#include <stdint.h>

#include <git2.h>
#include <sqlite3.h>

/*
 * The git directory to store for repository row `repo_id`, whose stored
 * one is `stored`, after a run from `repo`, opened at `path` (absolute,
 * in a buffer of n bytes): `path` itself, unless `stored` is another
 * directory that still opens as a git repository and `repo` lacks a ref
 * stored for the repository (a CI checkout or a mirror of the port branch
 * alone: the server would lose the other refs' sources and its ingest jobs
 * would fail on them); then `stored` is copied into path and *kept is 1.
 * 0 or PD_EDB.
 */
int ingest_gitdir_choose(git_repository *repo, sqlite3 *db, int64_t repo_id,
                         const char *stored, char *path, size_t n, int *kept);

#endif
