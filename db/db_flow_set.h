/*
 * db_flow_set.h: the call graph's results stored per commit (migration
 * 018, issue 26.3): each commit names a set (pd_flow_results_encode), each
 * distinct set is stored once.  The ingest writes a row per commit it
 * summarises (ingest/ingest_flow.c); db_flow_get reads them (db_flow.c).
 */
#ifndef DB_FLOW_SET_H
#define DB_FLOW_SET_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "pd_buf.h"

typedef struct db_flow_sets db_flow_sets;

/* Prepared statements on db (borrowed).  0, PD_EDB, PD_ENOMEM. */
int db_flow_sets_open(sqlite3 *db, db_flow_sets **out);

/* Finalize; accepts NULL. */
void db_flow_sets_close(db_flow_sets *w);

/* *id = the row of set text[0..len): the existing one with the same
 * SHA-1, else a new one.  0, PD_EDB, PD_ENOMEM. */
int db_flow_sets_put(db_flow_sets *w, const char *text, size_t len, int64_t *id);

/* Commit `commit_id` under `rules_hash` has set `set_id` (replacing a row
 * it had).  0 or PD_EDB. */
int db_flow_sets_commit(db_flow_sets *w, int64_t commit_id, const char *rules_hash,
                        int64_t set_id);

/* *set_id = the set of a commit, 0 when it has no row.  0 or PD_EDB. */
int db_flow_sets_of(db_flow_sets *w, int64_t commit_id, const char *rules_hash,
                    int64_t *set_id);

/*
 * The set text of a commit into *text (free(), NUL-terminated, *len bytes;
 * "" for an empty set).  0, PD_ENOTFOUND (no row: the caller builds the
 * graph from the facts), PD_EDB (also damaged bytes), PD_ENOMEM.
 */
int db_flow_set_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, char **text,
                     size_t *len);

/*
 * The functions of analysis `id` as pd_flow_fns_encode() makes them (its
 * flow_fns, or made from its facts for an analysis stored before them)
 * into *fns, which is emptied first; an analysis without flow facts has
 * none (fns->len 0): the file input of pd_flow_results_file_delta and
 * pd_flow_results_file_states.  0, PD_EDB, PD_ENOMEM.
 */
int db_flow_fns_read(sqlite3 *db, int64_t id, pd_buf *fns);

/* The same from the current row of a statement of the caller's that
 * selected DB_FLOW_FNS_COLS from column `col` on. */
#define DB_FLOW_FNS_COLS "flow_fns, CASE WHEN flow_fns IS NULL THEN flow END"
int db_flow_fns_row(sqlite3_stmt *st, int col, pd_buf *fns);

/*
 * Migration 018's backfill, inside the caller's transaction: flow_fns of
 * every analysis with flow facts, then a set for every commit with a
 * summary (commit_stats) and no row, each rules hash apart, by replaying
 * first-parent chains in row order the way the ingest does (a graph kept
 * file by file, resolved when a file's facts change).  On numpy-hpy's
 * numpy/core (15,000 commits, 8,300 analyses): see doc/benchmarks.md.
 * 0, PD_EDB, PD_ENOMEM.
 */
int db_flow_fill(sqlite3 *db);

#endif
