/*
 * db_flow.h: the resolved call graph of a stored commit (pd_flow.h), built
 * from the flow facts of its files' analyses, for every reader of
 * object-dtype states: the file list, the file page, compare, gate,
 * snapshots.  A few graphs are kept (process-wide, thread-safe): a
 * commit's graph never changes once its analyses are stored.
 */
#ifndef DB_FLOW_H
#define DB_FLOW_H

#include <sqlite3.h>
#include <stdint.h>

#include "pd_flow.h"

typedef struct db_flow db_flow;

/*
 * The graph of commit `commit_id` under `rules_hash`, resolved, into
 * *out; release it with db_flow_release().  Rebuilt from the commit's
 * stored results (migration 018) when it has them: the same answers as
 * db_flow_compute's graph (tests/unit/test_flowset.c) without its facts.
 * 0, PD_EDB, PD_ENOMEM.
 */
int db_flow_get(sqlite3 *db, int64_t commit_id, const char *rules_hash, db_flow **out);

/*
 * The graph of a commit resolved from its files' flow facts, whatever is
 * stored (what db_flow_get answers when the commit has no stored results,
 * db_flow_set.h): for the ingest, the migration that fills the results and
 * tests.  *out is the caller's (pd_flow_free).  0, PD_EDB, PD_ENOMEM.
 */
int db_flow_compute(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out);

/* The graph (read-only; valid until the release). */
const pd_flow *db_flow_graph(const db_flow *f);

/* Give it back; accepts NULL. */
void db_flow_release(db_flow *f);

/* Forget every kept graph (a database replaced or re-ingested). */
void db_flow_forget(void);

/*
 * Call `fn` for each analysed file at commit `commit_id` in path order
 * with its analysis id and its calls text (the in-repository callees of
 * each function, one line per function in index order, decompressed and
 * NUL-terminated; NULL when not stored).  `fn` owns `calls` (free()).
 * 0, fn's non-zero return, PD_EDB (also for damaged bytes), PD_ENOMEM.
 */
int db_commit_calls(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    int (*fn)(void *arg, const char *path, int64_t analysis_id, char *calls),
                    void *arg);

/*
 * The same with each file's flow facts (analyses.flow: one line per
 * function in index order, "NAME\tLINE\tBITS\tFACTS", pd_flow.h), the
 * input of the call-graph step at that commit.  `fn` owns `flow`.
 */
int db_commit_flow(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                   int (*fn)(void *arg, const char *path, int64_t analysis_id, char *flow),
                   void *arg);

#endif
