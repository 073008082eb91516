/*
 * api_scope.c: named scopes in the API (see api_scope.h and db_scope.h).
 *
 * The blockers of a scope are what still keeps its files from universal
 * mode: per file, the functions the scope keeps (for no-object-dtype, those
 * that are not object-dtype paths) with unguarded capi or bridge uses, and
 * such uses outside any function.  A file is listed exactly when it is not
 * universal-ready under the scope, so "total" equals files minus
 * universal_ready_files of the scoped summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_fork.h"
#include "api_order.h"
#include "api_scope.h"
#include "api_scope_series.h"
#include "pd_error.h"
#include "pd_time.h"
#include "srv_page.h"

/* The scope as JSON: name, title, globs and filter. */
static json_t *api_scope_json(const db_scope *sc)
{
    json_t *inc = json_array(), *exc = json_array();
    size_t i;

    for (i = 0; i < sc->ninclude; i++)
        json_array_append_new(inc, json_string(sc->include[i]));
    for (i = 0; i < sc->nexclude; i++)
        json_array_append_new(exc, json_string(sc->exclude[i]));
    return json_pack("{s:s, s:s, s:o, s:o, s:b}", "name", sc->name, "title", sc->title,
                     "include", inc, "exclude", exc,
                     "exclude_object_paths", sc->exclude_object_paths);
}

enum MHD_Result api_scopes(srv_req *r)
{
    const db_scopes *all = srv_get_scopes(r->server);
    json_t *arr = json_array();
    size_t i;

    for (i = 0; all && i < all->n; i++)
        json_array_append_new(arr, api_scope_json(&all->v[i]));
    return srv_reply_json(r, 200, arr);
}

int api_scope_arg(srv_req *r, const db_scope **out)
{
    const db_scopes *all = srv_get_scopes(r->server);
    char name[128], known[512];
    int rc;

    *out = NULL;
    if ((rc = srv_query(r, "scope", name, sizeof(name))) == PD_ENOTFOUND)
        return 0;
    if (rc < 0)
        return rc;
    if (!name[0])
        return 0;
    if ((*out = db_scopes_find(all, name))) {
        r->immutable = 0;   /* another scopes file may define the name otherwise */
        return 0;
    }
    db_scopes_names(all, known, sizeof(known));
    return pd_error_set(PD_EINVAL, "unknown scope '%s'; GET /api/v1/scopes lists them (%s)",
                        name, known);
}

int api_scope_stats(srv_req *r, const api_at *at, db_counts *c, const db_scope **out)
{
    int rc;

    if ((rc = api_scope_arg(r, out)) < 0 || !*out)
        return rc;
    return db_scope_commit_counts(r->db, *out, at->commit_id, at->rules_hash, c);
}

int api_scope_file_row(srv_req *r, const db_scope *sc, const db_files *rows,
                       const db_file_row *row, db_counts *c, const char **status)
{
    db_counts full = *c;
    int si, rc;

    if (!db_scope_has_path(sc, row->path))
        return 1;
    if (!*status)
        return 0;
    si = db_scope_status_index(*status);
    if ((rc = db_scope_file_counts_at(r->db, sc, row->analysis_id, &full, si,
                                      db_files_graph(rows), row->path, c, &si)) < 0)
        return rc;
    if (si >= 0)
        *status = pd_status_name(si);
    return 0;
}

/* ---------- history ---------- */

/* The value of summary measure `key` in counts c; -1 when unknown. */
static int api_scope_measure(const char *key, const db_counts *c, int64_t *v)
{
    int i = pd_measure_find(key);

    if (i < 0)
        return -1;
    *v = pd_measure_value(c, i);
    return 0;
}

/* What the history callback collects. */
typedef struct {
    const char *key;
    int by_author;
    int64_t since, until;
    json_t *points;
    json_t *port_start;
    int port_only;           /* ?window=port */
    api_order ord;           /* positions and effective dates, as a ref's */
    api_fork_walk fork;      /* the port's own commits (issue 23.1) */
    /* what ?points=N samples, by point: effective date, value, own */
    int64_t *t, *v;
    unsigned char *own;
    size_t n, cap;
    size_t start;            /* the port start's point; SIZE_MAX: none */
} api_scope_hist;

/* Room for one more point in the sampling's arrays; -1 without memory. */
static int api_scope_hist_grow(api_scope_hist *h)
{
    size_t cap = h->cap ? h->cap * 2 : 1024;
    int64_t *t, *v;
    unsigned char *own;

    if (h->n < h->cap)
        return 0;
    if ((t = realloc(h->t, cap * sizeof(*t))))
        h->t = t;
    if ((v = realloc(h->v, cap * sizeof(*v))))
        h->v = v;
    if ((own = realloc(h->own, cap)))
        h->own = own;
    if (!t || !v || !own)
        return -1;
    h->cap = cap;
    return 0;
}

