/*
 * ingest_flow.h: the call graph of the commit being ingested (pd_flow.h),
 * kept file by file as the walk applies each commit's changes, so that
 * every commit's summary counts the object-dtype states the repository's
 * own functions give (a helper that changes changes its callers' states
 * in the same commit's summary).
 */
#ifndef INGEST_FLOW_H
#define INGEST_FLOW_H

#include <sqlite3.h>
#include <stdint.h>

#include "pd_domain.h"

typedef struct ingest_flow ingest_flow;

/* The most facts (KiB) of the files a kept graph reads over its block, by
 * default (ingest_flow_keep).  Reading them back costs every later push
 * about 15 ns a byte (22 files, 613 KB on numpy-hpy: 9 ms), writing a new
 * block about 6 ms once. */
#define INGEST_FLOW_FILES_KB 128

/* A graph for analyses stored under `rules_hash` (borrowed, as db);
 * files_kb as ingest_options.graph_files_kb.  0 or PD_ENOMEM. */
int ingest_flow_open(ingest_flow **out, sqlite3 *db, const char *rules_hash, int files_kb);

/* Free; accepts NULL. */
void ingest_flow_close(ingest_flow *f);

/*
 * Start a walk at stored commit `base` (0: an empty tree).  The walk's
 * totals start as base's stored summary, which counts the resolved
 * states; base's graph is loaded the first time a change alters a file's
 * facts (then the totals lose base's delta and become the local sums),
 * so a push that keeps every file's facts costs no graph.  0 or
 * PD_ENOMEM.
 */
int ingest_flow_base(ingest_flow *f, int64_t base);

/*
 * Remember that the flow facts of the analysis just stored as
 * `analysis_id` hash to `hash` (pd_flow_facts_hash, computed on the
 * analysis thread that encoded them), so that ingest_flow_file need not
 * hash them on the writer's thread.  Best effort: without memory the hash
 * is computed again.
 */
void ingest_flow_hash_note(ingest_flow *f, int64_t analysis_id, uint64_t hash);

/*
 * `path` now holds analysis `analysis_id` (0: deleted) in place of
 * `old_id` (0: none); *totals are the walk's running sums (see above).
 * With `have_text`, `text` (borrowed; NUL-terminated, NULL: no function)
 * is analysis_id's flow facts, as the run just made them (hashed here
 * unless ingest_flow_hash_note gave their hash); without, they
 * are read back from the database, and only when the facts hash the walk
 * keeps per analysis id cannot tell that the file's facts stay the same.
 * 0, PD_EDB, PD_ENOMEM.
 */
int ingest_flow_file(ingest_flow *f, const char *path, int64_t old_id, int64_t analysis_id,
                     const char *text, int have_text, pd_counts *totals);

/*
 * The summary of the current commit: *out = *local (the sum of the files'
 * own figures) with the object-dtype states the call graph gives; the
 * graph is resolved again only when a file changed.  0 or PD_ENOMEM.
 */
int ingest_flow_totals(ingest_flow *f, const pd_counts *local, pd_counts *out);

/*
 * Store the results of the current commit's graph (db_flow_set.h) as those
 * of `commit_id`, after ingest_flow_totals: the previous commit's set when
 * no file's facts changed (no graph needed), else the set of the resolved
 * graph, written once per distinct text.  The sets are the ones a graph
 * built from scratch gives (pd_flow_resolve works in path order).
 * 0, PD_EDB, PD_ENOMEM.
 */
int ingest_flow_commit(ingest_flow *f, int64_t commit_id);

/*
 * Keep the current graph as that of `commit_id`, the commit a stored ref
 * now names (db_flow_graph.h), so that the next run starts from it:
 * base's row copied when no file's facts changed since base; the block
 * the graph was read from, with the files changed since it, while their
 * facts are at most files_kb; else a new block.  0, PD_EDB, PD_ENOMEM.
 */
int ingest_flow_keep(ingest_flow *f, int64_t commit_id);

#endif
