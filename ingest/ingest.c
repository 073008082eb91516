/*
 * ingest.c: walking history and feeding the analyzer (see ingest.h).
 *
 * The summary of each commit is kept as running totals: a change of a path
 * subtracts the counts of the path's previous analysis and adds the new
 * one's.  Both lookups are array indexes, because path and analysis row ids
 * are small dense integers, so a commit costs its changes, not its tree.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>
#include <jansson.h>

#include "analyze.h"
#include "db.h"
#include "ingest.h"
#include "ingest_patch.h"
#include "ingest_progress.h"
#include "ingest_store.h"
#include "pd_error.h"
#include "rules.h"
#include "scope.h"

#define INGEST_BATCH_COMMITS 2000

typedef struct {
    const ingest_options *opt;
    git_repository *repo;
    sqlite3 *db;
    ingest_store *store;
    rules *rules;
    const char *rules_hash;       /* analysis key: rules hash + analyzer version */
    char analysis_key[GIT_OID_HEXSZ + 1];
    scope scope;
    int64_t repo_id;
    int64_t *path_analysis;       /* by path id: analysis id, 0 if absent */
    size_t npath_analysis;
    db_counts *counts;            /* by analysis id */
    unsigned char *counts_known;
    size_t ncounts;
    db_counts totals;
    ingest_stats st;
    ingest_progress *progress;
    unsigned batch;               /* commits in the open transaction */
    json_t *stored_scope;         /* scope read back from the database */
    const char **scope_globs;     /* borrowed from stored_scope */
} ingest_ctx;

/* Grow a zeroed array so that index `i` exists. */
static int ingest_grow(void **arr, size_t *n, size_t i, size_t elsize)
{
    size_t want = *n ? *n : 1024;
    void *p;

    if (i < *n)
        return 0;
    while (want <= i)
        want *= 2;
    if (!(p = realloc(*arr, want * elsize)))
        return pd_error_set(PD_ENOMEM, "out of memory");
    memset((char *)p + *n * elsize, 0, (want - *n) * elsize);
    *arr = p;
    *n = want;
    return 0;
}

/* Counts of analysis `id`, from the cache or the database. */
static int ingest_counts(ingest_ctx *c, int64_t id, const db_counts **out)
{
    size_t n = c->ncounts;
    int rc;

    if ((rc = ingest_grow((void **)&c->counts, &n, (size_t)id, sizeof(db_counts))) < 0 ||
        (rc = ingest_grow((void **)&c->counts_known, &c->ncounts, (size_t)id, 1)) < 0)
        return rc;
    if (!c->counts_known[id]) {
        if ((rc = db_analysis_counts(c->db, id, &c->counts[id])) < 0)
            return rc;
        c->counts_known[id] = 1;
    }
    *out = &c->counts[id];
    return 0;
}

/* Read and analyse one blob unless already stored; gives its analysis id. */
static int ingest_analysis(ingest_ctx *c, int64_t *id_out, const char *hex,
                           const char *path)
{
    git_oid oid;
    git_blob *blob = NULL;
    an_result *res = NULL;
    db_counts counts;
    size_t size;
    int rc;

    if ((rc = ingest_store_analysis_find(c->store, id_out, hex, c->rules_hash)) < 0
        || *id_out)
        return rc;
    if (git_oid_fromstr(&oid, hex) < 0 || git_blob_lookup(&blob, c->repo, &oid) < 0) {
        const git_error *e = git_error_last();

        return pd_error_set(PD_EGIT, "%s: cannot read blob %s (%s): %s",
                            c->opt->repo_path, hex, path, e ? e->message : "?");
    }
    size = (size_t)git_blob_rawsize(blob);
    if ((rc = an_analyze(&res, c->rules, path, git_blob_rawcontent(blob), size)) < 0)
        goto done;
    if ((rc = ingest_store_analysis_insert(c->store, id_out, &counts, hex,
                                           c->rules_hash, size, res)) < 0)
        goto done;
    c->st.blobs_analysed++;
    c->st.bytes_analysed += size;
done:
    an_result_free(res);
    git_blob_free(blob);
    return rc;
}

