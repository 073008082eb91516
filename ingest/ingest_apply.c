/*
 * ingest_apply.c: a commit's changes applied to the running state (see
 * ingest_apply.h).
 *
 * The summary of each commit is kept as running totals: a change of a path
 * subtracts the counts of the path's previous analysis and adds the new
 * one's.  Both lookups are array indexes, because path and analysis row ids
 * are small dense integers, so a commit costs its changes, not its tree.
 * A run that resumes from a stored commit reads a path's previous blob
 * from the base commit's tree only when a change touches the path.
 */
#include <stdlib.h>
#include <string.h>

#include "db_scope.h"
#include "ingest_apply.h"
#include "ingest_missing.h"
#include "ingest_store.h"
#include "pd_domain.h"
#include "pd_error.h"

/* Grow a zeroed array so that index `i` exists. */
static int ingest_grow(void **arr, size_t *n, size_t i, size_t elsize)
{
    size_t want = *n ? *n : 1024;
    void *p;

    if (i < *n)
        return 0;
    while (want <= i)
        want *= 2;
    /* The first array by calloc: its pages stay untouched until used (a
     * push touches a few of thousands of analysis ids; a memset faulted
     * in all of them, 8 % of its CPU). */
    if (!*n ? !(p = calloc(want, elsize)) : !(p = realloc(*arr, want * elsize)))
        return pd_error_nomem(NULL);
    if (*n)
        memset((char *)p + *n * elsize, 0, (want - *n) * elsize);
    *arr = p;
    *n = want;
    return 0;
}

/* The page of the counts cache that holds analysis `id`, made (zeroed)
 * if new; NULL when out of memory. */
static struct ingest_counts_page *ingest_counts_page_of(ingest_ctx *c, int64_t id)
{
    size_t i = (size_t)id / INGEST_COUNTS_PAGE;

    if (i >= c->ncounts) {
        size_t n = c->ncounts ? c->ncounts : 64;
        struct ingest_counts_page **p;

        while (n <= i)
            n *= 2;
        if (!(p = realloc(c->counts, n * sizeof(*p))))
            return NULL;
        memset(p + c->ncounts, 0, (n - c->ncounts) * sizeof(*p));
        c->counts = p;
        c->ncounts = n;
    }
    if (!c->counts[i])
        c->counts[i] = calloc(1, sizeof(*c->counts[i]));
    return c->counts[i];
}

void ingest_counts_free(ingest_ctx *c)
{
    size_t i;

    for (i = 0; i < c->ncounts; i++)
        free(c->counts[i]);
    free(c->counts);
    c->counts = NULL;
    c->ncounts = 0;
}

/* Counts of analysis `id`, from the cache or the database. */
static int ingest_counts(ingest_ctx *c, int64_t id, const db_counts **out)
{
    struct ingest_counts_page *pg = ingest_counts_page_of(c, id);
    size_t k = (size_t)id % INGEST_COUNTS_PAGE;
    int rc;

    if (!pg)
        return pd_error_nomem(NULL);
    if (!pg->known[k]) {
        if ((rc = db_analysis_counts(c->db, id, &pg->k[k])) < 0)
            return rc;
        pg->known[k] = 1;
    }
    *out = &pg->k[k];
    return 0;
}

/* Remember the counts of a new analysis (ingest_counts reads them). */
static int ingest_counts_put(ingest_ctx *c, int64_t id, const db_counts *k)
{
    struct ingest_counts_page *pg = ingest_counts_page_of(c, id);

    if (!pg)
        return pd_error_nomem(NULL);
    pg->k[(size_t)id % INGEST_COUNTS_PAGE] = *k;
    pg->known[(size_t)id % INGEST_COUNTS_PAGE] = 1;
    return 0;
}

/* Fill the no-object scope cache (db_scope.h) for a new analysis with
 * object paths, in the ingest's transaction, so the first scoped history
 * after an ingest is fast without a pass over every stored analysis.  The
 * figures come with the encoding (ingest_enc_new, on an analysis thread):
 * reading the function rows back cost the writer a tenth of its time. */
static int ingest_warm_scope(ingest_ctx *c, int64_t id, const ingest_enc *e)
{
    if (!e->noobject)
        return 0;
    return db_ingest_noobject(c->store, id, &e->noobject_counts, e->noobject_status);
}

/* Read, analyse and encode one blob on this thread; INGEST_MISSING_ABSENT
 * or _DAMAGED (*out NULL) when the clone does not hold it or holds it
 * damaged (ingest_missing.h). */
