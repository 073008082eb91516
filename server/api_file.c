/*
 * api_file.c: one file at a commit: its functions and findings (the
 * built-in analyzer's, then those of uploaded SARIF runs), and its source
 * read from the git repository.
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api.h"
#include "api_dismissed.h"
#include "api_file.h"
#include "db.h"
#include "api_repo.h"
#include "db_analysis.h"
#include "db_findings.h"
#include "db_flow.h"
#include "pd_error.h"
#include "sarif_import.h"
#include "srv_page.h"

/* One page of a file's lists: items [first, first + per) of each. */
typedef struct {
    size_t page, per, first;
    size_t functions_total, findings_total;
} api_file_page;

static void api_file_names_free(char **names, size_t n)
{
    while (n)
        free(names[--n]);
    free(names);
}

/* The functions of an analysis as the file page lists them. */
typedef struct {
    api_file_page *pg;
    char **names;                /* every function's name (owned), in idx order */
    size_t nnames, cap;
    json_t *arr;                 /* the page's functions */
    const pd_flow *g;            /* the commit's call graph */
    int64_t key;                 /* the file in it */
} api_file_fns;

/*
 * Function i's object state at this commit: what the call graph gives
 * (db_flow.h), and, when a call gives it, the chain in why.object (the
 * stored why holds the function's own item site).
 */
static const char *api_file_objstate(const api_file_fns *a, size_t i, const db_function *f,
                                     json_t *why)
{
    char chain[4096];
    pd_objstate s;

    if (!pd_flow_known(a->g, a->key, i))     /* no facts stored: its own */
        return f->object_state;
    s = pd_flow_state(a->g, a->key, i);

    if (why && json_is_object(why) &&
        pd_flow_chain_json(a->g, a->key, i, chain, sizeof(chain))) {
        json_t *c = json_loads(chain, 0, NULL);

        if (c)
            json_object_set_new(why, "object", json_pack("{s:o}", "chain", c));
    }
    if (why && json_is_object(why) && s != PD_OBJ_NONE)
        json_object_set_new(why, "mentions", json_null());
    return pd_objstate_name(s);
}

/* db_analysis_function_rows callback: one function's name kept, and the
 * function listed when it falls in the page. */
static int api_file_function(void *arg, const db_function *f)
{
    api_file_fns *a = arg;
    size_t i = a->nnames;

    if (a->nnames == a->cap) {
        char **p = realloc(a->names, (a->cap = a->cap ? a->cap * 2 : 64) * sizeof(char *));

        if (!p)
            return pd_error_nomem(NULL);
        a->names = p;
    }
    if (!(a->names[i] = strdup(f->name ? f->name : "")))
        return pd_error_nomem(NULL);
    a->nnames++;
    if (i >= a->pg->first && i < a->pg->first + a->pg->per) {
        json_t *wj = f->why ? json_loads(f->why, 0, NULL) : NULL;
        const char *os = api_file_objstate(a, i, f, wj);

        json_array_append_new(a->arr, json_pack(
            "{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o}", "name", api_text(f->name),
            "start_line", (json_int_t)f->start_line, "end_line", (json_int_t)f->end_line,
            "status", f->status,
            "object_state", os ? json_string(os) : json_null(),
            "tokens", api_tokens_obj(f->tok),
            "name_from_macro", f->name_from_macro ? api_text(f->name_from_macro)
                                                  : json_null(),
            "why", wj ? wj : json_null()));
    }
    return 0;
}

/* The findings of an analysis as the file page lists them. */
typedef struct {
    api_file_page *pg;
    const api_file_fns *fns;     /* names[] for the function of each finding */
    size_t n;                    /* findings read so far */
    json_t *arr;                 /* the page's findings */
} api_file_finds;

/* db_findings_each callback: the finding listed when it falls in the page;
 * reason (item sites only) is null when the finding has none. */
static int api_file_finding(void *arg, const db_finding *f)
{
    api_file_finds *a = arg;
    size_t i = a->n++;

    if (i < a->pg->first || i >= a->pg->first + a->pg->per)
        return 0;
    json_array_append_new(a->arr, json_pack("{s:I, s:I, s:s, s:s, s:s, s:o, s:b, s:s, s:s, s:o}",
        "line", (json_int_t)f->line, "column", (json_int_t)f->column,
        "class", f->cls, "rule", f->rule, "text", f->text,
        "function", f->function >= 0 && (size_t)f->function < a->fns->nnames
                    ? json_string(a->fns->names[f->function]) : json_null(),
        "guarded", f->guarded, "tool", "portdash", "level", sarif_builtin_level(f->cls),
        "reason", f->reason ? json_string(f->reason) : json_null()));
    return 0;
}

