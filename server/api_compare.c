/*
 * api_compare.c: GET /api/v1/repos/{repo}/compare/{base}...{head}: what
 * moved between two revs, file by file and function by function.
 */
#include <stdlib.h>
#include <string.h>

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
static json_t *api_compare_side(const api_side *x)
{
    if (!x->blob)
        return json_null();
    return json_pack("{s:s, s:b}", "status", x->status, "universal_ready", x->ready);
}

typedef struct {
    const api_at *head;
    json_t *files, *fns, *regs;
    size_t cap;                 /* most entries kept per list; 0: all */
    size_t total[3];            /* files, functions, regressions seen */
} api_compare_ctx;

/* Entries of `arr` past the cap are counted into *total and dropped, so a
 * compare across 50,000 renamed files holds one page, not all of them. */
static void api_compare_cap(json_t *arr, size_t before, size_t cap, size_t *total)
{
    size_t n = json_array_size(arr);

    *total += n - before;
    while (cap && json_array_size(arr) > cap)
        json_array_remove(arr, json_array_size(arr) - 1);
}

/* api_changed_files callback: file entry and function moves of one path. */
static int api_compare_path(void *arg, srv_req *r, const char *path,
                            const api_side *a, const api_side *b)
{
    api_compare_ctx *c = arg;
    json_t *from = api_compare_side(a), *to = api_compare_side(b);
    size_t nf = json_array_size(c->files), nfn = json_array_size(c->fns);
    size_t nreg = json_array_size(c->regs);
    int rc;

    if (!json_equal(from, to))
        json_array_append_new(c->files, json_pack("{s:o, s:o, s:o}", "path",
                              api_text(path), "from", from, "to", to));
    else {
        json_decref(from);
        json_decref(to);
    }
    rc = api_diff_file(r, c->head->rules_hash, path, a, b, c->fns, c->regs);
    api_compare_cap(c->files, nf, c->cap, &c->total[0]);
    api_compare_cap(c->fns, nfn, c->cap, &c->total[1]);
    api_compare_cap(c->regs, nreg, c->cap, &c->total[2]);
    return rc;
}

/* Fill a side from a file row (NULL row: absent). */
static void api_side_of(api_side *x, const db_file_row *row, int64_t commit_id)
{
    memset(x, 0, sizeof(*x));
    x->commit_id = commit_id;
    if (!row)
        return;
    x->blob = row->blob;
    x->status = row->status ? row->status : "unanalysed";
    x->ready = (int)row->counts.universal_ready_files;
}

int api_changed_files(srv_req *r, const api_at *base, const api_at *head,
                      int (*fn)(void *arg, srv_req *r, const char *path,
                                const api_side *a, const api_side *b), void *arg)
{
    db_files *a = NULL, *b = NULL;
    db_file_row xa, xb;
    int ra = 0, rb = 0, rc;

    if ((rc = db_files_open(r->db, &a, base->commit_id, base->rules_hash)) < 0 ||
        (rc = db_files_open(r->db, &b, head->commit_id, head->rules_hash)) < 0)
        goto done;
    ra = db_files_next(a, &xa);
    rb = db_files_next(b, &xb);
    /* Both lists are sorted by path: walk them together. */
    while (rc == 0 && ra >= 0 && rb >= 0 && (ra > 0 || rb > 0)) {
        int cmp = ra == 0 ? 1 : rb == 0 ? -1 : strcmp(xa.path, xb.path);
        api_side sa, sb;

        api_side_of(&sa, cmp <= 0 ? &xa : NULL, base->commit_id);
        api_side_of(&sb, cmp >= 0 ? &xb : NULL, head->commit_id);
        if (!sa.blob || !sb.blob || strcmp(sa.blob, sb.blob) != 0)
            rc = fn(arg, r, cmp <= 0 ? xa.path : xb.path, &sa, &sb);
        if (cmp <= 0)
            ra = db_files_next(a, &xa);
        if (cmp >= 0)
            rb = db_files_next(b, &xb);
    }
    if (rc == 0 && (ra < 0 || rb < 0))
        rc = ra < 0 ? ra : rb;
done:
    db_files_close(a);
    db_files_close(b);
    return rc;
}

int api_compare_commits(srv_req *r, const api_at *base, const api_at *head,
                        json_t *files, json_t *fns, json_t *regs)
{
    api_compare_ctx c = {head, files, fns, regs, 0, {0, 0, 0}};

    return api_changed_files(r, base, head, api_compare_path, &c);
}

/* Most entries of each list in a compare answer. */
#define API_COMPARE_CAP 5000

enum MHD_Result api_compare(srv_req *r)
{
    api_at base, head;
    db_counts cb, ch, delta;
    json_t *files, *fns, *regs, *o;
    api_compare_ctx c = {&head, NULL, NULL, NULL, API_COMPARE_CAP, {0, 0, 0}};
    int rc;

    if ((rc = api_compare_resolve(r, &base, &head)) < 0 ||
        (rc = db_commit_stats(r->db, base.commit_id, base.rules_hash, &cb)) < 0 ||
        (rc = db_commit_stats(r->db, head.commit_id, head.rules_hash, &ch)) < 0)
        return srv_reply_error(r, rc);
    c.files = files = json_array();
    c.fns = fns = json_array();
    c.regs = regs = json_array();
    if ((rc = api_changed_files(r, &base, &head, api_compare_path, &c)) < 0) {
        json_decref(files);
        json_decref(fns);
        json_decref(regs);
        return srv_reply_error(r, rc);
    }
    delta = ch;
    db_counts_add(&delta, &cb, -1);
    o = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
        "base", base.oid, "head", head.oid, "base_stats", api_stats_obj(&cb),
        "head_stats", api_stats_obj(&ch), "delta", api_stats_obj(&delta),
        "files", files, "functions", fns, "regressions", regs);
    /* Say how much there was; the lists hold the first API_COMPARE_CAP. */
    json_object_set_new(o, "files_total", json_integer((json_int_t)c.total[0]));
    json_object_set_new(o, "functions_total", json_integer((json_int_t)c.total[1]));
    json_object_set_new(o, "regressions_total", json_integer((json_int_t)c.total[2]));
    json_object_set_new(o, "truncated", json_boolean(c.total[0] > API_COMPARE_CAP ||
                                                     c.total[1] > API_COMPARE_CAP ||
                                                     c.total[2] > API_COMPARE_CAP));
    return srv_reply_json(r, 200, o);
}