/* Make path `path_id` hold blob `hex` (NULL: deleted) in the running totals. */
static int ingest_apply(ingest_ctx *c, int64_t path_id, const char *hex,
                        const char *path)
{
    const db_counts *k;
    int64_t id = 0, old;
    int rc;

    if ((rc = ingest_grow((void **)&c->path_analysis, &c->npath_analysis,
                          (size_t)path_id, sizeof(int64_t))) < 0)
        return rc;
    if (hex && (rc = ingest_analysis(c, &id, hex, path)) < 0)
        return rc;
    old = c->path_analysis[path_id];
    if (old) {
        if ((rc = ingest_counts(c, old, &k)) < 0)
            return rc;
        db_counts_add(&c->totals, k, -1);
    }
    if (id) {
        if ((rc = ingest_counts(c, id, &k)) < 0)
            return rc;
        db_counts_add(&c->totals, k, 1);
    }
    c->path_analysis[path_id] = id;
    return 0;
}

/* ingest_store_changes_of callback: replay a stored change. */
static int ingest_replay_change(void *arg, int64_t path_id, const char *blob,
                                const char *path)
{
    return ingest_apply(arg, path_id, blob, path);
}

/* Store and apply the change of one in-scope path (blob NULL: deleted). */
static int ingest_change(ingest_ctx *c, int64_t commit_id, const char *path,
                         const git_oid *blob, int64_t old_path_id)
{
    char hex[GIT_OID_HEXSZ + 1];
    int64_t path_id;
    int rc;

    if (blob)
        git_oid_tostr(hex, sizeof(hex), blob);
    if ((rc = ingest_store_path_id(c->store, &path_id, path)) < 0 ||
        (rc = ingest_store_change(c->store, commit_id, path_id, blob, old_path_id)) < 0)
        return rc;
    return ingest_apply(c, path_id, blob ? hex : NULL, path);
}

/*
 * One delta of a commit: a rename within scope becomes a deletion of the old
 * path and an addition of the new one that names the old, so that a file's
 * history can be followed across the move.  Changed in-scope paths are
 * collected in `paths` for the patch id.
 */
static int ingest_delta(ingest_ctx *c, int64_t commit_id, const git_diff_delta *d,
                        char **paths, size_t *npaths)
{
    int is_blob = d->new_file.mode == GIT_FILEMODE_BLOB ||
                  d->new_file.mode == GIT_FILEMODE_BLOB_EXECUTABLE;
    int gone = d->status == GIT_DELTA_DELETED || !is_blob;
    int old_in = scope_contains(&c->scope, d->old_file.path);
    int new_in = scope_contains(&c->scope, d->new_file.path);
    int64_t old_id = 0;
    int rc = 0;

    if (d->status == GIT_DELTA_RENAMED && old_in) {
        if ((rc = ingest_change(c, commit_id, d->old_file.path, NULL, 0)) < 0 ||
            (rc = ingest_store_path_id(c->store, &old_id, d->old_file.path)) < 0)
            return rc;
        paths[(*npaths)++] = (char *)d->old_file.path;
    }
    if (gone && old_in && d->status != GIT_DELTA_RENAMED) {
        paths[(*npaths)++] = (char *)d->old_file.path;
        return ingest_change(c, commit_id, d->old_file.path, NULL, 0);
    }
    if (!gone && new_in) {
        paths[(*npaths)++] = (char *)d->new_file.path;
        rc = ingest_change(c, commit_id, d->new_file.path, &d->new_file.id, old_id);
    }
    return rc;
}

/* Pair deleted and added files into renames (libgit2's similarity
 * detection, as git's -M).  Similarity reads blobs, so it only runs when an
 * in-scope file was both deleted and added.  A clone that lacks some blobs
 * cannot compare them: then the commit is stored without renames rather
 * than not at all. */
static void ingest_find_renames(ingest_ctx *c, git_diff *diff)
{
    git_diff_find_options fopt;
    size_t i, n = git_diff_num_deltas(diff);
    int added = 0, deleted = 0;

    for (i = 0; i < n && !(added && deleted); i++) {
        const git_diff_delta *d = git_diff_get_delta(diff, i);

        if (d->status == GIT_DELTA_ADDED && scope_contains(&c->scope, d->new_file.path))
            added = 1;
        if (d->status == GIT_DELTA_DELETED && scope_contains(&c->scope, d->old_file.path))
            deleted = 1;
    }
    if (!added || !deleted)
        return;
    git_diff_find_options_init(&fopt, GIT_DIFF_FIND_OPTIONS_VERSION);
    fopt.flags = GIT_DIFF_FIND_RENAMES;
    if (git_diff_find_similar(diff, &fopt) < 0)
        git_error_clear();
}

/* Diff a new commit against its first parent; store and apply each change,
 * then the commit's patch id. */
