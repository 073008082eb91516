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

/* Walk tip's first-parent commits that `up` cannot reach (every one when
 * `up` is NULL): their number into *own and the base (first parent of the
 * oldest; tip when none) into *base, *has_base 0 when the oldest is a root. */
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
        (up && git_revwalk_hide(w, up) < 0)) {
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

/* Whether `ref` is a main line, which has no upstream to guess: numpy's
 * main would otherwise be "forked" from its stale master. */
static int ingest_fork_is_main(const char *ref)
{
    size_t i, n = sizeof(ingest_fork_auto) / sizeof(*ingest_fork_auto);

    for (i = 0; i < n; i++)
        if (strcmp(ingest_fork_auto[i], ref) == 0)
            return 1;
    return 0;
}

/* The first of ingest_fork_auto the repository has, its commit into *up;
 * NULL when it has none. */
static const char *ingest_fork_guess(git_repository *repo, git_oid *up)
{
    size_t i, n = sizeof(ingest_fork_auto) / sizeof(*ingest_fork_auto);

    for (i = 0; i < n; i++)
        if (ingest_fork_resolve(repo, ingest_fork_auto[i], up) == 0)
            return ingest_fork_auto[i];
    return NULL;
}

/* What a ref's own commits are counted from. */
typedef struct {
    const char *name;        /* the upstream's name; NULL: none at all */
    git_oid up;              /* the commit to hide */
    int hide;                /* 0: hide nothing (a stored fork without base) */
    int kept;                /* the stored fork's base, this git directory
                                lacking its upstream */
    db_fork stored;          /* the stored fork, if any */
} ingest_fork_from;

/*
 * The upstream named; else the one the ref's stored fork names (`db` may
 * be NULL), when the git directory has it; else, with a stored fork, that
 * fork's base: a push from a clone of the port branch alone (a CI
 * checkout, a webhook's mirror) lacks the upstream, and the fork found
 * where it was still holds.  Hiding the base gives the same own commits
 * as hiding the upstream while the base is on the chain; the caller checks
 * that it still is.  Else, for a ref that is no main line, the first of
 * ingest_fork_auto the git directory has.  0 (f->name NULL: nothing
 * found), PD_ENOTFOUND for a named upstream the repository lacks, PD_EDB.
 */
static int ingest_fork_from_find(git_repository *repo, sqlite3 *db, int64_t repo_id,
                                 const char *ref, const char *upstream, ingest_fork_from *f)
{
    int rc = PD_ENOTFOUND;

    memset(f, 0, sizeof(*f));
    f->hide = 1;
    if (upstream) {
        if (ingest_fork_resolve(repo, upstream, &f->up) < 0)
            return pd_error_set(PD_ENOTFOUND, "unknown upstream '%s'", upstream);
        f->name = upstream;
        return 0;
    }
    if (db && (rc = db_fork_stored(db, repo_id, ref, &f->stored)) < 0 && rc != PD_ENOTFOUND)
        return rc;
    if (rc == PD_ENOTFOUND) {
        pd_error_clear();
        f->name = ingest_fork_is_main(ref) ? NULL : ingest_fork_guess(repo, &f->up);
        return 0;
    }
    f->name = f->stored.upstream;
    if (ingest_fork_resolve(repo, f->name, &f->up) == 0)
        return 0;
    f->kept = 1;
    f->hide = f->stored.base_oid[0] != '\0' && git_oid_fromstr(&f->up, f->stored.base_oid) == 0;
    return 0;
}

/* Whether the walk from a stored fork without base found none either (a
 * ref rewritten onto a base has lost it). */
static int ingest_fork_holds(const ingest_fork_from *f, int has_base)
{
    return !f->hide && !has_base;
}

/* Of the n newest commits of tip's first-parent chain, how many come
 * before the stored base `up` (n when it is not among them): one commit
 * read a step, where a revwalk that hides the base read each commit of
 * the chain twice (14 M instructions of a push). */
static int ingest_fork_steps(git_repository *repo, const git_oid *tip, const git_oid *up,
                             size_t n, size_t *below)
{
    git_commit *c = NULL;
    git_oid id;
    size_t i;

    git_oid_cpy(&id, tip);
    for (i = 0; i < n && !git_oid_equal(&id, up); i++) {
        if (git_commit_lookup(&c, repo, &id) < 0)
            return pd_error_set(PD_EGIT, "cannot read a commit: %s", git_error_last()->message);
        if (git_commit_parentcount(c) == 0) {
            git_commit_free(c);
            i = n;
            break;
        }
        git_oid_cpy(&id, git_commit_parent_id(c, 0));
        git_commit_free(c);
    }
    *below = i;
    return 0;
}

int ingest_fork_own(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                    const git_oid *tip, const char *upstream, size_t n, size_t *below)
{
    ingest_fork_from f;
    git_oid base;
    int64_t own;
    int rc, has_base;

    *below = n;
    if (ingest_fork_from_find(repo, db, repo_id, ref, upstream, &f) < 0) {
        pd_error_clear();
        return 0;
    }
    if (!f.name || (f.kept && !f.hide))
        return 0;
    if (f.kept)
        return ingest_fork_steps(repo, tip, &f.up, n, below);
    /* Own commits are a prefix of the first-parent chain: once one is
     * reachable from the upstream, so are all its ancestors. */
    if ((rc = ingest_fork_walk(repo, tip, &f.up, &own, &base, &has_base)) == 0 &&
        (uint64_t)own < n)
        *below = (size_t)own;
    return rc;
}

/* Record the stored fork f again for tip row tip_id: its own commits
 * counted along the stored chain down to its base (the commits are
 * stored by now), or, the base no longer on it, the fork dropped. */
static int ingest_fork_keep(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip_id,
                            const ingest_fork_from *f, int64_t *own, int *how)
{
    int rc = db_fork_own_count(db, tip_id, f->stored.base_id, own);

    if (rc == PD_ENOTFOUND) {
        pd_error_clear();
        *own = -1;
        *how = INGEST_FORK_DROPPED;
        return db_fork_clear(db, repo_id, ref);
    }
    if (rc < 0)
        return rc;
    *how = INGEST_FORK_KEPT;
    return db_fork_put(db, repo_id, ref, f->name, f->stored.base_oid, *own,
                       (int64_t)time(NULL));
}

int ingest_fork_record(git_repository *repo, sqlite3 *db, int64_t repo_id, const char *ref,
                       const git_oid *tip, int64_t tip_id, const char *upstream,
                       int64_t *own, int *how)
{
    char hex[GIT_OID_HEXSZ + 1];
    ingest_fork_from f;
    git_oid base;
    int rc, has_base;

    *own = -1;
    *how = INGEST_FORK_NONE;
    if ((rc = ingest_fork_from_find(repo, db, repo_id, ref, upstream, &f)) < 0)
        return rc;
    if (!f.name)
        return db_fork_clear(db, repo_id, ref);
    if (f.kept && f.hide)
        return ingest_fork_keep(db, repo_id, ref, tip_id, &f, own, how);
    if ((rc = ingest_fork_walk(repo, tip, f.hide ? &f.up : NULL, own, &base, &has_base)) < 0)
        return rc;
    if (f.kept && !ingest_fork_holds(&f, has_base)) {
        *own = -1;
        *how = INGEST_FORK_DROPPED;
        return db_fork_clear(db, repo_id, ref);
    }
    *how = f.kept ? INGEST_FORK_KEPT : INGEST_FORK_FOUND;
    git_oid_tostr(hex, sizeof(hex), &base);
    return db_fork_put(db, repo_id, ref, f.name, has_base ? hex : NULL, *own,
                       (int64_t)time(NULL));
}
