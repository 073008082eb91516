/*
 * api_commit.c: repositories, commits, summaries and file tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_commit.h"
#include "api_diff.h"
#include "api_scope.h"
#include "api_triage.h"
#include "db.h"
#include "db_missing.h"
#include "db_commit.h"
#include "pd_error.h"
#include "pd_time.h"
#include "pd_utf8.h"
#include "sarif_import.h"
#include "srv_page.h"

/* db_refs callback: a ref onto the array. */
static int api_ref_add(void *arg, const db_ref *ref)
{
    json_array_append_new(arg, json_pack("{s:o, s:s}", "name", api_text(ref->name),
                                         "commit", ref->oid));
    return 0;
}

/* The repository list being built. */
typedef struct {
    srv_req *r;
    json_t *arr;
} api_repo_list;

/* db_repos callback: a repository with its refs onto the array. */
static int api_repo_add(void *arg, const db_repo *repo)
{
    api_repo_list *l = arg;
    json_t *refs = json_array();
    int rc;

    if ((rc = db_refs(l->r->db, repo->id, api_ref_add, refs)) < 0) {
        json_decref(refs);
        return rc;
    }
    json_array_append_new(l->arr, json_pack("{s:o, s:o}", "name", api_text(repo->name),
                                            "refs", refs));
    return 0;
}

enum MHD_Result api_repos(srv_req *r)
{
    json_t *arr = json_array();
    api_repo_list l = {r, arr};
    int rc;

    if ((rc = db_repos(r->db, api_repo_add, &l)) < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, arr);
}

/* Commit metadata fields of `c` added to `o`. */
static void api_commit_fields_of(const api_at *at, const db_commit *c, json_t *o)
{
    char adate[40], cdate[40];
    json_t *parents = json_array();
    size_t i;

    pd_iso8601(adate, sizeof(adate), c->author_time, c->author_offset);
    pd_iso8601(cdate, sizeof(cdate), c->committer_time, c->committer_offset);
    json_object_set_new(o, "commit", json_string(at->oid));
    json_object_set_new(o, "author", api_text(c->author_name));
    json_object_set_new(o, "author_email", api_text(c->author_email));
    json_object_set_new(o, "author_date", json_string(adate));
    json_object_set_new(o, "committer_date", json_string(cdate));
    json_object_set_new(o, "message", api_text(c->summary));
    for (i = 0; i < c->nparents; i++)
        json_array_append_new(parents, json_string(c->parents[i]));
    json_object_set_new(o, "parents", parents);
}

/* Commit metadata fields added to `o`. */
static int api_commit_fields(srv_req *r, const api_at *at, json_t *o)
{
    db_commit c;
    int rc;

    if ((rc = db_commit_get(r->db, at->commit_id, &c)) == 0)
        api_commit_fields_of(at, &c, o);
    db_commit_free(&c);
    return rc;
}

/* Changed files of one page of a commit, and the most ?per_page= may ask:
 * a commit renaming 50,000 files once made a 25 MB answer. */
#define API_COMMIT_PER_PAGE 1000

/* What api_commit_change needs besides the change. */
typedef struct {
    srv_req *r;
    const api_at *at;
    int64_t parent;              /* first parent's row id, 0: none */
    json_t *files, *fns;
} api_changes;

