/*
 * ingest_plan.c: one commit's selected changes from git (see ingest_plan.h).
 */
#include <stdlib.h>
#include <string.h>

#include <git2/sys/repository.h>

#include "ingest_patch.h"
#include "ingest_plan.h"
#include "ingest_filter_dirs.h"
#include "pd_error.h"

/* The repository's configuration as read now, made the handle's own:
 * every git_diff_tree_to_tree takes a snapshot of it (libgit2 1.5), which
 * looks at each configuration file again, four to eight fstatat calls a
 * diff (27,000 in an ingest of numpy/core's history); a snapshot of a
 * snapshot looks at no file.  A handle lives INGEST_PLAN_REOPEN commits,
 * and a change to the configuration during an ingest is read at the next
 * one. */
static void ingest_plan_config_once(git_repository *repo)
{
    git_config *snap;

    if (git_repository_config_snapshot(&snap, repo) == 0) {
        git_repository_set_config(repo, snap);
        git_config_free(snap);
    }
}

int ingest_plan_repo(git_repository **repo, size_t *calls, const char *repo_path)
{
    git_repository *fresh = NULL;

    if (*repo && ++*calls % INGEST_PLAN_REOPEN != 0)
        return 0;
    if (git_repository_open_ext(&fresh, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH,
                                NULL) < 0) {
        if (*repo)
            return 0;
        return pd_error_set(PD_EGIT, "%s: not a git repository: %s", repo_path,
                            git_error_last() ? git_error_last()->message : "?");
    }
    ingest_plan_config_once(fresh);
    git_repository_free(*repo);
    *repo = fresh;
    return 0;
}

void ingest_plan_clear(ingest_plan *p)
{
    size_t i;

    if (!p)
        return;
    for (i = 0; i < p->nch; i++) {
        free(p->ch[i].path);
        free(p->ch[i].old_path);
    }
    free(p->ch);
    free(p->err);
    ingest_commit_meta_free(&p->meta);
    memset(p, 0, sizeof(*p));
}

void ingest_commit_meta_free(ingest_commit_meta *m)
{
    if (!m)
        return;
    free(m->text);
    memset(m, 0, sizeof(*m));
}

/* Every parent id is kept, space-separated: an octopus merge may have any
 * number of them. */
int ingest_commit_meta_of(ingest_commit_meta *m, const git_commit *c)
{
    const git_signature *a = git_commit_author(c);
    const char *summary = git_commit_summary((git_commit *)c);
    const char *name = a && a->name ? a->name : "", *email = a && a->email ? a->email : "";
    size_t np = git_commit_parentcount(c), off = GIT_OID_HEXSZ + 1, i;
    size_t ln = strlen(name) + 1, le = strlen(email) + 1;
    size_t ls = (summary ? strlen(summary) : 0) + 1;
    char *t;

    memset(m, 0, sizeof(*m));
    if (!(t = m->text = malloc(GIT_OID_HEXSZ + 1 + np * (GIT_OID_HEXSZ + 1) + 1 +
                               ln + le + ls)))
        return pd_error_nomem(NULL);
    git_oid_tostr(t, GIT_OID_HEXSZ + 1, git_commit_id(c));
    m->row.oid = t;
    m->row.parents = t + off;
    for (i = 0; i < np; i++) {
        if (i)
            t[off++] = ' ';
        git_oid_tostr(t + off, GIT_OID_HEXSZ + 1, git_commit_parent_id(c, (unsigned)i));
        off += GIT_OID_HEXSZ;
    }
    t[off++] = '\0';
    m->row.author_name = memcpy(t + off, name, ln);
    m->row.author_email = memcpy(t + off + ln, email, le);
    m->row.summary = memcpy(t + off + ln + le, summary ? summary : "", ls);
    m->row.author_time = a ? a->when.time : 0;
    m->row.author_offset = a ? a->when.offset : 0;
    m->row.committer_time = git_commit_time(c);
    m->row.committer_offset = git_commit_time_offset(c);
    return 0;
}

/* 1 when rename detection can change the plan: a selected file was both
 * deleted and added (a pair needs both halves; a rename that only leaves
 * or only enters the filter plans as the deletion or addition it is). */
static int ingest_plan_wants_renames(const pathfilter *pf, git_diff *diff)
{
    size_t i, n = diff ? git_diff_num_deltas(diff) : 0;
    int added = 0, deleted = 0;

    for (i = 0; i < n && !(added && deleted); i++) {
        const git_diff_delta *d = git_diff_get_delta(diff, i);

        if (d->status == GIT_DELTA_ADDED && pathfilter_contains(pf, d->new_file.path))
            added = 1;
        if (d->status == GIT_DELTA_DELETED && pathfilter_contains(pf, d->old_file.path))
            deleted = 1;
    }
    return added && deleted;
}

/* Pair deleted and added files into renames (libgit2's similarity
 * detection, as git's -M) over the whole tree's diff.  Similarity reads
 * blobs, so it only runs when ingest_plan_wants_renames() says so.  A
 * clone that lacks some blobs cannot compare them: then the commit is
 * stored without renames rather than not at all. */
