/*
 * api_owners.c: owners of a file's functions (see api_owners.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api.h"
#include "api_owners.h"
#include "db.h"
#include "db_owners.h"
#include "pd_error.h"
#include "pd_owners.h"
#include "pd_time.h"

/* Versions read per file: at least OWN_MIN (for "changed lately") and at
 * most OWN_MAX; each version is one functions query. */
#define OWN_MIN 12
#define OWN_MAX 400
#define OWN_PEOPLE 3

struct api_owners_file {
    db_owner_hist h;
    pd_own_result *res;         /* per function of h.v[h.n - 1] */
    size_t nres;
    char ask[128];
};

/* The .mailmap of the commit's tree, else the repository's own (config,
 * HEAD:.mailmap of a bare repository); NULL when there is none or the git
 * directory cannot be read: names are then shown as committed. */
static git_mailmap *own_mailmap(srv_req *r, const char *repo_name, const char *oid_hex,
                                git_repository **repo)
{
    char gitdir[4096];
    git_mailmap *mm = NULL;
    git_oid oid;
    git_commit *c = NULL;
    git_tree *t = NULL;
    git_tree_entry *e = NULL;
    git_blob *b = NULL;

    *repo = NULL;
    if (srv_repo_path(r, repo_name, gitdir, sizeof(gitdir)) < 0 ||
        git_repository_open_ext(repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        return NULL;
    if (git_oid_fromstr(&oid, oid_hex) == 0 && git_commit_lookup(&c, *repo, &oid) == 0 &&
        git_commit_tree(&t, c) == 0 && git_tree_entry_bypath(&e, t, ".mailmap") == 0 &&
        git_blob_lookup(&b, *repo, git_tree_entry_id(e)) == 0)
        git_mailmap_from_buffer(&mm, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
    if (!mm)
        git_mailmap_from_repository(&mm, *repo);
    git_blob_free(b);
    git_tree_entry_free(e);
    git_tree_free(t);
    git_commit_free(c);
    return mm;
}

/* What own_who reads: the repository and its mailmap (either NULL). */
typedef struct {
    git_repository *repo;
    git_mailmap *mm;
} own_git;

/*
 * db_owners_who: a merge on the first-parent chain (numpy's "Merge pull
 * request #N from ...", by the maintainer or a bot who merged it) stands
 * for the merged branch: its tip's author is who changed the code.  Then
 * the mailmap.
 */
static void own_who(void *arg, const char *name, const char *email, const char *parents,
                    char **oname, char **oemail)
{
    own_git *g = arg;
    const char *sp = parents ? strchr(parents, ' ') : NULL, *rn = NULL, *re = NULL;
    git_commit *tip = NULL;
    git_oid oid;

    if (g->repo && sp && git_oid_fromstrn(&oid, sp + 1, GIT_OID_HEXSZ) == 0 &&
        git_commit_lookup(&tip, g->repo, &oid) == 0) {
        name = git_commit_author(tip)->name;
        email = git_commit_author(tip)->email;
        *oname = strdup(name);
        *oemail = strdup(email);
    }
    if (g->mm && git_mailmap_resolve(&rn, &re, g->mm, name, email) == 0) {
        char *n = rn ? strdup(rn) : NULL, *e = re ? strdup(re) : NULL;

        if (n) {
            free(*oname);
            *oname = n;
        }
        if (e) {
            free(*oemail);
            *oemail = e;
        }
    }
    git_commit_free(tip);
}

/* One diff being read: the new version's functions and hunks so far. */
typedef struct {
    pd_own_fn *fns;
    size_t n;
    const int64_t *start, *end;
} own_diff;

/* git_diff_blobs hunk callback: mark the functions the hunk touches. */
static int own_hunk(const git_diff_delta *d, const git_diff_hunk *hk, void *arg)
{
    own_diff *o = arg;
    int64_t a = hk->new_start, b = hk->new_start + (hk->new_lines ? hk->new_lines - 1 : 0);
    size_t i;

    for (i = 0; i < o->n; i++)
        if (o->start[i] <= b && a <= o->end[i] && (hk->new_lines || a < o->end[i]))
            o->fns[i].changed = 1;
    return 0;
}

/* Which functions each version changed, from a diff of its blob with the
 * previous one (the fingerprint cannot see an edited constant).  Left to
 * the fingerprint when a blob cannot be read. */
static void own_diffs(git_repository *repo, db_owner_hist *h)
{
    git_diff_options opt;
    size_t k, i;

    git_diff_options_init(&opt, GIT_DIFF_OPTIONS_VERSION);
    opt.context_lines = 0;
    for (k = 1; repo && k < h->n; k++) {
        git_blob *a = NULL, *b = NULL;
        git_oid oa, ob;
        own_diff o = {(pd_own_fn *)h->v[k].fns, h->v[k].nfns, h->starts[k], h->ends[k]};

        if (git_oid_fromstr(&oa, h->blob[k - 1]) == 0 && git_oid_fromstr(&ob, h->blob[k]) == 0 &&
            git_blob_lookup(&a, repo, &oa) == 0 && git_blob_lookup(&b, repo, &ob) == 0) {
            for (i = 0; i < o.n; i++)
                o.fns[i].changed = 0;
            if (git_diff_blobs(a, NULL, b, NULL, &opt, NULL, NULL, own_hunk, NULL, &o) < 0)
                for (i = 0; i < o.n; i++)
                    o.fns[i].changed = -1;
        }
        git_blob_free(a);
        git_blob_free(b);
    }
}

int api_owners_read(srv_req *r, const api_at *at, const char *repo, const char *path,
                    api_owners_file **out)
{
    api_owners_file *o = calloc(1, sizeof(*o));
    own_git g = {NULL, NULL};
    int rc;

    *out = NULL;
    if (!o)
        return pd_error_nomem(NULL);
    git_libgit2_init();
    g.mm = own_mailmap(r, repo, at->oid, &g.repo);
    rc = db_owner_hist_read(r->db, at->commit_id, at->rules_hash, path, OWN_MIN, OWN_MAX,
                            own_who, &g, &o->h);
    if (rc == 0)
        own_diffs(g.repo, &o->h);
    git_mailmap_free(g.mm);
    git_repository_free(g.repo);
    git_libgit2_shutdown();
    if (rc == 0 && o->h.n) {
        o->nres = o->h.v[o->h.n - 1].nfns;
        rc = pd_owners_compute(o->h.v, o->h.n, o->h.baseline, OWN_PEOPLE, &o->res);
    }
    if (rc < 0) {
        api_owners_free(o);
        return rc;
    }
    *out = o;
    return 0;
}

void api_owners_free(api_owners_file *o)
{
    if (!o)
        return;
    pd_owners_free(o->res, o->nres);
    db_owner_hist_free(&o->h);
    free(o);
}

/* The result of the function `name` at start_line, NULL when unknown. */
static const pd_own_result *own_find(const api_owners_file *o, const char *name,
                                     int64_t start_line)
{
    const pd_own_ver *v;
    size_t i, best = (size_t)-1;

    if (!o || !o->res)
        return NULL;
    v = &o->h.v[o->h.n - 1];
    for (i = 0; i < v->nfns; i++)
        if (strcmp(v->fns[i].name, name) == 0) {
            if (o->h.start_line[i] == start_line)
                return &o->res[i];
            if (best == (size_t)-1)
                best = i;
        }
    return best == (size_t)-1 ? NULL : &o->res[best];
}

/* The name to ask a person by: "@login" or the name. */
static const char *own_display(const pd_own_person *p, char *buf, size_t cap)
{
    const char *h = pd_owners_handle(p->email, buf, cap);

    return h ? h : p->who;
}

const char *api_owners_ask(const api_owners_file *o, const char *name, int64_t start_line)
{
    const pd_own_result *x = own_find(o, name, start_line);
    const pd_own_person *p;

    if (!x || (!x->nporters && !x->nchangers))
        return NULL;
    p = x->nporters ? &x->porters[0] : &x->changers[0];
    return own_display(p, ((api_owners_file *)o)->ask, sizeof(o->ask));
}

/* One person; the e-mail only on a private server. */
static json_t *own_person(srv_req *r, const pd_own_person *p)
{
    char date[40], hb[128];
    const char *h = pd_owners_handle(p->email, hb, sizeof(hb));
    json_t *o;

    pd_iso8601(date, sizeof(date), p->time, 0);
    o = json_pack("{s:o, s:o, s:I, s:s, s:s}", "name", api_text(p->who),
                  "handle", h ? json_string(h) : json_null(), "commits",
                  (json_int_t)p->commits, "commit", p->oid, "date", date);
    if (r->private_reads)
        json_object_set_new(o, "email", api_text(p->email));
    return o;
}

static json_t *own_people(srv_req *r, const pd_own_person *v, size_t n)
{
    json_t *a = json_array();
    size_t i;

    for (i = 0; i < n; i++)
        json_array_append_new(a, own_person(r, &v[i]));
    return a;
}

json_t *api_owners_json(srv_req *r, const api_owners_file *o, const char *name,
                        int64_t start_line)
{
    const pd_own_result *x = own_find(o, name, start_line);

    return json_pack("{s:o, s:o}", "ported_by", x ? own_people(r, x->porters, x->nporters)
                     : json_array(), "changed_by",
                     x ? own_people(r, x->changers, x->nchangers) : json_array());
}

/* Sum porters over the file's functions: [who, email, commits]. */
static void own_file_add(json_t *agg, const pd_own_person *p, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        const char *key = p[i].email && p[i].email[0] ? p[i].email : p[i].who;
        json_t *e = json_object_get(agg, key);

        if (!e) {
            e = json_pack("{s:s, s:s, s:I, s:s, s:I}", "who", p[i].who, "email", p[i].email,
                          "functions", (json_int_t)0, "commit", p[i].oid, "time",
                          (json_int_t)p[i].time);
            json_object_set_new(agg, key, e);
        }
        json_object_set_new(e, "functions", json_integer(
            json_integer_value(json_object_get(e, "functions")) + 1));
        if (p[i].time > json_integer_value(json_object_get(e, "time"))) {
            json_object_set_new(e, "time", json_integer(p[i].time));
            json_object_set_new(e, "commit", json_string(p[i].oid));
        }
    }
}

static int own_agg_cmp(const void *a, const void *b)
{
    json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
    json_int_t fx = json_integer_value(json_object_get(x, "functions"));
    json_int_t fy = json_integer_value(json_object_get(y, "functions"));

    if (fx != fy)
        return fx > fy ? -1 : 1;
    return strcmp(json_string_value(json_object_get(x, "who")),
                  json_string_value(json_object_get(y, "who")));
}

/* The aggregate as a list of people with the functions they hold. */
static json_t *own_file_list(srv_req *r, json_t *agg)
{
    size_t n = json_object_size(agg), i = 0;
    json_t **v = calloc(n + 1, sizeof(*v)), *e, *out = json_array();
    const char *k;

    json_object_foreach(agg, k, e)
        v[i++] = e;
    qsort(v, n, sizeof(*v), own_agg_cmp);
    for (i = 0; i < n; i++) {
        pd_own_person p = {json_string_value(json_object_get(v[i], "who")),
                           json_string_value(json_object_get(v[i], "email")),
                           json_string_value(json_object_get(v[i], "commit")),
                           json_integer_value(json_object_get(v[i], "time")), 0};
        json_t *o = own_person(r, &p);

        json_object_del(o, "commits");
        json_object_set(o, "functions", json_object_get(v[i], "functions"));
        json_array_append_new(out, o);
    }
    free(v);
    return out;
}

enum MHD_Result api_owners(srv_req *r)
{
    api_owners_file *o = NULL;
    api_at at;
    json_t *fns = json_array(), *ported = json_object(), *changed = json_object();
    const pd_own_ver *v;
    size_t i;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = api_owners_read(r, &at, r->param[0], r->tail ? r->tail : "", &o)) < 0) {
        json_decref(fns);
        json_decref(ported);
        json_decref(changed);
        return srv_reply_error(r, rc);
    }
    if (!o->h.n) {
        api_owners_free(o);
        json_decref(fns);
        json_decref(ported);
        json_decref(changed);
        return srv_reply_error(r, pd_error_set(PD_ENOTFOUND, "no file '%s' at this commit",
                                               r->tail ? r->tail : ""));
    }
    v = &o->h.v[o->h.n - 1];
    for (i = 0; i < v->nfns; i++) {
        json_t *f = api_owners_json(r, o, v->fns[i].name, o->h.start_line[i]);

        json_object_set_new(f, "name", api_text(v->fns[i].name));
        json_object_set_new(f, "start_line", json_integer(o->h.start_line[i]));
        json_array_append_new(fns, f);
        own_file_add(ported, o->res[i].porters, o->res[i].nporters);
        own_file_add(changed, o->res[i].changers, o->res[i].nchangers);
    }
    rc = (int)o->h.n;
    i = (size_t)o->h.baseline;
    api_owners_free(o);
    {
        json_t *pl = own_file_list(r, ported), *cl = own_file_list(r, changed);

        json_decref(ported);
        json_decref(changed);
        return srv_reply_json(r, 200, json_pack("{s:s, s:o, s:I, s:b, s:b, s:o, s:o, s:o}",
            "commit", at.oid, "path", api_text(r->tail ? r->tail : ""),
            "versions_read", (json_int_t)rc, "history_cut", (int)i,
            "emails_shown", r->private_reads != 0, "ported_by", pl, "changed_by", cl,
            "functions", fns));
    }
}
