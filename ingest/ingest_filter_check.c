/*
 * ingest_filter_check.c: does a path filter select any file at a tip
 * (see ingest_filter_check.h).
 */
#include <stdio.h>
#include <string.h>

#include "ingest_filter_check.h"
#include "pd_error.h"

typedef struct {
    const pathfilter *filter;
    size_t nfiles;
    int found;
    char path[4096];
} ingest_fc_walk;

/* git_tree_walk callback: stop (1 < 0 is libgit2's "stop") at the first
 * selected blob. */
static int ingest_fc_entry(const char *root, const git_tree_entry *e, void *arg)
{
    ingest_fc_walk *w = arg;

    if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
        return 0;
    w->nfiles++;
    if ((size_t)snprintf(w->path, sizeof(w->path), "%s%s", root, git_tree_entry_name(e)) >=
        sizeof(w->path))
        return 0;
    if (pathfilter_contains(w->filter, w->path)) {
        w->found = 1;
        return -1;
    }
    return 0;
}

int ingest_filter_selects(git_repository *repo, const git_oid *tip, const pathfilter *filter,
                          size_t *nfiles)
{
    ingest_fc_walk w = {filter, 0, 0, ""};
    git_commit *commit = NULL;
    git_tree *tree = NULL;
    int rc = 0;

    if (git_commit_lookup(&commit, repo, tip) < 0 || git_commit_tree(&tree, commit) < 0)
        rc = pd_error_set(PD_EGIT, "cannot read the tree of %s: %s", git_oid_tostr_s(tip),
                          git_error_last()->message);
    else if (git_tree_walk(tree, GIT_TREEWALK_PRE, ingest_fc_entry, &w) < 0 && !w.found)
        rc = pd_error_set(PD_EGIT, "cannot walk the tree of %s: %s", git_oid_tostr_s(tip),
                          git_error_last() ? git_error_last()->message : "?");
    git_tree_free(tree);
    git_commit_free(commit);
    if (nfiles)
        *nfiles = w.nfiles;
    return rc < 0 ? rc : w.found;
}
