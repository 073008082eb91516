/*
 * db_flow_graph.h: the call graph of each stored ref's commit, packed
 * (migration 022, pd_flow_pack): a push whose flow facts change starts
 * from its base's graph without reading every file's facts
 * (ingest/ingest_flow.c).
 */
#ifndef DB_FLOW_GRAPH_H
#define DB_FLOW_GRAPH_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "pd_flow.h"

/*
 * The graph of commit `commit_id` under `rules_hash` in *out (the caller
 * frees it with pd_flow_free; unresolved).  PD_ENOTFOUND when the commit
 * has no row, or one that does not decompress or unpack (damaged, or
 * packed by a build of another format): the caller reads the facts
 * instead, with no error left set.  0, PD_ENOTFOUND, PD_EDB, PD_ENOMEM.
 */
int db_flow_graph_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out);

/*
 * Keep g (pd_flow_pack) as the graph of `commit_id` under `rules_hash`,
 * replacing a row it had.  0, PD_EDB, PD_ENOMEM, PD_ERROR (compression).
 */
int db_flow_graph_put(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const pd_flow *g);

/*
 * Commit `to` has the graph of commit `from` (no flow facts changed
 * between them): its row copied, when `from` has one.  0 or PD_EDB.
 */
int db_flow_graph_copy(sqlite3 *db, int64_t from, int64_t to, const char *rules_hash);

/* Drop the rows of commits that no stored ref names.  0 or PD_EDB. */
int db_flow_graph_prune(sqlite3 *db);

#endif
