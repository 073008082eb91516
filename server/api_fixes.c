/*
 * api_fixes.c: GET /api/v1/repos/{repo}/commits/{rev}/fixes, the checked
 * HPy rewrites of a commit (fix.h, doc/fixes.md), paged.
 *
 * Each selected file of the commit (or of ?path=GLOB) is read from the
 * repository's git directory, analysed with the built-in rules and its
 * rewrites found and checked, as `portdash fix` does; ?rule=R keeps the
 * offers of rule R (hpy-call, hpy-name) or of the C API name R, and
 * ?function=NAME those in that function.  Each offer carries its
 * replacement, its exact region and the unified diff of that one change.
 * "refused" counts the legacy uses not offered, by reason, over the same
 * files.  The work is bounded by the request budget (503 when spent).
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "api.h"
#include "db.h"
#include "pd_error.h"
#include "pathfilter.h"
#include "srv_budget.h"
#include "srv_page.h"

typedef struct {
    srv_req *r;
    git_repository *repo;
    char path_glob[512], rule[128], function[256];
    json_t *fixes;              /* every wanted offer, in path order */
    size_t refused[FIX_R_COUNT], files;
    int function_seen;          /* ?function= names a function of a file read */
    int rc;
} af_state;

/* The diff of the one offer o of l on buf, as a new json string. */
static json_t *af_diff(const char *path, const char *buf, size_t len, const fix_list *l,
                       size_t i)
{
    unsigned char *use = calloc(l->n + 1, 1);
    char *patched = NULL, *out = NULL;
    size_t plen, olen = 0;
    json_t *s = NULL;
    FILE *f;

    if (!use)
        return NULL;
    use[i] = 1;
    if (fix_apply(buf, len, l, NULL, use, &patched, &plen) == 0 &&
        (f = open_memstream(&out, &olen)) != NULL) {
        int rc = fix_diff(f, path, buf, len, patched, plen);

        fclose(f);
        s = rc == 0 ? json_stringn(out, olen) : NULL;
    }
    free(out);
    free(patched);
    free(use);
    return s;
}

static int af_wanted(const af_state *s, const an_result *res, const fix_offer *o)
{
    if (o->reason != FIX_OK)
        return 0;
    if (s->rule[0] && !fix_rule_matches(o, s->rule))
        return 0;
    return !s->function[0] ||
           (o->function >= 0 && strcmp(res->functions[o->function].name, s->function) == 0);
}

/* The offers of one file onto s->fixes. */
static int af_file(af_state *s, const char *path, const char *buf, size_t len)
{
    const rules *rl = rules_default();
    an_result *res = NULL;
    fix_list l;
    size_t i;
    int rc;

    if ((rc = an_analyze(&res, rl, path, buf, len)) < 0)
        return rc;
    if ((rc = fix_file(&l, rl, path, buf, len, res)) < 0) {
        an_result_free(res);
        return rc;
    }
    s->files++;
    for (i = 0; s->function[0] && !s->function_seen && i < res->nfunctions; i++)
        s->function_seen = strcmp(res->functions[i].name, s->function) == 0;
    for (i = 0; i < l.n && !rc; i++) {
        const fix_offer *o = &l.v[i];
        json_t *x;

        if (o->reason != FIX_OK)
            s->refused[o->reason]++;
        if (!af_wanted(s, res, o))
            continue;
        x = json_pack("{s:s, s:i, s:i, s:i, s:i, s:I, s:I, s:s?, s:s, s:s, s:s, s:s, s:s, s:o?}",
                      "path", path, "line", (json_int_t)o->line,
                      "column", (json_int_t)o->column, "end_line", (json_int_t)o->end_line,
                      "end_column", (json_int_t)o->end_column,
                      "byte_offset", (json_int_t)o->off, "byte_length", (json_int_t)o->len,
                      "function", o->function >= 0 ? res->functions[o->function].name : NULL,
                      "rule", o->rule, "from", o->from, "to", o->to, "hpy_since", o->since,
                      "replacement", o->text, "diff", af_diff(path, buf, len, &l, i));
        if (!x || json_array_append_new(s->fixes, x))
            rc = pd_error_nomem(NULL);
    }
    fix_list_free(&l);
    an_result_free(res);
    return rc;
}