static void ingest_plan_renames(git_diff *diff)
{
    git_diff_find_options fopt;

    git_diff_find_options_init(&fopt, GIT_DIFF_FIND_OPTIONS_VERSION);
    fopt.flags = GIT_DIFF_FIND_RENAMES;
    if (git_diff_find_similar(diff, &fopt) < 0)
        git_error_clear();
}

/* Append a change (capacity is reserved by the caller). */
static int ingest_plan_add(ingest_plan *p, const char *path, const git_oid *blob,
                           const char *old_path)
{
    ingest_plan_change *ch = &p->ch[p->nch];

    memset(ch, 0, sizeof(*ch));
    if (!(ch->path = strdup(path)) || (old_path && !(ch->old_path = strdup(old_path)))) {
        free(ch->path);
        return pd_error_nomem(NULL);
    }
    ch->deleted = blob == NULL;
    if (blob)
        git_oid_cpy(&ch->blob, blob);
    p->nch++;
    return 0;
}

/*
 * The changes of one delta: a rename within the filter becomes a deletion of the
 * old path and an addition of the new one that names the old, so that a
 * file's history can be followed across the move.
 */
static int ingest_plan_delta(ingest_plan *p, const pathfilter *pf, const git_diff_delta *d)
{
    int is_blob = d->new_file.mode == GIT_FILEMODE_BLOB ||
                  d->new_file.mode == GIT_FILEMODE_BLOB_EXECUTABLE;
    int gone = d->status == GIT_DELTA_DELETED || !is_blob;
    int old_in = pathfilter_contains(pf, d->old_file.path);
    int new_in = pathfilter_contains(pf, d->new_file.path);
    int renamed = d->status == GIT_DELTA_RENAMED && old_in;
    int rc = 0;

    if (renamed && (rc = ingest_plan_add(p, d->old_file.path, NULL, NULL)) < 0)
        return rc;
    if (gone && old_in && d->status != GIT_DELTA_RENAMED)
        return ingest_plan_add(p, d->old_file.path, NULL, NULL);
    if (!gone && new_in)
        rc = ingest_plan_add(p, d->new_file.path, &d->new_file.id,
                             renamed ? d->old_file.path : NULL);
    return rc;
}

/* 1 when the entries at literal directory `dir` (with its '/') of trees a
 * and b are the same object of the same mode, or both missing: then no
 * path under it changed.  0 otherwise, and when it cannot tell. */
static int ingest_plan_same_dir(git_tree *a, git_tree *b, const char *dir)
{
    char path[4096];
    size_t len = strlen(dir);
    git_tree_entry *ea = NULL, *eb = NULL;
    int ra, rb, same;

    if (len == 0 || len >= sizeof(path))
        return 0;
    memcpy(path, dir, len + 1);
    if (path[len - 1] == '/')
        path[len - 1] = '\0';
    ra = git_tree_entry_bypath(&ea, a, path);
    rb = git_tree_entry_bypath(&eb, b, path);
    if (ra == GIT_ENOTFOUND && rb == GIT_ENOTFOUND)
        same = 1;
    else
        same = ra == 0 && rb == 0 && git_tree_entry_filemode(ea) == git_tree_entry_filemode(eb) &&
               git_oid_equal(git_tree_entry_id(ea), git_tree_entry_id(eb));
    git_tree_entry_free(ea);
    git_tree_entry_free(eb);
    git_error_clear();
    return same;
}

/* 1 when nothing in the `n` directories `dirs` (the whole tree when n is 0)
 * differs between trees a and b, told from their ids alone.  Most commits
 * of a long history touch nothing a filter selects (numpy-hpy: 8,866 of
 * 14,978 change nothing under numpy/core), and a diff's setup, even of
 * equal trees, costs libgit2 a configuration snapshot, a pathspec and two
 * iterators (issue 26). */
static int ingest_plan_same(git_tree *a, git_tree *b, char **dirs, size_t n)
{
    size_t i;

    if (n == 0)
        return git_oid_equal(git_tree_id(a), git_tree_id(b));
    for (i = 0; i < n; i++)
        if (!ingest_plan_same_dir(a, b, dirs[i]))
            return 0;
    return 1;
}

/* The diff of `commit` against its first parent (NULL tree for a root, and
 * for a commit whose parent a shallow clone lacks: the history starts at
 * it), limited to the `n` literal directories `dirs` when n > 0.  *diff is
 * NULL (no delta) when those directories are the parent's. */
