/*
 * gate_git.c: the gate from git trees (see gate_git.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "gate_blob.h"
#include "gate_fixable.h"
#include "gate_git.h"
#include "ingest_store.h"
#include "pd_error.h"
#include "pd_flow.h"
#include "pd_rev.h"

typedef struct {
    char *path;
    git_oid blob;
} gg_file;

typedef struct {
    gg_file *v;
    size_t n, cap;
    const pathfilter *pf;
    pd_flow *g;                 /* the tree's call graph (gg_totals) */
} gg_tree;

/* An analysed blob: its functions, what blocks universal mode, counts. */
typedef struct {
    git_oid oid;
    gate_fnlist fns;
    unsigned file_present;      /* classes used unguarded outside functions */
    unsigned *fn_present;       /* per function: classes used unguarded */
    unsigned char *fn_object;   /* per function: 1 on an object path (own) */
    db_counts counts;
    char *flow;                 /* its functions' flow facts, stored form */
} gg_blob;

typedef struct {
    git_repository *repo;
    const rules *r;
    gg_blob *v;
    size_t n, cap;
    gate_fixable *fixable;      /* the fixable ratchet's findings, or NULL */
} gg_cache;

static int gg_walk(const char *root, const git_tree_entry *e, void *arg)
{
    gg_tree *t = arg;
    char path[4096];

    if (git_tree_entry_type(e) != GIT_OBJECT_BLOB)
        return 0;
    snprintf(path, sizeof(path), "%s%s", root, git_tree_entry_name(e));
    if (!pathfilter_contains(t->pf, path))
        return 0;
    if (t->n == t->cap) {
        gg_file *v = realloc(t->v, (t->cap = t->cap ? t->cap * 2 : 256) * sizeof(*v));
        if (!v)
            return -1;
        t->v = v;
    }
    if (!(t->v[t->n].path = strdup(path)))
        return -1;
    git_oid_cpy(&t->v[t->n++].blob, git_tree_entry_id(e));
    return 0;
}

static int gg_cmp(const void *a, const void *b)
{
    return strcmp(((const gg_file *)a)->path, ((const gg_file *)b)->path);
}

/* The files of rev the path filter selects, sorted by path. */
static int gg_tree_of(gg_tree *t, git_repository *repo, const char *gitdir, const char *rev)
{
    git_object *obj = NULL;
    git_tree *tree = NULL;
    int rc = 0;

    if ((rc = pd_rev_parse(&obj, repo, rev)) == PD_EINVAL)
        ;
    else if (rc < 0 || git_object_peel((git_object **)&tree, obj, GIT_OBJECT_TREE) < 0)
        rc = pd_rev_unknown(repo, gitdir, rev, PD_EGIT);
    else if (git_tree_walk(tree, GIT_TREEWALK_PRE, gg_walk, t) < 0)
        rc = pd_error_set(PD_ENOMEM, "out of memory listing '%s'", rev);
    git_tree_free(tree);
    git_object_free(obj);
    if (rc == 0 && t->n)        /* qsort wants a pointer even for no entries */
        qsort(t->v, t->n, sizeof(*t->v), gg_cmp);
    return rc;
}

/* What of res is used unguarded, at file scope and per function, and
 * which functions are object paths by their own body (the input of
 * gg_ready). */
static int gg_present_of(gg_blob *b, const an_result *res)
{
    size_t i, n = res->nfunctions ? res->nfunctions : 1;

    if (!(b->fn_present = calloc(n, sizeof(*b->fn_present))) ||
        !(b->fn_object = calloc(n, 1)))
        return pd_error_nomem(NULL);
    for (i = 0; i < res->nfunctions; i++)
        b->fn_object[i] = res->functions[i].object_state != AN_OBJ_NONE;
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        if (f->guarded)
            continue;
        if (f->function < 0)
            b->file_present |= 1u << f->cls;
        else
            b->fn_present[f->function] |= 1u << f->cls;
    }
    return 0;
}

/* 1 when nothing unguarded outside object-dtype paths in blob b at `path`
 * of tree t needs CPython: no capi or bridge use at file scope or in a
 * function that is not an object path, with the object states of t's call
 * graph (the gate's universal-ready ratchet, gate.h; the server's
 * db_scope_detail_ready on stored analyses). */
static int gg_ready(const gg_tree *t, const char *path, const gg_blob *b)
{
    int64_t key = pd_flow_path_key(path);
    unsigned present = b->file_present;
    size_t i;

    for (i = 0; i < b->fns.n; i++) {
        int object = pd_flow_known(t->g, key, i) ? pd_flow_state(t->g, key, i) != PD_OBJ_NONE
                                                 : b->fn_object[i];
        if (!object)
            present |= b->fn_present[i];
    }
    return pd_universal_ready_rule(present);
}

