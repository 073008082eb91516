/*
 * db_tree.h: stored file lists along first-parent chains (migration 017,
 * issue 26.3): the checkpoints that keep a cold file list, file page and
 * call graph from walking a commit's whole history.
 */
#ifndef DB_TREE_H
#define DB_TREE_H

#include <sqlite3.h>

/*
 * Every DB_TREE_EVERY-th commit of a first-parent chain (depth 128, 256,
 * ...) keeps its whole file list.  On numpy-hpy's numpy/core (15,000
 * commits, up to 250 files) that is 105 checkpoints, 12,993 rows, 0.95 MB
 * of a 302 MB database, and a file list reads at most 127 commits' changes
 * plus one checkpoint: under a millisecond where the whole chain took 15 to
 * 35 ms (doc/benchmarks.md, "Cold answers").
 */
#define DB_TREE_EVERY 128

/*
 * The common table expressions that give `latest(path_id, blob_oid)`: the
 * newest change of each path at commit ?1 (a NULL blob: deleted), read
 * from the nearest checkpoint of its chain and the changes after it, or
 * from the whole chain when the commit has none.  The same rows as the
 * walk of 001_init.sql.  Starts with WITH RECURSIVE; add ", name AS (...)"
 * or the SELECT after it.  Also defines base(id) (the checkpoint, 0: none)
 * and chain(cid, depth) (the commits read, depth 0 = ?1).
 */
#define DB_TREE_LATEST_CTE \
    "WITH RECURSIVE base(id) AS (SELECT coalesce((SELECT base_id FROM chain_pos " \
    "WHERE commit_id = ?1), 0)), " \
    "chain(cid, depth) AS (SELECT ?1, 0 UNION ALL " \
    "SELECT c.first_parent_id, chain.depth + 1 FROM commits c " \
    "JOIN chain ON c.id = chain.cid WHERE c.first_parent_id < c.id " \
    "AND chain.cid != (SELECT id FROM base)), " \
    "latest(path_id, blob_oid, d) AS (SELECT path_id, blob_oid, min(d) FROM (" \
    "SELECT ch.path_id, ch.blob_oid, chain.depth AS d FROM chain " \
    "JOIN changes ch ON ch.commit_id = chain.cid " \
    "WHERE chain.cid != (SELECT id FROM base) UNION ALL " \
    "SELECT t.path_id, t.blob_oid, 1 << 62 FROM tree_files t " \
    "WHERE t.commit_id = (SELECT id FROM base)) GROUP BY path_id) "

/*
 * Fill chain_pos (and tree_files at each checkpoint) for every commit
 * stored after the newest one that has a row, oldest first, so a commit's
 * first parent always has its row before it.  Called by the ingest before
 * each of its transactions commits and by migration 017 for the commits
 * stored before it; a commit whose parent lacks a row (not expected) gets
 * no checkpoint and reads by the full walk, still right.  Runs inside the
 * caller's transaction.  0 or PD_EDB.
 */
int db_tree_fill(sqlite3 *db);

/* db_tree_fill with checkpoints every `every` (>= 1) commits instead of
 * DB_TREE_EVERY: for tests, whose chains are short.  Readers follow the
 * stored rows, whatever spacing wrote them. */
int db_tree_fill_every(sqlite3 *db, int every);

/*
 * Drop every position and checkpoint and fill them again (db_tree_fill),
 * for a run that added changes to commits stored before (ingest_kinds.h):
 * a checkpoint written then lacks them.  In the caller's transaction.
 * 0 or PD_EDB.
 */
int db_tree_refill(sqlite3 *db);

#endif