/* Free what the walk holds (its points are the caller's). */
static void api_scope_hist_free(api_scope_hist *h)
{
    json_decref(h->points);
    json_decref(h->port_start);
    api_fork_end(&h->fork);
    free(h->t);
    free(h->v);
    free(h->own);
}

/* {"commit", "author_date", "committer_date"} of a replayed commit. */
static json_t *api_scope_point(const db_scope_commit *cm)
{
    char a[40], c[40];

    pd_iso8601(a, sizeof(a), cm->author_time, cm->author_offset);
    pd_iso8601(c, sizeof(c), cm->committer_time, cm->committer_offset);
    return json_pack("{s:s, s:s, s:s}", "commit", cm->oid, "author_date", a,
                     "committer_date", c);
}

/* db_scope_history callback: one point per commit inside the dates. */
static int api_scope_hist_point(void *arg, const db_scope_commit *cm, const db_counts *c)
{
    api_scope_hist *h = arg;
    int64_t t = h->by_author ? cm->author_time : cm->committer_time, v = 0;
    db_hist_point hp = {{cm->oid, cm->author_time, cm->author_offset, cm->committer_time,
                         cm->committer_offset}, 0, c->tok[0]};
    char eff[40];
    json_t *p;
    int own, starts = 0;

    if (!h->port_start && c->tok[0] > 0) {
        h->port_start = api_scope_point(cm);
        starts = 1;
    }
    /* The value goes into the walk too: the last upstream commit's is the
     * port's base value (it was 0, so a week card's change under a scope
     * was the whole total). */
    api_scope_measure(h->key, c, &v);
    hp.value = v;
    own = api_fork_step(&h->fork, &hp);
    /* The positions and dates of the unscoped trend (found missing by a
     * newcomer: a scope's points had no position and no out_of_order). */
    api_order_step(&h->ord, t, h->fork.restart);
    if (t < h->since || t > h->until || (h->port_only && !own))
        return 0;
    if (api_scope_hist_grow(h) < 0)
        return pd_error_nomem(NULL);
    if (starts)
        h->start = h->n;
    h->t[h->n] = h->ord.tmax;
    h->v[h->n] = v;
    h->own[h->n++] = (unsigned char)own;
    p = api_scope_point(cm);
    json_object_set_new(p, "value", json_integer(v));
    json_object_set_new(p, "position", json_integer(h->ord.pos));
    pd_iso8601(eff, sizeof(eff), h->ord.tmax, 0);
    json_object_set_new(p, "effective_date", json_string(eff));
    if (h->ord.out)
        json_object_set_new(p, "out_of_order", json_true());
    if (own)
        json_object_set_new(p, "own", json_true());
    if (h->fork.restart)
        json_object_set_new(p, "part_start", json_true());
    json_array_append_new(h->points, p);
    return 0;
}

/* ?points=N on the walk's points: those api_fork_pick keeps of its
 * arrays, as a ref's history keeps them (h->points replaced).  0 when not
 * asked, 1 when sampled, or < 0 (pd_error_set). */
static int api_scope_sample(srv_req *r, api_scope_hist *h)
{
    size_t n = 0, *idx = NULL, nidx = 0, i;
    json_t *out;
    int rc;

    if ((rc = api_fork_points_arg(r, &n)) <= 0)
        return rc;
    if (api_fork_pick(h->own, h->t, h->v, h->n, n, h->start, &idx, &nidx) < 0)
        return PD_ENOMEM;
    if (!(out = json_array())) {
        free(idx);
        return pd_error_nomem(NULL);
    }
    for (i = 0; i < nidx; i++)
        json_array_append(out, json_array_get(h->points, idx[i]));
    free(idx);
    json_decref(h->points);
    h->points = out;
    return 1;
}

