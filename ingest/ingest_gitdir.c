/*
 * ingest_gitdir.c: which git directory a stored repository keeps (see
 * ingest_gitdir.h).
 */
#include <stdio.h>
#include <string.h>

#include "db_query.h"
#include "ingest_gitdir.h"
#include "pd_rev.h"

/* A stored ref's name that `arg` (a git repository) cannot resolve stops
 * the walk (1). */
static int ingest_gitdir_lacks(void *arg, const char *ref, int64_t commit_id)
{
    git_object *obj = NULL;
    int rc;

    (void)commit_id;
    rc = pd_rev_parse(&obj, arg, ref) < 0;
    git_object_free(obj);
    git_error_clear();
    return rc;
}

int ingest_gitdir_choose(git_repository *repo, sqlite3 *db, int64_t repo_id,
                         const char *stored, char *path, size_t n, int *kept)
{
    git_repository *old = NULL;
    int rc;

    *kept = 0;
    if (strcmp(stored, path) == 0)
        return 0;
    /* A stored directory moved or removed is replaced whatever this one has. */
    if (git_repository_open_ext(&old, stored, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
        git_error_clear();
        return 0;
    }
    git_repository_free(old);
    if ((rc = db_refs_list(db, repo_id, ingest_gitdir_lacks, repo)) < 0)
        return rc;
    if (rc > 0) {
        *kept = 1;
        snprintf(path, n, "%s", stored);
    }
    return 0;
}