/* db_commit_files callback: one selected file of the commit. */
static int af_each(void *arg, int64_t path_id, const char *path, const char *blob_hex,
                   int64_t analysis_id)
{
    af_state *s = arg;
    git_blob *blob = NULL;
    git_oid oid;
    int rc;

    (void)path_id;
    (void)analysis_id;
    /* ?path= is a glob, or a path taken as written (one with * or [ in it) */
    if (s->path_glob[0] && strcmp(s->path_glob, path) != 0 &&
        !pathfilter_glob_match(s->path_glob, path))
        return 0;
    if (srv_budget_over())
        return pd_error_set(PD_ERROR, "the fixes of this commit took longer than the "
                            "request budget; narrow it with ?path=");
    if (git_oid_fromstr(&oid, blob_hex) < 0 || git_blob_lookup(&blob, s->repo, &oid) < 0)
        return pd_error_set(PD_ENOTFOUND, "the git repository no longer holds the blob "
                            "of %s", path);
    rc = af_file(s, path, git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
    git_blob_free(blob);
    return rc;
}

static int af_query(srv_req *r, const char *key, char *buf, size_t n)
{
    int rc = srv_query(r, key, buf, n);

    if (rc == PD_ENOTFOUND) {
        buf[0] = '\0';
        return 0;
    }
    return rc;
}

/* The answer's document: this page of s->fixes and the counts. */
static json_t *af_doc(af_state *s, const api_at *at, size_t page, size_t per)
{
    json_t *o, *refused = json_object(), *pagev = json_array();
    size_t i, total = json_array_size(s->fixes);

    for (i = 1; i < FIX_R_COUNT; i++)
        json_object_set_new(refused, fix_reason_name((fix_reason)i),
                            json_integer((json_int_t)s->refused[i]));
    for (i = (page - 1) * per; i < total && i < page * per; i++)
        json_array_append(pagev, json_array_get(s->fixes, i));
    o = json_pack("{s:s, s:s, s:I, s:I, s:o, s:o, s:I, s:I, s:b}", "commit", at->oid,
                  "rules", "built-in", "files", (json_int_t)s->files,
                  "offered", (json_int_t)total, "refused", refused, "fixes", pagev,
                  "page", (json_int_t)page, "per_page", (json_int_t)per,
                  "truncated", total > per || page > 1);
    if (total > per || page > 1)
        srv_page_link(s->r, page, per, total);
    return o;
}

enum MHD_Result api_fixes(srv_req *r)
{
    af_state s;
    api_at at;
    char gitdir[4096];
    size_t page, per;
    enum MHD_Result ret;
    int rc;

    memset(&s, 0, sizeof(s));
    s.r = r;
    if (!rules_default())
        return srv_reply_error(r, pd_error_set(PD_ENOMEM, "cannot load the built-in rules"));
    if ((rc = api_resolve(r, &at)) < 0 || (rc = srv_page_window(r, 100, 1000, &page, &per)) < 0 ||
        (rc = af_query(r, "path", s.path_glob, sizeof(s.path_glob))) < 0 ||
        (rc = af_query(r, "rule", s.rule, sizeof(s.rule))) < 0 ||
        (rc = af_query(r, "function", s.function, sizeof(s.function))) < 0 ||
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) < 0)
        return srv_reply_error(r, rc);
    /* A typo in ?rule= would read as "nothing to fix". */
    if (s.rule[0] && !fix_rule_known(s.rule))
        return srv_reply_problem(r, 400, "Bad Request", "?rule=%s is no rule (hpy-call, "
                                 "hpy-name) and no C API name with a rewrite", s.rule);
    git_libgit2_init();
    if (git_repository_open_ext(&s.repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0) {
        git_libgit2_shutdown();
        return srv_reply_problem(r, 404, "Not Found", "the git repository of '%s' cannot "
                                 "be read: fixes need the source", r->param[0]);
    }
    if (!(s.fixes = json_array()))
        rc = pd_error_nomem(NULL);
    else
        rc = db_commit_files(r->db, at.commit_id, at.rules_hash, af_each, &s);
    git_repository_free(s.repo);
    git_libgit2_shutdown();
    if (rc == 0 && s.function[0] && s.files && !s.function_seen)
        ret = srv_reply_problem(r, 404, "Not Found", "no function '%s' in the files read",
                                s.function);
    else if (rc == 0 && s.path_glob[0] && !s.files)
        /* ?path= selecting no file: a typo, not a file with nothing to fix. */
        ret = srv_reply_problem(r, 404, "Not Found", "no file of the commit is selected by "
                                "?path=%s", s.path_glob);
    else
        ret = rc < 0 ? srv_reply_error(r, rc)
                     : srv_reply_json(r, 200, af_doc(&s, &at, page, per));
    json_decref(s.fixes);
    return ret;
}
