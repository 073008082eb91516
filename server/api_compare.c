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

/* {"status", "universal_ready"} of a files-statement row, or null. */
static json_t *api_compare_side(sqlite3_stmt *st)
{
    const char *status;

    if (!st)
        return json_null();
    status = (const char *)sqlite3_column_text(st, 4);
    return json_pack("{s:s, s:b}", "status", status ? status : "unanalysed",
                     "universal_ready", sqlite3_column_int(st, 5));
}

/* One path present on either side: its file entry and function moves. */
static int api_compare_path(srv_req *r, const api_at *at, sqlite3_stmt *a,
                            sqlite3_stmt *b, json_t *files, json_t *fns, json_t *regs)
{
    sqlite3_stmt *any = a ? a : b;
    const char *path = (const char *)sqlite3_column_text(any, 1);
    const char *ba = a ? (const char *)sqlite3_column_text(a, 2) : NULL;
    const char *bb = b ? (const char *)sqlite3_column_text(b, 2) : NULL;
    json_t *from, *to;

    if (ba && bb && strcmp(ba, bb) == 0)
        return 0;
    from = api_compare_side(a);
    to = api_compare_side(b);
    if (!json_equal(from, to))
        json_array_append_new(files, json_pack("{s:o, s:o, s:o}", "path",
                              api_text(path), "from", from, "to", to));
    else {
        json_decref(from);
        json_decref(to);
    }
    return api_diff_file(r, at->rules_hash, path, ba, bb, fns, regs);
}

/* Walk both sorted file lists together. */
int api_compare_commits(srv_req *r, const api_at *base, const api_at *head,
                             json_t *files, json_t *fns, json_t *regs)
{
    sqlite3_stmt *a = NULL, *b = NULL;
    int ra, rb, rc;

    if ((rc = db_commit_files_stmt(r->db, &a, base->commit_id, base->rules_hash)) < 0 ||
        (rc = db_commit_files_stmt(r->db, &b, head->commit_id, head->rules_hash)) < 0)
        goto done;
    ra = sqlite3_step(a);
    rb = sqlite3_step(b);
    while (rc == 0 && (ra == SQLITE_ROW || rb == SQLITE_ROW)) {
        int cmp = ra != SQLITE_ROW ? 1 : rb != SQLITE_ROW ? -1
                  : strcmp((const char *)sqlite3_column_text(a, 1),
                           (const char *)sqlite3_column_text(b, 1));

        rc = api_compare_path(r, head, cmp <= 0 ? a : NULL, cmp >= 0 ? b : NULL,
                              files, fns, regs);
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

enum MHD_Result api_compare(srv_req *r)
{
    api_at base, head;
    db_counts cb, ch, delta;
    json_t *files, *fns, *regs;
    int rc;

    if ((rc = api_compare_resolve(r, &base, &head)) < 0 ||
        (rc = db_commit_stats(r->db, base.commit_id, base.rules_hash, &cb)) < 0 ||
        (rc = db_commit_stats(r->db, head.commit_id, head.rules_hash, &ch)) < 0)
        return srv_reply_error(r, rc);
    files = json_array();
    fns = json_array();
    regs = json_array();
    if ((rc = api_compare_commits(r, &base, &head, files, fns, regs)) < 0) {
        json_decref(files);
        json_decref(fns);
        json_decref(regs);
        return srv_reply_error(r, rc);
    }
    delta = ch;
    db_counts_add(&delta, &cb, -1);
    return srv_reply_json(r, 200, json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
        "base", base.oid, "head", head.oid, "base_stats", api_stats_obj(&cb),
        "head_stats", api_stats_obj(&ch), "delta", api_stats_obj(&delta),
        "files", files, "functions", fns, "regressions", regs));
}
