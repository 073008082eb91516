/*
 * gate_comment.c: the pull-request comment (see gate_comment.h).  Paths
 * and function names are repository text: they go into code spans or
 * escaped text (pd_escape.h); URLs get their query values percent-encoded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "gate.h"
#include "gate_blob.h"
#include "gate_comment.h"
#include "gate_owners.h"
#include "pd_error.h"
#include "pd_escape.h"
#include "pd_owners.h"
#include "pd_rev.h"

#define GC_MAX_FILES 200         /* files of the diff looked at */
#define GC_OWNER_FILES 10        /* files whose history is walked for owners */
#define GC_LISTED 15             /* functions listed in the comment */

typedef struct {
    uint32_t a, b;               /* first and last line (b < a: a point after a - 1) */
} gc_range;

typedef struct {
    char *old_path, *new_path;   /* NULL when absent on that side */
    git_oid old_blob, new_blob;
    gc_range *add, *del;         /* lines added at head, removed from the base */
    size_t nadd, ndel;
} gc_file;

typedef struct {
    gc_file *v;
    size_t n;
    const pathfilter *pf;
} gc_files;

/* ---- the pull request's lines ---------------------------------------------- */

static int gc_file_cb(const git_diff_delta *d, float progress, void *arg)
{
    gc_files *fs = arg;
    gc_file *f;
    int in_old = d->old_file.path && !git_oid_is_zero(&d->old_file.id) &&
                 pathfilter_contains(fs->pf, d->old_file.path);
    int in_new = d->new_file.path && !git_oid_is_zero(&d->new_file.id) &&
                 pathfilter_contains(fs->pf, d->new_file.path);

    if ((!in_old && !in_new) || fs->n >= GC_MAX_FILES)
        return 0;
    if (!(f = realloc(fs->v, (fs->n + 1) * sizeof(*f))))
        return -1;
    fs->v = f;
    f = &fs->v[fs->n++];
    memset(f, 0, sizeof(*f));
    if (in_old) {
        f->old_path = strdup(d->old_file.path);
        git_oid_cpy(&f->old_blob, &d->old_file.id);
    }
    if (in_new) {
        f->new_path = strdup(d->new_file.path);
        git_oid_cpy(&f->new_blob, &d->new_file.id);
    }
    return (in_old && !f->old_path) || (in_new && !f->new_path) ? -1 : 0;
}

static int gc_push_range(gc_range **v, size_t *n, uint32_t a, uint32_t lines)
{
    gc_range *p = realloc(*v, (*n + 1) * sizeof(*p));

    if (!p)
        return -1;
    *v = p;
    p[*n].a = a;
    p[*n].b = lines ? a + lines - 1 : a - 1;
    (*n)++;
    return 0;
}

static int gc_hunk_cb(const git_diff_delta *d, const git_diff_hunk *h, void *arg)
{
    gc_files *fs = arg;
    gc_file *f;

    if (!fs->n)
        return 0;
    f = &fs->v[fs->n - 1];
    if ((f->new_path && strcmp(f->new_path, d->new_file.path) != 0) ||
        (!f->new_path && f->old_path && strcmp(f->old_path, d->old_file.path) != 0))
        return 0;               /* a file the path filter leaves out */
    if (h->new_lines && gc_push_range(&f->add, &f->nadd, (uint32_t)h->new_start,
                                      (uint32_t)h->new_lines) < 0)
        return -1;
    if (h->old_lines && gc_push_range(&f->del, &f->ndel, (uint32_t)h->old_start,
                                      (uint32_t)h->old_lines) < 0)
        return -1;
    return 0;
}

/* 1 when a line of [a, b] is in one of the ranges. */
static int gc_touches(const gc_range *v, size_t n, uint32_t a, uint32_t b)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (v[i].b >= v[i].a && v[i].a <= b && a <= v[i].b)
            return 1;
    return 0;
}