/* db_commit_changes callback: one changed file and its function moves. */
static int api_commit_change(void *arg, const db_change *ch)
{
    api_changes *a = arg;
    char from[41] = "";
    const char *kind;
    int rc;

    /* Not in the parent: added; a failed read is an error, not "added". */
    if (a->parent && (rc = db_commit_file_blob(a->r->db, a->parent,
                                               ch->old_path ? ch->old_path : ch->path,
                                               from)) < 0) {
        if (rc != PD_ENOTFOUND)
            return rc;
        from[0] = '\0';
    }
    kind = !ch->blob ? "deleted" : ch->old_path ? "renamed" : from[0] ? "modified" : "added";
    json_array_append_new(a->files, json_pack("{s:o, s:o, s:s, s:o, s:o}",
        "path", api_text(ch->path),
        "old_path", ch->old_path ? api_text(ch->old_path) : json_null(),
        "change", kind, "from_blob", from[0] ? json_string(from) : json_null(),
        "to_blob", ch->blob ? json_string(ch->blob) : json_null()));
    {
        api_side sa = {from[0] ? from : NULL, NULL, 0, a->parent};
        api_side sb = {ch->blob, NULL, 0, a->at->commit_id};

        return api_diff_file(a->r, a->at->rules_hash, ch->path, &sa, &sb, a->fns, NULL);
    }
}

/* The in-scope files a commit changed on page `page` of `per`, with their
 * function moves. */
static int api_commit_changes(srv_req *r, const api_at *at, int64_t parent,
                              json_t *files, json_t *fns, size_t page, size_t per)
{
    api_changes a = {r, at, parent, files, fns};

    return db_commit_changes(r->db, at->commit_id, (page - 1) * per, per,
                             api_commit_change, &a);
}

/* db_same_patch callback: one commit onto the array. */
static int api_same_patch_add(void *arg, const char *oid, const char *summary)
{
    json_array_append_new(arg, json_pack("{s:s, s:o}", "commit", oid, "message",
                                         api_text(summary)));
    return 0;
}

/* The page's figures of a commit: totals, paging and the same change
 * elsewhere, added to `o`. */
static int api_commit_tail(srv_req *r, const api_at *at, const db_commit *c, json_t *o,
                           size_t page, size_t per)
{
    json_t *same = json_array();
    size_t total;
    int rc;

    if ((rc = db_commit_changes_count(r->db, at->commit_id, &total)) < 0 ||
        (rc = db_same_patch(r->db, at->repo_id, c->patch_id, at->commit_id,
                            api_same_patch_add, same)) < 0) {
        json_decref(same);
        return rc;
    }
    /* Say how many there are, and page past one page. */
    json_object_set_new(o, "files_total", json_integer((json_int_t)total));
    json_object_set_new(o, "truncated", json_boolean(total > per || page > 1));
    if (total > per || page > 1) {
        json_object_set_new(o, "page", json_integer((json_int_t)page));
        json_object_set_new(o, "per_page", json_integer((json_int_t)per));
        srv_page_link(r, page, per, total);
    }
    json_object_set_new(o, "same_patch_as", same);
    return 0;
}

enum MHD_Result api_commit(srv_req *r)
{
    api_at at;
    db_counts stats, before, delta;
    db_commit c;
    json_t *o, *files, *fns;
    size_t page, per;
    int rc;

    memset(&before, 0, sizeof(before));
    memset(&c, 0, sizeof(c));
    if ((rc = srv_page_window(r, API_COMMIT_PER_PAGE, API_COMMIT_PER_PAGE, &page, &per)) < 0 ||
        (rc = api_resolve(r, &at)) < 0 ||
        (rc = db_commit_stats(r->db, at.commit_id, at.rules_hash, &stats)) < 0 ||
        (rc = db_commit_get(r->db, at.commit_id, &c)) < 0 ||
        (c.first_parent_id &&
         (rc = db_commit_stats(r->db, c.first_parent_id, at.rules_hash, &before)) < 0)) {
        db_commit_free(&c);
        return srv_reply_error(r, rc);
    }
    o = json_object();
    files = json_array();
    fns = json_array();
    api_commit_fields_of(&at, &c, o);
    if ((rc = api_commit_changes(r, &at, c.first_parent_id, files, fns, page, per)) < 0) {
        json_decref(o);
        json_decref(files);
        json_decref(fns);
        db_commit_free(&c);
        return srv_reply_error(r, rc);
    }
    delta = stats;
    db_counts_add(&delta, &before, -1);
    json_object_set_new(o, "stats", api_stats_obj(&stats));
    json_object_set_new(o, "delta", api_stats_obj(&delta));
    json_object_set_new(o, "files", files);
    json_object_set_new(o, "functions", fns);
    rc = api_commit_tail(r, &at, &c, o, page, per);
    db_commit_free(&c);
    if (rc < 0) {
        json_decref(o);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, o);
}

