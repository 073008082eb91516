/*
 * api_compare.c: GET /api/v1/repos/{repo}/compare/{base}...{head}: what
 * moved between two revs, file by file and function by function.
 */
#include <stdlib.h>
#include <string.h>

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
    rc = api_diff_file(r, c->head->rules_hash, path, a->blob, b->blob, c->fns, c->regs);
    api_compare_cap(c->files, nf, c->cap, &c->total[0]);
    api_compare_cap(c->fns, nfn, c->cap, &c->total[1]);
    api_compare_cap(c->regs, nreg, c->cap, &c->total[2]);
    return rc;
}

/* Fill a side from a files-statement row (NULL row: absent). */
static void api_side_of(api_side *x, sqlite3_stmt *st)
{
    const char *status = st ? (const char *)sqlite3_column_text(st, 4) : NULL;

    memset(x, 0, sizeof(*x));
    if (!st)
        return;
    x->blob = (const char *)sqlite3_column_text(st, 2);
    x->status = status ? status : "unanalysed";
    x->ready = sqlite3_column_int(st, 5);
}

int api_changed_files(srv_req *r, const api_at *base, const api_at *head,
                      int (*fn)(void *arg, srv_req *r, const char *path,
                                const api_side *a, const api_side *b), void *arg)
{
    sqlite3_stmt *a = NULL, *b = NULL;
    int ra, rb, rc;

    if ((rc = db_commit_files_stmt(r->db, &a, base->commit_id, base->rules_hash)) < 0 ||
        (rc = db_commit_files_stmt(r->db, &b, head->commit_id, head->rules_hash)) < 0)
        goto done;
    ra = sqlite3_step(a);
    rb = sqlite3_step(b);
    /* Both lists are sorted by path: walk them together. */
    while (rc == 0 && (ra == SQLITE_ROW || rb == SQLITE_ROW)) {
        int cmp = ra != SQLITE_ROW ? 1 : rb != SQLITE_ROW ? -1
                  : strcmp((const char *)sqlite3_column_text(a, 1),
                           (const char *)sqlite3_column_text(b, 1));
        api_side sa, sb;

        api_side_of(&sa, cmp <= 0 ? a : NULL);
        api_side_of(&sb, cmp >= 0 ? b : NULL);
        if (!sa.blob || !sb.blob || strcmp(sa.blob, sb.blob) != 0)
            rc = fn(arg, r, (const char *)sqlite3_column_text(cmp <= 0 ? a : b, 1),
                    &sa, &sb);
        if (cmp <= 0)
            ra = sqlite3_step(a);
        if (cmp >= 0)
            rb = sqlite3_step(b);
    }
    if (rc == 0 && (ra != SQLITE_DONE || rb != SQLITE_DONE))
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(r->db));
done:
    sqlite3_finalize(a);
    sqlite3_finalize(b);
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
