/*
 * ingest.c: walking history and feeding the analyzer (see ingest.h): a
 * run's set-up, each ref's first-parent chain back to the newest commit
 * with a summary, and each commit of it stored (or revisited) oldest
 * first, its changes applied by ingest_apply.c.
 *
 * A run that resumes from a stored commit starts from that commit's stored
 * totals and reads a path's previous blob from its tree only when a change
 * touches the path (ingest_apply.c), so a push of one commit costs that
 * commit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <git2.h>

#include "pd_time.h"
#include "analyzer/analyzer.h"
#include "db.h"
#include "db_flow_graph.h"
#include "db_lock.h"
#include "db_repo.h"
#include "ingest.h"
#include "ingest_apply.h"
#include "ingest_ctx.h"
#include "ingest_filter_check.h"
#include "ingest_flow.h"
#include "ingest_kinds.h"
#include "ingest_fork.h"
#include "ingest_gitdir.h"
#include "ingest_missing.h"
#include "ingest_pipe.h"
#include "ingest_plan.h"
#include "ingest_setup.h"
#include "ingest_progress.h"
#include "ingest_store.h"
#include "ingest_tip.h"
#include "pd_domain.h"
#include "pd_error.h"
#include "pd_sched.h"
#include "pd_rev.h"
#include "pathfilter_value.h"

#define INGEST_BATCH_COMMITS 2000

/* Chains shorter than this are ingested on the calling thread alone:
 * starting threads costs more than a push of a few commits gains. */
#define INGEST_PARALLEL_MIN 32

/* A background ingest's writer waits this long for its threads before it
 * plans a commit or analyses a blob itself (ingest_pipe.h): long enough
 * that an idle machine rarely reaches it, short against what a server's
 * upload waits for the write lock the writer holds. */
#define INGEST_STALL_MS 20

/* 1 when the caller asked the run to stop (ingest_options.interrupted). */
static int ingest_stopped(const ingest_ctx *c)
{
    return c->opt->interrupted && c->opt->interrupted(c->opt->interrupt_arg);
}

/* Commit the open transaction every so often, so work survives a stop. */
static int ingest_checkpoint(ingest_ctx *c, int force)
{
    int rc;

    if (!force && ++c->batch < c->batch_commits)
        return 0;
    c->batch = 0;
    if ((rc = db_ingest_commit(c->store)) < 0)
        return rc;
    c->st.commits_kept = c->st.commits_new;
    return db_ingest_begin(c->store);
}

/* Plan commit `oid` on this thread.  A short chain (a push) is planned on
 * the run's own handle: a second one would open the repository again and
 * map and fault in the same pack windows for the diff and the patch id
 * that the analysis then reads (the reopening is for long walks). */
static int ingest_plan_here(ingest_ctx *c, ingest_plan *out, const git_oid *oid,
                            const git_oid *parent_tree, int patch_id)
{
    int rc;

    if (c->plan_on_repo)
        return ingest_plan_commit(out, c->repo, &c->filter, oid, parent_tree, patch_id,
                                  c->opt->repo_path);
    if ((rc = ingest_plan_repo(&c->plan_repo, &c->plan_calls, c->opt->repo_path)) < 0)
        return rc;
    return ingest_plan_commit(out, c->plan_repo, &c->filter, oid, parent_tree, patch_id,
                              c->opt->repo_path);
}

/* Store (or revisit) one commit of the chain and its summary.  `plan` is
 * the commit's plan from the planner thread, or NULL to make it here
 * (parent_tree: its first parent's tree id, zero when unknown). */
