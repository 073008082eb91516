/*
 * db_fork.h: where a ref's own commits begin, and its chain dated the way
 * the trend, the backfill and the forecast all date it (issue 23.1-3).
 *
 * The port's own commits of a ref are the commits of its first-parent
 * chain that its upstream cannot reach (git's `upstream..ref`,
 * first-parent): a tail of the chain, marked by its fork base, the newest
 * chain commit the upstream reaches (stored at ingest, table ref_forks).
 * Without a stored upstream the port starts at the first commit with an
 * HPy token (the commit before it is the base).  doc/history.md says why.
 *
 * Dates: along each part of the chain (upstream history, then the port's
 * own commits, split again after the tip of another ingested ref, as
 * hpy-convert-object-dtype is stacked on hpy) a commit's effective date is
 * the latest date so far within that part, so the port's commits keep
 * their author dates in branch order however new the commit they were
 * rebased onto.
 */
#ifndef DB_FORK_H
#define DB_FORK_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* How the start of the port's own commits was found. */
enum {
    DB_FORK_NONE = 0,        /* no upstream known and no HPy token: no port */
    DB_FORK_UPSTREAM = 1,    /* from the upstream stored at ingest */
    DB_FORK_HPY_TOKEN = 2    /* from the first commit with an HPy token */
};

/* The basis name of a DB_FORK_* value: "none", "upstream", "first-hpy-token". */
const char *db_fork_basis_name(int basis);

/*
 * Record the fork of `ref` (replacing an older record): `upstream` as
 * given or found, `base_oid` the newest first-parent commit of the ref
 * that upstream reaches (NULL: none; the whole chain is the ref's own),
 * `own` the chain's commits after it.  A base not stored as a commit of
 * the repository is recorded as NULL.  0 or PD_EDB.
 */
int db_fork_put(sqlite3 *db, int64_t repo_id, const char *ref, const char *upstream,
                const char *base_oid, int64_t own, int64_t now);

/* Forget the fork of `ref` (no upstream found any more).  0 or PD_EDB. */
int db_fork_clear(sqlite3 *db, int64_t repo_id, const char *ref);

/* The tip of another ref of the repository: where a branch stacked on it
 * (hpy-convert-object-dtype on hpy) starts its own part of the port. */
typedef struct {
    char ref[128];
    char oid[41];
    int64_t id;
} db_fork_stop;

#define DB_FORK_MAX_STOPS 16

/* A fork as the history of one chain uses it. */
typedef struct {
    int basis;               /* DB_FORK_UPSTREAM or DB_FORK_HPY_TOKEN (or NONE:
                                decided along the chain, see db_fork_find) */
    char upstream[256];      /* the upstream ref, "" unless basis UPSTREAM */
    char base_oid[41];       /* "" when the whole chain is the ref's own */
    int64_t base_id;         /* 0 likewise */
    /* The tips of the repository's other refs (at most DB_FORK_MAX_STOPS,
     * by name): one of them on the chain, among the port's own commits,
     * ends a part; the commits after it are dated among themselves. */
    db_fork_stop stops[DB_FORK_MAX_STOPS];
    int nstops;
} db_fork;

/*
 * The fork db_fork_put stored for `ref` itself, as it was stored: basis
 * DB_FORK_UPSTREAM, its upstream, its base (oid and row id; "" and 0 when
 * the whole chain is the ref's own), no stops.  An ingest from a git
 * directory without that upstream starts from it (ingest_fork.h).  0,
 * PD_ENOTFOUND when none is stored, PD_EDB.
 */
int db_fork_stored(sqlite3 *db, int64_t repo_id, const char *ref, db_fork *out);

/*
 * The commits of the first-parent chain from row `tip_id` down to row
 * `base_id`, the base left out (0 when they are the same), into *own, as
 * stored (commits.first_parent_id): what a kept fork's count becomes after
 * a push (ingest_fork.h).  0, PD_ENOTFOUND when base_id is not on the
 * chain, PD_EDB.
 */
int db_fork_own_count(sqlite3 *db, int64_t tip_id, int64_t base_id, int64_t *own);

/* The index + 1 of the stop that row id `id` (or, when id is 0, commit
 * `oid`) is, 0 when none; *ref (may be NULL) gets its ref name. */
int db_fork_is_stop(const db_fork *f, int64_t id, const char *oid, const char **ref);

/*
 * The fork of the chain ending at `commit_id`: the stored fork of `ref`
 * when its base is on that chain (or it has none), else the stored fork of
 * another ref of the repository whose base is on the chain (the nearest
 * to the tip), else basis DB_FORK_HPY_TOKEN: the caller then takes the
 * first commit with an HPy token as the first own commit.  0 or PD_EDB.
 */
int db_fork_find(sqlite3 *db, int64_t repo_id, const char *ref, int64_t commit_id,
                 db_fork *out);

/* A chain with its fork, oldest first. */
typedef struct {
    size_t n;
    int64_t *id;             /* commit row ids */
    int64_t *t;              /* the date asked for (author or committer) */
    int64_t *eff;            /* effective date (see the head of this file) */
    int64_t *value;          /* the sum of the measures asked for */
    size_t first_own;        /* index of the first own commit; n: none */
    db_fork fork;            /* basis NONE when there is no port at all */
} db_port_chain;

/*
 * Load the first-parent chain ending at `tip` with a summary under
 * `rules_hash` (commits without one are left out), dated by author
 * (by_author) or committer date, with value = the sum of measures
 * `measures[0..nm)` (pd_measures indexes; nm may be 0).  `ref` names the
 * ref for db_fork_find.  *out is zeroed first; free with
 * db_port_chain_free.  0, PD_EINVAL (a bad measure), PD_ENOMEM or PD_EDB.
 */
int db_port_chain_load(sqlite3 *db, int64_t repo_id, const char *ref, int64_t tip,
                       const char *rules_hash, int by_author, const int *measures,
                       int nm, db_port_chain *out);

void db_port_chain_free(db_port_chain *c);

/*
 * The commit a backfilled week ending at `before` (unix seconds) shows:
 * the newest own commit of the chain whose effective date is before it,
 * the trend's point for that week; before the port's first own commit,
 * the fork base (the port's starting point, the trend's `port.base`); on a
 * chain without a port, the newest commit dated before it.  Row id, or 0
 * when there is none (a chain that is all the port's, before its first).
 */
int64_t db_port_chain_at(const db_port_chain *c, int64_t before);

#endif
