/*
 * db_history_file.c: one file's history along a chain (db_file_history,
 * see db_history.h).
 *
 * Most measures of a file are figures of its blob's analysis, so they move
 * only where the file changes.  Its object-dtype paths are not: the file
 * page, the file table and the commit's summary count the states the
 * commit's call graph gives (doc/object-dtype.md), and a helper changed in
 * another file moves them in a commit that leaves this one alone.  So an
 * object measure's history reads every commit of the chain, adds the
 * graph's delta for the file (the commit's stored set, db_flow_set.h) to
 * the analysis' own figure, and has a point wherever that sum changes as
 * well as where the file does: the last point is then what the file page
 * and the file table show at the tip.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_flow.h"
#include "db_flow_set.h"
#include "db_history.h"
#include "pd_domain.h"
#include "pd_error.h"
#include "pd_flow.h"

/* One change of the path on the chain: the commit's depth, what the change
 * stored (has_value 0: deleted), its analysis' figure and id (0: none),
 * the path it renamed (0: none). */
typedef struct {
    int64_t depth, value, analysis_id, old_path_id;
    int has_value, has_old;
} db_fh_change;

/* The depth of commit `id` on the chain (ids fall along it), -1: not on it. */
static int64_t db_fh_depth(const db_hist_row *chain, size_t n, int64_t id)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;

        if (chain[mid].id == id)
            return (int64_t)mid;
        if (chain[mid].id > id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int db_fh_change_cmp(const void *a, const void *b)
{
    const db_fh_change *x = a, *y = b;

    return (x->depth > y->depth) - (x->depth < y->depth);
}

/*
 * The changes of path `path_id` on the chain from depth `min_depth` on,
 * newest first, into *out (malloc'd), with measure column `col` of their
 * analyses under `rules_hash`.  By the path's index, then placed on the
 * chain by their commits' ids: the walk this replaced (WITH RECURSIVE over
 * the chain, 15,000 commits on numpy-hpy, joined to the changes) took
 * 50-100 ms for one file's history.  0, PD_EDB, PD_ENOMEM.
 */
static int db_fh_read_changes(sqlite3 *db, const db_hist_row *chain, size_t nchain,
                              const char *col, const char *rules_hash, int64_t path_id,
                              int64_t min_depth, db_fh_change **out, size_t *n)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    char sql[400];
    int rc;

    *out = NULL;
    *n = 0;
    /* The column name comes from the fixed measures table, never from input. */
    snprintf(sql, sizeof(sql), "SELECT ch.commit_id, ch.blob_oid IS NOT NULL, ch.old_path_id, "
             "a.%s, coalesce(a.id, 0) FROM changes ch LEFT JOIN analyses a "
             "ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 WHERE ch.path_id = ?1", col);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, path_id);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    while ((rc = db_step(st)) > 0) {
        int64_t depth = db_fh_depth(chain, nchain, sqlite3_column_int64(st, 0));
        db_fh_change *c;

        if (depth < min_depth)       /* not on the chain (-1), or above the part asked */
            continue;
        if (*n == cap) {
            void *p = realloc(*out, (cap = cap ? cap * 2 : 64) * sizeof(**out));

            if (!p) {
                rc = pd_error_nomem(NULL);
                break;
            }
            *out = p;
        }
        c = &(*out)[(*n)++];
        c->depth = depth;
        c->has_value = sqlite3_column_int(st, 1);
        c->has_old = sqlite3_column_type(st, 2) != SQLITE_NULL;
        c->old_path_id = sqlite3_column_int64(st, 2);
        c->value = sqlite3_column_int64(st, 3);
        c->analysis_id = sqlite3_column_int64(st, 4);
    }
    sqlite3_finalize(st);
    if (rc < 0)
        return rc;
    if (*n)
        qsort(*out, *n, sizeof(**out), db_fh_change_cmp);
    return 0;
}

/* The dates of chain row r into w. */
static void db_fh_when(const db_hist_row *r, db_commit_when *w)
{
    w->oid = r->oid;
    w->author_time = r->author_time;
    w->author_offset = r->author_offset;
    w->committer_time = r->committer_time;
    w->committer_offset = r->committer_offset;
}

/* The object state whose count measure `m` is, -1 for another measure. */
static int db_fh_objstate(int m)
{
    size_t first = offsetof(pd_counts, obj) / sizeof(int64_t);

    return m >= 0 && (size_t)m >= first && (size_t)m < first + PD_OBJ_COUNT
           ? (int)((size_t)m - first) : -1;
}

/* A measure that is a figure of the blob alone: the changes of the path
 * are its points. */