/* The analysis of `blob` into *a; a blob the clone lacked is said so in `o`
 * (api_repo.h), with no analysis (a->status NULL) unless another
 * repository's ingest stored one.  0, PD_ENOTFOUND, PD_EDB. */
static int api_file_analysis_get(sqlite3 *db, const api_at *at, const char *blob,
                                 json_t *o, db_analysis_row *a)
{
    int rc = db_analysis_get(db, blob, at->rules_hash, a);
    int mrc;

    if (rc < 0 && rc != PD_ENOTFOUND)
        return rc;
    mrc = api_repo_missing_mark(db, at->repo_id, blob, o, rc == 0);
    if (mrc < 0 && mrc != PD_ENOTFOUND)
        return mrc;
    return rc == PD_ENOTFOUND && mrc == 0 ? 0 : rc;
}

/* Fill the file document from its analysis: figures, then the page's
 * findings and functions (a failed read of either is an error, never a
 * shorter list). */
static int api_file_analysis(sqlite3 *db, const api_at *at, const char *path,
                             const char *blob, json_t *o, api_file_page *pg)
{
    db_analysis_row a;
    db_flow *flow = NULL;
    api_file_fns fns = {pg, NULL, 0, 0, json_array(), NULL, pd_flow_path_key(path)};
    api_file_finds finds = {pg, &fns, 0, json_array()};
    int rc;

    memset(&a, 0, sizeof(a));
    if ((rc = db_flow_get(db, at->commit_id, at->rules_hash, &flow)) == 0 &&
        (fns.g = db_flow_graph(flow)) != NULL &&
        (rc = api_file_analysis_get(db, at, blob, o, &a)) == 0 && a.status) {
        json_object_set_new(o, "status", json_string(a.status));
        json_object_set_new(o, "universal_ready", json_boolean(a.universal_ready));
        json_object_set_new(o, "notes", a.notes ? api_text(a.notes) : json_null());
        json_object_set_new(o, "lines", json_integer(a.lines));
        json_object_set_new(o, "size", json_integer(a.size));
        if ((rc = db_analysis_function_rows(db, a.id, api_file_function, &fns)) == 0)
            rc = db_findings_each(db, a.id, api_file_finding, &finds);
    }
    pg->functions_total = fns.nnames;
    pg->findings_total = finds.n;
    if (rc == 0) {
        json_object_set_new(o, "findings", finds.arr);
        json_object_set_new(o, "functions", fns.arr);
    } else {
        json_decref(finds.arr);
        json_decref(fns.arr);
    }
    api_file_names_free(fns.names, fns.nnames);
    db_analysis_row_free(&a);
    db_flow_release(flow);
    return rc;
}

/* Largest lists of one page of a file, and the most ?per_page= may ask:
 * a 10 MB C file once made 95 MB of JSON and 1.2 GB of server memory, and
 * per_page=50000 (ten times this, once allowed) 313 MB (issue 27). */
#define API_FILE_PER_PAGE 5000

/* The SARIF findings of the file that fall in the page, after the
 * built-in ones. */
static int api_file_sarif(sqlite3 *db, const api_at *at, const char *path, json_t *o,
                          api_file_page *pg)
{
    json_t *list = json_object_get(o, "findings");
    size_t before = pg->findings_total, total = 0, skip, room;
    int rc;

    /* Only the page is read: SARIF findings number in the hundreds of
     * thousands, and reading them all for one page once held 827 MB. */
    skip = pg->first > before ? pg->first - before : 0;
    room = pg->first + pg->per > before + skip ? pg->first + pg->per - before - skip : 0;
    if (!list)
        room = 0;
    rc = sarif_file_findings(db, at->commit_id, path, skip, room, list, &total);
    pg->findings_total += total;
    return rc;
}

/*
 * The blob of r->tail at the commit.  A name that is not valid UTF-8 is
 * shown in its display form (api_text); when no file has the name as
 * written, the bytes that form names are tried, and r->tail becomes them
 * (*owned, freed by the caller).
 */
