/*
 * gate_owners.c: owners of a file's functions from git (see gate_owners.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "gate_blob.h"
#include "gate_owners.h"
#include "pd_error.h"

/* One version found by the walk (newest first while walking). */
typedef struct {
    git_oid commit, blob;
    char *who, *email;
    int64_t time;
    char oid[GIT_OID_HEXSZ + 1];
    an_result *res;
    pd_own_fn *fns;
    size_t nfns;
} go_ver;

struct gate_owners {
    go_ver *v;                   /* oldest first once read */
    size_t n;
    pd_own_ver *pv;
    pd_own_result *res;
    size_t nres;
};

void gate_owners_free(gate_owners *o)
{
    size_t i;

    if (!o)
        return;
    for (i = 0; i < o->n; i++) {
        free(o->v[i].who);
        free(o->v[i].email);
        free(o->v[i].fns);
        an_result_free(o->v[i].res);
    }
    pd_owners_free(o->res, o->nres);
    free(o->v);
    free(o->pv);
    free(o);
}

/* The blob of path in commit c's tree; 0 found, 1 absent, <0 error. */
static int go_blob(git_commit *c, const char *path, git_oid *out)
{
    git_tree *t = NULL;
    git_tree_entry *e = NULL;
    int rc = 1;

    if (git_commit_tree(&t, c) < 0)
        return pd_error_set(PD_EGIT, "cannot read a tree");
    if (git_tree_entry_bypath(&e, t, path) == 0) {
        if (git_tree_entry_type(e) == GIT_OBJECT_BLOB) {
            git_oid_cpy(out, git_tree_entry_id(e));
            rc = 0;
        }
        git_tree_entry_free(e);
    }
    git_tree_free(t);
    return rc;
}

/* The path that `path` of commit c was renamed from in its parent p, into
 * old (cap bytes); 0 renamed, 1 not (added). */
static int go_renamed_from(git_repository *repo, git_commit *p, git_commit *c, const char *path,
                           char *old, size_t cap)
{
    git_tree *a = NULL, *b = NULL;
    git_diff *d = NULL;
    size_t i;
    int rc = 1;

    if (git_commit_tree(&a, p) == 0 && git_commit_tree(&b, c) == 0 &&
        git_diff_tree_to_tree(&d, repo, a, b, NULL) == 0 &&
        git_diff_find_similar(d, NULL) == 0)
        for (i = 0; i < git_diff_num_deltas(d) && rc == 1; i++) {
            const git_diff_delta *dl = git_diff_get_delta(d, i);

            if (dl->status == GIT_DELTA_RENAMED && strcmp(dl->new_file.path, path) == 0 &&
                strlen(dl->old_file.path) < cap) {
                snprintf(old, cap, "%s", dl->old_file.path);
                rc = 0;
            }
        }
    git_diff_free(d);
    git_tree_free(a);
    git_tree_free(b);
    return rc;
}

/* Who made commit c: the author of a merge's merged tip, then the mailmap. */
static int go_author(git_repository *repo, git_mailmap *mm, git_commit *c, go_ver *v)
{
    const git_signature *s = git_commit_author(c);
    git_commit *tip = NULL;
    const char *n, *e, *rn = NULL, *re = NULL;

    if (git_commit_parentcount(c) > 1 && git_commit_parent(&tip, c, 1) == 0)
        s = git_commit_author(tip);
    n = s->name;
    e = s->email;
    if (mm && git_mailmap_resolve(&rn, &re, mm, n, e) == 0) {
        n = rn ? rn : n;
        e = re ? re : e;
    }
    v->who = strdup(n);
    v->email = strdup(e);
    v->time = (int64_t)git_commit_author(c)->when.time;
    if (tip)
        v->time = (int64_t)s->when.time;
    git_commit_free(tip);
    return v->who && v->email ? 0 : pd_error_nomem(NULL);
}

/* Walk back from `from`: the versions of path, newest first. */
static int go_walk(gate_owners *o, git_repository *repo, git_mailmap *mm, const git_oid *from,
                   const char *path0, size_t maxver, size_t maxwalk, int *cut)
{
    char path[4096];
    git_commit *c = NULL, *p = NULL;
    git_oid cb, pb;
    size_t walked = 0;
    int rc = 0, hc, hp;

    *cut = 1;
    snprintf(path, sizeof(path), "%s", path0);
    if (git_commit_lookup(&c, repo, from) < 0)
        return pd_error_set(PD_EGIT, "cannot read commit");
    if ((hc = go_blob(c, path, &cb)) != 0) {
        git_commit_free(c);
        return hc < 0 ? hc : 0;
    }
    while (rc == 0 && o->n < maxver && walked++ < maxwalk) {
        go_ver *v;

        hp = git_commit_parentcount(c) ? (git_commit_parent(&p, c, 0) == 0 ? 1 : -1) : 0;
        if (hp < 0) {
            rc = pd_error_set(PD_EGIT, "cannot read a parent");
            break;
        }
        if (hp) {
            hp = go_blob(p, path, &pb);
            if (hp == 1) {
                char old[4096];

                if (go_renamed_from(repo, p, c, path, old, sizeof(old)) == 0) {
                    snprintf(path, sizeof(path), "%s", old);
                    hp = go_blob(p, path, &pb);
                }
            }
            if (hp < 0) {
                rc = hp;
                break;
            }
        }
        if (!p || hp == 1 || !git_oid_equal(&cb, &pb)) {
            if (!(v = realloc(o->v, (o->n + 1) * sizeof(*v)))) {
                rc = pd_error_nomem(NULL);
                break;
            }
            o->v = v;
            v = &o->v[o->n++];
            memset(v, 0, sizeof(*v));
            git_oid_cpy(&v->commit, git_commit_id(c));
            git_oid_cpy(&v->blob, &cb);
            git_oid_tostr(v->oid, sizeof(v->oid), git_commit_id(c));
            if ((rc = go_author(repo, mm, c, v)) < 0)
                break;
        }
        if (!p || hp == 1) {        /* the file's first version */
            *cut = 0;
            break;
        }
        git_oid_cpy(&cb, &pb);
        git_commit_free(c);
        c = p;
        p = NULL;
    }
    git_commit_free(p);
    git_commit_free(c);
    return rc;
}

