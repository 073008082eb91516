/*
 * api_file.c: one file at a commit: the file page (q_file.h, read by the
 * query layer) rendered as JSON, and its source read from the git
 * repository.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api.h"
#include "api_file.h"
#include "api_file_part.h"
#include "api_file_write.h"
#include "db.h"
#include "db_repo.h"
#include "pd_domain.h"
#include "pd_error.h"
#include "q_file.h"
#include "srv_capture.h"
#include "srv_page.h"


/* The page's functions as a JSON array. */
static json_t *api_file_functions_json(const q_file *f)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < f->nfunctions; i++) {
        const q_function *fn = &f->functions[i];

        json_array_append_new(arr, json_pack(
            "{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o}", "name", api_text(fn->name),
            "start_line", (json_int_t)fn->start_line, "end_line", (json_int_t)fn->end_line,
            "status", fn->status,
            "object_state", fn->object_state ? json_string(fn->object_state) : json_null(),
            "tokens", api_tokens_obj(fn->tok),
            "name_from_macro", fn->name_from_macro ? api_text(fn->name_from_macro)
                                                   : json_null(),
            "why", api_file_why(fn)));
    }
    return arr;
}

/* The page's findings as one array: the typed built-in ones first. */
static json_t *api_file_findings(const q_file *f)
{
    json_t *arr = json_array(), *v;
    size_t i;

    for (i = 0; i < f->nbuiltin; i++)
        json_array_append_new(arr, q_finding_json(&f->builtin[i]));
    json_array_foreach(f->findings, i, v)
        json_array_append_new(arr, json_deep_copy(v));
    return arr;
}

/* The analysis part of the document: a blob the clone lacked, the figures,
 * the lists. */
static void api_file_body(const q_file *f, json_t *o)
{
    if (f->missing)
        json_object_set_new(o, "missing", json_pack("{s:s, s:s}", "since", f->missing_since,
                            "detail", q_file_missing_detail(f->analysed)));
    if (f->analysed) {
        json_object_set_new(o, "status", json_string(f->status));
        json_object_set_new(o, "universal_ready", json_boolean(f->universal_ready));
        json_object_set_new(o, "notes", f->notes ? api_text(f->notes) : json_null());
        json_object_set_new(o, "lines", json_integer(f->lines));
        json_object_set_new(o, "size", json_integer(f->size));
    } else if (f->missing) {
        json_object_set_new(o, "status", json_null());
    }
    json_object_set_new(o, "findings", api_file_findings(f));
    json_object_set_new(o, "functions", api_file_functions_json(f));
    json_object_set_new(o, "dismissed_count", json_integer((json_int_t)f->dismissed_count));
}


json_t *api_file_json(const q_file *f, int with_page)
{
    json_t *o = json_pack("{s:s, s:o, s:s}", "commit", f->commit, "path", api_text(f->path),
                          "blob", f->blob);

    api_file_body(f, o);
    if (!with_page)
        return o;
    /* Say how much there is, and page when one list is longer than a page. */
    json_object_set_new(o, "functions_total", json_integer((json_int_t)f->functions_total));
    json_object_set_new(o, "findings_total", json_integer((json_int_t)f->findings_total));
    json_object_set_new(o, "truncated", json_boolean(api_file_paged(f)));
    if (api_file_paged(f)) {
        json_object_set_new(o, "page", json_integer((json_int_t)f->page));
        json_object_set_new(o, "per_page", json_integer((json_int_t)f->per));
    }
    return o;
}

/* "--include G --exclude H" of filter f into buf (cut short past n). */
static void api_file_globs(char *buf, size_t n, const pathfilter *f)
{
    size_t i, k = 0;

    buf[0] = '\0';
    for (i = 0; i < f->ninclude + f->nexclude && k < n; i++)
        k += (size_t)snprintf(buf + k, n - k, "%s--%s %s", i ? " " : "",
                              i < f->ninclude ? "include" : "exclude",
                              i < f->ninclude ? f->include[i] : f->exclude[i - f->ninclude]);
}

/*
 * Why the commit has no analysed file at `path` (rc, PD_ENOTFOUND, is
 * returned with the reason as its message): a directory, a suffix the
 * analysis does not read, a path the repository's path filter leaves out (set at ingest:
 * there may well be such a file in git), or no such file.  Any other
 * failure keeps the plain message.
 */
int api_file_missing(sqlite3 *db, int64_t repo_id, const char *path, int rc)
{
    pathfilter_owned pf;
    char globs[1024];

    if (rc != PD_ENOTFOUND)
        return rc;
    memset(&pf, 0, sizeof(pf));
    if (!pd_path_is_source(path)) {
        rc = db_path_is_dir(db, path) == 1
            ? pd_error_set(PD_ENOTFOUND, "no file '%s': it is a directory (its files "
                           "are in the commit's file list)", path)
            : pd_error_set(PD_ENOTFOUND, "no analysed file '%s': its suffix is none of "
                           "the C sources the analysis reads (" PD_SRC_SUFFIXES ")", path);
    } else if (db_repo_filter(db, repo_id, &pf) == 0 &&
               !pathfilter_globs_contain(&pf.f, path)) {
        api_file_globs(globs, sizeof(globs), &pf.f);
        rc = pd_error_set(PD_ENOTFOUND, "no analysed file '%s': the repository's path "
                          "filter, set at ingest, leaves it out (%s)", path, globs);
    } else {
        rc = pd_error_set(PD_ENOTFOUND, "no file '%s' at this commit", path);
    }
    pathfilter_owned_free(&pf);
    return rc;
}

