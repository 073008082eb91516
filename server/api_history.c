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
#include "api_jw.h"
#include "api_lttb.h"
#include "api_order.h"
#include "api_scope.h"
#include "db.h"
#include "db_history.h"
#include "pd_buf.h"
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
 * One point of the answer: JSON is made of the points kept only (issue
 * 26.3: 1,000 of numpy-hpy's 15,000 for a chart), so the walk keeps plain
 * rows, each naming its commit's row of db_ref_rows (not a copy of it).
 */
typedef struct {
    size_t src;              /* index into api_hist.src */
    int64_t pos, tmax;
    unsigned char out;       /* dated before an earlier commit */
    unsigned char part_start;
} api_hrow;

/* What the history callback collects. */
typedef struct {
    int by_author;
    int port_only;           /* ?window=port: the port's own commits only */
    int64_t since, until;
    const db_hist_row *src;  /* the chain's commits, oldest first */
    api_hrow *rows;
    size_t nrows, cap;
    unsigned char *own;      /* own[i]: rows[i] is one of the port's own */
    json_t *port_start;
    size_t port_row;         /* rows[port_row] is port_start's; SIZE_MAX: none */
    api_order ord;
    api_fork_walk fork;
} api_hist;

/* Room for one more row; PD_ENOMEM when there is none. */
static int api_history_grow(api_hist *h)
{
    size_t cap = h->cap ? h->cap * 2 : 1024;
    api_hrow *rows;
    unsigned char *own;

    if (h->nrows < h->cap)
        return 0;
    if (!(rows = realloc(h->rows, cap * sizeof(*rows))))
        return pd_error_nomem(NULL);
    h->rows = rows;
    if (!(own = realloc(h->own, cap)))
        return pd_error_nomem(NULL);
    h->own = own;
    h->cap = cap;
    return 0;
}

/* The commit and dates of row i of the chain. */
static db_commit_when api_history_when(const api_hist *h, size_t i)
{
    const db_hist_row *s = &h->src[i];
    db_commit_when c = {s->oid, s->author_time, s->author_offset, s->committer_time,
                        s->committer_offset};

    return c;
}

/* One commit of the chain (row i of h->src), oldest first. */
static int api_history_point(api_hist *h, size_t i)
{
    db_hist_point hp = {api_history_when(h, i), h->src[i].value, h->src[i].tok_hpy};
    int64_t t = h->by_author ? hp.c.author_time : hp.c.committer_time;
    api_hrow *row;
    int own, rc, starts = 0;

    if (!h->port_start && hp.tok_hpy > 0) {
        h->port_start = api_commit_point(&hp.c);
        starts = 1;
    }
    own = api_fork_step(&h->fork, &hp);
    /* Along the chain even where the range leaves points out; the port's
     * own commits are dated among themselves (issue 23.1): the upstream
     * commit a rebase put under them does not move them to its date. */
    api_order_step(&h->ord, t, h->fork.restart);
    if (t < h->since || t > h->until || (h->port_only && !own))
        return 0;
    if ((rc = api_history_grow(h)) < 0)
        return rc;
    row = &h->rows[h->nrows];
    row->src = i;
    row->pos = h->ord.pos;
    row->tmax = h->ord.tmax;
    row->out = (unsigned char)h->ord.out;
    row->part_start = (unsigned char)h->fork.restart;
    if (starts)
        h->port_row = h->nrows;
    h->own[h->nrows++] = (unsigned char)own;
    return 0;
}

/* Row i as JSON: {"commit", "author_date", "committer_date", "value",
 * "position", "effective_date", ["out_of_order"], ["own"], ["part_start"]}
 * (api_commit_point's keys first), as jansson would write the object. */
static void api_history_write_point(pd_buf *b, const api_hist *h, size_t i)
{
    const api_hrow *row = &h->rows[i];
    db_commit_when c = api_history_when(h, row->src);
    char d[40];

    pd_buf_puts(b, "{\"commit\":");
    pd_buf_json_str(b, c.oid);
    pd_buf_puts(b, ",\"author_date\":\"");
    pd_iso8601(d, sizeof(d), c.author_time, c.author_offset);
    pd_buf_puts(b, d);
    pd_buf_puts(b, "\",\"committer_date\":\"");
    pd_iso8601(d, sizeof(d), c.committer_time, c.committer_offset);
    pd_buf_puts(b, d);
    pd_buf_puts(b, "\",\"value\":");
    api_jw_int(b, h->src[row->src].value);
    pd_buf_puts(b, ",\"position\":");
    api_jw_int(b, row->pos);
    pd_buf_puts(b, ",\"effective_date\":\"");
    pd_iso8601(d, sizeof(d), row->tmax, 0);
    pd_buf_puts(b, d);
    pd_buf_puts(b, "\"");
    if (row->out)
        pd_buf_puts(b, ",\"out_of_order\":true");
    if (h->own[i])
        pd_buf_puts(b, ",\"own\":true");
    if (row->part_start)
        pd_buf_puts(b, ",\"part_start\":true");
    pd_buf_puts(b, "}");
}

/*
 * The points of the answer into b as a JSON array: every row, or with
 * ?points=N those LTTB keeps (api_fork_pick on the rows' effective dates
 * and values), cut to the page asked for (srv_page_range, 100,000 a
 * page).  Only those are written (issue 26.3: 1,000 of numpy-hpy's
 * 15,000).  1 sampled, 0 not, or < 0 (pd_error_set).
 */
static int api_history_points(srv_req *r, const api_hist *h, pd_buf *b)
{
    size_t n = 0, *idx = NULL, nidx = h->nrows, i, from, to;
    int64_t *t = NULL, *v = NULL;
    int sampled;

    if ((sampled = api_fork_points_arg(r, &n)) < 0)
        return sampled;
    if (sampled) {
        if (!(t = malloc((h->nrows + 1) * sizeof(*t))) ||
            !(v = malloc((h->nrows + 1) * sizeof(*v)))) {
            free(t);
            return pd_error_nomem(NULL);
        }
        for (i = 0; i < h->nrows; i++) {
            t[i] = h->rows[i].tmax;
            v[i] = h->src[h->rows[i].src].value;
        }
        sampled = api_fork_pick(h->own, t, v, h->nrows, n, h->port_row, &idx, &nidx) < 0
                  ? PD_ENOMEM : 1;
        free(t);
        free(v);
        if (sampled < 0)
            return sampled;
    }
    if (srv_page_range(r, nidx, 100000, &from, &to) < 0) {
        free(idx);
        return PD_EINVAL;
    }
    pd_buf_put(b, "[", 1);
    for (i = from; i < to; i++) {
        if (i > from)
            pd_buf_put(b, ",", 1);
        api_history_write_point(b, h, idx ? idx[i] : i);
    }
    pd_buf_put(b, "]", 1);
    free(idx);
    return sampled;
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

/* Free what the history walk holds. */
static void api_history_free(api_hist *h)
{
    free(h->rows);
    free(h->own);
    free((void *)h->src);
    json_decref(h->port_start);
    api_fork_end(&h->fork);
}

/* The answer's head, up to the points: {"ref", "measure", "date",
 * "window", "port_start", "port", "points": (json_pack's order in the
 * tree this answer was before). */
static void api_history_head(pd_buf *b, srv_req *r, const api_hist *h, int measure,
                             json_t *port)
{
    pd_buf_puts(b, "{\"ref\":");
    api_jw_text(b, r->param[1]);
    pd_buf_puts(b, ",\"measure\":");
    pd_buf_json_str(b, pd_measures[measure].key);
    pd_buf_puts(b, h->by_author ? ",\"date\":\"author\"" : ",\"date\":\"committer\"");
    pd_buf_puts(b, h->port_only ? ",\"window\":\"port\"" : ",\"window\":\"full\"");
    pd_buf_puts(b, ",\"port_start\":");
    api_jw_json(b, h->port_start);
    pd_buf_puts(b, ",\"port\":");
    api_jw_json(b, port);
    pd_buf_puts(b, ",\"points\":");
}

enum MHD_Result api_history(srv_req *r)
{
    const db_scope *sc;
    api_at at;
    db_fork fork;
    json_t *port;
    int measure, rc, sampled;
    db_hist_row *src = NULL;
    size_t nsrc = 0, i;
    api_hist h;
    pd_buf b;

    memset(&h, 0, sizeof(h));
    h.port_row = SIZE_MAX;
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
    rc = db_ref_rows(r->db, at.commit_id, at.rules_hash, measure, &src, &nsrc);
    h.src = src;
    for (i = 0; i < nsrc && rc == 0; i++)
        rc = api_history_point(&h, i);
    if (rc < 0) {
        api_history_free(&h);
        return srv_reply_error(r, rc);
    }
    /* The points are read before the head is written: a bad ?page or
     * ?points is an error answer, not half a document. */
    pd_buf_init(&b, 0);
    port = api_fork_json(&h.fork);
    api_history_head(&b, r, &h, measure, port);
    json_decref(port);
    if ((sampled = api_history_points(r, &h, &b)) < 0) {
        pd_buf_free(&b);
        api_history_free(&h);
        return srv_reply_error(r, sampled);
    }
    if (sampled) {
        pd_buf_puts(&b, ",\"sampled_from\":");
        api_jw_int(&b, (int64_t)h.nrows);
    }
    pd_buf_puts(&b, ",\"out_of_order\":");
    api_jw_int(&b, h.ord.late);
    pd_buf_put(&b, "}", 1);
    api_history_free(&h);
    return srv_reply_json_buf(r, &b);
}

/* db_file_history callback: one point of the file, newest first. */
static int api_file_point(void *arg, const db_file_point *fp)
{
    json_t *p = api_commit_point(&fp->c);

    json_object_set_new(p, "value", fp->has_value ? json_integer(fp->value) : json_null());
    json_object_set_new(p, "path", api_text(fp->path));
    if (fp->call_graph)
        json_object_set_new(p, "call_graph", json_true());
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
