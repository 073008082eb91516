/*
 * db_owners.c: a file's versions for the owners of its functions (see
 * db_owners.h).
 */
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_analysis.h"
#include "db_history.h"
#include "db_owners.h"
#include "pd_domain.h"
#include "pd_error.h"

/* Keep p to free later; returns p (NULL stays NULL: out of memory). */
static void *own_keep(db_owner_hist *h, void *p)
{
    char **v;

    if (!p)
        return NULL;
    if (!(v = realloc(h->owned, (h->nowned + 1) * sizeof(*v)))) {
        free(p);
        return NULL;
    }
    h->owned = v;
    h->owned[h->nowned++] = p;
    return p;
}

static char *own_dup(db_owner_hist *h, const char *s)
{
    return own_keep(h, strdup(s ? s : ""));
}

void db_owner_hist_free(db_owner_hist *h)
{
    size_t i;

    for (i = 0; i < h->nowned; i++)
        free(h->owned[i]);
    free(h->owned);
    free(h->v);
    free(h->starts);
    free(h->ends);
    free(h->blob);
    memset(h, 0, sizeof(*h));
}

/* One version's functions being read. */
typedef struct {
    db_owner_hist *h;
    pd_own_fn *fns;
    size_t n, cap;
    int64_t *start, *end;
} own_reading;

static int own_fn(void *arg, const db_function *f)
{
    own_reading *r = arg;

    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 64;
        pd_own_fn *v = realloc(r->fns, cap * sizeof(*v));
        int64_t *s = realloc(r->start, cap * sizeof(*s));
        int64_t *e = s ? realloc(r->end, cap * sizeof(*e)) : NULL;

        if (v)
            r->fns = v;
        if (s)
            r->start = s;
        if (e)
            r->end = e;
        if (!v || !s || !e)
            return pd_error_nomem(NULL);
        r->cap = cap;
    }
    if (!(r->fns[r->n].name = own_dup(r->h, f->name)))
        return pd_error_nomem(NULL);
    r->fns[r->n].hpy = f->tok[PD_CLASS_HPY];
    r->fns[r->n].print = pd_owners_print(f->tok, PD_CLASS_COUNT, f->status,
                                         f->end_line - f->start_line);
    r->fns[r->n].changed = -1;
    r->start[r->n] = f->start_line;
    r->end[r->n] = f->end_line;
    r->n++;
    return 0;
}

/* The first-parent chain from ?1 with each commit's depth (0 = ?1), as in
 * db_history.c. */
#define OWN_CHAIN_CTE \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "

/* Add the row's version (newest first, reversed at the end). */
static int own_version(sqlite3 *db, db_owner_hist *h, sqlite3_stmt *st, db_owners_who who,
                       void *who_arg)
{
    own_reading r = {h, NULL, 0, 0, NULL, NULL};
    const char *name = (const char *)sqlite3_column_text(st, 1);
    const char *email = (const char *)sqlite3_column_text(st, 2);
    char *mname = NULL, *memail = NULL;
    pd_own_ver *v = realloc(h->v, (h->n + 1) * sizeof(*v)), *x;
    int64_t **ss = realloc(h->starts, (h->n + 1) * sizeof(*ss)), **es;
    char **bl;
    int rc;

    if (v)
        h->v = v;
    if (ss)
        h->starts = ss;
    es = realloc(h->ends, (h->n + 1) * sizeof(*es));
    if (es)
        h->ends = es;
    bl = realloc(h->blob, (h->n + 1) * sizeof(*bl));
    if (bl)
        h->blob = bl;
    if (!v || !ss || !es || !bl)
        return pd_error_nomem(NULL);
    h->starts[h->n] = h->ends[h->n] = NULL;
    h->blob[h->n] = own_dup(h, (const char *)sqlite3_column_text(st, 8));
    x = &h->v[h->n];
    memset(x, 0, sizeof(*x));
    if (who)
        who(who_arg, name, email, (const char *)sqlite3_column_text(st, 9), &mname, &memail);
    x->who = mname ? own_keep(h, mname) : own_dup(h, name);
    x->email = memail ? own_keep(h, memail) : own_dup(h, email);
    x->oid = own_dup(h, (const char *)sqlite3_column_text(st, 0));
    x->time = sqlite3_column_int64(st, 3);
    if (!x->who || !x->email || !x->oid)
        return pd_error_nomem(NULL);
    rc = db_analysis_function_rows(db, sqlite3_column_int64(st, 5), own_fn, &r);
    x->fns = own_keep(h, r.fns);
    x->nfns = r.n;
    h->starts[h->n] = own_keep(h, r.start);
    h->ends[h->n] = own_keep(h, r.end);
    if (rc == 0 && ((r.fns && !x->fns) || (r.start && !h->starts[h->n]) ||
                    (r.end && !h->ends[h->n]) || !h->blob[h->n]))
        rc = pd_error_nomem(NULL);
    h->n++;
    return rc;
}