static int ingest_diff(ingest_ctx *c, git_commit *commit, int64_t commit_id)
{
    git_commit *parent = NULL;
    git_tree *old_tree = NULL, *new_tree = NULL;
    git_diff *diff = NULL;
    git_diff_options dopt;
    git_oid patch;
    char **paths = NULL;
    size_t i, n, npaths = 0;
    int rc = 0;

    git_diff_options_init(&dopt, GIT_DIFF_OPTIONS_VERSION);
    dopt.flags = GIT_DIFF_SKIP_BINARY_CHECK;
    if ((git_commit_parentcount(commit) > 0 &&
         (git_commit_parent(&parent, commit, 0) < 0 ||
          git_commit_tree(&old_tree, parent) < 0)) ||
        git_commit_tree(&new_tree, commit) < 0 ||
        git_diff_tree_to_tree(&diff, c->repo, old_tree, new_tree, &dopt) < 0) {
        const git_error *e = git_error_last();
        char hex[GIT_OID_HEXSZ + 1];

        git_oid_tostr(hex, sizeof(hex), git_commit_id(commit));
        rc = pd_error_set(PD_EGIT, "%s: cannot read the trees of commit %s: %s",
                          c->opt->repo_path, hex, e ? e->message : "?");
        goto done;
    }
    ingest_find_renames(c, diff);
    n = git_diff_num_deltas(diff);
    if (!(paths = calloc(2 * n + 1, sizeof(char *)))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory");
        goto done;
    }
    for (i = 0; i < n && rc == 0; i++)
        rc = ingest_delta(c, commit_id, git_diff_get_delta(diff, i), paths, &npaths);
    if (rc == 0 && !c->opt->no_patch_ids &&
        ingest_patch_id(&patch, c->repo, commit, paths, npaths) == 0)
        rc = ingest_store_patch_id(c->store, commit_id, &patch);
    git_error_clear();
done:
    free(paths);
    git_diff_free(diff);
    git_tree_free(old_tree);
    git_tree_free(new_tree);
    git_commit_free(parent);
    return rc;
}

/* Commit the open transaction every so often, so work survives a stop. */
static int ingest_checkpoint(ingest_ctx *c, int force)
{
    int rc;

    if (!force && ++c->batch < INGEST_BATCH_COMMITS)
        return 0;
    c->batch = 0;
    if ((rc = db_exec(c->db, "COMMIT")) < 0)
        return rc;
    return db_exec(c->db, "BEGIN IMMEDIATE");
}

/* Store (or revisit) one commit of the chain and its summary. */
static int ingest_commit(ingest_ctx *c, const git_oid *oid, int64_t known_id,
                         int64_t *prev_id)
{
    git_commit *commit = NULL;
    int64_t id = known_id;
    int rc;

    if (git_commit_lookup(&commit, c->repo, oid) < 0) {
        const git_error *e = git_error_last();
        char hex[GIT_OID_HEXSZ + 1];

        git_oid_tostr(hex, sizeof(hex), oid);
        return pd_error_set(PD_EGIT, "%s: cannot read commit %s: %s",
                            c->opt->repo_path, hex, e ? e->message : "?");
    }
    if (id) {
        rc = ingest_store_changes_of(c->store, id, ingest_replay_change, c);
    } else {
        rc = ingest_store_commit_insert(c->store, &id, c->repo_id, commit,
                                        git_commit_parentcount(commit) ? *prev_id : 0);
        if (rc == 0) {
            c->st.commits_new++;
            rc = ingest_diff(c, commit, id);
        }
    }
    if (rc == 0)
        rc = ingest_store_stats(c->store, id, c->rules_hash, &c->totals);
    if (rc == 0)
        rc = ingest_checkpoint(c, 0);
    *prev_id = id;
    git_commit_free(commit);
    return rc;
}

typedef struct {
    int64_t *path_ids;
    char (*blobs)[GIT_OID_HEXSZ + 1];
    char **paths;
    size_t n, cap;
} ingest_fileset;

/* db_commit_files callback: collect the base commit's files.  They are
 * applied after the query ends, because applying may insert analyses into
 * a table the query reads. */