static int api_file_locate(srv_req *r, const api_at *at, char *blob, char **owned)
{
    int rc = db_commit_file_blob(r->db, at->commit_id, r->tail, blob);

    *owned = NULL;
    if (rc != PD_ENOTFOUND || !strstr(r->tail, "\\x") ||
        !(*owned = api_text_bytes(r->tail)) || strcmp(*owned, r->tail) == 0)
        return rc;
    if (db_commit_file_blob(r->db, at->commit_id, *owned, blob) == 0) {
        r->tail = *owned;
        return 0;
    }
    return pd_error_set(PD_ENOTFOUND, "no file '%s' at this commit", r->tail);
}

/* ?tool=A,B and ?level=warning,error keep only those findings. */
static int api_file_filter(srv_req *r, json_t *o)
{
    char tools[1024], levels[256];
    int rc, has_tools, has_levels;

    if ((rc = srv_query(r, "tool", tools, sizeof(tools))) < 0 && rc != PD_ENOTFOUND)
        return rc;
    has_tools = rc == 0;
    if ((rc = srv_query(r, "level", levels, sizeof(levels))) < 0 && rc != PD_ENOTFOUND)
        return rc;
    has_levels = rc == 0;
    return sarif_findings_filter(json_object_get(o, "findings"), has_tools ? tools : NULL,
                                 has_levels ? levels : NULL);
}

/* The page `pg` of the file document of blob `blob` at `path`: analysis,
 * uploaded findings, dismissals. */
static int api_file_build(sqlite3 *db, const api_at *at, const char *path, const char *blob,
                          api_file_page *pg, json_t **out)
{
    json_t *o = json_pack("{s:s, s:o, s:s}", "commit", at->oid, "path", api_text(path),
                          "blob", blob);
    int rc;

    *out = NULL;
    if ((rc = api_file_analysis(db, at, path, blob, o, pg)) < 0 ||
        (rc = api_file_sarif(db, at, path, o, pg)) < 0 ||
        (rc = api_dismissed_apply(db, at->repo_id, o, "findings", path)) < 0) {
        json_decref(o);
        return rc;
    }
    *out = o;
    return 0;
}

int api_file_doc(sqlite3 *db, const api_at *at, const char *path, json_t **out)
{
    api_file_page pg = {1, (size_t)-1 / 2, 0, 0, 0};
    char blob[41];
    int rc;

    *out = NULL;
    if ((rc = db_commit_file_blob(db, at->commit_id, path, blob)) < 0)
        return rc;
    return api_file_build(db, at, path, blob, &pg, out);
}

enum MHD_Result api_file(srv_req *r)
{
    api_at at;
    api_file_page pg = {0};
    char blob[41];
    json_t *o = NULL;
    size_t most;
    char *owned = NULL;
    enum MHD_Result ret;
    int rc;

    if ((rc = srv_page_window(r, API_FILE_PER_PAGE, API_FILE_PER_PAGE, &pg.page, &pg.per)) < 0 ||
        (rc = api_resolve(r, &at)) < 0 ||
        (rc = api_file_locate(r, &at, blob, &owned)) < 0) {
        free(owned);
        return srv_reply_error(r, rc);
    }
    pg.first = (pg.page - 1) * pg.per;
    if ((rc = api_file_build(r->db, &at, r->tail, blob, &pg, &o)) < 0 ||
        (rc = api_file_filter(r, o)) < 0) {
        json_decref(o);
        ret = srv_reply_error(r, rc);
        free(owned);
        return ret;
    }
    /* Say how much there is, and page when one list is longer than a page. */
    most = pg.functions_total > pg.findings_total ? pg.functions_total
                                                  : pg.findings_total;
    json_object_set_new(o, "functions_total", json_integer((json_int_t)pg.functions_total));
    json_object_set_new(o, "findings_total", json_integer((json_int_t)pg.findings_total));
    json_object_set_new(o, "truncated", json_boolean(most > pg.per || pg.page > 1));
    if (most > pg.per || pg.page > 1) {
        json_object_set_new(o, "page", json_integer((json_int_t)pg.page));
        json_object_set_new(o, "per_page", json_integer((json_int_t)pg.per));
        srv_page_link(r, pg.page, pg.per, most);
    }
    ret = srv_reply_json(r, 200, o);
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
