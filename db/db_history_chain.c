/*
 * db_history_chain.c: one measure along a ref's first-parent chain
 * (db_ref_history, db_history.h), read by scanning instead of walking.
 *
 * Why not a recursive walk: a chain of numpy-hpy is 15,000 commits, and a
 * WITH RECURSIVE walk joined to the commit rows and the summaries costs
 * three B-tree searches and a sort per commit (30 to 40 ms of CPU, most of
 * a cold 1,000-point history; issue 26.3).  A chain's ids fall as it goes
 * back (the walk follows a first parent only to an older row), so one
 * descending scan of the commit rows below the tip meets the chain in
 * order: each row is either the next commit of the chain or one to skip
 * (another branch's, another repository's).  The summaries are read the
 * same way and merged.  Where the rows to skip outnumber the chain (a
 * short chain among many other commits) the rest of the chain is read
 * row by row instead, so the cost stays within a constant of the walk's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_history.h"
#include "pd_domain.h"
#include "pd_error.h"

/* Rows skipped before the scan gives way to look-ups: this many plus
 * twice the commits found so far. */
#define DB_CHAIN_SLACK 4096

/* The chain read so far, newest first. */
typedef struct {
    db_hist_row *rows;
    size_t n, cap;
} db_chain;

/* The reads: a scan down from ?1 and a look-up of ?1, each for the
 * commit rows and for the summaries. */
enum { C_SCAN, C_ONE, S_SCAN, S_ONE, C_COUNT };

/* Columns of the commit reads: id, first_parent_id, oid and dates. */
#define DB_CHAIN_COMMIT_COLS \
    "SELECT id, first_parent_id, oid, author_time, author_offset, committer_time, " \
    "committer_offset FROM commits "

/* Room for one more row; PD_ENOMEM when there is none. */
static int db_chain_grow(db_chain *c)
{
    size_t cap = c->cap ? c->cap * 2 : 1024;
    db_hist_row *rows;

    if (c->n < c->cap)
        return 0;
    if (!(rows = realloc(c->rows, cap * sizeof(*rows))))
        return pd_error_nomem("reading a first-parent chain");
    c->rows = rows;
    c->cap = cap;
    return 0;
}

/* Keep the commit of the current row of `st` (DB_CHAIN_COMMIT_COLS) and
 * give the id of the next one along the chain into *next (0: none, the
 * walk's rule: a first parent is followed only to an older row). */
static int db_chain_keep(db_chain *c, sqlite3_stmt *st, int64_t *next)
{
    db_hist_row *r;
    const char *oid;
    int64_t id = sqlite3_column_int64(st, 0), fp = sqlite3_column_int64(st, 1);
    int rc;

    if ((rc = db_chain_grow(c)) < 0)
        return rc;
    r = &c->rows[c->n++];
    memset(r, 0, sizeof(*r));
    r->id = id;
    /* memcpy, not snprintf: this runs for each of 15,000 commits. */
    if ((oid = (const char *)sqlite3_column_text(st, 2)))
        memcpy(r->oid, oid, strnlen(oid, sizeof(r->oid) - 1));
    r->author_time = sqlite3_column_int64(st, 3);
    r->author_offset = sqlite3_column_int(st, 4);
    r->committer_time = sqlite3_column_int64(st, 5);
    r->committer_offset = sqlite3_column_int(st, 6);
    *next = sqlite3_column_type(st, 1) != SQLITE_NULL && fp < id ? fp : 0;
    return 0;
}

/* The commits of the chain from `tip`, newest first: scanned down while
 * the skipped rows stay within the slack (< 0: none), then looked up. */