static int ingest_commit(ingest_ctx *c, const git_oid *oid, const git_oid *parent_tree,
                         int64_t known_id, int64_t *prev_id, const ingest_plan *plan)
{
    ingest_plan here;
    int64_t id = known_id;
    int rc;

    memset(&here, 0, sizeof(here));
    c->cur_commit = known_id;
    if (id) {       /* replayed from its rows: the commit is not read */
        rc = db_ingest_changes_of(c->store, id, ingest_replay_change, c);
        /* Stored under older source kinds: add the newer kinds' files. */
        if (rc == 0 && c->kinds_since < PD_SRC_KINDS && !plan)
            rc = ingest_plan_here(c, &here, oid, parent_tree, 0);
        if (rc == 0 && c->kinds_since < PD_SRC_KINDS)
            rc = ingest_apply_new_kinds(c, plan ? plan : &here, id, c->kinds_since);
    } else {
        db_commit_row row;

        /* The plan carries the commit's row (the planner read the commit:
         * a plan that failed never comes here, ingest_pipe_next says so). */
        rc = plan ? 0 : ingest_plan_here(c, &here, oid, parent_tree, c->patch_here);
        if (!plan)
            plan = &here;
        row = plan->meta.row;
        row.first_parent_id = row.parents && row.parents[0] ? *prev_id : 0;
        if (rc == 0)
            rc = db_ingest_commit_insert(c->store, &id, c->repo_id, &row);
        c->cur_commit = id;
        if (rc == 0) {
            c->st.commits_new++;
            rc = ingest_apply_plan(c, plan, id);
        }
    }
    if (rc == 0) {
        db_counts stats;

        if ((rc = ingest_flow_totals(c->flow, &c->totals, &stats)) == 0 &&
            (rc = ingest_flow_commit(c->flow, id)) == 0)
            rc = db_ingest_stats(c->store, id, c->rules_hash, &stats);
    }
    if (rc == 0)
        rc = ingest_checkpoint(c, 0);
    *prev_id = id;
    ingest_plan_clear(&here);
    return rc;
}

/* Set the running state to commit `base` (0: none): its stored summary
 * now, its files as they are touched (ingest_apply). */
static int ingest_load_base(ingest_ctx *c, int64_t base)
{
    char hex[GIT_OID_HEXSZ + 1];
    git_commit *commit = NULL;
    git_oid oid;
    int rc;

    if (c->path_known)
        memset(c->path_known, 0, c->npath_known);
    memset(&c->totals, 0, sizeof(c->totals));
    git_tree_free(c->base_tree);
    c->base_tree = NULL;
    if (!base)
        return ingest_flow_base(c->flow, 0);
    if ((rc = db_commit_stats(c->db, base, c->rules_hash, &c->totals)) < 0 ||
        (rc = ingest_flow_base(c->flow, base)) < 0 ||
        (rc = db_ingest_commit_oid(c->store, hex, base)) < 0)
        return rc;
    if (git_oid_fromstr(&oid, hex) < 0 || git_commit_lookup(&commit, c->repo, &oid) < 0 ||
        git_commit_tree(&c->base_tree, commit) < 0) {
        const git_error *e = git_error_last();

        rc = pd_error_set(PD_EGIT, "%s: cannot read the tree of commit %s: %s",
                          c->opt->repo_path, hex, e ? e->message : "?");
    }
    git_commit_free(commit);
    return rc;
}

/*
 * Collect the first-parent chain from `tip` back to the newest commit with
 * a summary (*base, 0 if none): *chain_out lists the commits to process,
 * newest first, with their row ids if already stored, and *trees_out
 * their tree ids (what the plan of each one's child diffs against).
 */