enum MHD_Result api_scope_history(srv_req *r, const api_at *at, const db_scope *sc,
                                  const char *key, int by_author, int64_t since,
                                  int64_t until)
{
    api_scope_hist h;
    char win[16];
    db_fork fork;
    json_t *doc, *points;
    int64_t v;
    int rc;

    memset(&h, 0, sizeof(h));
    h.key = key;
    h.by_author = by_author;
    h.since = since;
    h.until = until;
    h.start = SIZE_MAX;
    /* api_history checked ?window already. */
    h.port_only = srv_query(r, "window", win, sizeof(win)) == 0 && strcmp(win, "port") == 0;
    if (api_scope_measure(key, &(db_counts){0}, &v) < 0)
        return srv_reply_problem(r, 400, "Bad Request", "measure '%s' has no scoped "
                                 "history", key);
    if ((rc = db_fork_find(r->db, at->repo_id, r->param[1], at->commit_id, &fork)) < 0)
        return srv_reply_error(r, rc);
    api_fork_begin(&h.fork, &fork);
    h.points = json_array();
    if ((rc = api_scope_series_walk(r, sc, at, api_scope_hist_point, &h)) < 0 ||
        (rc = api_scope_sample(r, &h)) < 0 ||
        !(points = srv_paginate(r, json_incref(h.points), 100000))) {
        api_scope_hist_free(&h);
        return srv_reply_error(r, rc < 0 ? rc : PD_EINVAL);
    }
    doc = json_pack("{s:o, s:s, s:s, s:s, s:s, s:O, s:o, s:o}",
        "ref", api_text(r->param[1]), "measure", key, "scope", sc->name,
        "date", by_author ? "author" : "committer", "window", h.port_only ? "port" : "full",
        "port_start", h.port_start ? h.port_start : json_null(),
        "port", api_fork_json(&h.fork), "points", points);
    if (rc)
        json_object_set_new(doc, "sampled_from", json_integer((json_int_t)h.n));
    json_object_set_new(doc, "out_of_order", json_integer(h.ord.late));
    api_scope_hist_free(&h);
    return srv_reply_json(r, 200, doc);
}

/* ---------- blockers ---------- */

/* The blocker entry of one file not universal-ready under sc; NULL after
 * pd_error_set.  Adds its function count to *nfn. */
static json_t *api_blockers_file(srv_req *r, const db_scope *sc, int64_t analysis_id,
                                 const pd_flow *g, const char *path, int64_t *nfn)
{
    db_scope_detail d;
    json_t *fns;
    size_t i;

    if (db_scope_detail_read_at(r->db, analysis_id, g, path, &d) < 0)
        return NULL;
    fns = json_array();
    for (i = 0; i < d.nfn; i++) {
        const db_scope_fn *f = &d.fn[i];

        if ((f->is_object && sc->exclude_object_paths) ||
            pd_universal_ready_rule(pd_classes_present(f->ung)))
            continue;
        json_array_append_new(fns, json_pack("{s:o, s:I, s:I, s:I}", "name",
            api_text(f->name), "start_line", (json_int_t)f->start_line,
            "capi", (json_int_t)f->ung[1], "bridge", (json_int_t)f->ung[3]));
    }
    *nfn += (int64_t)json_array_size(fns);
    json_t *o = json_pack("{s:o, s:o, s:{s:I, s:I}}", "path", api_text(path),
        "functions", fns, "file_scope", "capi", (json_int_t)d.file_ung[1],
        "bridge", (json_int_t)d.file_ung[3]);
    db_scope_detail_free(&d);
    return o;
}

enum MHD_Result api_blockers(srv_req *r)
{
    db_files *rows = NULL;
    db_file_row row;
    const db_scope *sc;
    api_at at;
    db_counts c;
    json_t *files;
    int64_t nfn = 0;
    int rc, status;

    if ((rc = api_resolve(r, &at)) < 0 || (rc = api_scope_arg(r, &sc)) < 0)
        return srv_reply_error(r, rc);
    if (!sc && !(sc = db_scopes_find(srv_get_scopes(r->server), "no-object-dtype")))
        return srv_reply_problem(r, 400, "Bad Request", "name a scope with ?scope=NAME");
    if ((rc = db_files_open(r->db, &rows, at.commit_id, at.rules_hash)) < 0)
        return srv_reply_error(r, rc);
    files = json_array();
    while ((rc = db_files_next(rows, &row)) > 0) {
        json_t *f;

        if (!row.status || !db_scope_has_path(sc, row.path))
            continue;
        status = pd_status_parse(row.status);
        if ((rc = db_scope_file_counts_at(r->db, sc, row.analysis_id, &row.counts, status,
                                          db_files_graph(rows), row.path, &c, &status)) < 0)
            goto fail;
        if (c.universal_ready_files)
            continue;
        if (!(f = api_blockers_file(r, sc, row.analysis_id, db_files_graph(rows), row.path,
                                    &nfn))) {
            rc = PD_EDB;
            goto fail;
        }
        json_array_append_new(files, f);
    }
    if (rc < 0)
        goto fail;
    db_files_close(rows);
    return srv_reply_json(r, 200, json_pack("{s:s, s:s, s:o, s:I, s:I}", "commit", at.oid,
        "scope", sc->name, "files", files, "total", (json_int_t)json_array_size(files),
        "functions_total", (json_int_t)nfn));
fail:
    db_files_close(rows);
    json_decref(files);
    return srv_reply_error(r, rc);
}
