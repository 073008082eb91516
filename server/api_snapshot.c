/*
 * api_snapshot.c: weekly snapshots as JSON and CSV (the Markdown report is
 * api_report.c), and the file table of a commit as CSV.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_diff.h"
#include "api_snapshot.h"
#include "db.h"
#include "pd_error.h"
#include "pd_time.h"

#define API_SNAP_COLS "s.week, s.ref, c.oid, s.taken_at, s.method, s.files, " \
    "s.universal_ready_files, s.tok_hpy, s.tok_capi, s.tok_npy_legacy, s.tok_bridge, " \
    "s.fn_ported, s.fn_bridged, s.fn_legacy, s.fn_neutral, s.obj_legacy, " \
    "s.obj_cpython_only, s.obj_universal, s.id, s.commit_id"

/* Counts of a snapshot row selected with API_SNAP_COLS. */
void api_snapshot_counts(sqlite3_stmt *st, db_counts *c)
{
    int k;

    c->files = sqlite3_column_int64(st, 5);
    c->universal_ready_files = sqlite3_column_int64(st, 6);
    for (k = 0; k < 4; k++) {
        c->tok[k] = sqlite3_column_int64(st, 7 + k);
        c->fn[k] = sqlite3_column_int64(st, 11 + k);
    }
    for (k = 0; k < 3; k++)
        c->obj[k] = sqlite3_column_int64(st, 15 + k);
}

int api_snapshot_query(srv_req *r, sqlite3_stmt **out, int64_t repo_id,
                       const char *week_or_null)
{
    int rc = db_prepare(r->db, out, week_or_null
        ? "SELECT " API_SNAP_COLS " FROM snapshots s JOIN commits c ON c.id = "
          "s.commit_id WHERE s.repo_id = ?1 AND s.week = ?2 ORDER BY s.ref"
        : "SELECT " API_SNAP_COLS " FROM snapshots s JOIN commits c ON c.id = "
          "s.commit_id WHERE s.repo_id = ?1 ORDER BY s.week, s.ref");

    if (rc < 0)
        return rc;
    sqlite3_bind_int64(*out, 1, repo_id);
    if (week_or_null)
        sqlite3_bind_text(*out, 2, week_or_null, -1, SQLITE_TRANSIENT);
    return 0;
}

int api_snapshot_prev(srv_req *r, sqlite3_stmt **out, int64_t repo_id,
                      const char *ref, const char *week)
{
    int rc = db_prepare(r->db, out, "SELECT " API_SNAP_COLS " FROM snapshots s "
                        "JOIN commits c ON c.id = s.commit_id WHERE s.repo_id = ?1 "
                        "AND s.ref = ?2 AND s.week < ?3 ORDER BY s.week DESC LIMIT 1");

    if (rc < 0)
        return rc;
    sqlite3_bind_int64(*out, 1, repo_id);
    sqlite3_bind_text(*out, 2, ref, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(*out, 3, week, -1, SQLITE_TRANSIENT);
    return 0;
}

/* {"week", "ref", "commit", "taken_at", "method"} of a snapshot row. */
static json_t *api_snapshot_head(sqlite3_stmt *st)
{
    char when[40];

    pd_iso8601(when, sizeof(when), sqlite3_column_int64(st, 3), 0);
    return json_pack("{s:s, s:o, s:s, s:s, s:s}",
        "week", (const char *)sqlite3_column_text(st, 0),
        "ref", api_text((const char *)sqlite3_column_text(st, 1)),
        "commit", (const char *)sqlite3_column_text(st, 2),
        "taken_at", when, "method", (const char *)sqlite3_column_text(st, 4));
}

enum MHD_Result api_snapshots(srv_req *r)
{
    sqlite3_stmt *st = NULL;
    int64_t repo_id;
    json_t *arr;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = api_snapshot_query(r, &st, repo_id, NULL)) < 0)
        return srv_reply_error(r, rc);
    arr = json_array();
    while ((rc = db_step(st)) > 0)
        json_array_append_new(arr, api_snapshot_head(st));
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    if (!(arr = srv_paginate(r, arr, 1000)))
        return srv_reply_error(r, PD_EINVAL);
    return srv_reply_json(r, 200, arr);
}