static int ingest_chain(ingest_ctx *c, const git_oid *tip, git_oid **chain_out,
                        git_oid **trees_out, int64_t **ids_out, size_t *n_out,
                        int64_t *base)
{
    git_oid cur = *tip, *chain = NULL, *trees = NULL;
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
            void *t = b ? realloc(trees, cap * sizeof(*trees)) : NULL;
            if (a)
                chain = a;
            if (b)
                ids = b;
            if (!t) {
                rc = pd_error_nomem(NULL);
                break;
            }
            trees = t;
        }
        chain[n] = cur;
        ids[n++] = id;
        if ((rc = git_commit_lookup(&commit, c->repo, &cur)) < 0) {
            char hex[GIT_OID_HEXSZ + 1];

            /* A parent the clone lacks is a shallow boundary: the history
             * starts at its child, as at a root commit. */
            if (n > 1 && ingest_missing_kind(rc) == INGEST_MISSING_ABSENT) {
                git_error_clear();
                n--;
                rc = 0;
                c->st.shallow = 1;
                break;
            }

            git_oid_tostr(hex, sizeof(hex), &cur);
            rc = pd_error_set(PD_EGIT, "%s: cannot read commit %s: %s",
                              c->opt->repo_path, hex, git_error_last()->message);
            break;
        }
        git_oid_cpy(&trees[n - 1], git_commit_tree_id(commit));
        if (git_commit_parentcount(commit) == 0) {
            git_commit_free(commit);
            break;
        }
        cur = *git_commit_parent_id(commit, 0);
        git_commit_free(commit);
    }
    *chain_out = chain;
    *trees_out = trees;
    *ids_out = ids;
    *n_out = n;
    return rc;
}

/*
 * The first parent's tree of each commit of a chain (ingest_chain's
 * trees[0..n)), in place: trees[i] becomes the tree of chain[i + 1], the
 * oldest one's the base's tree (c->base_tree), or zero when there is none
 * to give (a root commit, a shallow boundary: the plan reads the parent).
 */
static void ingest_chain_parent_trees(const ingest_ctx *c, git_oid *trees, size_t n)
{
    size_t i;

    for (i = 0; i + 1 < n; i++)
        trees[i] = trees[i + 1];
    if (n && c->base_tree)
        git_oid_cpy(&trees[n - 1], git_tree_id(c->base_tree));
    else if (n)
        memset(&trees[n - 1], 0, sizeof(trees[n - 1]));
}

/* Resolve a ref name to its commit id; the message names ref and repo.
 * A ref the command line gave (`given`) that the repository does not know
 * is bad usage, PD_EINVAL (exit 2, as gate and analyze say of a revision),
 * and the message names the repository's branches, first the one meant
 * (pd_rev_unknown); a stored tip gone from it is PD_ENOTFOUND. */
