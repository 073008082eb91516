/*
 * ingest_patch.h: patch ids of commits, for linking a rebased commit to the
 * commit it was before the rebase.
 */
#ifndef INGEST_PATCH_H
#define INGEST_PATCH_H

#include <stddef.h>
#include <git2.h>

/*
 * The patch id of `commit` against its first parent, restricted to the
 * `n` paths given (the commit's selected changes): git's patch-id (the
 * libgit2 git_diff_patchid of the diff, which ignores line numbers and
 * whitespace like `git patch-id --stable`), computed over those paths only
 * so that the rest of the tree (possibly with objects a partial clone lacks)
 * is never read.  `parent_tree` is the first parent's tree id when the
 * caller knows it (NULL: the parent commit is read for it).  Returns 0, 1
 * when there is no patch id (a merge or root commit, or no paths), or
 * PD_EGIT.
 */
int ingest_patch_id(git_oid *out, git_repository *repo, git_commit *commit,
                    const git_oid *parent_tree, char **paths, size_t n);

#endif
