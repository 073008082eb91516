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
 * The git directory to store for repository `name` (row `repo_id`) after
 * a run from `repo`, opened at `path` (absolute): `path` itself, unless
 * the directory stored before is another that still opens as a git
 * repository and `repo` lacks a ref stored for the repository (a CI
 * checkout or a mirror of the port branch alone: the server would lose
 * the other refs' sources and its ingest jobs would fail on them), in
 * which case the stored one is kept.  Into out (size n); *kept 1 when it
 * is the stored one.  0, PD_EDB, PD_ENOMEM.
 */
int ingest_gitdir_choose(sqlite3 *db, git_repository *repo, const char *name,
                         int64_t repo_id, const char *path, char *out, size_t n, int *kept);

#endif
