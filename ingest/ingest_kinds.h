/*
 * ingest_kinds.h: a repository stored before a source kind existed gets
 * its files on the next ingest.
 *
 * The kinds of file the analysis covers grow (pd_path_kind: .inc.src and
 * .inc joined in PD_SRC_KINDS 2, for numpy's funcs.inc.src and
 * _simd .inc files).  A repository records the generation it was stored under
 * (meta "source_kinds/<repo id>"; none: 1, the generation before the
 * record).  The generation is part of the analysis key
 * (ingest_analysis_key), so a newer one makes the next ingest revisit every
 * stored commit; a revisited commit's diff is planned again and the
 * changes of paths of the newer kinds are stored beside its others; the
 * stored tips no ref names are revisited too, and the checkpoints of file
 * lists rebuilt (db_tree_refill).  Only then is the generation recorded:
 * an interrupted run leaves it as it was and the next one goes on.
 */
#ifndef INGEST_KINDS_H
#define INGEST_KINDS_H

#include <stdint.h>
#include <sqlite3.h>

/*
 * The generation repository `repo_id` was stored under, into *since:
 * PD_SRC_KINDS for a repository this run creates (`repo_new`), the
 * recorded one, or 1 when none is recorded.  0 or PD_EDB.
 */
int ingest_kinds_stored(sqlite3 *db, int64_t repo_id, int repo_new, int *since);

/*
 * After a run that revisited every commit of `repo_id` stored under
 * generation `since`: rebuild the checkpoints when it was older than
 * PD_SRC_KINDS, and record PD_SRC_KINDS.  In the caller's transaction.
 * 0 or PD_EDB.
 */
int ingest_kinds_done(sqlite3 *db, int64_t repo_id, int since);

#endif
