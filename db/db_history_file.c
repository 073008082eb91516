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

/* The first-parent chain from ?1 with each commit's depth (0 = ?1). */
#define DB_FH_CHAIN_CTE \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id) "

/* The commit and dates of a row whose columns from 0 are oid, author_time,
 * author_offset, committer_time, committer_offset. */
static void db_fh_when(sqlite3_stmt *st, db_commit_when *w)
{
    w->oid = (const char *)sqlite3_column_text(st, 0);
    w->author_time = sqlite3_column_int64(st, 1);
    w->author_offset = sqlite3_column_int(st, 2);
    w->committer_time = sqlite3_column_int64(st, 3);
    w->committer_offset = sqlite3_column_int(st, 4);
}

/* Prepare a walk's `sql` into *st with its parameters: ?1 the chain's
 * tip, ?2 the rules hash, ?3 the path, ?4 the first depth read. */
static int db_fh_prepare(sqlite3 *db, sqlite3_stmt **st, const char *sql, int64_t commit_id,
                         const char *rules_hash, int64_t path_id, int64_t min_depth)
{
    int rc = db_prepare(db, st, sql);

    if (rc < 0)
        return rc;
    sqlite3_bind_int64(*st, 1, commit_id);
    sqlite3_bind_text(*st, 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(*st, 3, path_id);
    sqlite3_bind_int64(*st, 4, min_depth);
    return 0;
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
static int db_fh_changes(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                         int64_t path_id, int64_t min_depth,
                         int (*fn)(void *arg, const db_file_point *p), void *arg,
                         int64_t *renamed_from, int64_t *next_depth)
{
    sqlite3_stmt *st = NULL;
    db_file_point p;
    char sql[1200];
    int rc;

    snprintf(sql, sizeof(sql), DB_FH_CHAIN_CTE
             "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, "
             "c.committer_offset, a.%s, ch.old_path_id, chain.depth, p.path, "
             "ch.blob_oid FROM chain JOIN changes ch ON ch.commit_id = chain.cid "
             "AND ch.path_id = ?3 JOIN commits c ON c.id = chain.cid "
             "JOIN paths p ON p.id = ch.path_id LEFT JOIN analyses a "
             "ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 "
             "WHERE chain.depth >= ?4 ORDER BY chain.depth",
             pd_measures[measure].file_column);
    if ((rc = db_fh_prepare(db, &st, sql, commit_id, rules_hash, path_id, min_depth)) < 0)
        return rc;
    memset(&p, 0, sizeof(p));
    while ((rc = db_step(st)) > 0) {
        db_fh_when(st, &p.c);
        p.path = (const char *)sqlite3_column_text(st, 8);
        p.has_value = sqlite3_column_type(st, 9) != SQLITE_NULL;
        p.value = sqlite3_column_int64(st, 5);
        if ((rc = fn(arg, &p)) != 0)
            break;
        if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
            *renamed_from = sqlite3_column_int64(st, 6);
            *next_depth = sqlite3_column_int64(st, 7) + 1;
            rc = 0;
            break;
        }
    }
    sqlite3_finalize(st);
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
    char oid[41];
    int64_t author_time, committer_time;
    int author_offset, committer_offset;
    int64_t commit_id, depth;
    int64_t analysis_id;         /* the change's analysis, 0: none */
    int64_t set_id;              /* the commit's stored set, 0: none */
    int64_t own;                 /* the change's own figure */
    int64_t value;               /* with the graph's delta */
    int changed;                 /* the file changed at this commit */
    int has_value;               /* 0: deleted here */
    int point;                   /* 1: a point of the answer */
} db_fh_row;

/* The rows of the chain from min_depth on, newest first, down to the change
 * that renamed another path into this one (*renamed_from, *next_depth). */
static int db_fh_rows(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                      int64_t path_id, int64_t min_depth, db_fh_row **rows, size_t *n,
                      int64_t *renamed_from, int64_t *next_depth)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0;
    char sql[1400];
    int rc;

    snprintf(sql, sizeof(sql), DB_FH_CHAIN_CTE
             "SELECT c.oid, c.author_time, c.author_offset, c.committer_time, "
             "c.committer_offset, a.%s, ch.old_path_id, chain.depth, "
             "ch.commit_id IS NOT NULL, ch.blob_oid IS NOT NULL, coalesce(a.id, 0), "
             "coalesce(fc.set_id, 0), chain.cid FROM chain "
             "JOIN commits c ON c.id = chain.cid "
             "LEFT JOIN changes ch ON ch.commit_id = chain.cid AND ch.path_id = ?3 "
             "LEFT JOIN analyses a ON a.blob_oid = ch.blob_oid AND a.rules_hash = ?2 "
             "LEFT JOIN flow_commits fc ON fc.commit_id = chain.cid AND fc.rules_hash = ?2 "
             "WHERE chain.depth >= ?4 ORDER BY chain.depth",
             pd_measures[measure].file_column);
    if ((rc = db_fh_prepare(db, &st, sql, commit_id, rules_hash, path_id, min_depth)) < 0)
        return rc;
    while ((rc = db_step(st)) > 0) {
        db_fh_row *w;

        if (*n == cap) {
            void *p = realloc(*rows, (cap = cap ? cap * 2 : 256) * sizeof(**rows));

            if (!p) {
                rc = pd_error_nomem(NULL);
                break;
            }
            *rows = p;
        }
        w = &(*rows)[(*n)++];
        memset(w, 0, sizeof(*w));
        snprintf(w->oid, sizeof(w->oid), "%s", (const char *)sqlite3_column_text(st, 0));
        w->author_time = sqlite3_column_int64(st, 1);
        w->author_offset = sqlite3_column_int(st, 2);
        w->committer_time = sqlite3_column_int64(st, 3);
        w->committer_offset = sqlite3_column_int(st, 4);
        w->own = sqlite3_column_int64(st, 5);
        w->depth = sqlite3_column_int64(st, 7);
        w->changed = sqlite3_column_int(st, 8);
        w->has_value = sqlite3_column_int(st, 9);
        w->analysis_id = sqlite3_column_int64(st, 10);
        w->set_id = sqlite3_column_int64(st, 11);
        w->commit_id = sqlite3_column_int64(st, 12);
        if (sqlite3_column_type(st, 6) != SQLITE_NULL) {
            *renamed_from = sqlite3_column_int64(st, 6);
            *next_depth = w->depth + 1;
            rc = 0;
            break;
        }
    }
    sqlite3_finalize(st);
    return rc;
}

