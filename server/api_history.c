/*
 * api_history.c: trends over a ref's first-parent history, a file's own
 * history (following renames), and the rewrites recorded for a ref.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api.h"
#include "api_fork.h"
#include "api_history.h"
#include "api_lttb.h"
#include "api_scope.h"
#include "db.h"
#include "db_history.h"
#include "pd_error.h"
#include "pd_time.h"
#include "srv_page.h"

/* The measures with their label, direction and badge label, from the
 * domain core's table (pd_measures.def), in its order. */
enum MHD_Result api_measures_list(srv_req *r)
{
    json_t *arr = json_array();
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        const pd_measure *m = &pd_measures[i];
        const char *good = pd_good_name(m->good), *definition = NULL;

        pd_measure_done(i, &definition);
        json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o}",
            "key", m->key, "label", m->label, "short", m->short_label,
            "good", good ? json_string(good) : json_null(),
            "badge", m->badge ? json_string(m->badge) : json_null(),
            "done", definition ? json_string(definition) : json_null()));
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

static void api_history_order(api_order *o, int64_t t, int restart)
{
    o->pos = o->n++;
    o->out = o->pos > 0 && !restart && t < o->tmax;
    if (o->out)
        o->late++;
    if (o->pos == 0 || restart || t > o->tmax)
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

/* What the history callback collects. */
typedef struct {
    int by_author;
    int port_only;           /* ?window=port: the port's own commits only */
    int64_t since, until;
    json_t *points, *port_start;
    api_order ord;
    api_fork_walk fork;
} api_hist;

/* db_ref_history callback: one commit of the chain, oldest first. */
static int api_history_point(void *arg, const db_hist_point *hp)
{
    api_hist *h = arg;
    int64_t t = h->by_author ? hp->c.author_time : hp->c.committer_time;
    json_t *p;
    int own;

    if (!h->port_start && hp->tok_hpy > 0)
        h->port_start = api_commit_point(&hp->c);
    own = api_fork_step(&h->fork, hp);
    /* Along the chain even where the range leaves points out; the port's
     * own commits are dated among themselves (issue 23.1): the upstream
     * commit a rebase put under them does not move them to its date. */
    api_history_order(&h->ord, t, h->fork.restart);
    if (t < h->since || t > h->until || (h->port_only && !own))
        return 0;
    p = api_commit_point(&hp->c);
    json_object_set_new(p, "value", json_integer(hp->value));
    api_history_order_set(&h->ord, p);
    if (own)
        json_object_set_new(p, "own", json_true());
    if (h->fork.restart)
        json_object_set_new(p, "part_start", json_true());
    json_array_append_new(h->points, p);
    return 0;
}

/* ?window=port|full (default full). */
static int api_history_window(srv_req *r, int *port_only)
{
    char buf[16];
    int rc;

    *port_only = 0;
    if ((rc = srv_query(r, "window", buf, sizeof(buf))) == PD_ENOTFOUND)
        return 0;
    if (rc == 0 && strcmp(buf, "port") == 0)
        *port_only = 1;
    else if (rc == 0 && strcmp(buf, "full") != 0)
        return pd_error_set(PD_EINVAL, "window must be port or full");
    return rc;
}

enum MHD_Result api_history(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    db_fork fork;
    json_t *points, *port_start, *doc;
    int measure, rc, sampled;
    size_t total = 0;
    api_hist h;

    memset(&h, 0, sizeof(h));
    if ((rc = api_resolve(r, &at)) < 0 ||
        (rc = api_history_args(r, &measure, &h.by_author, &h.since, &h.until)) < 0 ||
        (rc = api_history_window(r, &h.port_only)) < 0 ||
        (rc = api_scope_arg(r, &sc)) < 0)
        return srv_reply_error(r, rc);
    if (sc)
        return api_scope_history(r, &at, sc, pd_measures[measure].key, h.by_author,
                                 h.since, h.until);
    if ((rc = db_fork_find(r->db, at.repo_id, r->param[1], at.commit_id, &fork)) < 0)
        return srv_reply_error(r, rc);
    api_fork_begin(&h.fork, &fork);
    h.points = json_array();
    if ((rc = db_ref_history(r->db, at.commit_id, at.rules_hash, measure,
                             api_history_point, &h)) < 0) {
        json_decref(h.points);
        json_decref(h.port_start);
        api_fork_end(&h.fork);
        return srv_reply_error(r, rc);
    }
    points = h.points;
    port_start = h.port_start;
    if ((sampled = api_fork_sample(r, &points, &total)) < 0 ||
        !(points = srv_paginate(r, points, 100000))) {
        json_decref(sampled < 0 ? points : NULL);
        json_decref(port_start);
        api_fork_end(&h.fork);
        return srv_reply_error(r, sampled < 0 ? sampled : PD_EINVAL);
    }
    doc = json_pack("{s:o, s:s, s:s, s:s, s:o, s:o, s:o}",
        "ref", api_text(r->param[1]), "measure", pd_measures[measure].key,
        "date", h.by_author ? "author" : "committer",
        "window", h.port_only ? "port" : "full",
        "port_start", port_start ? port_start : json_null(),
        "port", api_fork_json(&h.fork), "points", points);
    if (sampled)
        json_object_set_new(doc, "sampled_from", json_integer((json_int_t)total));
    json_object_set_new(doc, "out_of_order", json_integer(h.ord.late));
    return srv_reply_json(r, 200, doc);
}

/* db_file_history callback: one change of the file, newest first. */
static int api_file_point(void *arg, const db_file_point *fp)
{
    json_t *p = api_commit_point(&fp->c);

    json_object_set_new(p, "value", fp->has_value ? json_integer(fp->value) : json_null());
    json_object_set_new(p, "path", api_text(fp->path));
    json_array_append_new(arg, p);
    return 0;
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
        (rc = api_history_args(r, &measure, &by_author, &since, &until)) < 0 ||
        (rc = db_path_id(r->db, r->tail, &path_id)) < 0)
        return srv_reply_error(r, rc);
    if (!path_id)
        return srv_reply_problem(r, 404, "Not Found", "no file '%s' in this repository",
                                 r->tail);
    points = json_array();
    /* A bounded number of renames: a cycle of renames cannot loop forever. */
    while (path_id && seen++ < 64) {
        rc = db_file_history(r->db, at.commit_id, at.rules_hash, measure, path_id, depth,
                             api_file_point, points, &from, &depth);
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

/* db_rewrite_links callback: one pair into the array. */
static int api_rewrite_link(void *arg, const char *old_oid, const char *new_oid,
                            const char *by)
{
    json_array_append_new(arg, json_pack("{s:s, s:s, s:s}", "old", old_oid, "new", new_oid,
                                         "by", by));
    return 0;
}

/* What the rewrites callback needs. */
typedef struct {
    srv_req *r;
    json_t *arr;
} api_rw;

/* db_rewrites callback: one rewrite with the commits it paired up. */
static int api_rewrite(void *arg, const db_rewrite *w)
{
    api_rw *x = arg;
    json_t *links = json_array();
    char when[40];
    int rc;

    if ((rc = db_rewrite_links(x->r->db, w->old_id, w->new_id, api_rewrite_link,
                               links)) < 0) {
        json_decref(links);
        return rc;
    }
    pd_iso8601(when, sizeof(when), w->detected_at, 0);
    json_array_append_new(x->arr, json_pack("{s:o, s:s, s:s, s:s, s:o}",
        "ref", api_text(w->ref), "old_commit", w->old_commit, "new_commit", w->new_commit,
        "detected_at", when, "links", links));
    return 0;
}

enum MHD_Result api_rewrites(srv_req *r)
{
    api_rw x = {r, NULL};
    int64_t repo_id, commit_id;
    char oid[41];
    int rc;

    /* An unknown ref is 404, not an empty list. */
    if ((rc = db_repo_find(r->db, r->param[0], &repo_id, NULL, 0)) < 0 ||
        (rc = db_rev_resolve(r->db, repo_id, r->param[1], &commit_id, oid)) < 0)
        return srv_reply_error(r, rc);
    x.arr = json_array();
    if ((rc = db_rewrites(r->db, repo_id, r->param[1], api_rewrite, &x)) < 0) {
        json_decref(x.arr);
        return srv_reply_error(r, rc);
    }
    return srv_reply_json(r, 200, x.arr);
}