static int ingest_collect_file(void *arg, int64_t path_id, const char *path,
                               const char *blob, int64_t analysis_id)
{
    ingest_fileset *fs = arg;

    if (fs->n == fs->cap) {
        size_t cap = fs->cap ? fs->cap * 2 : 256;
        void *a = realloc(fs->path_ids, cap * sizeof(*fs->path_ids));

        if (a)
            fs->path_ids = a;
        void *b = a ? realloc(fs->blobs, cap * sizeof(*fs->blobs)) : NULL;
        if (b)
            fs->blobs = b;
        void *p = b ? realloc(fs->paths, cap * sizeof(*fs->paths)) : NULL;
        if (!p)
            return pd_error_set(PD_ENOMEM, "out of memory");
        fs->paths = p;
        fs->cap = cap;
    }
    if (!(fs->paths[fs->n] = strdup(path)))
        return pd_error_set(PD_ENOMEM, "out of memory");
    fs->path_ids[fs->n] = path_id;
    snprintf(fs->blobs[fs->n], sizeof(fs->blobs[0]), "%s", blob);
    fs->n++;
    return 0;
}

/* Set the running state to the file set and summary of commit `base`. */
static int ingest_load_base(ingest_ctx *c, int64_t base)
{
    ingest_fileset fs = {0};
    size_t i;
    int rc;

    if (c->path_analysis)
        memset(c->path_analysis, 0, c->npath_analysis * sizeof(int64_t));
    memset(&c->totals, 0, sizeof(c->totals));
    if (!base)
        return 0;
    rc = db_commit_files(c->db, base, c->rules_hash, ingest_collect_file, &fs);
    for (i = 0; i < fs.n && rc == 0; i++)
        rc = ingest_apply(c, fs.path_ids[i], fs.blobs[i], fs.paths[i]);
    for (i = 0; i < fs.n; i++)
        free(fs.paths[i]);
    free(fs.paths);
    free(fs.blobs);
    free(fs.path_ids);
    return rc;
}

/*
 * Collect the first-parent chain from `tip` back to the newest commit with
 * a summary (*base, 0 if none): *chain_out lists the commits to process,
 * newest first, with their row ids if already stored.
 */
static int ingest_chain(ingest_ctx *c, const git_oid *tip, git_oid **chain_out,
                        int64_t **ids_out, size_t *n_out, int64_t *base)
{
    git_oid cur = *tip, *chain = NULL;
    int64_t *ids = NULL, id;
    size_t n = 0, cap = 0;
    int rc = 0, has_stats;

    *base = 0;
    for (;;) {
        git_commit *commit = NULL;

        if ((rc = ingest_store_commit_find(c->store, &id, &has_stats, c->repo_id,
                                           &cur, c->rules_hash)) < 0)
            break;
        if (has_stats) {
            *base = id;
            break;
        }
        if (n == cap) {
            cap = cap ? cap * 2 : 1024;
            void *a = realloc(chain, cap * sizeof(*chain));
            void *b = a ? realloc(ids, cap * sizeof(*ids)) : NULL;
            if (a)
                chain = a;
            if (!b) {
                rc = pd_error_set(PD_ENOMEM, "out of memory");
                break;
            }
            ids = b;
        }
        chain[n] = cur;
        ids[n++] = id;
        if (git_commit_lookup(&commit, c->repo, &cur) < 0) {
            char hex[GIT_OID_HEXSZ + 1];

            git_oid_tostr(hex, sizeof(hex), &cur);
            rc = pd_error_set(PD_EGIT, "%s: cannot read commit %s: %s",
                              c->opt->repo_path, hex, git_error_last()->message);
            break;
        }
        if (git_commit_parentcount(commit) == 0) {
            git_commit_free(commit);
            break;
        }
        cur = *git_commit_parent_id(commit, 0);
        git_commit_free(commit);
    }
    *chain_out = chain;
    *ids_out = ids;
    *n_out = n;
    return rc;
}

/* Resolve a ref name to its commit id; the message names ref and repo. */
static int ingest_resolve(ingest_ctx *c, git_oid *out, const char *ref)
{
    git_object *obj = NULL, *peeled = NULL;
    int rc = 0;

    if (git_revparse_single(&obj, c->repo, ref) < 0)
        return pd_error_set(PD_ENOTFOUND, "%s: unknown ref '%s'",
                            c->opt->repo_path, ref);
    if (git_object_peel(&peeled, obj, GIT_OBJECT_COMMIT) < 0)
        rc = pd_error_set(PD_ENOTFOUND, "%s: ref '%s' does not name a commit",
                          c->opt->repo_path, ref);
    else
        git_oid_cpy(out, git_object_id(peeled));
    git_object_free(peeled);
    git_object_free(obj);
    return rc;
}