static int db_chain_commits(sqlite3_stmt **st, int64_t tip, int64_t slack, db_chain *c)
{
    int64_t want = tip, skipped = 0, id;
    int rc = 0;

    sqlite3_bind_int64(st[C_SCAN], 1, tip);
    while (slack >= 0 && want > 0 && (rc = db_step(st[C_SCAN])) > 0) {
        if ((id = sqlite3_column_int64(st[C_SCAN], 0)) > want) {
            if (++skipped > slack + 2 * (int64_t)c->n)
                break;
            continue;
        }
        if (id < want)       /* no row for the commit: the chain ends there */
            return 0;
        if ((rc = db_chain_keep(c, st[C_SCAN], &want)) < 0)
            return rc;
    }
    if (rc < 0)
        return rc;
    if (slack >= 0 && rc == 0)  /* scanned to the end: no row for `want` */
        return 0;
    while (want > 0) {
        sqlite3_reset(st[C_ONE]);
        sqlite3_bind_int64(st[C_ONE], 1, want);
        if ((rc = db_step(st[C_ONE])) <= 0)
            return rc;
        if ((rc = db_chain_keep(c, st[C_ONE], &want)) < 0)
            return rc;
    }
    return 0;
}

/* Attach the summaries under the rules hash (bound as ?2 of both reads)
 * to the chain's commits, the same way: scanned down, then looked up. */
static int db_chain_stats(sqlite3_stmt **st, int64_t slack, db_chain *c)
{
    int64_t skipped = 0, id = 0;
    size_t i = 0;
    int rc = 1;

    if (c->n == 0)
        return 0;
    sqlite3_bind_int64(st[S_SCAN], 1, c->rows[0].id);
    sqlite3_bind_int64(st[S_SCAN], 3, c->rows[c->n - 1].id);
    /* Each summary of the scan is a chain commit's or one to skip; a
     * chain commit the scan passed without meeting has none. */
    if (slack >= 0)
        rc = db_step(st[S_SCAN]);
    while (slack >= 0 && i < c->n && rc > 0) {
        if ((id = sqlite3_column_int64(st[S_SCAN], 0)) > c->rows[i].id) {
            if (++skipped > slack + 2 * (int64_t)i)
                break;
            rc = db_step(st[S_SCAN]);
            continue;
        }
        if (id == c->rows[i].id) {
            c->rows[i].has = 1;
            c->rows[i].value = sqlite3_column_int64(st[S_SCAN], 1);
            c->rows[i].tok_hpy = sqlite3_column_int64(st[S_SCAN], 2);
            rc = db_step(st[S_SCAN]);
        }
        i++;
    }
    if (rc < 0)
        return rc;
    if (slack >= 0 && rc == 0)
        return 0;            /* no summary below: the rest have none */
    for (; i < c->n; i++) {
        sqlite3_reset(st[S_ONE]);
        sqlite3_bind_int64(st[S_ONE], 1, c->rows[i].id);
        if ((rc = db_step(st[S_ONE])) < 0)
            return rc;
        if (rc > 0) {
            c->rows[i].has = 1;
            c->rows[i].value = sqlite3_column_int64(st[S_ONE], 1);
            c->rows[i].tok_hpy = sqlite3_column_int64(st[S_ONE], 2);
        }
    }
    return 0;
}

/* Prepare the four reads for measure column `col`. */
static int db_chain_prepare(sqlite3 *db, sqlite3_stmt **st, const char *col,
                            const char *rules_hash)
{
    char sql[2][320];
    int rc;

    /* The column name comes from the fixed measures table, never from input. */
    snprintf(sql[0], sizeof(sql[0]), "SELECT commit_id, %s, tok_hpy FROM commit_stats "
             "WHERE commit_id <= ?1 AND commit_id >= ?3 AND rules_hash = ?2 "
             "ORDER BY commit_id DESC", col);
    snprintf(sql[1], sizeof(sql[1]), "SELECT commit_id, %s, tok_hpy FROM commit_stats "
             "WHERE commit_id = ?1 AND rules_hash = ?2", col);
    if ((rc = db_prepare(db, &st[C_SCAN], DB_CHAIN_COMMIT_COLS
                         "WHERE id <= ?1 ORDER BY id DESC")) < 0 ||
        (rc = db_prepare(db, &st[C_ONE], DB_CHAIN_COMMIT_COLS "WHERE id = ?1")) < 0 ||
        (rc = db_prepare(db, &st[S_SCAN], sql[0])) < 0 ||
        (rc = db_prepare(db, &st[S_ONE], sql[1])) < 0)
        return rc;
    sqlite3_bind_text(st[S_SCAN], 2, rules_hash, -1, SQLITE_STATIC);
    sqlite3_bind_text(st[S_ONE], 2, rules_hash, -1, SQLITE_STATIC);
    return 0;
}