static int ingest_resolve(ingest_ctx *c, git_oid *out, const char *ref, int given)
{
    git_object *obj = NULL, *peeled = NULL;
    int rc = 0;

    if ((rc = pd_rev_parse(&obj, c->repo, ref)) == PD_EINVAL)
        return rc;
    if (rc < 0 && given)
        return pd_rev_unknown(c->repo, c->opt->repo_path, ref, PD_EINVAL);
    if (rc < 0)
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


/* Start the threads for a chain of n commits (newest first) when it is
 * long enough to gain from them. */
static int ingest_pipe_open(ingest_ctx *c, const git_oid *chain, const git_oid *ptrees,
                            const int64_t *ids, size_t n)
{
    ingest_pipe_options po;
    git_oid *analysed = NULL;
    int *known = NULL;
    size_t i, nanalysed = 0;
    int rc;

    if (c->threads < 2 || n < INGEST_PARALLEL_MIN)
        return 0;
    if (!(known = calloc(n, sizeof(int))))
        return pd_error_nomem(NULL);
    /* A stored commit is planned again when its repository lacks the
     * newer source kinds (ingest_kinds.h). */
    for (i = 0; i < n; i++)
        known[i] = ids[i] != 0 && c->kinds_since >= PD_SRC_KINDS;
    if ((rc = ingest_store_analysed_blobs(c->store, c->rules_hash, &analysed,
                                          &nanalysed)) < 0)
        goto done;
    memset(&po, 0, sizeof(po));
    po.repo_path = c->opt->repo_path;
    po.rules = c->rules;
    po.memo = c->memo;
    po.filter = &c->filter;
    po.threads = c->threads;
    po.patch_below = c->patch_below;
    po.chain = chain;
    po.parent_trees = ptrees;
    po.known = known;
    po.n = n;
    po.analysed = analysed;
    po.nanalysed = nanalysed;
    po.background = c->opt->background;
    po.stall_ms = c->opt->stall_ms ? c->opt->stall_ms : INGEST_STALL_MS;
    rc = ingest_pipe_start(&c->pipe, &po);
done:
    /* The pipe copied the analysed ids; `known` lives as long as it. */
    free(analysed);
    if (rc < 0 || !c->pipe)
        free(known);
    else
        c->pipe_known = known;
    return rc;
}

static void ingest_pipe_close(ingest_ctx *c)
{
    uint64_t plans, blobs;

    ingest_pipe_stalls(c->pipe, &plans, &blobs);
    c->st.stalled_plans += plans;
    c->st.stalled_blobs += blobs;
    ingest_pipe_cpu(c->pipe, &c->st.cpu_plan_s, &c->st.cpu_analyse_s);
    ingest_pipe_free(c->pipe);
    c->pipe = NULL;
    free(c->pipe_known);
    c->pipe_known = NULL;
}


/* Ingest one ref: walk, replay oldest first, then move the stored ref
 * (unless !store_ref: a tip that only needs its summaries again). */
static int ingest_ref(ingest_ctx *c, const char *ref, int store_ref)
{
    git_oid tip, *chain = NULL, *ptrees = NULL;
    int64_t *ids = NULL, base = 0, prev, tip_id = 0, old_id = 0, own;
    const ingest_plan *plan = NULL;
    size_t n = 0, i;
    int rc, has_stats, how;

    c->patch_below = 0;
    if ((rc = ingest_resolve(c, &tip, ref, store_ref)) < 0 ||
        (rc = db_ingest_ref_get(c->store, &old_id, c->repo_id, ref)) < 0)
        return rc;
    if (store_ref && (rc = ingest_tip_behind(c, old_id, &tip)) != 0) {
        if (rc > 0) {
            c->st.refs_behind++;
            snprintf(c->st.behind_ref, sizeof(c->st.behind_ref), "%s", ref);
        }
        return rc < 0 ? rc : 0;
    }
    if ((rc = ingest_chain(c, &tip, &chain, &ptrees, &ids, &n, &base)) < 0 ||
        (rc = ingest_load_base(c, base)) < 0)
        goto done;
    ingest_chain_parent_trees(c, ptrees, n);
    /* Patch ids for the ref's own commits alone (doc/history.md). */
    if ((!c->opt->no_patch_ids &&
         (rc = ingest_fork_own(c->repo, c->db, c->repo_id, ref, &tip, c->opt->upstream,
                               n, &c->patch_below)) < 0) ||
        (rc = ingest_pipe_open(c, chain, ptrees, ids, n)) < 0)
        goto done;
    c->st.commits_seen += n;
    c->plan_on_repo = n < INGEST_PARALLEL_MIN;
    ingest_git_blob_cache(c->plan_on_repo && !c->pipe);
    ingest_progress_ref(c->progress, ref, n);
    prev = base;
    for (i = n; i-- > 0;) {
        c->patch_here = i < c->patch_below;
        /* Between commits too: SQLite's progress handler sees the
         * interrupt only in statements of 1,000 steps or more. */
        if (ingest_stopped(c)) {
            rc = pd_error_set(PD_ERROR, "interrupted");
            goto done;
        }
        if ((c->pipe && (rc = ingest_pipe_next(c->pipe, &plan)) < 0) ||
            (rc = ingest_commit(c, &chain[i], &ptrees[i], ids[i], &prev, plan)) < 0)
            goto done;
        ingest_progress_update(c->progress, n - i, c->st.blobs_analysed,
                               c->st.bytes_analysed);
        if (c->opt->on_progress && ((n - i) % 256 == 0 || i == 0))
            c->opt->on_progress(c->opt->progress_arg, ref, n - i, n);
    }
    ingest_progress_done(c->progress);
    if (c->opt->no_refs || !store_ref)
        goto done;
    if ((rc = ingest_store_commit_find(c->store, &tip_id, &has_stats, c->repo_id,
                                       &tip, c->rules_hash)) < 0 ||
        (rc = ingest_tip_rewrite(c, ref, old_id, tip_id, &tip)) < 0)
        goto done;
    if ((rc = db_ingest_ref(c->store, c->repo_id, ref, tip_id)) == 0 &&
        (rc = ingest_flow_keep(c->flow, tip_id)) == 0 &&
        (rc = db_flow_graph_prune(c->db)) == 0 &&
        (rc = ingest_fork_record(c->repo, c->db, c->repo_id, ref, &tip, tip_id,
                                 c->opt->upstream, &own, &how)) == 0) {
        c->st.forks_kept += how == INGEST_FORK_KEPT;
        c->st.forks_dropped += how == INGEST_FORK_DROPPED;
    }
done:
    ingest_pipe_close(c);
    free(chain);
    free(ptrees);
    free(ids);
    return rc;
}

/* db_refs_list callback: append a stored ref's name to a list. */
static int ingest_ref_name(void *arg, const char *name, int64_t commit_id)
{
    pd_buf *b = arg;

    (void)commit_id;
    pd_buf_printf(b, "%s--ref %s", b->len ? " " : "", name);
    return 0;
}

/* The repository's current branch, for runs without --ref. */
static int ingest_head_ref(ingest_ctx *c, char *buf, size_t n)
{
    git_reference *head = NULL;

    if (git_repository_head(&head, c->repo) < 0) {
        pd_buf refs;
        int rc;

        /* The refs stored before are what a push most likely means. */
        pd_buf_init(&refs, 1024);
        db_refs_list(c->db, c->repo_id, ingest_ref_name, &refs);
        rc = pd_error_set(PD_ENOTFOUND, "%s: no HEAD to ingest; name refs with --ref%s%s%s",
                          c->opt->repo_path, refs.len ? " (stored: " : "",
                          refs.len ? refs.data : "", refs.len ? ")" : "");
        pd_buf_free(&refs);
        return rc;
    }
    snprintf(buf, n, "%s", git_reference_shorthand(head));
    git_reference_free(head);
    return 0;
}


/* Open everything a run needs; the caller frees with ingest_close. */
/* The rules file's name in messages: the --rules path as given. */
static const char *ingest_rules_name(const ingest_options *opt)
{
    return opt->rules_path ? opt->rules_path : "default.rules (built in)";
}

/* db_repo_rules_check for this run's rules; the hash an older portdash
 * gave them (rules_hash_raw: 2 ms of hashing) only when the stored one is
 * another. */
static int ingest_rules_check(ingest_ctx *c, const ingest_options *opt)
{
    char legacy[41];
    int rc = db_repo_rules_check(c->db, c->repo_id, rules_hash(c->rules), NULL,
                                 ingest_rules_name(opt));

    if (rc != PD_EINVAL && rc != 1)
        return rc;
    pd_error_clear();
    rules_hash_raw(c->rules, legacy);
    return db_repo_rules_check(c->db, c->repo_id, rules_hash(c->rules), legacy,
                               ingest_rules_name(opt));
}

/* In one transaction: the repository's row (found or made), its path
 * filter and rules checked against what is stored, its file kinds and
 * rules profile.  0 or an error (rolled back). */
static int ingest_open_repo(ingest_ctx *c, const ingest_options *opt)
{
    char *abs, *profile = NULL, gitdir[4096], stored[4096];
    int rc;

    if ((rc = db_ingest_begin(c->store)) < 0)
        return rc;
    /* Stored absolute, so that serve finds the sources from any directory
     * (a relative path was kept as typed). */
    abs = realpath(opt->repo_path, NULL);
    snprintf(gitdir, sizeof(gitdir), "%s", abs ? abs : opt->repo_path);
    free(abs);
    if ((rc = db_repo_find(c->db, opt->name, &c->repo_id, stored, sizeof(stored))) ==
        PD_ENOTFOUND) {
        pd_error_clear();
        c->repo_new = 1;
        rc = 0;
    } else if (rc == 0) {
        rc = ingest_gitdir_choose(c->repo, c->db, c->repo_id, stored, gitdir, sizeof(gitdir),
                                  &c->st.git_dir_kept);
    }
    /* A run without --include/--exclude keeps the path filter stored with
     * the repository, so that later commits are cut the same way as
     * earlier ones; a run with them must ask for the same filter. */
    if (rc == 0)
        rc = db_ingest_repo(c->store, &c->repo_id, &c->stored_filter, opt->name, gitdir,
                            opt->ninclude || opt->nexclude ? &c->filter : NULL);
    if (rc == 0)
        rc = ingest_rules_check(c, opt);
    if (rc > 0) {
        c->st.rules_changed = 1;
        rc = 0;
    }
    if (rc == 0)
        rc = ingest_kinds_stored(c->db, c->repo_id, c->repo_new, &c->kinds_since);
    if (rc == 0 && !opt->ninclude && !opt->nexclude)
        c->filter = c->stored_filter.f;
    if (rc == 0 && !(profile = rules_profile_json(c->rules)))
        rc = pd_error_nomem(NULL);
    if (rc == 0)
        rc = db_repo_set_profile(c->db, c->repo_id, profile);
    free(profile);
    if (rc == 0)
        rc = db_ingest_commit(c->store);
    else
        db_ingest_rollback(c->store);
    return rc;
}

static int ingest_open(ingest_ctx *c, const ingest_options *opt)
{
    int rc;

    c->opt = opt;
    c->filter.include = opt->include;
    c->filter.ninclude = opt->ninclude;
    c->filter.exclude = opt->exclude;
    c->filter.nexclude = opt->nexclude;
    c->threads = ingest_threads(opt);
    c->batch_commits = opt->batch_commits ? opt->batch_commits : INGEST_BATCH_COMMITS;
    git_libgit2_init();
    ingest_git_options();
    /* The repository and the rules first: a wrong --git-dir or --rules
     * leaves nothing beside the database, not even its lock file. */
    if (git_repository_open_ext(&c->repo, opt->repo_path,
                                GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        /* the caller's path: bad usage, as for gate and analyze */
        return pd_error_set(PD_EINVAL, "%s: not a git repository: %s", opt->repo_path,
                            git_error_last()->message);
    rc = opt->rules_path ? rules_load(&c->rules, opt->rules_path)
                         : rules_load_default(&c->rules);
    if (rc < 0)
        return rc;
    /* Before the database is opened (and migrated): one writer of
     * commits at a time, with a message that says so (issue 27). */
    if ((rc = db_lock_take_stoppable(&c->lock, opt->db_path, "ingest", opt->lock_wait_s,
                                     opt->interrupted, opt->interrupt_arg)) < 0)
        return rc;
    c->st.locked = 1;
    ingest_analysis_key(c->analysis_key, rules_hash(c->rules));
    c->rules_hash = c->analysis_key;
    if (!opt->no_memo && an_memo_env_bytes() &&
        (rc = an_memo_new(&c->memo, c->rules, an_memo_env_bytes())) < 0)
        return rc;
    /* A new database is built aside and put in place whole: nothing can
     * read it meanwhile, so WAL's checkpoints and syncs guard nothing. */
    if ((rc = db_aside_wanted(opt->db_path) ? db_aside_open(&c->aside, &c->db, opt->db_path)
                                            : db_open(&c->db, opt->db_path, 1)) < 0 ||
        /* Fewer WAL checkpoints (64 MiB of WAL, not 4): the index pages
         * that the run's transactions all rewrite are copied back once, not
         * at every commit (numpy/core: 37.6 -> 35.4 s CPU). */
        (rc = sqlite3_wal_autocheckpoint(c->db, 16384) ? PD_EDB : 0) < 0 ||
        (rc = db_ingest_open(&c->store, c->db)) < 0 ||
        (rc = ingest_flow_open(&c->flow, c->db, c->rules_hash, c->opt->graph_files_kb)) < 0)
        return rc;
    c->st.restarted = db_aside_restarted(c->aside);
    if (opt->interrupted)
        sqlite3_progress_handler(c->db, 1000, opt->interrupted, opt->interrupt_arg);
    return ingest_open_repo(c, opt);
}

/* Free the run's state, which ended with `rc`.  A database built aside
 * is put in place when the run succeeded or was stopped (checked then:
 * its open transaction was rolled back), else removed (db_aside.h);
 * returns the placing's error, else 0. */
static int ingest_close(ingest_ctx *c, int rc_run)
{
    int rc = 0;

    ingest_flow_close(c->flow);
    ingest_progress_free(c->progress);
    db_ingest_free(c->store);
    if (c->aside && (rc_run == 0 || ingest_stopped(c))) {
        rc = db_aside_finish(c->aside, c->db, rc_run != 0);
    } else if (c->aside) {
        db_aside_discard(c->aside, c->db, rc_run);
    } else {
        db_close(c->db);
    }
    c->aside = NULL;
    c->db = NULL;
    an_memo_free(c->memo);
    rules_free(c->rules);
    git_tree_free(c->base_tree);
    git_repository_free(c->plan_repo);
    git_repository_free(c->repo);
    free(c->path_analysis);
    free(c->path_known);
    ingest_counts_free(c);
    db_lock_release(c->lock);
    c->lock = NULL;
    pathfilter_owned_free(&c->stored_filter);
    git_libgit2_shutdown();
    return rc;
}

/* After blobs arrived (ingest_missing_refill), with newer source kinds or
 * other rules: the summaries the run's refs did not recompute, from every
 * stored tip left without them. */
static int ingest_retips(ingest_ctx *c)
{
    char (*tips)[41] = NULL;
    size_t i, n = 0;
    int rc;

    if ((rc = ingest_missing_tips(c->db, c->repo, c->repo_id, c->rules_hash, &tips,
                                  &n)) < 0)
        return rc;
    for (i = 0; i < n && rc == 0; i++)
        rc = ingest_ref(c, tips[i], 0);
    free(tips);
    return rc;
}

/* An --include/--exclude given to this run that selects no C file at
 * the tip of any of its refs is a mistyped glob, not an empty port
 * (ingest_filter_check.h): refused before any commit is recorded. */
static int ingest_check_filter(ingest_ctx *c, const char *const *refs, size_t n)
{
    size_t i, files = 0;
    char hint[600];
    int rc;

    if (!c->opt->ninclude && !c->opt->nexclude)
        return 0;
    for (i = 0; i < n; i++) {
        git_oid tip;

        if ((rc = ingest_resolve(c, &tip, refs[i], 1)) < 0)
            return rc;
        if ((rc = ingest_filter_selects(c->repo, &tip, &c->filter, &files)) != 0)
            return rc < 0 ? rc : 0;
    }
    pathfilter_hint(&c->filter, hint, sizeof(hint));
    return pd_error_set(PD_EINVAL, "no file of %s%s%s is selected by the path filter "
                        "(--include/--exclude; %zu files at its tip): check the globs%s",
                        n == 1 ? "'" : "", n == 1 ? refs[0] : "the refs given",
                        n == 1 ? "'" : "", files, hint);
}

/* A first run that failed keeps nothing (db_repo_forget_empty), so that a
 * retry may choose another path filter or name (issue 23, point 5); one
 * stopped keeps its batches, and nothing but when it stored none.  The
 * run's error message stays. */
static void ingest_forget_new(ingest_ctx *c, int stopped)
{
    char *msg = strdup(pd_error_last());

    if (stopped)        /* else the stop would cut these statements too */
        sqlite3_progress_handler(c->db, 0, NULL, NULL);
    if (c->repo_new && c->repo_id && msg)
        db_repo_forget_empty(c->db, c->repo_id, stopped);
    if (msg)
        pd_error_set(PD_ERROR, "%s", msg);
    free(msg);
}

unsigned ingest_threads(const ingest_options *opt)
{
    return opt->threads ? opt->threads : pd_sched_cpus();
}

int ingest_run(const ingest_options *opt, ingest_stats *stats)
{
    ingest_ctx c;
    char head[256];
    double t0 = pd_clock_s(CLOCK_MONOTONIC), cpu0 = pd_clock_s(CLOCK_THREAD_CPUTIME_ID);
    size_t i;
    int rc, rc2;

    memset(&c, 0, sizeof(c));
    if ((rc = ingest_open(&c, opt)) < 0)
        goto done;
    c.progress = ingest_progress_new(opt->progress);
    if (c.st.rules_changed)
        ingest_progress_note(c.progress, "%s: stored under other rules than %s: the blob "
                             "versions not analysed under them before are analysed now",
                             opt->name, ingest_rules_name(opt));
    if ((rc = db_ingest_begin(c.store)) < 0)
        goto done;
    rc = ingest_missing_refill(c.db, c.repo, c.repo_id, c.rules_hash,
                               &c.st.blobs_filled);
    if (rc == 0 && opt->nrefs == 0) {
        const char *h = head;

        if ((rc = ingest_head_ref(&c, head, sizeof(head))) == 0 &&
            (rc = ingest_check_filter(&c, &h, 1)) == 0)
            rc = ingest_ref(&c, head, 1);
    } else if (rc == 0) {
        rc = ingest_check_filter(&c, (const char *const *)opt->refs, opt->nrefs);
    }
    for (i = 0; i < opt->nrefs && rc == 0; i++)
        rc = ingest_ref(&c, opt->refs[i], 1);
    /* Newer source kinds, or other rules: every stored tip, so that every
     * stored commit has them before the generation is recorded, and the
     * refs this run did not name keep answering (the database answers
     * under the rules of its last ingest). */
    if (rc == 0 && (c.st.blobs_filled || c.kinds_since < PD_SRC_KINDS || c.st.rules_changed))
        rc = ingest_retips(&c);
    if (rc == 0)
        rc = ingest_kinds_done(c.db, c.repo_id, c.kinds_since);
    if (rc == 0)
        rc = db_meta_set(c.db, "rules_hash", c.rules_hash);
    if (rc == 0)
        rc = db_repo_rules_set(c.db, rules_hash(c.rules), ingest_rules_name(opt));
    if (rc == 0 && (rc = db_ingest_commit(c.store)) == 0)
        c.st.commits_kept = c.st.commits_new;
    if (rc < 0) {
        db_ingest_rollback(c.store);
        ingest_forget_new(&c, ingest_stopped(&c));
    }
done:
    if (c.memo) {
        an_memo_stats ms;

        an_memo_stats_get(c.memo, &ms);
        c.st.memo_hits = ms.hits;
        c.st.memo_hit_bytes = ms.hit_bytes;
    }
    /* The close is the run's too: the database's last checkpoint, or a
     * new one put in place. */
    rc2 = ingest_close(&c, rc);
    c.st.close_failed = rc2 < 0;
    if (rc == 0 || rc2 < 0)
        rc = rc2 < 0 ? rc2 : rc;
    c.st.seconds = pd_clock_s(CLOCK_MONOTONIC) - t0;
    c.st.cpu_write_s = pd_clock_s(CLOCK_THREAD_CPUTIME_ID) - cpu0;
    if (stats)
        *stats = c.st;
    return rc;
}
