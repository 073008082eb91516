/*
 * api_compare.c: GET /api/v1/repos/{repo}/compare/{base}...{head}: what
 * moved between two revs, file by file and function by function (read by
 * q_compare.h), as JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "api.h"
#include "api_compare.h"
#include "api_diff.h"
#include "db.h"
#include "pd_error.h"

/* Split "{base}...{head}" and resolve both sides. */
static int api_compare_resolve(srv_req *r, api_at *base, api_at *head)
{
    const char *range = r->param[1], *dots = strstr(range, "...");
    char left[256];
    const char *saved = r->param[1];
    int rc;

    if (!dots || dots == range || !dots[3] || (size_t)(dots - range) >= sizeof(left))
        return pd_error_set(PD_EINVAL, "compare wants BASE...HEAD, got '%s'", range);
    memcpy(left, range, dots - range);
    left[dots - range] = '\0';
    r->param[1] = left;
    rc = api_resolve(r, base);
    if (rc == 0) {
        int base_fixed = r->immutable;

        r->immutable = 0;
        r->param[1] = dots + 3;
        rc = api_resolve(r, head);
        /* Immutable only when both sides are full commit ids. */
        r->immutable = base_fixed && r->immutable;
    }
    r->param[1] = saved;
    return rc;
}

/* {"status", "universal_ready"} of one side, or null when absent. */
static json_t *api_compare_side(const q_file_side *x)
{
    if (!x->present)
        return json_null();
    return json_pack("{s:s, s:b}", "status", x->status, "universal_ready", x->ready);
}

/* The files of `c` as a JSON array of {"path", "from", "to"}. */
static json_t *api_compare_files(const q_compare *c)
{
    json_t *arr = json_array();
    size_t i;

    for (i = 0; i < c->nfiles; i++)
        json_array_append_new(arr, json_pack("{s:o, s:o, s:o}",
            "path", api_text(c->files[i].path), "from", api_compare_side(&c->files[i].from),
            "to", api_compare_side(&c->files[i].to)));
    return arr;
}

json_t *api_compare_json(const q_compare *c)
{
    json_t *o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
        "base", c->base, "head", c->head, "base_stats", api_stats_obj(&c->base_stats),
        "head_stats", api_stats_obj(&c->head_stats), "delta", api_stats_obj(&c->delta),
        "files", api_compare_files(c), "functions", api_moves_json(&c->functions),
        "regressions", api_moves_json(&c->regressions));

    /* Say how much there was; the lists hold the first c->most. */
    json_object_set_new(o, "files_total", json_integer((json_int_t)c->files_total));
    json_object_set_new(o, "functions_total", json_integer((json_int_t)c->functions.total));
    json_object_set_new(o, "regressions_total",
                        json_integer((json_int_t)c->regressions.total));
    json_object_set_new(o, "truncated", json_boolean(q_compare_truncated(c)));
    return o;
}

/* The server's walk of changed files, adapted to q_changed_files. */
typedef struct {
    srv_req *r;
    int (*fn)(void *arg, srv_req *r, const char *path, const api_side *a,
              const api_side *b);
    void *arg;
} api_changed_walk;

/* q_changed_files callback: the caller's, with the request. */
static int api_changed_one(void *arg, const char *path, const q_side *a, const q_side *b)
{
    api_changed_walk *w = arg;

    return w->fn(w->arg, w->r, path, a, b);
}

int api_changed_files(srv_req *r, const api_at *base, const api_at *head,
                      int (*fn)(void *arg, srv_req *r, const char *path,
                                const api_side *a, const api_side *b), void *arg)
{
    api_changed_walk w = {r, fn, arg};

    return q_changed_files(r->db, base, head, api_changed_one, &w);
}

int api_compare_commits(srv_req *r, const api_at *base, const api_at *head,
                        json_t *files, json_t *fns, json_t *regs)
{
    q_compare *c = NULL;
    json_t *l;
    int rc;

    if ((rc = q_compare_get(r->db, base, head, NULL, &c)) < 0)
        return rc;
    json_array_extend(files, l = api_compare_files(c));
    json_decref(l);
    json_array_extend(fns, l = api_moves_json(&c->functions));
    json_decref(l);
    json_array_extend(regs, l = api_moves_json(&c->regressions));
    json_decref(l);
    q_compare_free(c);
    return 0;
}

enum MHD_Result api_compare(srv_req *r)
{
    api_at base, head;
    q_compare_params p = {Q_COMPARE_CAP};
    q_compare *c = NULL;
    enum MHD_Result ret;
    int rc;

    if ((rc = api_compare_resolve(r, &base, &head)) < 0 ||
        (rc = q_compare_get(r->db, &base, &head, &p, &c)) < 0)
        return srv_reply_error(r, rc);
    ret = srv_reply_json(r, 200, api_compare_json(c));
    q_compare_free(c);
    return ret;
}