/*
 * The blob of r->tail at the commit.  A name that is not valid UTF-8 is
 * shown in its display form (api_text); when no file has the name as
 * written, the bytes that form names are tried, and r->tail becomes them
 * (*owned, freed by the caller).
 */
int api_file_locate(srv_req *r, const api_at *at, char *blob, char **owned)
{
    int rc = db_commit_file_blob(r->db, at->commit_id, r->tail, blob);

    *owned = NULL;
    if (rc != PD_ENOTFOUND || !strstr(r->tail, "\\x") ||
        !(*owned = api_text_bytes(r->tail)) || strcmp(*owned, r->tail) == 0)
        return api_file_missing(r->db, at->repo_id, r->tail, rc);
    if (db_commit_file_blob(r->db, at->commit_id, *owned, blob) == 0) {
        r->tail = *owned;
        return 0;
    }
    return api_file_missing(r->db, at->repo_id, r->tail, PD_ENOTFOUND);
}

/* ?tool=A,B and ?level=warning,error into p (findings of those only),
 * their text in the caller's buffers tools and levels; a value longer
 * than its buffer is an error (srv_query). */
static int api_file_params(srv_req *r, q_file_params *p, char *tools, size_t ntools,
                           char *levels, size_t nlevels)
{
    int rc;

    if ((rc = srv_query(r, "tool", tools, ntools)) < 0 && rc != PD_ENOTFOUND)
        return rc;
    p->tools = rc == 0 && tools[0] ? tools : NULL;   /* ?tool= alone: any tool */
    if ((rc = srv_query(r, "level", levels, nlevels)) < 0 && rc != PD_ENOTFOUND)
        return rc;
    p->levels = rc == 0 ? levels : NULL;
    return 0;
}

int api_file_read(srv_req *r, q_file_params *p, q_file **out, char **owned)
{
    api_at at;
    char blob[41], tools[1024], levels[256];
    int rc;

    *out = NULL;
    *owned = NULL;
    if ((rc = srv_page_window(r, Q_FILE_PER_PAGE, Q_FILE_PER_PAGE, &p->page, &p->per)) < 0 ||
        (rc = api_resolve(r, &at)) < 0 ||
        (rc = api_file_locate(r, &at, blob, owned)) < 0 ||
        (rc = api_file_params(r, p, tools, sizeof(tools), levels, sizeof(levels))) < 0 ||
        (rc = q_file_get(r->db, &at, r->tail, blob, p, out)) < 0)
        return rc;
    /* p's tools and levels point into this frame: done with them here */
    p->tools = p->levels = NULL;
    if (api_file_paged(*out))
        srv_page_link(r, (*out)->page, (*out)->per,
                      (*out)->functions_total > (*out)->findings_total
                      ? (*out)->functions_total : (*out)->findings_total);
    return 0;
}

enum MHD_Result api_file(srv_req *r)
{
    q_file_params p = {.typed = 1};
    q_file *f = NULL;
    char *owned = NULL;
    enum MHD_Result ret;
    pd_buf b;
    int rc;

    if ((rc = api_file_read(r, &p, &f, &owned)) < 0) {
        free(owned);
        return srv_reply_error(r, rc);
    }
    pd_buf_init(&b, 0);
    api_file_write(f, &b);
    q_file_free(f);
    /* the answer cache takes the body as it is (no copy of 1.2 MB) */
    ret = srv_reply_json_buf(r, &b);
    free(owned);
    return ret;
}

enum MHD_Result api_raw(srv_req *r)
{
    api_at at;
    char blob_hex[41], gitdir[4096];
    git_repository *repo = NULL;
    git_blob *blob = NULL;
    git_oid oid;
    enum MHD_Result ret;
    char *owned = NULL;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = api_file_locate(r, &at, blob_hex, &owned)) < 0 ||
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) < 0) {
        free(owned);
        return srv_reply_error(r, rc);
    }
    free(owned);
    git_libgit2_init();
    if (git_repository_open_ext(&repo, gitdir, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) < 0 ||
        git_oid_fromstr(&oid, blob_hex) < 0 || git_blob_lookup(&blob, repo, &oid) < 0) {
        ret = srv_reply_problem(r, 404, "Not Found", "the source of this file is not "
                                "available: the git repository of '%s' cannot be read "
                                "or no longer holds blob %s", r->param[0], blob_hex);
    } else {
        ret = srv_reply_bytes(r, 200, "text/plain; charset=utf-8",
                              git_blob_rawcontent(blob), (size_t)git_blob_rawsize(blob));
    }
    git_blob_free(blob);
    git_repository_free(repo);
    git_libgit2_shutdown();
    return ret;
}
