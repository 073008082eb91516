/*
 * api_history.c: trends over a ref's first-parent history, a file's own
 * history (following renames), and the rewrites recorded for a ref.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_lttb.h"
#include "api_scope.h"
#include "db.h"
#include "pd_error.h"
#include "pd_time.h"

/* The measures with their label, direction and badge label, from the
 * domain core's table (pd_measures.def), in its order. */
enum MHD_Result api_measures_list(srv_req *r)
{
    json_t *arr = json_array();
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        const pd_measure *m = &pd_measures[i];
        const char *good = pd_good_name(m->good);

        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:o, s:o}",
            "key", m->key, "label", m->label, "short", m->short_label,
            "good", good ? json_string(good) : json_null(),
            "badge", m->badge ? json_string(m->badge) : json_null()));
    }
    return srv_reply_json(r, 200, arr);
}

/* Index of measure `key`, or -1 with pd_error_set. */
static int api_measure_find(const char *key)
{
    int i = pd_measure_find(key);

    if (i < 0)
        pd_error_set(PD_EINVAL, "unknown measure '%s'; GET /api/v1/measures lists them", key);
    return i;
}

/* {"commit", "author_date", "committer_date"} of a commits row whose
 * columns from `col` are oid, author_time, author_offset, committer_time,
 * committer_offset. */
json_t *api_commit_point(sqlite3_stmt *st, int col)
{
    char a[40], c[40];

    pd_iso8601(a, sizeof(a), sqlite3_column_int64(st, col + 1),
                sqlite3_column_int(st, col + 2));
    pd_iso8601(c, sizeof(c), sqlite3_column_int64(st, col + 3),
                sqlite3_column_int(st, col + 4));
    return json_pack("{s:s, s:s, s:s}", "commit",
                     (const char *)sqlite3_column_text(st, col),
                     "author_date", a, "committer_date", c);
}

/* Read measure/since/until/date arguments. */
static int api_history_args(srv_req *r, int *measure, int *by_author,
                            int64_t *since, int64_t *until)
{
    char buf[128];
    int rc;

    *by_author = 1;
    *since = INT64_MIN;
    *until = INT64_MAX;
    if ((rc = srv_query(r, "measure", buf, sizeof(buf))) == PD_ENOTFOUND)
        snprintf(buf, sizeof(buf), "object_paths.object-legacy");
    else if (rc < 0)
        return rc;
    if ((*measure = api_measure_find(buf)) < 0)
        return PD_EINVAL;
    if ((rc = srv_query(r, "date", buf, sizeof(buf))) == 0) {
        if (strcmp(buf, "committer") == 0)
            *by_author = 0;
        else if (strcmp(buf, "author") != 0)
            return pd_error_set(PD_EINVAL, "date must be author or committer");
    } else if (rc != PD_ENOTFOUND) {
        return rc;
    }
    if ((rc = srv_query(r, "since", buf, sizeof(buf))) == 0)
        rc = pd_parse_date(buf, since);
    if (rc < 0 && rc != PD_ENOTFOUND)
        return rc;
    if ((rc = srv_query(r, "until", buf, sizeof(buf))) == 0)
        rc = pd_parse_date(buf, until);
    return rc == PD_ENOTFOUND ? 0 : rc;
}

/*
 * The order of a first-parent chain against its dates (issue 11.11): on a
 * rebased branch a commit can be dated before its parent, so a chart with
 * x = date runs back in time.  Each point gets its position on the chain
 * (0 = oldest), its effective date (the latest date so far along the
 * chain: monotone, what the chart's x is) and out_of_order when its own
 * date is before that (dated before an earlier commit of the branch).
 */
typedef struct {
    int64_t n;        /* commits seen */
    int64_t pos;      /* chain position of the last commit seen */
    int64_t tmax;     /* latest date so far */
    int64_t late;     /* commits dated before an earlier one */
    int out;          /* the last commit seen is one of them */
} api_order;

static void api_history_order(api_order *o, int64_t t)
{
    o->pos = o->n++;
    o->out = o->pos > 0 && t < o->tmax;
    if (o->out)
        o->late++;
    if (o->pos == 0 || t > o->tmax)
        o->tmax = t;
}

static void api_history_order_set(const api_order *o, json_t *p)
{
    char d[40];

    pd_iso8601(d, sizeof(d), o->tmax, 0);
    json_object_set_new(p, "position", json_integer(o->pos));
    json_object_set_new(p, "effective_date", json_string(d));
    if (o->out)
        json_object_set_new(p, "out_of_order", json_true());
}

#define API_CHAIN_CTE \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "

enum MHD_Result api_history(srv_req *r)
{
    sqlite3_stmt *st = NULL;
    const db_scope *sc;
    api_at at;
    char sql[1024];
    json_t *points, *port_start = NULL, *doc;
    int measure, by_author, rc, sampled;
    int64_t since, until;
    size_t total = 0;
    api_order ord = {0, 0, 0, 0, 0};

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = api_history_args(r, &measure, &by_author, &since, &until)) < 0 ||
        (rc = api_scope_arg(r, &sc)) < 0)
        return srv_reply_error(r, rc);
    if (sc)
        return api_scope_history(r, &at, sc, pd_measures[measure].key, by_author,
                                 since, until);
    /* The column name comes from the fixed measures table, never from input. */
    snprintf(sql, sizeof(sql), API_CHAIN_CTE
             "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, "
             "c.committer_offset, s.%s, s.tok_hpy FROM chain "
             "JOIN commits c ON c.id = chain.cid JOIN commit_stats s "
             "ON s.commit_id = c.id AND s.rules_hash = ?2 ORDER BY chain.depth DESC",
             pd_measures[measure].column);
    if ((rc = db_prepare(r->db, &st, sql)) < 0)
        return srv_reply_error(r, rc);
    sqlite3_bind_int64(st, 1, at.commit_id);
    sqlite3_bind_text(st, 2, at.rules_hash, -1, SQLITE_STATIC);
    points = json_array();
    while ((rc = db_step(st)) > 0) {
        int64_t t = sqlite3_column_int64(st, by_author ? 1 : 3);
        json_t *p;

        if (!port_start && sqlite3_column_int64(st, 6) > 0)
            port_start = api_commit_point(st, 0);
        /* Along the chain even where the range leaves points out. */
        api_history_order(&ord, t);
        if (t < since || t > until)
            continue;
        p = api_commit_point(st, 0);
        json_object_set_new(p, "value", json_integer(sqlite3_column_int64(st, 5)));
        api_history_order_set(&ord, p);
        json_array_append_new(points, p);
    }
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(points);
        json_decref(port_start);
        return srv_reply_error(r, rc);
    }
    if ((sampled = api_lttb_query(r, &points, by_author, port_start, &total)) < 0 ||
        !(points = srv_paginate(r, points, 100000))) {
        json_decref(sampled < 0 ? points : NULL);
        json_decref(port_start);
        return srv_reply_error(r, sampled < 0 ? sampled : PD_EINVAL);
    }
    doc = json_pack("{s:o, s:s, s:s, s:o, s:o}",
        "ref", api_text(r->param[1]), "measure", pd_measures[measure].key,
        "date", by_author ? "author" : "committer",
        "port_start", port_start ? port_start : json_null(), "points", points);
    if (sampled)
        json_object_set_new(doc, "sampled_from", json_integer((json_int_t)total));
    json_object_set_new(doc, "out_of_order", json_integer(ord.late));
    return srv_reply_json(r, 200, doc);
}