static int ingest_analyse_here(ingest_ctx *c, ingest_enc **out, const git_oid *oid,
                               const char *hex, const char *path)
{
    git_blob *blob = NULL;
    an_result *res = NULL;
    size_t size;
    int rc;

    if ((rc = git_blob_lookup(&blob, c->repo, oid)) < 0) {
        const git_error *e = git_error_last();
        int kind = ingest_missing_kind(rc);

        if (kind) {
            if (kind == INGEST_MISSING_DAMAGED && !c->st.damaged_first[0])
                snprintf(c->st.damaged_first, sizeof(c->st.damaged_first), "%s (%s): %s",
                         hex, path, e ? e->message : "?");
            git_error_clear();
            *out = NULL;
            return kind;
        }

        return pd_error_set(PD_EGIT, "%s: cannot read blob %s (%s): %s",
                            c->opt->repo_path, hex, path, e ? e->message : "?");
    }
    size = (size_t)git_blob_rawsize(blob);
    if ((rc = an_analyze_memo(&res, c->rules, c->memo, path, git_blob_rawcontent(blob),
                              size)) == 0)
        rc = ingest_enc_new(out, res, size);
    an_result_free(res);
    git_blob_free(blob);
    return rc;
}

/* Analyse one blob unless already stored (by an analysis thread when one
 * was handed it); gives its analysis id and, when `flow` is not NULL and
 * the blob was analysed here, its flow facts (*flow, owned, NULL for
 * none; *have_flow = 1) for the call graph, which then need not read
 * them back. */
static int ingest_analysis(ingest_ctx *c, int64_t *id_out, const char *hex,
                           const char *path, char **flow, int *have_flow)
{
    ingest_enc *enc = NULL;
    git_oid oid;
    int rc;

    if ((rc = db_ingest_analysis_find(c->store, id_out, hex, c->rules_hash)) < 0
        || *id_out)
        return rc;
    if (git_oid_fromstr(&oid, hex) < 0)
        return pd_error_set(PD_EGIT, "%s: bad blob id %s (%s)", c->opt->repo_path,
                            hex, path);
    if (c->pipe && (rc = ingest_pipe_take(c->pipe, &oid, path, &enc)) < 0)
        return rc;
    if (!enc && (rc = ingest_analyse_here(c, &enc, &oid, hex, path)) != 0) {
        int64_t path_id;
        int damaged = rc == INGEST_MISSING_DAMAGED;

        /* Not in the clone: the file counts as absent at this commit. */
        if (rc < 0 || (rc = db_ingest_path_id(c->store, &path_id, path)) < 0)
            return rc;
        c->st.blobs_missing++;
        c->st.blobs_damaged += damaged;
        return ingest_missing_record(c->db, c->cur_commit, path_id, hex);
    }
    if ((rc = db_ingest_analysis_put(c->store, id_out, hex, c->rules_hash, &enc->row)) == 0 &&
        (rc = ingest_counts_put(c, *id_out, &enc->row.counts)) == 0)
        rc = ingest_warm_scope(c, *id_out, enc);
    if (rc == 0) {
        c->st.blobs_analysed++;
        c->st.templates_analysed += pd_path_kind(path) == PD_SRC_TEMPLATE;
        c->st.bytes_analysed += enc->row.size;
        if (flow) {
            *flow = enc->flow;
            *have_flow = 1;
            enc->flow = NULL;
            ingest_flow_hash_note(c->flow, *id_out, enc->flow_hash);
        }
    }
    ingest_enc_free(enc);
    return rc;
}

/*
 * The analysis id of `path` in the base commit's tree (0: not there), read
 * the first time a change touches the path.  The base's file set is what
 * its first-parent chain of selected changes leaves, which is its tree of
 * selected paths; looking a path up in the tree costs a few tree reads, where
 * loading the stored file set of the base cost most of a one-commit ingest.
 */
static int ingest_base_file(ingest_ctx *c, int64_t *id_out, const char *path)
{
    git_tree_entry *e = NULL;
    char hex[GIT_OID_HEXSZ + 1];
    int rc = 0, mode;

    *id_out = 0;
    if (!c->base_tree)
        return 0;
    if ((rc = git_tree_entry_bypath(&e, c->base_tree, path)) < 0) {
        if (rc == GIT_ENOTFOUND) {
            git_error_clear();
            return 0;
        }
        return pd_error_set(PD_EGIT, "%s: cannot read %s in the base tree: %s",
                            c->opt->repo_path, path, git_error_last()->message);
    }
    mode = git_tree_entry_filemode(e);
    if (mode == GIT_FILEMODE_BLOB || mode == GIT_FILEMODE_BLOB_EXECUTABLE) {
        git_oid_tostr(hex, sizeof(hex), git_tree_entry_id(e));
        rc = ingest_analysis(c, id_out, hex, path, NULL, NULL);
    }
    git_tree_entry_free(e);
    return rc;
}