/*
 * A ref that moved from `old_id` to `new_id` without descending from it was
 * rebased or force-pushed: record it.  Descent is checked on the stored
 * first-parent chain first, then by git (a merge may bring the old tip in
 * through another parent).  Nothing stored is removed either way.
 */
static int ingest_check_rewrite(ingest_ctx *c, const char *ref, int64_t old_id,
                                int64_t new_id, const git_oid *tip)
{
    char hex[GIT_OID_HEXSZ + 1];
    git_oid old;
    int rc;

    if (!old_id || old_id == new_id)
        return 0;
    if ((rc = ingest_store_on_chain(c->store, new_id, old_id)) != 0)
        return rc < 0 ? rc : 0;
    if ((rc = ingest_store_commit_oid(c->store, hex, old_id)) < 0)
        return rc;
    if (git_oid_fromstr(&old, hex) == 0 &&
        git_graph_descendant_of(c->repo, tip, &old) == 1)
        return 0;
    git_error_clear();
    c->st.rewrites++;
    return ingest_store_rewrite(c->store, c->repo_id, ref, old_id, new_id);
}

/* Ingest one ref: walk, replay oldest first, then move the stored ref. */
static int ingest_ref(ingest_ctx *c, const char *ref)
{
    git_oid tip, *chain = NULL;
    int64_t *ids = NULL, base = 0, prev, tip_id = 0, old_id = 0;
    size_t n = 0, i;
    int rc, has_stats;

    if ((rc = ingest_resolve(c, &tip, ref)) < 0 ||
        (rc = ingest_store_ref_get(c->store, &old_id, c->repo_id, ref)) < 0 ||
        (rc = ingest_chain(c, &tip, &chain, &ids, &n, &base)) < 0 ||
        (rc = ingest_load_base(c, base)) < 0)
        goto done;
    c->st.commits_seen += n;
    ingest_progress_ref(c->progress, ref, n);
    prev = base;
    for (i = n; i-- > 0;) {
        if ((rc = ingest_commit(c, &chain[i], ids[i], &prev)) < 0)
            goto done;
        ingest_progress_update(c->progress, n - i, c->st.blobs_analysed,
                               c->st.bytes_analysed);
        if (c->opt->on_progress && ((n - i) % 256 == 0 || i == 0))
            c->opt->on_progress(c->opt->progress_arg, ref, n - i, n);
    }
    ingest_progress_done(c->progress);
    if (c->opt->no_refs)
        goto done;
    if ((rc = ingest_store_commit_find(c->store, &tip_id, &has_stats, c->repo_id,
                                       &tip, c->rules_hash)) < 0 ||
        (rc = ingest_check_rewrite(c, ref, old_id, tip_id, &tip)) < 0)
        goto done;
    rc = ingest_store_ref(c->store, c->repo_id, ref, tip_id);
done:
    free(chain);
    free(ids);
    return rc;
}

/* The repository's current branch, for runs without --ref. */
static int ingest_head_ref(ingest_ctx *c, char *buf, size_t n)
{
    git_reference *head = NULL;

    if (git_repository_head(&head, c->repo) < 0)
        return pd_error_set(PD_ENOTFOUND, "%s: no HEAD to ingest; name refs with "
                            "--ref", c->opt->repo_path);
    snprintf(buf, n, "%s", git_reference_shorthand(head));
    git_reference_free(head);
    return 0;
}