/* Findings per tool: the built-in analyzer ("portdash": hpy uses are level
 * none, npy-legacy note, capi and bridge warning) and each uploaded one;
 * dismissed ones leave "results" and their level for "dismissed", as the
 * file page counts them (issue 14.7). */
static int api_summary_tools(srv_req *r, const api_at *at, const db_counts *c,
                             const db_scope *sc, json_t *o)
{
    json_t *tools = json_object();
    size_t ndismissed = 0;
    int rc;

    json_object_set_new(tools, "portdash", json_pack("{s:I, s:i, s:I, s:I, s:I}",
        "results", (json_int_t)(c->tok[0] + c->tok[1] + c->tok[2] + c->tok[3]),
        "error", 0, "warning", (json_int_t)(c->tok[1] + c->tok[3]),
        "note", (json_int_t)c->tok[2], "none", (json_int_t)c->tok[0]));
    json_object_set_new(o, "tools", tools);
    if ((rc = sarif_tools_json(r->db, at->commit_id, tools)) < 0 ||
        (rc = api_triage_summary(r->db, at, sc, tools, &ndismissed)) < 0)
        return rc;
    json_object_set_new(o, "dismissed_count", json_integer((json_int_t)ndismissed));
    return 0;
}

enum MHD_Result api_summary(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    db_counts c;
    json_t *o, *m;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_commit_stats(r->db, at.commit_id, at.rules_hash, &c)) < 0 ||
        (rc = api_scope_stats(r, &at, &c, &sc)) < 0)
        return srv_reply_error(r, rc);
    o = json_object();
    if (sc)
        json_object_set_new(o, "scope", json_string(sc->name));
    if ((rc = api_commit_fields(r, &at, o)) < 0 ||
        (rc = api_summary_tools(r, &at, &c, sc, o)) < 0) {
        json_decref(o);
        return srv_reply_error(r, rc);
    }
    json_object_update(o, m = api_measures_obj(&c));
    json_decref(m);
    return srv_reply_json(r, 200, o);
}

enum MHD_Result api_files(srv_req *r)
{
    db_files *rows = NULL;
    db_file_row row;
    const db_scope *sc;
    api_at at;
    db_counts c;
    json_t *files, *o;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_scope_arg(r, &sc)) < 0 ||
        (rc = db_files_open(r->db, &rows, at.commit_id, at.rules_hash)) < 0)
        return srv_reply_error(r, rc);
    files = json_array();
    while ((rc = db_files_next(rows, &row)) > 0) {
        const char *status = row.status;

        c = row.counts;
        if (sc && (rc = api_scope_file_row(r, sc, &row, &c, &status)) != 0) {
            if (rc < 0)
                break;
            continue;
        }
        json_array_append_new(files, json_pack("{s:o, s:s, s:s, s:o, s:o, s:o, s:b}",
            "path", api_text(row.path), "blob", row.blob,
            "status", status ? status : "unanalysed",
            "functions", api_group_obj(&c, "functions"),
            "object_paths", api_group_obj(&c, "object_paths"),
            "tokens", api_tokens_obj(c.tok),
            "universal_ready", (int)c.universal_ready_files));
    }
    db_files_close(rows);
    if (rc < 0) {
        json_decref(files);
        return srv_reply_error(r, rc);
    }
    if (!(files = srv_paginate(r, files, 1000)))
        return srv_reply_error(r, PD_EINVAL);
    o = json_pack("{s:s, s:o}", "commit", at.oid, "files", files);
    if (sc)
        json_object_set_new(o, "scope", json_string(sc->name));
    return srv_reply_json(r, 200, o);
}