static int db_fh_changes(const db_hist_row *chain, const db_fh_change *ch, size_t nch,
                         const char *path, int (*fn)(void *arg, const db_file_point *p),
                         void *arg, int64_t *renamed_from, int64_t *next_depth)
{
    db_file_point p;
    size_t i;
    int rc = 0;

    memset(&p, 0, sizeof(p));
    p.path = path;
    for (i = 0; i < nch && rc == 0; i++) {
        db_fh_when(&chain[ch[i].depth], &p.c);
        p.has_value = ch[i].has_value;
        p.value = ch[i].value;
        if ((rc = fn(arg, &p)) != 0)
            break;
        if (ch[i].has_old) {
            *renamed_from = ch[i].old_path_id;
            *next_depth = ch[i].depth + 1;
            break;
        }
    }
    return rc;
}

/* The text of path row `id` into buf.  0, PD_ENOTFOUND, PD_EDB. */
static int db_fh_path(sqlite3 *db, int64_t id, char *buf, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT path FROM paths WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if ((rc = db_step(st)) > 0) {
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
        rc = 0;
    } else if (rc == 0) {
        rc = pd_error_set(PD_ENOTFOUND, "no path %lld", (long long)id);
    }
    sqlite3_finalize(st);
    return rc;
}

/* One commit of the chain, for an object measure's walk. */
typedef struct {
    const db_hist_row *c;        /* the commit (db_chain_read's row) */
    int64_t analysis_id;         /* the change's analysis, 0: none */
    int64_t set_id;              /* the commit's stored set, 0: none */
    int64_t own;                 /* the change's own figure */
    int64_t value;               /* with the graph's delta */
    int changed;                 /* the file changed at this commit */
    int has_value;               /* 0: deleted here */
    int point;                   /* 1: a point of the answer */
} db_fh_row;

/* Each row's stored set (flow_commits under rules_hash), read by one scan
 * of the commit ids the rows span.  0 or PD_EDB. */
static int db_fh_sets(sqlite3 *db, const char *rules_hash, const db_hist_row *chain,
                      size_t nchain, int64_t min_depth, db_fh_row *rows, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT commit_id, set_id FROM flow_commits "
                         "WHERE rules_hash = ?1 AND commit_id <= ?2 AND commit_id >= ?3")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 2, rows[0].c->id);
    sqlite3_bind_int64(st, 3, rows[n - 1].c->id);
    while ((rc = db_step(st)) > 0) {
        int64_t d = db_fh_depth(chain, nchain, sqlite3_column_int64(st, 0)) - min_depth;

        if (d >= 0 && (size_t)d < n)     /* another branch's commit: not a row */
            rows[d].set_id = sqlite3_column_int64(st, 1);
    }
    sqlite3_finalize(st);
    return rc;
}

/* The rows of the chain from min_depth on, newest first, down to the change
 * that renamed another path into this one (*renamed_from, *next_depth):
 * each commit with its change of the path (ch, newest first) and its
 * stored set.  0, PD_EDB, PD_ENOMEM. */
static int db_fh_rows(sqlite3 *db, const char *rules_hash, const db_hist_row *chain,
                      size_t nchain, const db_fh_change *ch, size_t nch, int64_t min_depth,
                      db_fh_row **rows, size_t *n, int64_t *renamed_from,
                      int64_t *next_depth)
{
    int64_t end = (int64_t)nchain, d;
    size_t i;

    for (i = 0; i < nch; i++)
        if (ch[i].has_old) {
            end = ch[i].depth + 1;
            *renamed_from = ch[i].old_path_id;
            *next_depth = end;
            break;
        }
    if (min_depth >= end)
        return 0;
    if (!(*rows = calloc((size_t)(end - min_depth), sizeof(**rows))))
        return pd_error_nomem(NULL);
    *n = (size_t)(end - min_depth);
    for (d = min_depth; d < end; d++)
        (*rows)[d - min_depth].c = &chain[d];
    for (i = 0; i < nch && ch[i].depth < end; i++) {
        db_fh_row *w = &(*rows)[ch[i].depth - min_depth];

        w->changed = 1;
        w->has_value = ch[i].has_value;
        w->own = ch[i].value;
        w->analysis_id = ch[i].analysis_id;
    }
    return db_fh_sets(db, rules_hash, chain, nchain, min_depth, *rows, *n);
}

/* What the walk keeps between commits: the file's functions and the
 * commit's set it last read, and the delta they gave. */
typedef struct {
    sqlite3 *db;
    const char *rules_hash;
    int64_t key;                 /* pd_flow_path_key of the path */
    int state;                   /* the measure's object state */
    int64_t fns_of, set_of;      /* analysis and set read (0: none yet) */
    pd_buf fns;
    char *set;
    size_t setlen;
    int64_t delta;
} db_fh_walk;

