/*
 * api_file.c: one file at a commit: its functions and findings (the
 * built-in analyzer's, then those of uploaded SARIF runs), and its source
 * read from the git repository.
 */
#include <stdlib.h>
#include <string.h>

#include <git2.h>

#include "api.h"
#include "api_triage.h"
#include "db.h"
#include "pd_error.h"
#include "sarif_import.h"

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

/* The page's functions of an analysis as JSON into *out; names[] gets
 * every function's name (owned, in idx order) for the findings to refer
 * to.  A failed read is an error, never a shorter list.  0, PD_EDB,
 * PD_ENOMEM (*out NULL; names[] still freed by the caller). */
static int api_file_functions(srv_req *r, int64_t analysis_id, api_file_page *pg,
                              char ***names, size_t *nnames, json_t **out)
{
    sqlite3_stmt *st = NULL;
    json_t *arr;
    size_t cap = 0;
    int rc;

    *names = NULL;
    *nnames = 0;
    *out = NULL;
    if ((rc = db_prepare(r->db, &st, "SELECT name, start_line, end_line, status, "
                         "object_state, tok_hpy, tok_capi, tok_npy_legacy, tok_bridge, "
                         "name_from_macro, why FROM functions WHERE analysis_id = ?1 "
                         "ORDER BY idx")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, analysis_id);
    arr = json_array();
    while ((rc = db_step(st)) > 0) {
        const char *name = (const char *)sqlite3_column_text(st, 0);

        if (*nnames == cap) {
            char **p = realloc(*names, (cap = cap ? cap * 2 : 64) * sizeof(char *));
            if (!p) {
                rc = pd_error_set(PD_ENOMEM, "out of memory");
                break;
            }
            *names = p;
        }
        if (!((*names)[*nnames] = strdup(name ? name : ""))) {
            rc = pd_error_set(PD_ENOMEM, "out of memory");
            break;
        }
        if (*nnames >= pg->first && *nnames < pg->first + pg->per) {
            const char *os = (const char *)sqlite3_column_text(st, 4);
            const char *macro = (const char *)sqlite3_column_text(st, 9);
            const char *why = (const char *)sqlite3_column_text(st, 10);
            json_t *wj = why ? json_loads(why, 0, NULL) : NULL;
            int64_t tok[4];
            int k;

            for (k = 0; k < 4; k++)
                tok[k] = sqlite3_column_int64(st, 5 + k);
            json_array_append_new(arr, json_pack(
                "{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o}", "name", api_text(name),
                "start_line", (json_int_t)sqlite3_column_int64(st, 1),
                "end_line", (json_int_t)sqlite3_column_int64(st, 2),
                "status", (const char *)sqlite3_column_text(st, 3),
                "object_state", os ? json_string(os) : json_null(),
                "tokens", api_tokens_obj(tok),
                "name_from_macro", macro ? api_text(macro) : json_null(),
                "why", wj ? wj : json_null()));
        }
        (*nnames)++;
    }
    pg->functions_total = *nnames;
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(arr);
        return rc;
    }
    *out = arr;
    return 0;
}

/*
 * The page's stored findings rows [line, col, class, rule, text, fn,
 * guarded(, reason)] as objects; reason (item sites only) is null when the
 * row has none.  The stored array is read one row at a time
 * (JSON_DISABLE_EOF_CHECK stops after each value), so a file with hundreds
 * of thousands of findings never becomes one JSON tree in memory.
 */
static json_t *api_file_findings(const char *json, char **names, size_t nnames,
                                 api_file_page *pg)
{
    json_t *out = json_array(), *row;
    json_error_t err;
    const char *p = json ? strchr(json, '[') : NULL, *end = p ? p + strlen(p) : NULL;
    size_t i = 0;

    for (p = p ? p + 1 : NULL; p; i++) {
        p += strspn(p, " \t\r\n,");
        if (*p == ']' || !*p ||
            !(row = json_loadb(p, (size_t)(end - p), JSON_DISABLE_EOF_CHECK, &err)))
            break;
        p += err.position;
        if (i < pg->first || i >= pg->first + pg->per) {
            json_decref(row);
            continue;
        }
        json_int_t fn = json_integer_value(json_array_get(row, 5));
        json_t *why = json_array_get(row, 7);

        json_array_append_new(out, json_pack("{s:O, s:O, s:O, s:O, s:O, s:o, s:O, s:s, s:s, s:o}",
            "line", json_array_get(row, 0), "column", json_array_get(row, 1),
            "class", json_array_get(row, 2), "rule", json_array_get(row, 3),
            "text", json_array_get(row, 4),
            "function", fn >= 0 && (size_t)fn < nnames ? json_string(names[fn])
                                                        : json_null(),
            "guarded", json_array_get(row, 6), "tool", "portdash",
            "level", sarif_builtin_level(json_string_value(json_array_get(row, 2))),
            "reason", why ? json_incref(why) : json_null()));
        json_decref(row);
    }
    pg->findings_total = i;
    return out;
}