static int ingest_plan_diff(git_diff **diff, git_repository *repo, git_commit *commit,
                            const git_oid *parent_tree, char **dirs, size_t n)
{
    git_commit *parent = NULL;
    git_tree *old_tree = NULL, *new_tree = NULL;
    git_diff_options dopt;
    int rc = 0, prc = 0;

    git_diff_options_init(&dopt, GIT_DIFF_OPTIONS_VERSION);
    dopt.flags = GIT_DIFF_SKIP_BINARY_CHECK;
    if (n > 0) {
        /* Literal: a directory named with '*' or '[' is not a glob. */
        dopt.flags |= GIT_DIFF_DISABLE_PATHSPEC_MATCH;
        dopt.pathspec.strings = dirs;
        dopt.pathspec.count = n;
    }
    if (git_commit_parentcount(commit) > 0 && parent_tree)
        prc = git_tree_lookup(&old_tree, repo, parent_tree);
    else if (git_commit_parentcount(commit) > 0 &&
             (prc = git_commit_parent(&parent, commit, 0)) == GIT_ENOTFOUND) {
        git_error_clear();
        prc = 0;
    }
    *diff = NULL;
    if (prc < 0 || (parent && git_commit_tree(&old_tree, parent) < 0) ||
        git_commit_tree(&new_tree, commit) < 0)
        rc = -1;
    else if (!(old_tree && ingest_plan_same(old_tree, new_tree, dirs, n)) &&
             git_diff_tree_to_tree(diff, repo, old_tree, new_tree, &dopt) < 0)
        rc = -1;
    git_tree_free(old_tree);
    git_tree_free(new_tree);
    git_commit_free(parent);
    return rc;
}

/* The selected changes as libgit2 deltas: the diff of the filter's
 * directories alone (ingest_filter_dirs()) when rename detection has
 * nothing to pair, otherwise the whole tree's diff with renames found, so
 * that a selected file deleted here is paired with the same candidates as
 * git -M would (one that moved out of the filter included).  Without
 * renames every delta is one path's, so the narrower diff holds exactly
 * the selected deltas of the whole one; libgit2 then neither reads nor
 * compares the trees outside the filter's directories. */
static int ingest_plan_deltas(git_diff **diff, git_repository *repo, git_commit *commit,
                              const git_oid *parent_tree, const pathfilter *pf)
{
    char **dirs = NULL;
    size_t n = 0;
    int rc;

    if ((rc = ingest_filter_dirs(pf, &dirs, &n)) < 0)
        return rc;
    if (ingest_plan_diff(diff, repo, commit, parent_tree, dirs, n) < 0) {
        rc = -1;
    } else if (ingest_plan_wants_renames(pf, *diff)) {
        if (n > 0) {
            git_diff_free(*diff);
            *diff = NULL;
            rc = ingest_plan_diff(diff, repo, commit, parent_tree, NULL, 0);
        }
        if (rc == 0)
            ingest_plan_renames(*diff);
    }
    ingest_filter_dirs_free(dirs, n);
    return rc;
}

/* The patch id of the planned paths (deleted and new halves alike). */
static void ingest_plan_patch_id(ingest_plan *p, git_repository *repo, git_commit *commit,
                                 const git_oid *parent_tree)
{
    char **paths = calloc(p->nch + 1, sizeof(char *));
    size_t i;

    if (!paths)
        return;
    for (i = 0; i < p->nch; i++)
        paths[i] = p->ch[i].path;
    p->has_patch_id = p->nch &&
                      ingest_patch_id(&p->patch_id, repo, commit, parent_tree, paths,
                                      p->nch) == 0;
    git_error_clear();
    free(paths);
}

int ingest_plan_commit(ingest_plan *out, git_repository *repo, const pathfilter *pf,
                       const git_oid *oid, const git_oid *parent_tree, int patch_ids,
                       const char *repo_path)
{
    git_commit *commit = NULL;
    git_diff *diff = NULL;
    char hex[GIT_OID_HEXSZ + 1];
    size_t i, n;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    git_oid_cpy(&out->commit, oid);
    if (parent_tree && git_oid_is_zero(parent_tree))
        parent_tree = NULL;
    if (git_commit_lookup(&commit, repo, oid) < 0 ||
        (rc = ingest_plan_deltas(&diff, repo, commit, parent_tree, pf)) == -1) {
        const git_error *e = git_error_last();

        git_oid_tostr(hex, sizeof(hex), oid);
        rc = pd_error_set(PD_EGIT, "%s: cannot read the trees of commit %s: %s",
                          repo_path, hex, e ? e->message : "?");
        goto done;
    }
    if (rc < 0 || (rc = ingest_commit_meta_of(&out->meta, commit)) < 0)
        goto done;
    n = diff ? git_diff_num_deltas(diff) : 0;
    if (!(out->ch = calloc(2 * n + 1, sizeof(*out->ch)))) {
        rc = pd_error_nomem(NULL);
        goto done;
    }
    for (i = 0; i < n && rc == 0; i++)
        rc = ingest_plan_delta(out, pf, git_diff_get_delta(diff, i));
    if (rc == 0 && patch_ids)
        ingest_plan_patch_id(out, repo, commit, parent_tree);
done:
    if (rc < 0) {
        out->rc = rc;
        out->err = strdup(pd_error_last());
    }
    git_diff_free(diff);
    git_commit_free(commit);
    return rc;
}
