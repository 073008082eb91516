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

/* Functions of an analysis as JSON; names[] gets each name (borrowed from
 * the returned array) for the findings to refer to. */
static json_t *api_file_functions(srv_req *r, int64_t analysis_id,
                                  const char ***names, size_t *nnames)
{
    sqlite3_stmt *st = NULL;
    json_t *arr = json_array();
    size_t cap = 0;

    *names = NULL;
    *nnames = 0;
    if (db_prepare(r->db, &st, "SELECT name, start_line, end_line, status, "
                   "object_state, tok_hpy, tok_capi, tok_npy_legacy, tok_bridge, "
                   "name_from_macro, why "
                   "FROM functions WHERE analysis_id = ?1 ORDER BY idx") < 0)
        return arr;
    sqlite3_bind_int64(st, 1, analysis_id);
    while (sqlite3_step(st) == SQLITE_ROW) {
        int64_t tok[4];
        const char *os = (const char *)sqlite3_column_text(st, 4);
        const char *macro = (const char *)sqlite3_column_text(st, 9);
        const char *why = (const char *)sqlite3_column_text(st, 10);
        json_t *name = api_text((const char *)sqlite3_column_text(st, 0)), *f;
        json_t *wj = why ? json_loads(why, 0, NULL) : NULL;
        int k;

        for (k = 0; k < 4; k++)
            tok[k] = sqlite3_column_int64(st, 5 + k);
        f = json_pack("{s:o, s:I, s:I, s:s, s:o, s:o, s:o, s:o}", "name", name,
                      "start_line", (json_int_t)sqlite3_column_int64(st, 1),
                      "end_line", (json_int_t)sqlite3_column_int64(st, 2),
                      "status", (const char *)sqlite3_column_text(st, 3),
                      "object_state", os ? json_string(os) : json_null(),
                      "tokens", api_tokens_obj(tok),
                      "name_from_macro", macro ? api_text(macro) : json_null(),
                      "why", wj ? wj : json_null());
        json_array_append_new(arr, f);
        if (*nnames == cap) {
            const char **p = realloc(*names, (cap = cap ? cap * 2 : 64) * sizeof(char *));
            if (!p)
                break;
            *names = p;
        }
        (*names)[(*nnames)++] = json_string_value(name);
    }
    sqlite3_finalize(st);
    return arr;
}

/* Stored findings rows [line, col, class, rule, text, fn, guarded(, reason)]
 * as objects; reason (item sites only) is null when the row has none. */
static json_t *api_file_findings(const char *json, const char **names, size_t nnames)
{
    json_t *rows = json_loads(json, 0, NULL), *out = json_array(), *row;
    size_t i;

    json_array_foreach(rows, i, row) {
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
    }
    json_decref(rows);
    return out;
}

/* Fill the file document from its analysis row. */
static int api_file_analysis(srv_req *r, const api_at *at, const char *blob, json_t *o)
{
    sqlite3_stmt *st = NULL;
    const char **names = NULL;
    size_t nnames = 0;
    char *findings = NULL;
    json_t *fns;
    int rc;

    if ((rc = db_prepare(r->db, &st, "SELECT id, status, universal_ready, notes, "
                         "findings, findings_len, lines, size FROM analyses "
                         "WHERE blob_oid = ?1 AND rules_hash = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, blob, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, at->rules_hash, -1, SQLITE_STATIC);
    if (sqlite3_step(st) != SQLITE_ROW) {
        sqlite3_finalize(st);
        return pd_error_set(PD_ENOTFOUND, "blob %s has no analysis under the "
                            "current rules; run the ingest again", blob);
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
        fns = api_file_functions(r, sqlite3_column_int64(st, 0), &names, &nnames);
        json_object_set_new(o, "findings", api_file_findings(findings, names, nnames));
        json_object_set_new(o, "functions", fns);
    }
    free(names);
    free(findings);
    sqlite3_finalize(st);
    return rc;
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

int api_file_doc(srv_req *r, const api_at *at, const char *path, json_t **out)
{
    char blob[41];
    json_t *o;
    int rc;

    *out = NULL;
    if ((rc = db_commit_file_blob(r->db, at->commit_id, path, blob)) < 0)
        return rc;
    o = json_pack("{s:s, s:o, s:s}", "commit", at->oid, "path", api_text(path),
                  "blob", blob);
    if ((rc = api_file_analysis(r, at, blob, o)) < 0 ||
        (rc = sarif_file_findings(r->db, at->commit_id, path,
                                  json_object_get(o, "findings"))) < 0 ||
        (rc = api_triage_apply(r, at->repo_id, o, "findings", path)) < 0) {
        json_decref(o);
        return rc;
    }
    *out = o;
    return 0;
}

enum MHD_Result api_file(srv_req *r)
{
    api_at at;
    json_t *o = NULL;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0)
        return srv_reply_error(r, rc);
    /* SARIF uploads and dismissals change a commit's files */
    r->immutable = 0;
    if ((rc = api_file_doc(r, &at, r->tail, &o)) < 0 || (rc = api_file_filter(r, o)) < 0) {
        json_decref(o);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, o);
}

enum MHD_Result api_raw(srv_req *r)
{
    api_at at;
    char blob_hex[41], gitdir[4096];
    git_repository *repo = NULL;
    git_blob *blob = NULL;
    git_oid oid;
    enum MHD_Result ret;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_commit_file_blob(r->db, at.commit_id, r->tail, blob_hex)) < 0 ||
        (rc = srv_repo_path(r, r->param[0], gitdir, sizeof(gitdir))) < 0)
        return srv_reply_error(r, rc);
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
