/*
 * db_history.h: a ref's first-parent history read from the database: one
 * measure along the chain, one file's changes along it (following
 * renames, segment by segment), and the rewrites recorded for a ref.
 * Typed rows in, callbacks out; the SQL stays here.
 */
#ifndef DB_HISTORY_H
#define DB_HISTORY_H

#include <stdint.h>
#include <sqlite3.h>

/* A commit and its dates (unix seconds, offsets in minutes). */
typedef struct {
    const char *oid;
    int64_t author_time;
    int author_offset;
    int64_t committer_time;
    int committer_offset;
} db_commit_when;

/* One commit of a ref's history with the value of the measure. */
typedef struct {
    db_commit_when c;
    int64_t value;
    int64_t tok_hpy;         /* HPy tokens then (where the port starts) */
} db_hist_point;

/*
 * Call `fn` for every commit of the first-parent chain ending at
 * `commit_id`, oldest first, with measure `measure` (a pd_measures index)
 * of its summary under `rules_hash`.  Strings are valid during the call.  A
 * non-zero return from fn stops the walk and is returned; otherwise 0 or
 * PD_EDB (the walk is then incomplete: an error, not a shorter history).
 */
int db_ref_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                   int (*fn)(void *arg, const db_hist_point *p), void *arg);

/* One commit of a chain with the measure, as db_ref_rows gives it. */
typedef struct {
    int64_t id;              /* commit row id */
    char oid[41];
    unsigned char has;       /* 1 (db_ref_rows gives only commits with a summary) */
    int author_offset, committer_offset;
    int64_t author_time, committer_time;
    int64_t value, tok_hpy;
} db_hist_row;

/*
 * The commits db_ref_history calls back with, oldest first, as one array
 * into *rows (the caller frees it; NULL when there are none) and their
 * number into *n: for a caller that keeps them all anyway (the history
 * answer, issue 26.3), without copying each.  0, PD_EDB or PD_ENOMEM.
 */
int db_ref_rows(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                db_hist_row **rows, size_t *n);

/* db_ref_rows with the scan's slack given (db_ref_history_slack). */
int db_ref_rows_slack(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                      int64_t slack, db_hist_row **rows, size_t *n);

/*
 * db_ref_history with the scan's slack given (db_history_chain.c): the
 * chain is read by a scan of the rows below the tip while the rows it
 * skips stay under `slack` plus twice the commits found, then by look-ups;
 * slack < 0 reads by look-ups only.  The same calls whatever the slack:
 * for tests, which hold the two reads to each other.
 */
int db_ref_history_slack(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                         int64_t slack, int (*fn)(void *arg, const db_hist_point *p),
                         void *arg);

/*
 * The first-parent chain ending at `commit_id`, newest first (index = the
 * commit's depth), read by the scan db_ref_rows uses: each row's id, oid
 * and dates (has, value and tok_hpy 0), whether or not it has a summary.
 * Ids fall along the chain, so a commit's row can be found by a binary
 * search on id.  *rows is malloc'd for the caller to free (NULL when the
 * chain is empty).  0, PD_EDB or PD_ENOMEM.
 */
int db_chain_read(sqlite3 *db, int64_t commit_id, db_hist_row **rows, size_t *n);

/* One change of a file along the chain. */
typedef struct {
    db_commit_when c;
    const char *path;        /* the file's name at that change */
    int has_value;           /* 0: the file is deleted here */
    int64_t value;           /* the measure's per-file value */
    int call_graph;          /* 1: the file did not change here; its object
                              * paths did, through the call graph */
} db_file_point;

/*
 * Call `fn` for the changes of path `path_id` along the chain from
 * `commit_id`, newest first, from chain depth `min_depth` on; for an
 * object-path measure the value is the one the commit's call graph gives
 * (what the file table and the file page count), and the commits where
 * only the graph moved it are points too (call_graph).  Stops at
 * the change that renamed another path into this one: *renamed_from is
 * that path's id and *next_depth the depth after it (both 0 when the walk
 * is over).  0, fn's non-zero return, or PD_EDB.
 */
int db_file_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int measure,
                    int64_t path_id, int64_t min_depth,
                    int (*fn)(void *arg, const db_file_point *p), void *arg,
                    int64_t *renamed_from, int64_t *next_depth);

/* The row id of `path` into *id (0 when unknown).  0 or PD_EDB. */
int db_path_id(sqlite3 *db, const char *path, int64_t *id);

/* A recorded rewrite (rebase, force-push) of a ref. */
typedef struct {
    const char *ref;
    const char *old_commit;
    const char *new_commit;
    int64_t detected_at;     /* unix seconds */
    int64_t old_id, new_id;  /* commit row ids */
} db_rewrite;

/* Call `fn` for every rewrite of `ref` in repository `repo_id`, oldest
 * first.  0, fn's non-zero return, or PD_EDB. */
int db_rewrites(sqlite3 *db, int64_t repo_id, const char *ref,
                int (*fn)(void *arg, const db_rewrite *w), void *arg);

/*
 * Call `fn` for each pair (old, new) of commits that left and joined the
 * chain in a rewrite and are the same change: the same git patch id
 * (by = "patch-id"), or, when the rebase had to alter the patch, the same
 * author, author date and subject (by = "author-date-subject").
 * 0, fn's non-zero return, or PD_EDB.
 */
int db_rewrite_links(sqlite3 *db, int64_t old_id, int64_t new_id,
                     int (*fn)(void *arg, const char *old_oid, const char *new_oid,
                               const char *by), void *arg);

/*
 * Call `fn` for each file at commit `commit_id` whose analysis under
 * `rules_hash` found HPy types, in path order, with its path, path row id
 * and the analysis's hpy_types JSON text.  0, fn's non-zero return, PD_EDB.
 */
int db_commit_types(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    int (*fn)(void *arg, const char *path, int64_t path_id,
                              const char *types),
                    void *arg);

/* One change of a file along the chain, with its HPy types. */
typedef struct {
    const char *oid;         /* the commit */
    int64_t depth;           /* on the chain (0 = the tip) */
    int64_t path_id;
    const char *types;       /* hpy_types JSON; NULL: none (or deleted) */
} db_types_change;

/*
 * Call `fn` for every change of path `a` or `b` along the chain ending at
 * `commit_id`, oldest first (a commit that changes both gives two calls
 * with the same depth).  0, fn's non-zero return, PD_EDB.
 */
int db_types_history(sqlite3 *db, int64_t commit_id, const char *rules_hash, int64_t a,
                     int64_t b, int (*fn)(void *arg, const db_types_change *c), void *arg);

/* A commit's line in a report. */
typedef struct {
    const char *oid;
    const char *summary;
    const char *author_name;
    int64_t author_time;
    int author_offset;
} db_commit_brief;

/* Call `fn` once with commit `commit_id`.  0 (also when there is no such
 * commit: fn is not called), fn's non-zero return, or PD_EDB. */
int db_commit_brief_of(sqlite3 *db, int64_t commit_id,
                       int (*fn)(void *arg, const db_commit_brief *c), void *arg);

/*
 * Call `fn` with each author of the commits on `cur`'s first-parent chain
 * that are not on `prev`'s, and their number of such commits, most first
 * (then by name), at most `limit` authors.  0, fn's non-zero return, or
 * PD_EDB.
 */
int db_contributors(sqlite3 *db, int64_t cur, int64_t prev, int limit,
                    int (*fn)(void *arg, const char *author, int64_t commits), void *arg);

#endif