/* The flow facts of res's functions in the stored form (pd_flow.h). */
static int gg_flow_text(const an_result *res, char **out)
{
    pd_flow_fn *v = NULL;
    pd_buf b;
    size_t i;
    int rc;

    *out = NULL;
    if ((rc = an_flow_fns(res, &v)) < 0)
        return rc;
    pd_buf_init(&b, 0);
    for (i = 0; i < res->nfunctions; i++)
        pd_flow_encode(&b, &v[i]);
    pd_buf_put(&b, "", 1);
    free(v);
    if (b.err) {
        pd_buf_free(&b);
        return pd_error_nomem(NULL);
    }
    *out = (char *)b.data;      /* the buffer's bytes are ours now */
    return 0;
}

/* The analysis of a blob, from the cache or made now. */
static int gg_analyse(gg_cache *c, const git_oid *oid, const char *path, gg_blob **out)
{
    git_blob *blob = NULL;
    an_result *res = NULL;
    gg_blob *b;
    size_t i;
    int rc;

    for (i = 0; i < c->n; i++)
        if (git_oid_equal(&c->v[i].oid, oid)) {
            *out = &c->v[i];
            return 0;
        }
    if (c->n == c->cap) {
        gg_blob *v = realloc(c->v, (c->cap = c->cap ? c->cap * 2 : 256) * sizeof(*v));
        if (!v)
            return pd_error_nomem(NULL);
        c->v = v;
    }
    if ((rc = gate_blob_lookup(&blob, c->repo, oid, path)) < 0)
        return rc;
    rc = an_analyze(&res, c->r, path, git_blob_rawcontent(blob),
                    (size_t)git_blob_rawsize(blob));
    b = &c->v[c->n];
    memset(b, 0, sizeof(*b));
    git_oid_cpy(&b->oid, oid);
    for (i = 0; rc == 0 && i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        rc = gate_fnlist_push(&b->fns, f->name, an_status_name(f->status),
                              an_objstate_name(f->object_state), f->start_line,
                              f->tokens[AN_CLASS_CAPI]);
    }
    if (rc == 0)
        rc = ingest_store_counts_of(&b->counts, res);
    if (rc == 0)
        rc = gg_flow_text(res, &b->flow);
    if (rc == 0)
        rc = gg_present_of(b, res);
    if (rc == 0) {
        c->n++;
        *out = b;
    } else {
        gate_fnlist_free(&b->fns);
        free(b->flow);
        free(b->fn_present);
        free(b->fn_object);
    }
    an_result_free(res);
    git_blob_free(blob);
    return rc;
}

/* Sum the counts of every file of a tree, and its files ready outside
 * object-dtype paths. */
static int gg_totals(gg_cache *c, gg_tree *t, db_counts *sum, int64_t *ready)
{
    gg_blob *b;
    size_t i;
    int rc;

    int64_t delta[PD_OBJ_COUNT];
    int s;

    memset(sum, 0, sizeof(*sum));
    *ready = 0;
    if ((rc = pd_flow_new(&t->g)) < 0)
        return rc;
    for (i = 0; i < t->n; i++) {
        if ((rc = gg_analyse(c, &t->v[i].blob, t->v[i].path, &b)) < 0 ||
            (rc = pd_flow_set_file_text(t->g, pd_flow_path_key(t->v[i].path), t->v[i].path,
                                        b->flow, b->flow ? strlen(b->flow) : 0)) < 0)
            return rc;
        db_counts_add(sum, &b->counts, 1);
    }
    if ((rc = pd_flow_resolve(t->g)) < 0)
        return rc;
    for (i = 0; i < t->n; i++) {      /* readiness with the graph's states */
        if ((rc = gg_analyse(c, &t->v[i].blob, t->v[i].path, &b)) < 0)
            return rc;
        *ready += gg_ready(t, t->v[i].path, b);
    }
    pd_flow_delta(t->g, delta);     /* the states the tree's call graph gives */
    for (s = 0; s < PD_OBJ_COUNT; s++)
        sum->obj[s] += delta[s];
    return 0;
}

/* A copy of blob x's functions with the object states of tree t at path. */
static int gg_resolved(const gg_tree *t, const char *path, const gg_blob *x,
                       gate_fnlist *out)
{
    int64_t key = pd_flow_path_key(path);
    size_t i;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    for (i = 0; x && rc == 0 && i < x->fns.n; i++) {
        const gate_fn *f = &x->fns.v[i];
        const char *os = pd_flow_known(t->g, key, i)
                             ? pd_objstate_name(pd_flow_state(t->g, key, i)) : f->objstate;

        rc = gate_fnlist_push(out, f->name, f->status, os && os[0] ? os : NULL,
                              f->start_line, f->capi);
    }
    return rc;
}

/* Feed every path whose blob differs to the gate, and every path of the
 * same blob whose object states the two trees' call graphs give
 * differently (its callees changed them); the fixable ratchet reads the
 * change's own lines, so only the first. */