/* Put the versions read newest first oldest first. */
static void own_reverse(db_owner_hist *h)
{
    size_t i;

    for (i = 0; i < h->n / 2; i++) {     /* oldest first */
        pd_own_ver t = h->v[i];
        int64_t *a = h->starts[i], *b = h->ends[i];
        char *c = h->blob[i];
        size_t j = h->n - 1 - i;

        h->v[i] = h->v[j];
        h->v[j] = t;
        h->starts[i] = h->starts[j];
        h->starts[j] = a;
        h->ends[i] = h->ends[j];
        h->ends[j] = b;
        h->blob[i] = h->blob[j];
        h->blob[j] = c;
    }
}

int db_owner_hist_read(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                       const char *path, size_t min, size_t max, db_owners_who who,
                       void *who_arg, db_owner_hist *h)
{
    sqlite3_stmt *st = NULL;
    int64_t path_id = 0, depth = 0;
    int rc = 0, stop = 0;

    memset(h, 0, sizeof(*h));
    h->baseline = 1;
    if ((rc = db_path_id(db, path, &path_id)) < 0 || !path_id)
        return rc;
    if ((rc = db_prepare(db, &st, OWN_CHAIN_CTE
                         "SELECT c.oid, c.author_name, c.author_email, c.author_time, "
                         "ch.old_path_id, a.id, a.tok_hpy, chain.depth, ch.blob_oid, c.parents "
                         "FROM chain JOIN changes ch ON ch.commit_id = chain.cid "
                         "AND ch.path_id = ?3 JOIN commits c ON c.id = chain.cid "
                         "LEFT JOIN analyses a ON a.blob_oid = ch.blob_oid "
                         "AND a.rules_hash = ?2 WHERE chain.depth >= ?4 "
                         "ORDER BY chain.depth")) < 0)
        return rc;
    while (!stop && path_id && rc == 0) {
        int64_t renamed = 0;

        sqlite3_reset(st);
        sqlite3_bind_int64(st, 1, commit_id);
        sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 3, path_id);
        sqlite3_bind_int64(st, 4, depth);
        while ((rc = db_step(st)) > 0) {
            if (sqlite3_column_type(st, 5) == SQLITE_NULL) {
                /* deleted here (or not analysed): the file began after */
                h->baseline = sqlite3_column_type(st, 8) != SQLITE_NULL;
                stop = 1;
                break;
            }
            if (h->n >= max) {
                stop = 1;
                break;
            }
            if ((rc = own_version(db, h, st, who, who_arg)) < 0)
                break;
            if (h->n >= min && sqlite3_column_int64(st, 6) == 0) {
                stop = 1;           /* nothing HPy before: nobody ported */
                break;
            }
            if (sqlite3_column_type(st, 4) != SQLITE_NULL) {
                renamed = sqlite3_column_int64(st, 4);
                depth = sqlite3_column_int64(st, 7) + 1;
                break;
            }
        }
        if (rc > 0)
            rc = 0;
        if (!stop && !renamed && rc == 0) {
            h->baseline = 0;        /* the walk reached the file's first version */
            stop = 1;
        }
        path_id = renamed;
    }
    sqlite3_finalize(st);
    own_reverse(h);
    if (h->n) {
        h->start_line = h->starts[h->n - 1];
        h->end_line = h->ends[h->n - 1];
    }
    return rc < 0 ? rc : 0;
}