static int gc_diff(git_repository *repo, git_commit *mb, git_commit *head, gc_files *fs)
{
    git_tree *a = NULL, *b = NULL;
    git_diff *d = NULL;
    git_diff_options opt;
    int rc = 0;

    git_diff_options_init(&opt, GIT_DIFF_OPTIONS_VERSION);
    opt.context_lines = 0;
    if (git_commit_tree(&a, mb) < 0 || git_commit_tree(&b, head) < 0 ||
        git_diff_tree_to_tree(&d, repo, a, b, &opt) < 0 || git_diff_find_similar(d, NULL) < 0)
        rc = pd_error_set(PD_EGIT, "cannot diff the pull request");
    else if (git_diff_foreach(d, gc_file_cb, NULL, gc_hunk_cb, NULL, fs) < 0)
        rc = pd_error_nomem("reading the diff");
    git_diff_free(d);
    git_tree_free(a);
    git_tree_free(b);
    return rc;
}

/* ---- what moved ----------------------------------------------------------- */

typedef struct {
    git_repository *repo;
    git_mailmap *mm;
    const rules *r;
    git_oid mb;
    json_t *fns;                 /* functions listed */
    json_int_t ported, less, added, removed, gained, lost;
    size_t owner_files;
} gc_state;

static int gc_rank(an_status s)
{
    return s == AN_STATUS_LEGACY ? 0 : s == AN_STATUS_BRIDGED ? 1 : 2;
}

