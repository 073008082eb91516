/*
 * db_fork.c: a ref's fork base and its chain dated part by part (see
 * db_fork.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_fork.h"
#include "pd_domain.h"
#include "pd_error.h"

/* The first-parent chain from ?1 with each commit's depth (0 = ?1), going
 * on while `cond` holds of the commit reached (chain.cid). */
#define DB_FORK_CHAIN_WHILE(cond) \
    "WITH RECURSIVE chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE " cond " AND c.first_parent_id < c.id) "
#define DB_FORK_CHAIN DB_FORK_CHAIN_WHILE("1")

/* DB_FORK_CHAIN cut below the deepest fork base of repository ?2: its
 * depth along ?1's chain is the difference of their chain_pos depths when
 * it is on that chain at all; no base, no walk; a base or ?1 without a
 * chain_pos row, the whole chain. */
#define DB_FORK_CHAIN_TO \
    "WITH RECURSIVE bound(d) AS (SELECT CASE WHEN EXISTS (SELECT 1 FROM ref_forks f " \
    "LEFT JOIN chain_pos p ON p.commit_id = f.base_commit_id WHERE f.repo_id = ?2 " \
    "AND f.base_commit_id IS NOT NULL AND p.commit_id IS NULL) THEN NULL " \
    "WHEN NOT EXISTS (SELECT 1 FROM ref_forks f WHERE f.repo_id = ?2 AND " \
    "f.base_commit_id IS NOT NULL) THEN 0 ELSE " \
    "(SELECT depth FROM chain_pos WHERE commit_id = ?1) - (SELECT min(p.depth) " \
    "FROM ref_forks f JOIN chain_pos p ON p.commit_id = f.base_commit_id " \
    "WHERE f.repo_id = ?2) END), " \
    "chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id " \
    "AND chain.depth < coalesce((SELECT d FROM bound), 1 << 62)) "

const char *db_fork_basis_name(int basis)
{
    return basis == DB_FORK_UPSTREAM ? "upstream"
         : basis == DB_FORK_HPY_TOKEN ? "first-hpy-token" : "none";
}

int db_fork_put(sqlite3 *db, int64_t repo_id, const char *ref, const char *upstream,
                const char *base_oid, int64_t own, int64_t now)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "INSERT OR REPLACE INTO ref_forks (repo_id, ref, "
                         "upstream, base_commit_id, own_commits, computed_at) VALUES "
                         "(?1, ?2, ?3, (SELECT id FROM commits WHERE repo_id = ?1 AND "
                         "oid = ?4), ?5, ?6)")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 3, upstream, -1, SQLITE_STATIC);
    if (base_oid)
        sqlite3_bind_text(st, 4, base_oid, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, own);
    sqlite3_bind_int64(st, 6, now);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_fork_clear(sqlite3 *db, int64_t repo_id, const char *ref)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "DELETE FROM ref_forks WHERE repo_id = ?1 AND "
                         "ref = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
    rc = db_step(st);
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_fork_is_stop(const db_fork *f, int64_t id, const char *oid, const char **ref)
{
    int i;

    for (i = 0; i < f->nstops; i++)
        if (id ? f->stops[i].id == id : oid && strcmp(f->stops[i].oid, oid) == 0) {
            if (ref)
                *ref = f->stops[i].ref;
            return i + 1;
        }
    return 0;
}

/* A stored fork from the row (upstream, base oid, base id) `st` is on. */
static void db_fork_row(sqlite3_stmt *st, db_fork *out)
{
    out->basis = DB_FORK_UPSTREAM;
    snprintf(out->upstream, sizeof(out->upstream), "%s",
             (const char *)sqlite3_column_text(st, 0));
    if (sqlite3_column_type(st, 1) != SQLITE_NULL)
        snprintf(out->base_oid, sizeof(out->base_oid), "%s",
                 (const char *)sqlite3_column_text(st, 1));
    out->base_id = sqlite3_column_int64(st, 2);
}

