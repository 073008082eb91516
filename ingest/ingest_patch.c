/*
 * ingest_patch.c: patch ids (see ingest_patch.h).
 */
#include "ingest_patch.h"
#include "pd_error.h"

int ingest_patch_id(git_oid *out, git_repository *repo, git_commit *commit,
                    const git_oid *parent_tree, char **paths, size_t n)
{
    git_commit *parent = NULL;
    git_tree *a = NULL, *b = NULL;
    git_diff *diff = NULL;
    git_diff_options opt;
    int rc = 1;

    if (n == 0 || git_commit_parentcount(commit) != 1)
        return 1;
    git_diff_options_init(&opt, GIT_DIFF_OPTIONS_VERSION);
    /* Literal paths: a file name with '*' or '[' must not act as a glob. */
    opt.flags = GIT_DIFF_DISABLE_PATHSPEC_MATCH;
    opt.pathspec.strings = paths;
    opt.pathspec.count = n;
    if ((parent_tree ? git_tree_lookup(&a, repo, parent_tree) < 0
                     : git_commit_parent(&parent, commit, 0) < 0 ||
                           git_commit_tree(&a, parent) < 0) ||
        git_commit_tree(&b, commit) < 0 ||
        git_diff_tree_to_tree(&diff, repo, a, b, &opt) < 0 ||
        git_diff_patchid(out, diff, NULL) < 0) {
        const git_error *e = git_error_last();
        char hex[GIT_OID_HEXSZ + 1];

        git_oid_tostr(hex, sizeof(hex), git_commit_id(commit));
        rc = pd_error_set(PD_EGIT, "cannot compute the patch id of %s: %s", hex,
                          e ? e->message : "?");
    } else {
        rc = 0;
    }
    git_diff_free(diff);
    git_tree_free(a);
    git_tree_free(b);
    git_commit_free(parent);
    return rc;
}
