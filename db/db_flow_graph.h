/*
 * db_flow_graph.h: the call graph of each stored ref's commit, kept
 * (migration 022): a block (pd_flow_pack) and the files whose version
 * differs from the block's, so that a push whose flow facts change starts
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
 * frees it with pd_flow_free; unresolved): its block unpacked, then the
 * facts of its files read over it.  *graph_id is the block's row and
 * *files (malloc'd, "" for none) the commit's files, as
 * db_flow_graph_name takes them.  PD_ENOTFOUND when the commit has no
 * row, or one that does not read back (a damaged block or list, a block of
 * another build's format, a file whose analysis is gone): the caller reads
 * the facts instead, with no error left set.  On any error *out and
 * *files are NULL and *graph_id 0.  0, PD_ENOTFOUND, PD_EDB, PD_ENOMEM.
 */
int db_flow_graph_read(sqlite3 *db, int64_t commit_id, const char *rules_hash, pd_flow **out,
                       int64_t *graph_id, char **files);

/*
 * Keep g as the graph of `commit_id` under `rules_hash`: a new block
 * (pd_flow_pack) with no files, replacing the row the commit had.  0,
 * PD_EDB, PD_ENOMEM.
 */
int db_flow_graph_put(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const pd_flow *g);

/*
 * The graph of `commit_id` is block `graph_id` with `files` read over it:
 * "ANALYSIS_ID\tBYTES\tPATH\n" lines in path order (BYTES: the length of
 * the analysis's facts, what reading them back costs), analysis id 0 for
 * a file that is gone; paths hold no tab or newline; NULL or "" for none.
 * 0 or PD_EDB.
 */
int db_flow_graph_name(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                       int64_t graph_id, const char *files);

/* One line of a files list (db_flow_graph_name). */
typedef struct {
    int64_t id;                  /* the analysis; 0: the file is gone */
    size_t bytes;                /* the length of its facts */
    const char *path;            /* not NUL-terminated: path_len bytes */
    size_t path_len;
} db_flow_graph_line;

/*
 * The line of a files list that starts at *p into *out (borrowing the
 * path from it), *p moved to the next line.  1 with a line, 0 at the end
 * (*p at its NUL), PD_EINVAL for one that does not parse (no message:
 * the caller says whose list it was).
 */
int db_flow_graph_next(const char **p, db_flow_graph_line *out);

/*
 * Commit `to` has the graph of commit `from` (no flow facts changed
 * between them): its row copied, when `from` has one.  0 or PD_EDB.
 */
int db_flow_graph_copy(sqlite3 *db, int64_t from, int64_t to, const char *rules_hash);

/* Drop the rows of commits that no stored ref names, and the blocks no
 * row names.  0 or PD_EDB. */
int db_flow_graph_prune(sqlite3 *db);

#endif