/* The functions of analysis `id` as pd_flow_fns_encode makes them (flow_fns,
 * or made from the facts for an analysis stored before it) into *fns; an
 * analysis without flow facts has none (*fns "").  0, PD_EDB, PD_ENOMEM. */
static int db_fh_fns(sqlite3 *db, int64_t id, pd_buf *fns)
{
    sqlite3_stmt *st = NULL;
    char *text = NULL;
    int rc;

    fns->len = 0;
    if ((rc = db_prepare(db, &st, "SELECT flow_fns, CASE WHEN flow_fns IS NULL "
                         "THEN flow END, flow_len FROM analyses WHERE id = ?1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, id);
    if ((rc = db_step(st)) > 0) {
        rc = 0;
        if (sqlite3_column_type(st, 0) != SQLITE_NULL)
            pd_buf_put(fns, sqlite3_column_blob(st, 0), (size_t)sqlite3_column_bytes(st, 0));
        else if ((rc = db_column_decompress(st, 1, 1, &text)) == 0 && text)
            pd_flow_fns_encode(text, strlen(text), fns);
    }
    free(text);
    sqlite3_finalize(st);
    if (rc == 0 && fns->err)
        rc = pd_error_nomem(NULL);
    return rc;
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

        if ((rc = db_flow_get(k->db, w->commit_id, k->rules_hash, &f)) < 0)
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
    if (k->fns_of != analysis_id && (rc = db_fh_fns(k->db, analysis_id, &k->fns)) < 0)
        return rc;
    k->fns_of = analysis_id;
    if (k->set_of != w->set_id) {
        free(k->set);
        k->set = NULL;
        if ((rc = db_flow_set_read(k->db, w->commit_id, k->rules_hash, &k->set,
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
    db_fh_row *rows = NULL;
    db_file_point p;
    char path[4096];
    size_t n = 0, i;
    int rc;

    *renamed_from = 0;
    *next_depth = 0;
    if (measure < 0 || measure >= PD_NMEASURES)
        return pd_error_set(PD_EINVAL, "no measure %d", measure);
    memset(&k, 0, sizeof(k));
    if ((k.state = db_fh_objstate(measure)) < 0)
        return db_fh_changes(db, commit_id, rules_hash, measure, path_id, min_depth, fn,
                             arg, renamed_from, next_depth);
    if ((rc = db_fh_path(db, path_id, path, sizeof(path))) < 0)
        return rc;
    k.db = db;
    k.rules_hash = rules_hash;
    k.key = pd_flow_path_key(path);
    pd_buf_init(&k.fns, 0);
    if ((rc = db_fh_rows(db, commit_id, rules_hash, measure, path_id, min_depth, &rows, &n,
                         renamed_from, next_depth)) < 0 ||
        (rc = db_fh_values(&k, rows, n)) < 0)
        goto done;
    memset(&p, 0, sizeof(p));
    p.path = path;
    for (i = 0; i < n && rc == 0; i++) {
        if (!rows[i].point)
            continue;
        p.c.oid = rows[i].oid;
        p.c.author_time = rows[i].author_time;
        p.c.author_offset = rows[i].author_offset;
        p.c.committer_time = rows[i].committer_time;
        p.c.committer_offset = rows[i].committer_offset;
        p.has_value = !rows[i].changed || rows[i].has_value;
        p.value = rows[i].value;
        p.call_graph = !rows[i].changed;
        rc = fn(arg, &p);
    }
done:
    free(rows);
    free(k.set);
    pd_buf_free(&k.fns);
    return rc;
}