/* Path row id of `path` into *id, 0 when unknown.  0 or PD_EDB. */
static int api_path_id(srv_req *r, const char *path, int64_t *id)
{
    sqlite3_stmt *st = NULL;
    int rc;

    *id = 0;
    if ((rc = db_prepare(r->db, &st, "SELECT id FROM paths WHERE path = ?1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

/*
 * Append to `points` (newest first) the changes of path_id along the chain
 * from depth `min_depth` on.  Stops at the change that renamed another path
 * into this one and returns that path's id in *renamed_from and the depth
 * after it in *next_depth (0 when the walk is over).
 */
static int api_file_history_segment(srv_req *r, const api_at *at, int measure,
                                    int64_t path_id, int64_t min_depth,
                                    json_t *points, int64_t *renamed_from,
                                    int64_t *next_depth)
{
    sqlite3_stmt *st = NULL;
    char sql[1200];
    int rc;

    *renamed_from = 0;
    snprintf(sql, sizeof(sql), API_CHAIN_CTE
             "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, "
             "c.committer_offset, a.%s, ch.old_path_id, chain.depth, p.path, "
             "ch.blob_oid FROM chain JOIN changes ch ON ch.commit_id = chain.cid "
             "AND ch.path_id = ?3 JOIN commits c ON c.id = chain.cid "
             "JOIN paths p ON p.id = ch.path_id LEFT JOIN analyses a "
             "ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 "
             "WHERE chain.depth >= ?4 ORDER BY chain.depth",
             pd_measures[measure].file_column);
    if ((rc = db_prepare(r->db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, at->commit_id);
    sqlite3_bind_text(st, 2, at->rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 3, path_id);
    sqlite3_bind_int64(st, 4, min_depth);
    while ((rc = db_step(st)) > 0) {
        json_t *p = api_commit_point(st, 0);

        json_object_set_new(p, "value", sqlite3_column_type(st, 9) == SQLITE_NULL
                            ? json_null() : json_integer(sqlite3_column_int64(st, 5)));
        json_object_set_new(p, "path", api_text((const char *)sqlite3_column_text(st, 8)));
        json_array_append_new(points, p);
        if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
            *renamed_from = sqlite3_column_int64(st, 6);
            *next_depth = sqlite3_column_int64(st, 7) + 1;
            rc = 0;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

enum MHD_Result api_file_history(srv_req *r)
{
    api_at at;
    json_t *points, *sorted;
    int64_t path_id, from = 0, depth = 0, seen = 0;
    int measure, by_author, rc;
    int64_t since, until;
    size_t i;

    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = api_history_args(r, &measure, &by_author, &since, &until)) < 0)
        return srv_reply_error(r, rc);
    if ((rc = api_path_id(r, r->tail, &path_id)) < 0)
        return srv_reply_error(r, rc);
    if (!path_id)
        return srv_reply_problem(r, 404, "Not Found", "no file '%s' in this repository",
                                 r->tail);
    points = json_array();
    /* A bounded number of renames: a cycle of renames cannot loop forever. */
    while (path_id && seen++ < 64) {
        rc = api_file_history_segment(r, &at, measure, path_id, depth, points,
                                      &from, &depth);
        if (rc < 0) {
            json_decref(points);
            return srv_reply_error(r, rc);
        }
        path_id = from;
    }
    sorted = json_array();
    for (i = json_array_size(points); i-- > 0;)
        json_array_append(sorted, json_array_get(points, i));
    json_decref(points);
    return srv_reply_json(r, 200, json_pack("{s:o, s:s, s:o}", "path", api_text(r->tail),
                          "measure", pd_measures[measure].key, "points", sorted));
}

/*
 * Pairs (old, new) of commits that left and joined the ref's chain in a
 * rewrite and are the same change: the same git patch id, or, when the
 * rebase had to alter the patch, the same author, author date and subject
 * (a rebase keeps all three).  NULL on a database error (pd_error_set).
 */
static json_t *api_rewrite_links(srv_req *r, int64_t old_id, int64_t new_id)
{
    sqlite3_stmt *st = NULL;
    json_t *links = json_array();
    int rc;

    if (db_prepare(r->db, &st,
        "WITH RECURSIVE oldc(cid) AS (SELECT ?1 UNION ALL SELECT c.first_parent_id "
        "FROM commits c JOIN oldc ON c.id = oldc.cid WHERE c.first_parent_id < c.id), "
        "newc(cid) AS (SELECT ?2 UNION ALL SELECT c.first_parent_id FROM commits c "
        "JOIN newc ON c.id = newc.cid WHERE c.first_parent_id < c.id), "
        "gone AS (SELECT cid FROM oldc EXCEPT SELECT cid FROM newc), "
        "came AS (SELECT cid FROM newc EXCEPT SELECT cid FROM oldc) "
        "SELECT o.oid, n.oid, CASE WHEN o.patch_id = n.patch_id THEN 'patch-id' "
        "ELSE 'author-date-subject' END FROM commits o JOIN gone ON gone.cid = o.id "
        "JOIN commits n ON (n.patch_id = o.patch_id OR (n.author_email = o.author_email "
        "AND n.author_time = o.author_time AND n.summary = o.summary)) "
        "JOIN came ON came.cid = n.id ORDER BY o.author_time") < 0) {
        json_decref(links);
        return NULL;
    }
    sqlite3_bind_int64(st, 1, old_id);
    sqlite3_bind_int64(st, 2, new_id);
    while ((rc = db_step(st)) > 0)
        json_array_append_new(links, json_pack("{s:s, s:s, s:s}",
            "old", (const char *)sqlite3_column_text(st, 0),
            "new", (const char *)sqlite3_column_text(st, 1),
            "by", (const char *)sqlite3_column_text(st, 2)));
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(links);
        return NULL;
    }
    return links;
}

enum MHD_Result api_rewrites(srv_req *r)
{
    sqlite3_stmt *st = NULL;
    json_t *arr;
    int64_t repo_id, commit_id;
    char oid[41];
    int rc;

    /* An unknown ref is 404, not an empty list. */
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(r->db, repo_id, r->param[1], &commit_id, oid)) < 0 ||
        (rc = db_prepare(r->db, &st, "SELECT w.ref, o.oid, n.oid, w.detected_at, "
                         "w.old_commit_id, w.new_commit_id FROM rewrites w "
                         "JOIN commits o ON o.id = w.old_commit_id "
                         "JOIN commits n ON n.id = w.new_commit_id "
                         "WHERE w.repo_id = ?1 AND w.ref = ?2 ORDER BY w.id")) < 0)
        return srv_reply_error(r, rc);
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, r->param[1], -1, SQLITE_STATIC);
    arr = json_array();
    while ((rc = db_step(st)) > 0) {
        char when[40];
        json_t *links = api_rewrite_links(r, sqlite3_column_int64(st, 4),
                                          sqlite3_column_int64(st, 5));

        if (!links) {
            rc = PD_EDB;
            break;
        }
        pd_iso8601(when, sizeof(when), sqlite3_column_int64(st, 3), 0);
        json_array_append_new(arr, json_pack("{s:o, s:s, s:s, s:s, s:o}",
            "ref", api_text((const char *)sqlite3_column_text(st, 0)),
            "old_commit", (const char *)sqlite3_column_text(st, 1),
            "new_commit", (const char *)sqlite3_column_text(st, 2),
            "detected_at", when, "links", links));
    }
    sqlite3_finalize(st);
    if (rc < 0) {
        json_decref(arr);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, arr);
}