int db_fork_stored(sqlite3 *db, int64_t repo_id, const char *ref, db_fork *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = db_prepare(db, &st, "SELECT f.upstream, c.oid, f.base_commit_id FROM ref_forks f "
                         "LEFT JOIN commits c ON c.id = f.base_commit_id "
                         "WHERE f.repo_id = ?1 AND f.ref = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_text(st, 2, ref, -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        db_fork_row(st, out);
    sqlite3_finalize(st);
    return rc < 0 ? rc : rc == 0 ? pd_error_set(PD_ENOTFOUND, "no fork stored for '%s'", ref)
                                 : 0;
}

int db_fork_own_count(sqlite3 *db, int64_t tip_id, int64_t base_id, int64_t *own)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, DB_FORK_CHAIN_WHILE("chain.cid != ?2")
                         "SELECT depth FROM chain WHERE cid = ?2")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, tip_id);
    sqlite3_bind_int64(st, 2, base_id);
    if ((rc = db_step(st)) > 0)
        *own = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return rc < 0 ? rc : rc == 0 ? pd_error_set(PD_ENOTFOUND, "the fork base is not on the "
                                                "chain") : 0;
}

/* The tips of the repository's other refs (not `commit_id`). */
static int db_fork_stops(sqlite3 *db, int64_t repo_id, int64_t commit_id, db_fork *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT r.name, c.oid, c.id FROM refs r JOIN commits c "
                         "ON c.id = r.commit_id WHERE r.repo_id = ?1 AND r.commit_id != ?2 "
                         "ORDER BY r.name LIMIT ?3")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, repo_id);
    sqlite3_bind_int64(st, 2, commit_id);
    sqlite3_bind_int(st, 3, DB_FORK_MAX_STOPS);
    while ((rc = db_step(st)) > 0 && out->nstops < DB_FORK_MAX_STOPS) {
        db_fork_stop *s = &out->stops[out->nstops++];

        snprintf(s->ref, sizeof(s->ref), "%s", (const char *)sqlite3_column_text(st, 0));
        snprintf(s->oid, sizeof(s->oid), "%s", (const char *)sqlite3_column_text(st, 1));
        s->id = sqlite3_column_int64(st, 2);
    }
    sqlite3_finalize(st);
    return rc < 0 ? rc : 0;
}

int db_fork_find(sqlite3 *db, int64_t repo_id, const char *ref, int64_t commit_id,
                 db_fork *out)
{
    sqlite3_stmt *st = NULL;
    int rc;

    memset(out, 0, sizeof(*out));
    out->basis = DB_FORK_HPY_TOKEN;
    /* The ref's own record first (a NULL base: its whole chain is its
     * own), then any record whose base is on this chain, nearest the tip
     * first: a commit id or another name of the same branch finds it. */
    /* The chain is walked only as deep as the deepest base (chain_pos,
     * migration 017): a commit at depth 15,000 and bases at 14,889 read
     * 111 commits, not 15,000 (issue 26.3: a fifth of a cold history).
     * Without the depths (rows not filled) the whole chain, as before. */
    if ((rc = db_prepare(db, &st, DB_FORK_CHAIN_TO
        "SELECT f.upstream, c.oid, f.base_commit_id FROM ref_forks f "
        "LEFT JOIN commits c ON c.id = f.base_commit_id "
        "LEFT JOIN chain ON chain.cid = f.base_commit_id "
        "WHERE f.repo_id = ?2 AND ((f.ref = ?3 AND f.base_commit_id IS NULL) "
        "OR chain.cid IS NOT NULL) "
        "ORDER BY (f.ref = ?3) DESC, chain.depth LIMIT 1")) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, commit_id);
    sqlite3_bind_int64(st, 2, repo_id);
    sqlite3_bind_text(st, 3, ref ? ref : "", -1, SQLITE_STATIC);
    if ((rc = db_step(st)) > 0)
        db_fork_row(st, out);
    sqlite3_finalize(st);
    return rc < 0 ? rc : db_fork_stops(db, repo_id, commit_id, out);
}

void db_port_chain_free(db_port_chain *c)
{
    if (!c)
        return;
    free(c->id);
    free(c->t);
    free(c->eff);
    free(c->value);
    memset(c, 0, sizeof(*c));
}

/* Room for one more commit. */
static int db_port_chain_grow(db_port_chain *c, size_t *cap)
{
    int64_t **arr[4] = {&c->id, &c->t, &c->eff, &c->value};
    size_t want = *cap ? *cap * 2 : 1024;
    int i;

    if (c->n < *cap)
        return 0;
    for (i = 0; i < 4; i++) {
        int64_t *p = realloc(*arr[i], want * sizeof(int64_t));

        if (!p)
            return pd_error_nomem(NULL);
        *arr[i] = p;
    }
    *cap = want;
    return 0;
}