int db_ref_rows_slack(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                      int64_t slack, db_hist_row **rows, size_t *nrows)
{
    sqlite3_stmt *st[C_COUNT] = {NULL};
    db_chain c = {NULL, 0, 0};
    db_hist_row *out;
    size_t i, n = 0;
    int k, rc;

    *rows = NULL;
    *nrows = 0;
    if (measure < 0 || measure >= PD_NMEASURES)
        return pd_error_set(PD_EINVAL, "no measure %d", measure);
    if ((rc = db_chain_prepare(db, st, pd_measures[measure].column, rules_hash)) == 0 &&
        (rc = db_chain_commits(st, commit_id, slack, &c)) == 0)
        rc = db_chain_stats(st, slack, &c);
    for (k = 0; k < C_COUNT; k++)
        sqlite3_finalize(st[k]);
    if (rc < 0 || c.n == 0) {
        free(c.rows);
        return rc < 0 ? rc : 0;
    }
    /* Oldest first: reversed, then the commits without a summary left out
     * (as the join of the walk left them out), both in place. */
    for (i = 0; i < c.n / 2; i++) {
        db_hist_row t = c.rows[i];

        c.rows[i] = c.rows[c.n - 1 - i];
        c.rows[c.n - 1 - i] = t;
    }
    out = c.rows;
    for (i = 0; i < c.n; i++)
        if (out[i].has)
            out[n++] = out[i];
    *rows = out;
    *nrows = n;
    return 0;
}

int db_ref_history_slack(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                         int64_t slack, int (*fn)(void *arg, const db_hist_point *p),
                         void *arg)
{
    db_hist_row *rows;
    db_hist_point p;
    size_t n, i;
    int rc;

    if ((rc = db_ref_rows_slack(db, commit_id, rules_hash, measure, slack, &rows, &n)) < 0)
        return rc;
    for (i = 0; i < n && rc == 0; i++) {
        p.c.oid = rows[i].oid;
        p.c.author_time = rows[i].author_time;
        p.c.author_offset = rows[i].author_offset;
        p.c.committer_time = rows[i].committer_time;
        p.c.committer_offset = rows[i].committer_offset;
        p.value = rows[i].value;
        p.tok_hpy = rows[i].tok_hpy;
        rc = fn(arg, &p);
    }
    free(rows);
    return rc;
}

int db_chain_read(sqlite3 *db, int64_t commit_id, db_hist_row **rows, size_t *n)
{
    sqlite3_stmt *st[C_COUNT] = {NULL};
    db_chain c = {NULL, 0, 0};
    int k, rc;

    *rows = NULL;
    *n = 0;
    if ((rc = db_prepare(db, &st[C_SCAN], DB_CHAIN_COMMIT_COLS
                         "WHERE id <= ?1 ORDER BY id DESC")) == 0 &&
        (rc = db_prepare(db, &st[C_ONE], DB_CHAIN_COMMIT_COLS "WHERE id = ?1")) == 0)
        rc = db_chain_commits(st, commit_id, DB_CHAIN_SLACK, &c);
    for (k = 0; k < C_COUNT; k++)
        sqlite3_finalize(st[k]);
    if (rc < 0) {
        free(c.rows);
        return rc;
    }
    *rows = c.rows;
    *n = c.n;
    return 0;
}

int db_ref_rows(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                db_hist_row **rows, size_t *n)
{
    return db_ref_rows_slack(db, commit_id, rules_hash, measure, DB_CHAIN_SLACK, rows, n);
}

int db_ref_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                   int (*fn)(void *arg, const db_hist_point *p), void *arg)
{
    return db_ref_history_slack(db, commit_id, rules_hash, measure, DB_CHAIN_SLACK, fn, arg);
}