static double ingest_now(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A run without --include/--exclude keeps the scope stored with the
 * repository, so that later commits are cut the same way as earlier ones. */
static int ingest_use_stored_scope(ingest_ctx *c, const char *text)
{
    json_t *inc, *exc;
    size_t i, ni, ne;

    c->stored_scope = json_loads(text, 0, NULL);
    inc = json_object_get(c->stored_scope, "include");
    exc = json_object_get(c->stored_scope, "exclude");
    if (!json_is_array(inc) || !json_is_array(exc))
        return pd_error_set(PD_EINVAL, "repository '%s' has a corrupt stored scope",
                            c->opt->name);
    ni = json_array_size(inc);
    ne = json_array_size(exc);
    if (!(c->scope_globs = calloc(ni + ne + 1, sizeof(char *))))
        return pd_error_set(PD_ENOMEM, "out of memory");
    for (i = 0; i < ni; i++)
        c->scope_globs[i] = json_string_value(json_array_get(inc, i));
    for (i = 0; i < ne; i++)
        c->scope_globs[ni + i] = json_string_value(json_array_get(exc, i));
    c->scope.include = c->scope_globs;
    c->scope.ninclude = ni;
    c->scope.exclude = c->scope_globs + ni;
    c->scope.nexclude = ne;
    return 0;
}

/* The key analyses are stored under: a hash of the rules file's hash and the
 * analyzer's version, so that a new rules file or a new analyzer both lead
 * to re-analysis on the next ingest, and nothing else does. */
static void ingest_analysis_key(char *out, const char *rules_hash)
{
    char text[128];
    git_oid oid;

    snprintf(text, sizeof(text), "rules %s analyzer %s", rules_hash, AN_ANALYZER_VERSION);
    git_odb_hash(&oid, text, strlen(text), GIT_OBJECT_BLOB);
    git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

/* Open everything a run needs; the caller frees with ingest_close. */
static int ingest_open(ingest_ctx *c, const ingest_options *opt)
{
    char *scope_json = NULL, *stored = NULL, *abs;
    int rc;

    c->opt = opt;
    c->scope.include = opt->include;
    c->scope.ninclude = opt->ninclude;
    c->scope.exclude = opt->exclude;
    c->scope.nexclude = opt->nexclude;
    git_libgit2_init();
    if (git_repository_open_ext(&c->repo, opt->repo_path,
                                GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        return pd_error_set(PD_EGIT, "%s: not a git repository: %s", opt->repo_path,
                            git_error_last()->message);
    rc = opt->rules_path ? rules_load(&c->rules, opt->rules_path)
                         : rules_load_default(&c->rules);
    if (rc < 0)
        return rc;
    ingest_analysis_key(c->analysis_key, rules_hash(c->rules));
    c->rules_hash = c->analysis_key;
    if ((rc = db_open(&c->db, opt->db_path, 1)) < 0 ||
        (rc = ingest_store_open(&c->store, c->db)) < 0)
        return rc;
    if (opt->ninclude || opt->nexclude)
        scope_json = scope_to_json(&c->scope);
    if ((rc = db_exec(c->db, "BEGIN IMMEDIATE")) < 0)
        goto done;
    /* Stored absolute, so that serve finds the sources from any directory
     * (a relative path was kept as typed). */
    abs = realpath(opt->repo_path, NULL);
    rc = ingest_store_repo(c->store, &c->repo_id, scope_json ? NULL : &stored,
                           opt->name, abs ? abs : opt->repo_path, scope_json);
    free(abs);
    if (rc == 0 && stored)
        rc = ingest_use_stored_scope(c, stored);
    if (rc == 0)
        rc = db_exec(c->db, "COMMIT");
    else
        sqlite3_exec(c->db, "ROLLBACK", NULL, NULL, NULL);
done:
    free(stored);
    free(scope_json);
    return rc;
}

static void ingest_close(ingest_ctx *c)
{
    ingest_progress_free(c->progress);
    ingest_store_free(c->store);
    db_close(c->db);
    rules_free(c->rules);
    git_repository_free(c->repo);
    free(c->path_analysis);
    free(c->counts);
    free(c->counts_known);
    free(c->scope_globs);
    json_decref(c->stored_scope);
    git_libgit2_shutdown();
}

int ingest_run(const ingest_options *opt, ingest_stats *stats)
{
    ingest_ctx c;
    char head[256];
    double t0 = ingest_now();
    size_t i;
    int rc;

    memset(&c, 0, sizeof(c));
    if ((rc = ingest_open(&c, opt)) < 0)
        goto done;
    c.progress = ingest_progress_new(opt->progress);
    if ((rc = db_exec(c.db, "BEGIN IMMEDIATE")) < 0)
        goto done;
    if (opt->nrefs == 0) {
        if ((rc = ingest_head_ref(&c, head, sizeof(head))) == 0)
            rc = ingest_ref(&c, head);
    }
    for (i = 0; i < opt->nrefs && rc == 0; i++)
        rc = ingest_ref(&c, opt->refs[i]);
    if (rc == 0)
        rc = db_meta_set(c.db, "rules_hash", c.rules_hash);
    if (rc == 0)
        rc = db_exec(c.db, "COMMIT");
    if (rc < 0)
        sqlite3_exec(c.db, "ROLLBACK", NULL, NULL, NULL);
done:
    c.st.seconds = ingest_now() - t0;
    if (stats)
        *stats = c.st;
    ingest_close(&c);
    return rc;
}