/* The graph's delta of the file at row w (its analysis `analysis_id`):
 * from the stored set, or from the commit's graph when it has none. */
static int db_fh_delta(db_fh_walk *k, const db_fh_row *w, int64_t analysis_id,
                       int64_t *delta)
{
    int64_t d[PD_OBJ_COUNT];
    int rc;

    if (!w->set_id) {            /* a database the ingest has not filled */
        db_flow *f = NULL;

        if ((rc = db_flow_get(k->db, w->c->id, k->rules_hash, &f)) < 0)
            return rc;
        pd_flow_file_delta(db_flow_graph(f), k->key, d);
        db_flow_release(f);
        *delta = d[k->state];
        return 0;
    }
    if (k->fns_of == analysis_id && k->set_of == w->set_id) {
        *delta = k->delta;
        return 0;
    }
    if (k->fns_of != analysis_id && (rc = db_flow_fns_read(k->db, analysis_id, &k->fns)) < 0)
        return rc;
    k->fns_of = analysis_id;
    if (k->set_of != w->set_id) {
        free(k->set);
        k->set = NULL;
        if ((rc = db_flow_set_read(k->db, w->c->id, k->rules_hash, &k->set,
                                   &k->setlen)) < 0)
            return rc;
        k->set_of = w->set_id;
    }
    if ((rc = pd_flow_results_file_delta(k->fns.data, k->fns.len, k->key, k->set,
                                         k->setlen, d)) < 0)
        return rc;
    *delta = k->delta = d[k->state];
    return 0;
}

/* Oldest first: each row's value, and which rows are points (the file's
 * changes, and the commits where the graph alone moves its value). */
static int db_fh_values(db_fh_walk *k, db_fh_row *rows, size_t n)
{
    int64_t analysis_id = 0, own = 0, last = 0, delta;
    int present = 0, rc;
    size_t i;

    for (i = n; i-- > 0;) {
        db_fh_row *w = &rows[i];

        if (w->changed) {
            present = w->has_value;
            analysis_id = w->analysis_id;
            own = w->own;
        }
        if (!present) {          /* before the file, or deleted */
            w->point = w->changed;
            continue;
        }
        w->value = own;
        if (analysis_id) {
            if ((rc = db_fh_delta(k, w, analysis_id, &delta)) < 0)
                return rc;
            w->value += delta;
        }
        w->point = w->changed || w->value != last;
        last = w->value;
    }
    return 0;
}

int db_file_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                    int64_t path_id, int64_t min_depth,
                    int (*fn)(void *arg, const db_file_point *p), void *arg,
                    int64_t *renamed_from, int64_t *next_depth)
{
    db_fh_walk k;
    db_hist_row *chain = NULL;
    db_fh_change *ch = NULL;
    db_fh_row *rows = NULL;
    db_file_point p;
    char path[4096];
    size_t nchain = 0, nch = 0, n = 0, i;
    int rc;

    *renamed_from = 0;
    *next_depth = 0;
    if (measure < 0 || measure >= PD_NMEASURES)
        return pd_error_set(PD_EINVAL, "no measure %d", measure);
    memset(&k, 0, sizeof(k));
    pd_buf_init(&k.fns, 0);
    if ((rc = db_fh_path(db, path_id, path, sizeof(path))) < 0 ||
        (rc = db_chain_read(db, commit_id, &chain, &nchain)) < 0 ||
        (rc = db_fh_read_changes(db, chain, nchain, pd_measures[measure].file_column,
                                 rules_hash, path_id, min_depth, &ch, &nch)) < 0)
        goto done;
    if ((k.state = db_fh_objstate(measure)) < 0) {
        rc = db_fh_changes(chain, ch, nch, path, fn, arg, renamed_from, next_depth);
        goto done;
    }
    k.db = db;
    k.rules_hash = rules_hash;
    k.key = pd_flow_path_key(path);
    if ((rc = db_fh_rows(db, rules_hash, chain, nchain, ch, nch, min_depth, &rows, &n,
                         renamed_from, next_depth)) < 0 ||
        (rc = db_fh_values(&k, rows, n)) < 0)
        goto done;
    memset(&p, 0, sizeof(p));
    p.path = path;
    for (i = 0; i < n && rc == 0; i++) {
        if (!rows[i].point)
            continue;
        db_fh_when(rows[i].c, &p.c);
        p.has_value = !rows[i].changed || rows[i].has_value;
        p.value = rows[i].value;
        p.call_graph = !rows[i].changed;
        rc = fn(arg, &p);
    }
done:
    free(rows);
    free(ch);
    free(chain);
    free(k.set);
    pd_buf_free(&k.fns);
    return rc;
}
