/*
 * api_snapshot.c: weekly snapshots as JSON and CSV (the Markdown report is
 * api_report.c), and the file table of a commit as CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_diff.h"
#include "api_report.h"
#include "api_scope.h"
#include "api_snapshot.h"
#include "db.h"
#include "db_snapshot.h"
#include "pd_error.h"
#include "pd_escape.h"
#include "pd_time.h"
#include "srv_page.h"

/* {"week", "ref", "commit", "taken_at", "method"} of a snapshot. */
static json_t *api_snapshot_head(const db_snap_row *s)
{
    char when[40];

    pd_iso8601(when, sizeof(when), s->taken_at, 0);
    return json_pack("{s:s, s:o, s:s, s:s, s:s}", "week", s->week, "ref", api_text(s->ref),
                     "commit", s->commit, "taken_at", when, "method", s->method);
}

enum MHD_Result api_snapshots(srv_req *r)
{
    db_snaps *snaps = NULL;
    db_snap_row row;
    int64_t repo_id;
    json_t *arr;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_snaps_open(r->db, &snaps, repo_id, NULL)) < 0)
        return srv_reply_error(r, rc);
    arr = json_array();
    while ((rc = db_snaps_next(snaps, &row)) > 0)
        json_array_append_new(arr, api_snapshot_head(&row));
    db_snaps_close(snaps);
    if (rc < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    if (!(arr = srv_paginate(r, arr, 1000)))
        return srv_reply_error(r, PD_EINVAL);
    return srv_reply_json(r, 200, arr);
}

/* db_snap_files callback: one file's JSON into the array. */
static int api_snapshot_file(void *arg, const db_snap_file *f)
{
    json_array_append_new(arg, json_pack("{s:o, s:s, s:b, s:o, s:o}",
        "path", api_text(f->path), "status", f->status,
        "universal_ready", (int)f->counts.universal_ready_files,
        "functions", api_group_obj(&f->counts, "functions"),
        "object_paths", api_group_obj(&f->counts, "object_paths")));
    return 0;
}

enum MHD_Result api_snapshot_week(srv_req *r)
{
    db_snaps *snaps = NULL;
    db_snap_row row;
    int64_t repo_id;
    json_t *arr;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_snaps_open(r->db, &snaps, repo_id, r->param[1])) < 0)
        return srv_reply_error(r, rc);
    arr = json_array();
    while ((rc = db_snaps_next(snaps, &row)) > 0) {
        json_t *o = api_snapshot_head(&row), *files = json_array();

        json_object_set_new(o, "stats", api_stats_obj(&row.counts));
        json_object_set_new(o, "files", files);
        json_array_append_new(arr, o);
        if ((rc = db_snap_files(r->db, row.id, api_snapshot_file, files)) < 0)
            break;
    }
    db_snaps_close(snaps);
    if (rc < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    if (json_array_size(arr) == 0) {
        json_decref(arr);
        return srv_reply_problem(r, 404, "Not Found", "no snapshot for week '%s'",
                                 r->param[1]);
    }
    return srv_reply_json(r, 200, arr);
}

/* One CSV field of repository text (pd_esc_csv: quoted, controls visible,
 * a leading = + - @ defused so a path cannot become a spreadsheet
 * formula). */
static void api_csv_field(FILE *f, const char *s)
{
    pd_esc_csv(f, s);
}

/* The measures' keys, in pd_measures.def order, as CSV header cells. */
static void api_csv_counts_header(FILE *f)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        fprintf(f, "%s%s", pd_measures[i].key, i + 1 < PD_NMEASURES ? "," : "\r\n");
}

static void api_csv_counts(FILE *f, const db_counts *c)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        fprintf(f, "%lld%s", (long long)pd_measure_value(c, i),
                i + 1 < PD_NMEASURES ? "," : "\r\n");
}

/* Send a memstream's text as CSV, or the error `rc` (< 0) that stopped the
 * rows; a failed write (out of memory) is a 500 too, never a short CSV.
 * The stream sets *buf and *len only when it is closed, so they are passed
 * by address. */
static enum MHD_Result api_csv_reply(srv_req *r, FILE *f, char **buf, size_t *len, int rc)
{
    enum MHD_Result ret;
    int bad = ferror(f);

    if (fclose(f) != 0 || bad)
        rc = rc < 0 ? rc : pd_error_nomem("writing CSV");
    if (rc < 0) {
        free(*buf);
        return srv_reply_error(r, rc);
    }
    ret = srv_reply_bytes(r, 200, "text/csv; charset=utf-8", *buf, *len);
    free(*buf);
    return ret;
}

/* A memstream for CSV text; NULL (with pd_error_set) when out of memory. */
static FILE *api_csv_open(char **buf, size_t *len)
{
    FILE *f = open_memstream(buf, len);

    if (!f)
        pd_error_nomem("for CSV");
    return f;
}

enum MHD_Result api_snapshots_csv(srv_req *r)
{
    db_snaps *snaps = NULL;
    db_snap_row row;
    int64_t repo_id;
    char *buf = NULL, when[40];
    size_t len = 0;
    FILE *f;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_snaps_open(r->db, &snaps, repo_id, NULL)) < 0)
        return srv_reply_error(r, rc);
    if (!(f = api_csv_open(&buf, &len))) {
        db_snaps_close(snaps);
        return srv_reply_error(r, PD_ENOMEM);
    }
    fputs("week,ref,commit,taken_at,method,", f);
    api_csv_counts_header(f);
    while ((rc = db_snaps_next(snaps, &row)) > 0) {
        pd_iso8601(when, sizeof(when), row.taken_at, 0);
        fprintf(f, "%s,", row.week);
        api_csv_field(f, row.ref);
        fprintf(f, ",%s,%s,%s,", row.commit, when, row.method);
        api_csv_counts(f, &row.counts);
    }
    db_snaps_close(snaps);
    return api_csv_reply(r, f, &buf, &len, rc);
}

enum MHD_Result api_files_csv(srv_req *r)
{
    db_files *files = NULL;
    db_file_row row;
    const db_scope *sc;
    api_at at;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    /* ?scope= as the JSON file table takes it: its files, its figures. */
    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_scope_arg(r, &sc)) < 0 ||
        (rc = db_files_open(r->db, &files, at.commit_id, at.rules_hash)) < 0)
        return srv_reply_error(r, rc);
    if (!(f = api_csv_open(&buf, &len))) {
        db_files_close(files);
        return srv_reply_error(r, PD_ENOMEM);
    }
    fputs("path,status,", f);
    api_csv_counts_header(f);
    while ((rc = db_files_next(files, &row)) > 0) {
        const char *status = row.status;
        db_counts c = row.counts;

        if (sc && (rc = api_scope_file_row(r, sc, files, &row, &c, &status)) != 0) {
            if (rc < 0)
                break;
            continue;
        }
        c.files = 1;
        api_csv_field(f, row.path);
        fprintf(f, ",%s,", status ? status : "unanalysed");
        api_csv_counts(f, &c);
    }
    db_files_close(files);
    return api_csv_reply(r, f, &buf, &len, rc);
}