static int gg_feed(gg_cache *c, gg_tree *a, gg_tree *b, gate *g)
{
    static gate_fnlist none;
    size_t i = 0, j = 0;
    int rc = 0;

    while (rc == 0 && (i < a->n || j < b->n)) {
        int cmp = i == a->n ? 1 : j == b->n ? -1 : strcmp(a->v[i].path, b->v[j].path);
        gg_blob *x = NULL, *y = NULL;

        if (cmp <= 0 && (rc = gg_analyse(c, &a->v[i].blob, a->v[i].path, &x)) < 0)
            break;
        if (cmp >= 0 && (rc = gg_analyse(c, &b->v[j].blob, b->v[j].path, &y)) < 0)
            break;
        if (x != y || (x && pd_flow_file_moved(a->g, b->g, pd_flow_path_key(a->v[i].path)))) {
            const char *path = cmp <= 0 ? a->v[i].path : b->v[j].path;
            gate_fnlist fx = {0}, fy = {0};

            if ((rc = gg_resolved(a, path, x, &fx)) == 0 &&
                (rc = gg_resolved(b, path, y, &fy)) == 0)
                rc = gate_add_file(g, path, x ? &fx : &none, y ? &fy : &none,
                                   x ? gg_ready(a, path, x) : -1,
                                   y ? gg_ready(b, path, y) : -1);
            gate_fnlist_free(&fx);
            gate_fnlist_free(&fy);
            if (rc == 0 && c->fixable && x != y)
                rc = gate_fixable_file(c->fixable, c->repo, c->r, path,
                                       x ? &a->v[i].blob : NULL, y ? &b->v[j].blob : NULL);
        }
        i += cmp <= 0;
        j += cmp >= 0;
    }
    return rc;
}

/* PD_EINVAL when the path filter selects no file on either side: a
 * mistyped --include would otherwise pass every ratchet on empty totals. */
static int gg_selected(const gg_tree *a, const gg_tree *b, const char *base, const char *head)
{
    char hint[600];

    if (a->n || b->n)
        return 0;
    pathfilter_hint(a->pf, hint, sizeof(hint));
    return pd_error_set(PD_EINVAL, "the path filter (--include/--exclude) selects no file "
                        "at '%s' or '%s'%s", base, head, hint);
}

static void gg_tree_free(gg_tree *t)
{
    size_t i;

    for (i = 0; i < t->n; i++)
        free(t->v[i].path);
    free(t->v);
}

int gate_git_run(json_t **out, const char *gitdir, const char *base, const char *head,
                 const gate_policy *policy, const rules *r, const pathfilter *pf)
{
    gg_tree ta = {0}, tb = {0};
    gg_cache c = {0};
    db_counts sa, sb;
    int64_t ra = 0, rb = 0;
    char ha[GIT_OID_HEXSZ + 1] = "", hb[GIT_OID_HEXSZ + 1] = "";
    gate *g = gate_new(policy);
    git_object *o = NULL;
    size_t i;
    int rc;

    *out = NULL;
    ta.pf = tb.pf = pf;
    c.r = r;
    git_libgit2_init();
    if (!g || ((policy->ratchets & GATE_FIXABLE) && !(c.fixable = gate_fixable_new())))
        rc = pd_error_nomem(NULL);
    else if (git_repository_open_ext(&c.repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        rc = pd_error_set(PD_EGIT, "%s: not a git repository", gitdir);
    else if ((rc = gg_tree_of(&ta, c.repo, gitdir, base)) == 0 &&
             (rc = gg_tree_of(&tb, c.repo, gitdir, head)) == 0 &&
             (rc = gg_selected(&ta, &tb, base, head)) == 0 &&
             (rc = gg_totals(&c, &ta, &sa, &ra)) == 0 &&
             (rc = gg_totals(&c, &tb, &sb, &rb)) == 0)
        rc = gg_feed(&c, &ta, &tb, g);
    if (rc == 0)
        gate_set_ready_totals(g, ra, rb);
    if (rc == 0) {
        if (pd_rev_parse(&o, c.repo, base) == 0)
            git_oid_tostr(ha, sizeof(ha), git_object_id(o));
        git_object_free(o);
        if (pd_rev_parse(&o, c.repo, head) == 0)
            git_oid_tostr(hb, sizeof(hb), git_object_id(o));
        git_object_free(o);
        *out = gate_result(g, ha, hb, &sa, &sb);
        if (*out && c.fixable)
            rc = gate_fixable_verdict(c.fixable, *out);
    }
    gate_fixable_free(c.fixable);
    for (i = 0; i < c.n; i++) {
        gate_fnlist_free(&c.v[i].fns);
        free(c.v[i].flow);
        free(c.v[i].fn_present);
        free(c.v[i].fn_object);
    }
    pd_flow_free(ta.g);
    pd_flow_free(tb.g);
    free(c.v);
    gg_tree_free(&ta);
    gg_tree_free(&tb);
    gate_free(g);
    git_repository_free(c.repo);
    git_libgit2_shutdown();
    return rc;
}
