/*
 * ingest_fork.c: a ref's fork from its upstream (see ingest_fork.h).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "db_fork.h"
#include "ingest_fork.h"
#include "pd_error.h"
#include "pd_rev.h"

/* The upstreams tried, in order, when none is named: the names git hosts
 * and clones give the main line. */
static const char *const ingest_fork_auto[] = {
    "main", "master", "origin/main", "origin/master"};

/* The commit `name` names into *out: 0, or -1 when it names none. */
static int ingest_fork_resolve(git_repository *repo, const char *name, git_oid *out)
{
    git_object *obj = NULL, *peeled = NULL;
    int rc = -1;

    if (pd_rev_parse(&obj, repo, name) == 0 &&
        git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) == 0) {
        git_oid_cpy(out, git_object_id(peeled));
        rc = 0;
    }
    git_object_free(peeled);
    git_object_free(obj);
    git_error_clear();
    return rc;
}

/* Walk tip's first-parent commits that `up` cannot reach: their number
 * into *own and the base (first parent of the oldest; tip when none) into
 * *base, *has_base 0 when the oldest is a root. */
static int ingest_fork_walk(git_repository *repo, const git_oid *tip, const git_oid *up,
                            int64_t *own, git_oid *base, int *has_base)
{
    git_revwalk *w = NULL;
    git_commit *c = NULL;
    git_oid id, oldest;
    int rc;

    *own = 0;
    *has_base = 1;
    git_oid_cpy(base, tip);
    if (git_revwalk_new(&w, repo) < 0 || git_revwalk_push(w, tip) < 0 ||
        git_revwalk_hide(w, up) < 0) {
        git_revwalk_free(w);
        return pd_error_set(PD_EGIT, "cannot walk from the upstream: %s",
                            git_error_last() ? git_error_last()->message : "?");
    }
    git_revwalk_simplify_first_parent(w);
    while ((rc = git_revwalk_next(&id, w)) == 0) {
        git_oid_cpy(&oldest, &id);
        (*own)++;
    }
    git_revwalk_free(w);
    if (rc != GIT_ITEROVER)
        return pd_error_set(PD_EGIT, "cannot walk from the upstream: %s",
                            git_error_last() ? git_error_last()->message : "?");
    if (*own == 0)
        return 0;
    if (git_commit_lookup(&c, repo, &oldest) < 0)
        return pd_error_set(PD_EGIT, "cannot read a commit: %s", git_error_last()->message);
    if (git_commit_parentcount(c) == 0)
        *has_base = 0;
    else
        git_oid_cpy(base, git_commit_parent_id(c, 0));
    git_commit_free(c);
    return 0;
}

/* The upstream to use when none is named, its commit into *up; NULL when
 * there is none.  A main line ingested itself has no upstream to guess:
 * numpy's main would otherwise be "forked" from its stale master. */
static const char *ingest_fork_guess(git_repository *repo, const char *ref, git_oid *up)
{
    size_t i, n = sizeof(ingest_fork_auto) / sizeof(*ingest_fork_auto);

    for (i = 0; i < n; i++)
        if (strcmp(ingest_fork_auto[i], ref) == 0)
            return NULL;
    for (i = 0; i < n; i++)
        if (ingest_fork_resolve(repo, ingest_fork_auto[i], up) == 0)
            return ingest_fork_auto[i];
    return NULL;
}

int ingest_fork_own(git_repository *repo, const char *ref, const git_oid *tip,
                    const char *upstream, size_t n, size_t *below)
{
    git_oid up, base;
    int64_t own;
    int rc, has_base;

    *below = n;
    if (upstream ? ingest_fork_resolve(repo, upstream, &up) < 0
                 : !ingest_fork_guess(repo, ref, &up))
        return 0;
    /* Own commits are a prefix of the first-parent chain: once one is
     * reachable from the upstream, so are all its ancestors. */
    if ((rc = ingest_fork_walk(repo, tip, &up, &own, &base, &has_base)) == 0 &&
        (uint64_t)own < n)
        *below = (size_t)own;
    return rc;
}

int ingest_fork_record(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                       const git_oid *tip, const char *upstream, int64_t *own)
{
    const char *name = upstream;
    char hex[GIT_OID_HEXSZ + 1];
    git_oid up, base;
    int rc, has_base;

    *own = -1;
    if (upstream && ingest_fork_resolve(repo, upstream, &up) < 0)
        return pd_error_set(PD_ENOTFOUND, "unknown upstream '%s'", upstream);
    if (!upstream)
        name = ingest_fork_guess(repo, ref, &up);
    if (!name)
        return db_fork_clear(db, repo_id, ref);
    if ((rc = ingest_fork_walk(repo, tip, &up, own, &base, &has_base)) < 0)
        return rc;
    git_oid_tostr(hex, sizeof(hex), &base);
    return db_fork_put(db, repo_id, ref, name, has_base ? hex : NULL, *own,
                       (int64_t)time(NULL));
}