/* The SELECT of the chain's rows: id, date, tok_hpy, value. */
static int db_port_chain_sql(char *sql, size_t n, int by_author, const int *measures, int nm)
{
    char value[512] = "0";
    size_t off = 1;
    int i;

    for (i = 0; i < nm; i++) {
        if (measures[i] < 0 || measures[i] >= PD_NMEASURES)
            return pd_error_set(PD_EINVAL, "no measure %d", measures[i]);
        /* Column names come from the fixed measures table, never from input. */
        off += (size_t)snprintf(value + off, sizeof(value) - off, " + s.%s",
                                pd_measures[measures[i]].column);
        if (off >= sizeof(value))
            return pd_error_set(PD_EINVAL, "too many measures");
    }
    snprintf(sql, n, DB_FORK_CHAIN "SELECT c.id, c.%s, s.tok_hpy, %s FROM chain "
             "JOIN commits c ON c.id = chain.cid JOIN commit_stats s ON "
             "s.commit_id = c.id AND s.rules_hash = ?2 ORDER BY chain.depth DESC",
             by_author ? "author_time" : "committer_time", value);
    return 0;
}

/* Effective dates, part by part: the latest so far within each. */
static void db_port_chain_dates(db_port_chain *c)
{
    int64_t max = 0;
    size_t i;

    for (i = 0; i < c->n; i++) {
        int restart = i == 0 || i == c->first_own ||
                      (i > c->first_own && db_fork_is_stop(&c->fork, c->id[i - 1], NULL, NULL));

        if (restart || c->t[i] > max)
            max = c->t[i];
        c->eff[i] = max;
    }
}

int db_port_chain_load(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip,
                       const char *rules_hash, int by_author, const int *measures,
                       int nm, db_port_chain *c)
{
    sqlite3_stmt *st = NULL;
    size_t cap = 0, hpy = (size_t)-1;
    char sql[1400];
    int rc;

    memset(c, 0, sizeof(*c));
    if ((rc = db_port_chain_sql(sql, sizeof(sql), by_author, measures, nm)) < 0 ||
        (rc = db_fork_find(db, repo_id, ref, tip, &c->fork)) < 0 ||
        (rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, tip);
    sqlite3_bind_text(st, 2, rules_hash, -1, SQLITE_STATIC);
    c->first_own = (size_t)-1;
    if (c->fork.basis == DB_FORK_UPSTREAM && !c->fork.base_id)
        c->first_own = 0;
    while ((rc = db_step(st)) > 0) {
        if ((rc = db_port_chain_grow(c, &cap)) < 0)
            break;
        c->id[c->n] = sqlite3_column_int64(st, 0);
        c->t[c->n] = sqlite3_column_int64(st, 1);
        c->value[c->n] = sqlite3_column_int64(st, 3);
        if (hpy == (size_t)-1 && sqlite3_column_int64(st, 2) > 0)
            hpy = c->n;
        c->n++;
        /* The commit after the base is the first of the port's own. */
        if (c->fork.base_id && c->id[c->n - 1] == c->fork.base_id)
            c->first_own = c->n;
    }
    sqlite3_finalize(st);
    if (rc < 0) {
        db_port_chain_free(c);
        return rc;
    }
    if (c->fork.basis == DB_FORK_HPY_TOKEN)
        c->first_own = hpy;
    if (c->first_own == (size_t)-1) {
        c->first_own = c->n;
        if (c->fork.basis == DB_FORK_HPY_TOKEN)
            c->fork.basis = DB_FORK_NONE;
    }
    db_port_chain_dates(c);
    return 0;
}

int64_t db_port_chain_at(const db_port_chain *c, int64_t before)
{
    size_t i, best = (size_t)-1;

    /* Effective dates rise within each part: the last own commit before
     * `before` wins (it is newer on the branch). */
    for (i = c->first_own; i < c->n; i++)
        if (c->eff[i] < before)
            best = i;
    if (best != (size_t)-1)
        return c->id[best];
    /* Before the port's first own commit the port is its fork base, the
     * commit its own commits sit on, however new: the upstream commit of
     * that week would make the week the port starts list all upstream work
     * between the two as regressions (numpy-hpy's `hpy` was rebased from
     * 2020 numpy onto 2022 numpy: 14 months). */
    if (c->first_own < c->n && c->first_own > 0)
        return c->id[c->first_own - 1];
    /* No port on this chain: the upstream's own history. */
    for (i = 0; i < c->n; i++)
        if (c->eff[i] < before)
            best = i;
    return best == (size_t)-1 ? 0 : c->id[best];
}