/* A diff's hunk: mark the functions of the new version it touches. */
static int go_hunk(const git_diff_delta *d, const git_diff_hunk *hk, void *arg)
{
    go_ver *v = arg;
    int64_t a = hk->new_start, b = hk->new_start + (hk->new_lines ? hk->new_lines - 1 : 0);
    size_t i;

    for (i = 0; i < v->nfns; i++) {
        const an_function *f = &v->res->functions[i];

        if (f->start_line <= b && a <= f->end_line && (hk->new_lines || a < f->end_line))
            v->fns[i].changed = 1;
    }
    return 0;
}

/* Analyse each version; which functions it changed from a blob diff. */
static int go_analyse(gate_owners *o, git_repository *repo, const rules *r, const char *path)
{
    git_diff_options opt;
    size_t k, i;
    int rc = 0;

    git_diff_options_init(&opt, GIT_DIFF_OPTIONS_VERSION);
    opt.context_lines = 0;
    for (k = 0; rc == 0 && k < o->n; k++) {
        go_ver *v = &o->v[k];
        git_blob *b = NULL;

        if ((rc = gate_blob_lookup(&b, repo, &v->blob, path)) < 0)
            return rc;
        rc = an_analyze(&v->res, r, path, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
        git_blob_free(b);
        if (rc < 0)
            return rc;
        v->nfns = v->res->nfunctions;
        if (!(v->fns = calloc(v->nfns + 1, sizeof(*v->fns))))
            return pd_error_nomem(NULL);
        for (i = 0; i < v->nfns; i++) {
            const an_function *f = &v->res->functions[i];
            int64_t tok[AN_CLASS_COUNT];
            int c;

            for (c = 0; c < AN_CLASS_COUNT; c++)
                tok[c] = f->tokens[c];
            v->fns[i].name = f->name;
            v->fns[i].hpy = f->tokens[AN_CLASS_HPY];
            v->fns[i].print = pd_owners_print(tok, AN_CLASS_COUNT, an_status_name(f->status),
                                              (int64_t)f->end_line - f->start_line);
            v->fns[i].changed = k ? 0 : -1;
        }
        if (k) {
            git_blob *a = NULL, *bb = NULL;

            if (git_blob_lookup(&a, repo, &o->v[k - 1].blob) == 0 &&
                git_blob_lookup(&bb, repo, &v->blob) == 0 &&
                git_diff_blobs(a, NULL, bb, NULL, &opt, NULL, NULL, go_hunk, NULL, v) < 0)
                for (i = 0; i < v->nfns; i++)
                    v->fns[i].changed = -1;
            git_blob_free(a);
            git_blob_free(bb);
        }
    }
    return rc;
}

int gate_owners_read(gate_owners **out, git_repository *repo, git_mailmap *mm,
                     const git_oid *from, const char *path, const rules *r, size_t maxver,
                     size_t maxwalk)
{
    gate_owners *o = calloc(1, sizeof(*o));
    size_t i;
    int rc, cut = 1;

    *out = NULL;
    if (!o)
        return pd_error_nomem(NULL);
    rc = go_walk(o, repo, mm, from, path, maxver, maxwalk, &cut);
    for (i = 0; rc == 0 && i < o->n / 2; i++) {        /* oldest first */
        go_ver t = o->v[i];

        o->v[i] = o->v[o->n - 1 - i];
        o->v[o->n - 1 - i] = t;
    }
    if (rc == 0)
        rc = go_analyse(o, repo, r, path);
    if (rc == 0 && o->n && !(o->pv = calloc(o->n, sizeof(*o->pv))))
        rc = pd_error_nomem(NULL);
    for (i = 0; rc == 0 && i < o->n; i++) {
        o->pv[i].who = o->v[i].who;
        o->pv[i].email = o->v[i].email;
        o->pv[i].oid = o->v[i].oid;
        o->pv[i].time = o->v[i].time;
        o->pv[i].fns = o->v[i].fns;
        o->pv[i].nfns = o->v[i].nfns;
    }
    if (rc == 0 && o->n) {
        o->nres = o->v[o->n - 1].nfns;
        rc = pd_owners_compute(o->pv, o->n, cut, 3, &o->res);
    }
    if (rc < 0) {
        gate_owners_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

const pd_own_person *gate_owners_ask(const gate_owners *o, const char *name, size_t k)
{
    const go_ver *v;
    size_t i;

    if (!o || !o->n || !o->res)
        return NULL;
    v = &o->v[o->n - 1];
    for (i = 0; i < v->nfns; i++)
        if (strcmp(v->fns[i].name, name) == 0 && k-- == 0) {
            const pd_own_result *x = &o->res[i];

            return x->nporters ? &x->porters[0] : x->nchangers ? &x->changers[0] : NULL;
        }
    return NULL;
}