/* Fill the file document from its analysis row. */
static int api_file_analysis(srv_req *r, const api_at *at, const char *blob, json_t *o,
                             api_file_page *pg)
{
    sqlite3_stmt *st = NULL;
    char **names = NULL;
    size_t nnames = 0;
    char *findings = NULL;
    json_t *fns = NULL;
    int rc;

    if ((rc = db_prepare(r->db, &st, "SELECT id, status, universal_ready, notes, "
                         "findings, findings_len, lines, size FROM analyses "
                         "WHERE blob_oid = ?1 AND rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, at->rules_hash, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) <= 0) {
        sqlite3_finalize(st);
        return rc < 0 ? rc : pd_error_set(PD_ENOTFOUND, "blob %s has no analysis under "
                                          "the current rules; run the ingest again", blob);
    }
    rc = db_inflate(&findings, sqlite3_column_blob(st, 4),
                    (size_t)sqlite3_column_bytes(st, 4),
                    (size_t)sqlite3_column_int64(st, 5));
    if (rc == 0) {
        const char *notes = (const char *)sqlite3_column_text(st, 3);

        json_object_set_new(o, "status", json_string((const char *)
                                                     sqlite3_column_text(st, 1)));
        json_object_set_new(o, "universal_ready",
                            json_boolean(sqlite3_column_int(st, 2)));
        json_object_set_new(o, "notes", notes ? api_text(notes) : json_null());
        json_object_set_new(o, "lines", json_integer(sqlite3_column_int64(st, 6)));
        json_object_set_new(o, "size", json_integer(sqlite3_column_int64(st, 7)));
        rc = api_file_functions(r, sqlite3_column_int64(st, 0), pg, &names, &nnames, &fns);
    }
    if (rc == 0) {
        json_object_set_new(o, "findings", api_file_findings(findings, names, nnames, pg));
        json_object_set_new(o, "functions", fns);
    }
    api_file_names_free(names, nnames);
    free(findings);
    sqlite3_finalize(st);
    return rc;
}

/* Largest lists of one page of a file (?per_page= up to ten times that):
 * a 10 MB C file once made 95 MB of JSON and 1.2 GB of server memory. */
#define API_FILE_PER_PAGE 5000

/* The SARIF findings of the file that fall in the page, after the
 * built-in ones. */
static int api_file_sarif(srv_req *r, const api_at *at, const char *path, json_t *o,
                          api_file_page *pg)
{
    json_t *all = json_array(), *list = json_object_get(o, "findings"), *f;
    size_t j;
    int rc = sarif_file_findings(r->db, at->commit_id, path, all);

    json_array_foreach(all, j, f) {
        size_t i = pg->findings_total + j;

        if (i >= pg->first && i < pg->first + pg->per)
            json_array_append(list, f);
    }
    pg->findings_total += json_array_size(all);
    json_decref(all);
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
static int api_file_build(srv_req *r, const api_at *at, const char *path, const char *blob,
                          api_file_page *pg, json_t **out)
{
    json_t *o = json_pack("{s:s, s:o, s:s}", "commit", at->oid, "path", api_text(path),
                          "blob", blob);
    int rc;

    *out = NULL;
    if ((rc = api_file_analysis(r, at, blob, o, pg)) < 0 ||
        (rc = api_file_sarif(r, at, path, o, pg)) < 0 ||
        (rc = api_triage_apply(r, at->repo_id, o, "findings", path)) < 0) {
        json_decref(o);
        return rc;
    }
    *out = o;
    return 0;
}

int api_file_doc(srv_req *r, const api_at *at, const char *path, json_t **out)
{
    api_file_page pg = {1, (size_t)-1 / 2, 0, 0, 0};
    char blob[41];
    int rc;

    *out = NULL;
    if ((rc = db_commit_file_blob(r->db, at->commit_id, path, blob)) < 0)
        return rc;
    return api_file_build(r, at, path, blob, &pg, out);
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

    if ((rc = srv_page_window(r, API_FILE_PER_PAGE, &pg.page, &pg.per)) < 0 ||
        (rc = api_resolve(r, &at)) < 0 ||
        (rc = api_file_locate(r, &at, blob, &owned)) < 0) {
        free(owned);
        return srv_reply_error(r, rc);
    }
    pg.first = (pg.page - 1) * pg.per;
    r->immutable = 0;      /* SARIF uploads and dismissals change a commit's files */
    if ((rc = api_file_build(r, &at, r->tail, blob, &pg, &o)) < 0 ||
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
