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
#include "q_commit.h"
#include "api_scope.h"
#include "api_triage.h"
#include "db.h"
#include "db_missing.h"
#include "db_commit.h"
#include "pd_error.h"
#include "pd_time.h"
#include "db_fork.h"
#include "pd_utf8.h"
#include "sarif_import.h"
#include "srv_page.h"

/* The repository list being built. */
typedef struct {
    srv_req *r;
    json_t *arr;
    json_t *refs;            /* the refs of the repository being added */
    int64_t repo_id;
} api_repo_list;

/* db_refs callback: a ref onto the array, with its stored fork (what
 * the compare page takes as the base of a head given alone). */
static int api_ref_add(void *arg, const db_ref *ref)
{
    api_repo_list *l = arg;
    json_t *fork = json_null();
    db_fork f;
    int rc;

    if ((rc = db_fork_stored(l->r->db, l->repo_id, ref->name, &f)) < 0 && rc != PD_ENOTFOUND)
        return rc;
    if (rc == PD_ENOTFOUND)
        pd_error_clear();
    else
        fork = json_pack("{s:o, s:o}", "upstream", api_text(f.upstream),
                         "base", f.base_oid[0] ? json_string(f.base_oid) : json_null());
    json_array_append_new(l->refs, json_pack("{s:o, s:s, s:o}", "name", api_text(ref->name),
                                             "commit", ref->oid, "fork", fork));
    return 0;
}

/* db_repos callback: a repository with its refs onto the array. */
static int api_repo_add(void *arg, const db_repo *repo)
{
    api_repo_list *l = arg;
    json_t *refs = json_array();
    int rc;

    l->refs = refs;
    l->repo_id = repo->id;
    if ((rc = db_refs(l->r->db, repo->id, api_ref_add, l)) < 0) {
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
    api_repo_list l = {r, arr, NULL, 0};
    int rc;

    if ((rc = db_repos(r->db, api_repo_add, &l)) < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, arr);
}

/* Commit metadata fields of `c` added to `o`. */
static void api_commit_fields_of(const char *oid, const db_commit *c, json_t *o)
{
    char adate[40], cdate[40];
    json_t *parents = json_array();
    size_t i;

    pd_iso8601(adate, sizeof(adate), c->author_time, c->author_offset);
    pd_iso8601(cdate, sizeof(cdate), c->committer_time, c->committer_offset);
    json_object_set_new(o, "commit", json_string(oid));
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
        api_commit_fields_of(at->oid, &c, o);
    db_commit_free(&c);
    return rc;
}

/* The changed files of the page as a JSON array. */
static json_t *api_commit_files(const q_commit *c)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < c->nfiles; i++) {
        const q_change *f = &c->files[i];

        json_array_append_new(arr, json_pack("{s:o, s:o, s:s, s:o, s:o}",
            "path", api_text(f->path),
            "old_path", f->old_path ? api_text(f->old_path) : json_null(),
            "change", f->change,
            "from_blob", f->from_blob[0] ? json_string(f->from_blob) : json_null(),
            "to_blob", f->to_blob[0] ? json_string(f->to_blob) : json_null()));
    }
    return arr;
}

int api_commit_paged(const q_commit *c)
{
    return c->files_total > c->per || c->page > 1;
}

json_t *api_commit_json(const q_commit *c)
{
    json_t *o = json_object(), *same = json_array();
    size_t i;

    api_commit_fields_of(c->oid, &c->meta, o);
    json_object_set_new(o, "stats", api_stats_obj(&c->stats));
    json_object_set_new(o, "delta", api_stats_obj(&c->delta));
    json_object_set_new(o, "files", api_commit_files(c));
    json_object_set_new(o, "functions", api_moves_json(&c->functions));
    /* Say how many there are, and page past one page. */
    json_object_set_new(o, "files_total", json_integer((json_int_t)c->files_total));
    json_object_set_new(o, "truncated", json_boolean(api_commit_paged(c)));
    if (api_commit_paged(c)) {
        json_object_set_new(o, "page", json_integer((json_int_t)c->page));
        json_object_set_new(o, "per_page", json_integer((json_int_t)c->per));
    }
    for (i = 0; i < c->nsame; i++)
        json_array_append_new(same, json_pack("{s:s, s:o}", "commit", c->same_patch[i].oid,
                                              "message", api_text(c->same_patch[i].summary)));
    json_object_set_new(o, "same_patch_as", same);
    return o;
}

enum MHD_Result api_commit(srv_req *r)
{
    api_at at;
    q_commit_params p;
    q_commit *c = NULL;
    enum MHD_Result ret;
    int rc;

    if ((rc = srv_page_window(r, Q_COMMIT_PER_PAGE, Q_COMMIT_PER_PAGE, &p.page,
                              &p.per)) < 0 ||
        (rc = api_resolve(r, &at)) < 0 || (rc = q_commit_get(r->db, &at, &p, &c)) < 0)
        return srv_reply_error(r, rc);
    if (api_commit_paged(c))
        srv_page_link(r, c->page, c->per, c->files_total);
    ret = srv_reply_json(r, 200, api_commit_json(c));
    q_commit_free(c);
    return ret;
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
        if (sc && (rc = api_scope_file_row(r, sc, rows, &row, &c, &status)) != 0) {
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