static int gc_analyse(git_repository *repo, const rules *r, const char *path,
                      const git_oid *oid, an_result **out)
{
    git_blob *b = NULL;
    int rc;

    *out = NULL;
    if (!path)
        return 0;
    if ((rc = gate_blob_lookup(&b, repo, oid, path)) < 0)
        return rc;
    rc = an_analyze(out, r, path, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
    git_blob_free(b);
    return rc;
}

/* Blocking uses (unguarded capi or bridge) of function fi (or any, -1
 * for all) on the ranges. */
static json_int_t gc_uses_on(const an_result *res, int32_t fi, const gc_range *v, size_t n)
{
    json_int_t k = 0;
    size_t i;

    for (i = 0; res && i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        if (!f->guarded && (f->cls == AN_CLASS_CAPI || f->cls == AN_CLASS_BRIDGE) &&
            (fi < 0 || f->function == fi) && gc_touches(v, n, f->line, f->line))
            k++;
    }
    return k;
}

/* The occurrence of function i among the functions of its name. */
static size_t gc_occurrence(const an_result *res, size_t i)
{
    size_t k = 0, j;

    for (j = 0; j < i; j++)
        k += strcmp(res->functions[j].name, res->functions[i].name) == 0;
    return k;
}

/* The function of `name`, occurrence k, in res: its index or -1. */
static int32_t gc_find(const an_result *res, const char *name, size_t k)
{
    size_t j;

    for (j = 0; res && j < res->nfunctions; j++)
        if (strcmp(res->functions[j].name, name) == 0 && k-- == 0)
            return (int32_t)j;
    return -1;
}

/* Whom to ask about function `name` (occurrence k) of the base's path. */
static json_t *gc_ask(gc_state *s, gc_file *f, gate_owners **own, const char *name, size_t k)
{
    const pd_own_person *p;
    char hb[128];
    const char *h;

    if (!f->old_path)
        return json_null();
    if (!*own) {
        if (s->owner_files >= GC_OWNER_FILES)
            return json_null();
        s->owner_files++;
        if (gate_owners_read(own, s->repo, s->mm, &s->mb, f->old_path, s->r, 40, 3000) < 0)
            return json_null();
    }
    if (!(p = gate_owners_ask(*own, name, k)))
        return json_null();
    h = pd_owners_handle(p->email, hb, sizeof(hb));
    return json_string(h ? h : p->who);
}

/* One function pair (either side may be -1) on the pull request's lines. */
static void gc_function(gc_state *s, gc_file *f, gate_owners **own, const an_result *ra,
                        int32_t ia, const an_result *rb, int32_t ib)
{
    const an_function *fa = ia >= 0 ? &ra->functions[ia] : NULL;
    const an_function *fb = ib >= 0 ? &rb->functions[ib] : NULL;
    json_int_t add = fb ? gc_uses_on(rb, ib, f->add, f->nadd) : 0;
    json_int_t del = fa ? gc_uses_on(ra, ia, f->del, f->ndel) : 0;
    int better = fa && fb ? gc_rank(fb->status) > gc_rank(fa->status)
                          : fb && fb->status == AN_STATUS_PORTED && fb->tokens[AN_CLASS_HPY];
    int worse = fa && fb && gc_rank(fb->status) < gc_rank(fa->status);
    const char *name = fb ? fb->name : fa->name;

    if (!fb ? !gc_touches(f->del, f->ndel, fa->start_line, fa->end_line)
            : !gc_touches(f->add, f->nadd, fb->start_line, fb->end_line) &&
              !(fa && gc_touches(f->del, f->ndel, fa->start_line, fa->end_line)))
        return;
    s->ported += better;
    s->less += worse;
    if (!better && !worse && !add && !del)
        return;
    json_array_append_new(s->fns, json_pack("{s:s, s:s, s:s, s:s, s:I, s:I, s:I, s:o}",
        "path", f->new_path ? f->new_path : f->old_path, "name", name,
        "was", fa ? an_status_name(fa->status) : "absent",
        "now", fb ? an_status_name(fb->status) : "absent",
        "uses_added", add, "uses_removed", del, "line", (json_int_t)(fb ? fb->start_line : 0),
        "ask", fa ? gc_ask(s, f, own, name, gc_occurrence(ra, (size_t)ia)) : json_null()));
    json_object_set_new(json_array_get(s->fns, json_array_size(s->fns) - 1), "change",
                        json_string(better ? "ported" : worse ? "less ported" : "uses"));
}

/* Every function of one file of the diff. */
static int gc_file_moves(gc_state *s, gc_file *f)
{
    an_result *ra = NULL, *rb = NULL;
    gate_owners *own = NULL;
    size_t i;
    int rc;

    if ((rc = gc_analyse(s->repo, s->r, f->old_path, &f->old_blob, &ra)) < 0 ||
        (rc = gc_analyse(s->repo, s->r, f->new_path, &f->new_blob, &rb)) < 0) {
        an_result_free(ra);
        return rc;
    }
    s->added += gc_uses_on(rb, -1, f->add, f->nadd);
    s->removed += gc_uses_on(ra, -1, f->del, f->ndel);
    if (ra && rb && ra->universal_ready != rb->universal_ready) {
        s->gained += rb->universal_ready;
        s->lost += ra->universal_ready;
    }
    for (i = 0; rb && i < rb->nfunctions; i++)
        gc_function(s, f, &own, ra, gc_find(ra, rb->functions[i].name, gc_occurrence(rb, i)),
                    rb, (int32_t)i);
    for (i = 0; ra && i < ra->nfunctions; i++)   /* removed at head */
        if (gc_find(rb, ra->functions[i].name, gc_occurrence(ra, i)) < 0)
            gc_function(s, f, &own, ra, (int32_t)i, rb, -1);
    gate_owners_free(own);
    an_result_free(ra);
    an_result_free(rb);
    return 0;
}

/* ---- the Markdown ---------------------------------------------------------- */

/* A query value, percent-encoded. */
static void gc_url_value(FILE *f, const char *s)
{
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            strchr("-._~/", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

static void gc_link_file(FILE *f, const gate_comment_opts *o, const char *oid, const char *path)
{
    fprintf(f, "%s/file.html?repo=", o->dashboard);
    gc_url_value(f, o->name);
    fprintf(f, "&rev=%s&path=", oid);
    gc_url_value(f, path);
}

static void gc_row(FILE *f, const char *label, json_int_t v)
{
    fprintf(f, "| %s | %lld |\n", label, (long long)v);
}

static void gc_markdown(FILE *f, const gc_state *s, const char *mb, const char *head,
                        const gate_comment_opts *o, json_t *ask)
{
    json_t *fn, *v = o->verdict;
    size_t i, nreg = json_array_size(json_object_get(v, "regressions"));
    const char *res = json_string_value(json_object_get(v, "result"));

    fprintf(f, "%s\n### HPy port: %s", GATE_COMMENT_MARKER,
            !res ? "this pull request" : strcmp(res, "pass") == 0 ? "✅ gate passes"
                                                                : "❌ gate fails");
    if (res && nreg)
        fprintf(f, " (%zu regression%s)", nreg, nreg == 1 ? "" : "s");
    fprintf(f, "\n\nOn this pull request's own lines (`%.10s`…`%.10s`):\n\n| | |\n|---|---:|\n",
            mb, head);
    gc_row(f, "functions ported", s->ported);
    gc_row(f, "functions less ported", s->less);
    gc_row(f, "blocking uses added (C API, bridges)", s->added);
    gc_row(f, "blocking uses removed", s->removed);
    gc_row(f, "files now universal-ready", s->gained);
    gc_row(f, "files no longer universal-ready", s->lost);
    if (json_array_size(s->fns)) {
        fputs("\n| function | file | was → now | blocking uses | ask |\n|---|---|---|---:|---|\n",
              f);
        json_array_foreach(s->fns, i, fn) {
            const char *path = json_string_value(json_object_get(fn, "path"));

            if (i == GC_LISTED) {
                fprintf(f, "| … %zu more | | | | |\n", json_array_size(s->fns) - i);
                break;
            }
            fputs("| ", f);
            pd_esc_md_code(f, json_string_value(json_object_get(fn, "name")), 1);
            fputs(" | ", f);
            if (o->dashboard) {
                fputc('[', f);
                pd_esc_md_code(f, path, 1);
                fputs("](", f);
                gc_link_file(f, o, head, path);
                fputc(')', f);
            } else {
                pd_esc_md_code(f, path, 1);
            }
            fprintf(f, " | %s → %s | +%lld −%lld | ",
                    json_string_value(json_object_get(fn, "was")),
                    json_string_value(json_object_get(fn, "now")),
                    (long long)json_integer_value(json_object_get(fn, "uses_added")),
                    (long long)json_integer_value(json_object_get(fn, "uses_removed")));
            if (json_is_string(json_object_get(fn, "ask")))
                pd_esc_md_text(f, json_string_value(json_object_get(fn, "ask")));
            fputs(" |\n", f);
        }
    }
    if (json_array_size(ask)) {
        fputs("\nAsk: ", f);
        json_array_foreach(ask, i, fn) {
            fputs(i ? ", " : "", f);
            pd_esc_md_text(f, json_string_value(fn));
        }
        fputs(".\n", f);
    }
    if (o->dashboard) {
        fprintf(f, "\n[Compare on the dashboard](%s/compare.html?repo=", o->dashboard);
        gc_url_value(f, o->name);
        fprintf(f, "&base=%s&head=%s) · base `%.10s`, head `%.10s`\n", mb, head, mb, head);
    }
}

/* ---- the run --------------------------------------------------------------- */

/* The .mailmap of the head's tree, else the repository's. */
static git_mailmap *gc_mailmap(git_repository *repo, git_commit *head)
{
    git_mailmap *mm = NULL;
    git_tree *t = NULL;
    git_tree_entry *e = NULL;
    git_blob *b = NULL;

    if (git_commit_tree(&t, head) == 0 && git_tree_entry_bypath(&e, t, ".mailmap") == 0 &&
        git_blob_lookup(&b, repo, git_tree_entry_id(e)) == 0)
        git_mailmap_from_buffer(&mm, git_blob_rawcontent(b), (size_t)git_blob_rawsize(b));
    if (!mm)
        git_mailmap_from_repository(&mm, repo);
    git_blob_free(b);
    git_tree_entry_free(e);
    git_tree_free(t);
    return mm;
}

/* The commit a rev names. */
static int gc_commit(git_repository *repo, const char *gitdir, const char *rev,
                     git_commit **out)
{
    git_object *o = NULL;
    int rc;

    if ((rc = pd_rev_parse(&o, repo, rev)) == PD_EINVAL)
        return rc;
    if (rc < 0 || git_object_peel((git_object **)out, o, GIT_OBJECT_COMMIT) < 0)
        rc = pd_rev_unknown(repo, gitdir, rev, PD_EGIT);
    git_object_free(o);
    return rc;
}

/* The people to ask: the functions' asks, less ported ones first. */
static json_t *gc_asks(json_t *fns)
{
    json_t *ask = json_array(), *fn;
    size_t i, k, pass;

    for (pass = 0; pass < 2; pass++)
        json_array_foreach(fns, i, fn) {
            json_t *a = json_object_get(fn, "ask"), *x;
            int less = strcmp(json_string_value(json_object_get(fn, "change")),
                              "less ported") == 0;

            if (!json_is_string(a) || less != (pass == 0))
                continue;
            json_array_foreach(ask, k, x)
                if (json_equal(x, a))
                    break;
            if (k == json_array_size(ask))
                json_array_append(ask, a);
        }
    return ask;
}

static void gc_files_free(gc_files *fs)
{
    size_t i;

    for (i = 0; i < fs->n; i++) {
        free(fs->v[i].old_path);
        free(fs->v[i].new_path);
        free(fs->v[i].add);
        free(fs->v[i].del);
    }
    free(fs->v);
}

int gate_comment_run(char **out, json_t **facts, const char *gitdir, const char *base,
                     const char *head, const rules *r, const pathfilter *pf,
                     const gate_comment_opts *o)
{
    gc_state s;
    gc_files fs = {NULL, 0, pf};
    git_commit *cb = NULL, *ch = NULL, *cm = NULL;
    char mb[GIT_OID_HEXSZ + 1], hd[GIT_OID_HEXSZ + 1];
    json_t *ask = NULL;
    size_t i, len = 0;
    int rc = 0;

    *out = NULL;
    memset(&s, 0, sizeof(s));
    s.r = r;
    s.fns = json_array();
    git_libgit2_init();
    if (git_repository_open_ext(&s.repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0)
        rc = pd_error_set(PD_EGIT, "%s: not a git repository", gitdir);
    else if ((rc = gc_commit(s.repo, gitdir, base, &cb)) == 0 &&
             (rc = gc_commit(s.repo, gitdir, head, &ch)) == 0) {
        if (git_merge_base(&s.mb, s.repo, git_commit_id(cb), git_commit_id(ch)) < 0 ||
            git_commit_lookup(&cm, s.repo, &s.mb) < 0)
            rc = pd_error_set(PD_EGIT, "%s: '%s' and '%s' have no merge base", gitdir, base,
                              head);
    }
    if (rc == 0) {
        s.mm = gc_mailmap(s.repo, ch);
        rc = gc_diff(s.repo, cm, ch, &fs);
    }
    for (i = 0; rc == 0 && i < fs.n; i++)
        rc = gc_file_moves(&s, &fs.v[i]);
    if (rc == 0) {
        git_oid_tostr(mb, sizeof(mb), &s.mb);
        git_oid_tostr(hd, sizeof(hd), git_commit_id(ch));
        ask = gc_asks(s.fns);
        if (!s.ported && !s.less && !s.added && !s.removed && !s.gained && !s.lost &&
            !json_array_size(json_object_get(o->verdict, "regressions"))) {
            *out = strdup("");  /* quiet: nothing moved */
        } else {
            FILE *f = open_memstream(out, &len);

            if (f) {
                gc_markdown(f, &s, mb, hd, o, ask);
                if (fclose(f) != 0) {
                    free(*out);
                    *out = NULL;
                }
            }
        }
        if (!*out)
            rc = pd_error_nomem(NULL);
    }
    if (rc == 0 && facts)
        *facts = json_pack("{s:s, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:O, s:O}", "merge_base",
                           mb, "head", hd, "ported", s.ported, "less_ported", s.less,
                           "uses_added", s.added, "uses_removed", s.removed, "ready_gained",
                           s.gained, "ready_lost", s.lost, "functions", s.fns, "ask", ask);
    json_decref(ask);
    json_decref(s.fns);
    gc_files_free(&fs);
    git_commit_free(cb);
    git_commit_free(ch);
    git_commit_free(cm);
    git_mailmap_free(s.mm);
    git_repository_free(s.repo);
    git_libgit2_shutdown();
    return rc;
}