/* The per-file rows of one snapshot; NULL on a database error. */
static json_t *api_snapshot_files(srv_req *r, int64_t snap_id)
{
    sqlite3_stmt *st = NULL;
    json_t *arr;
    int rc;

    if (db_prepare(r->db, &st, "SELECT path, status, universal_ready, fn_ported, "
                   "fn_bridged, fn_legacy, fn_neutral, obj_legacy, obj_cpython_only, "
                   "obj_universal FROM snapshot_files WHERE snapshot_id = ?1 "
                   "ORDER BY path") < 0)
        return NULL;
    arr = json_array();
    sqlite3_bind_int64(st, 1, snap_id);
    while ((rc = db_step(st)) > 0) {
        int64_t fn[4], obj[3];
        int k;

        for (k = 0; k < 4; k++)
            fn[k] = sqlite3_column_int64(st, 3 + k);
        for (k = 0; k < 3; k++)
            obj[k] = sqlite3_column_int64(st, 7 + k);
        json_array_append_new(arr, json_pack("{s:o, s:s, s:b, s:o, s:o}",
            "path", api_text((const char *)sqlite3_column_text(st, 0)),
            "status", (const char *)sqlite3_column_text(st, 1),
            "universal_ready", sqlite3_column_int(st, 2),
            "functions", api_functions_obj(fn), "object_paths", api_objpaths_obj(obj)));
    }
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(arr);
        return NULL;
    }
    return arr;
}

enum MHD_Result api_snapshot_week(srv_req *r)
{
    sqlite3_stmt *st = NULL;
    int64_t repo_id;
    json_t *arr;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = api_snapshot_query(r, &st, repo_id, r->param[1])) < 0)
        return srv_reply_error(r, rc);
    arr = json_array();
    while ((rc = db_step(st)) > 0) {
        json_t *o = api_snapshot_head(st), *files;
        db_counts c;

        if (!(files = api_snapshot_files(r, sqlite3_column_int64(st, 18)))) {
            json_decref(o);
            rc = PD_EDB;
            break;
        }
        api_snapshot_counts(st, &c);
        json_object_set_new(o, "stats", api_stats_obj(&c));
        json_object_set_new(o, "files", files);
        json_array_append_new(arr, o);
    }
    sqlite3_finalize(st);
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

/* One CSV field: quoted, quotes doubled, and a leading = + - @ defused so a
 * path cannot become a spreadsheet formula; a leading TAB or CR too, as
 * spreadsheets skip them before reading a formula (OWASP, "CSV Injection"). */
static void api_csv_field(FILE *f, const char *s)
{
    fputc('"', f);
    if (s && (*s == '=' || *s == '+' || *s == '-' || *s == '@' || *s == '\t' ||
              *s == '\r'))
        fputc('\'', f);
    for (; s && *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
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
        rc = rc < 0 ? rc : pd_error_set(PD_ENOMEM, "out of memory writing CSV");
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
        pd_error_set(PD_ENOMEM, "out of memory for CSV");
    return f;
}

enum MHD_Result api_snapshots_csv(srv_req *r)
{
    sqlite3_stmt *st = NULL;
    int64_t repo_id;
    char *buf = NULL, when[40];
    size_t len = 0;
    FILE *f;
    int rc;

    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = api_snapshot_query(r, &st, repo_id, NULL)) < 0)
        return srv_reply_error(r, rc);
    if (!(f = api_csv_open(&buf, &len))) {
        sqlite3_finalize(st);
        return srv_reply_error(r, PD_ENOMEM);
    }
    fputs("week,ref,commit,taken_at,method,", f);
    api_csv_counts_header(f);
    while ((rc = db_step(st)) > 0) {
        db_counts c;

        api_snapshot_counts(st, &c);
        pd_iso8601(when, sizeof(when), sqlite3_column_int64(st, 3), 0);
        fprintf(f, "%s,", (const char *)sqlite3_column_text(st, 0));
        api_csv_field(f, (const char *)sqlite3_column_text(st, 1));
        fprintf(f, ",%s,%s,%s,", (const char *)sqlite3_column_text(st, 2), when,
                (const char *)sqlite3_column_text(st, 4));
        api_csv_counts(f, &c);
    }
    sqlite3_finalize(st);
    return api_csv_reply(r, f, &buf, &len, rc);
}

enum MHD_Result api_files_csv(srv_req *r)
{
    db_files *files = NULL;
    db_file_row row;
    api_at at;
    char *buf = NULL;
    size_t len = 0;
    FILE *f;
    int rc;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = db_files_open(r->db, &files, at.commit_id, at.rules_hash)) < 0)
        return srv_reply_error(r, rc);
    if (!(f = api_csv_open(&buf, &len))) {
        db_files_close(files);
        return srv_reply_error(r, PD_ENOMEM);
    }
    fputs("path,status,", f);
    api_csv_counts_header(f);
    while ((rc = db_files_next(files, &row)) > 0) {
        row.counts.files = 1;
        api_csv_field(f, row.path);
        fprintf(f, ",%s,", row.status ? row.status : "unanalysed");
        api_csv_counts(f, &row.counts);
    }
    db_files_close(files);
    return api_csv_reply(r, f, &buf, &len, rc);
}