/* Make path `path_id` hold blob `hex` (NULL: deleted) in the running totals. */
static int ingest_apply(ingest_ctx *c, int64_t path_id, const char *hex,
                        const char *path)
{
    const db_counts *k;
    char *flow = NULL;
    int64_t id = 0, old;
    int rc, have_flow = 0;

    if ((rc = ingest_grow((void **)&c->path_analysis, &c->npath_analysis,
                          (size_t)path_id, sizeof(int64_t))) < 0 ||
        (rc = ingest_grow((void **)&c->path_known, &c->npath_known,
                          (size_t)path_id, 1)) < 0)
        return rc;
    if (!c->path_known[path_id]) {
        c->path_analysis[path_id] = 0;
        if ((rc = ingest_base_file(c, &c->path_analysis[path_id], path)) < 0)
            return rc;
        c->path_known[path_id] = 1;
    }
    if (hex && (rc = ingest_analysis(c, &id, hex, path, &flow, &have_flow)) < 0)
        return rc;
    old = c->path_analysis[path_id];
    if (old) {
        if ((rc = ingest_counts(c, old, &k)) < 0)
            goto done;
        db_counts_add(&c->totals, k, -1);
    }
    if (id) {
        if ((rc = ingest_counts(c, id, &k)) < 0)
            goto done;
        db_counts_add(&c->totals, k, 1);
    }
    c->path_analysis[path_id] = id;
    if (old != id)
        rc = ingest_flow_file(c->flow, path, old, id, flow, have_flow, &c->totals);
done:
    free(flow);
    return rc;
}

/* db_ingest_changes_of callback: replay a stored change. */
int ingest_replay_change(void *arg, int64_t path_id, const char *blob,
                                const char *path)
{
    return ingest_apply(arg, path_id, blob, path);
}

/* Store and apply the change of one selected path (blob NULL: deleted). */
static int ingest_change(ingest_ctx *c, int64_t commit_id, const char *path,
                         const git_oid *blob, int64_t old_path_id)
{
    char hex[GIT_OID_HEXSZ + 1];
    int64_t path_id;
    int rc;

    if (blob)
        git_oid_tostr(hex, sizeof(hex), blob);
    if ((rc = db_ingest_path_id(c->store, &path_id, path)) < 0 ||
        (rc = db_ingest_change(c->store, commit_id, path_id, blob ? hex : NULL,
                               old_path_id)) < 0)
        return rc;
    return ingest_apply(c, path_id, blob ? hex : NULL, path);
}

int ingest_apply_new_kinds(ingest_ctx *c, const ingest_plan *plan, int64_t commit_id,
                           int since)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < plan->nch && rc == 0; i++) {
        const ingest_plan_change *ch = &plan->ch[i];
        int64_t old_id = 0;

        if (pd_path_kind_since(ch->path) <= since)
            continue;
        if (ch->old_path && (rc = db_ingest_path_id(c->store, &old_id, ch->old_path)) < 0)
            break;
        rc = ingest_change(c, commit_id, ch->path, ch->deleted ? NULL : &ch->blob, old_id);
    }
    return rc;
}

/* Store and apply the changes of a new commit, then its patch id. */
int ingest_apply_plan(ingest_ctx *c, const ingest_plan *plan, int64_t commit_id)
{
    size_t i;
    int rc = 0;

    for (i = 0; i < plan->nch && rc == 0; i++) {
        const ingest_plan_change *ch = &plan->ch[i];
        int64_t old_id = 0;

        if (ch->old_path && (rc = db_ingest_path_id(c->store, &old_id, ch->old_path)) < 0)
            break;
        rc = ingest_change(c, commit_id, ch->path, ch->deleted ? NULL : &ch->blob, old_id);
    }
    if (rc == 0 && plan->has_patch_id) {
        char hex[GIT_OID_HEXSZ + 1];

        git_oid_tostr(hex, sizeof(hex), &plan->patch_id);
        rc = db_ingest_patch_id(c->store, commit_id, hex);
    }
    return rc;
}
