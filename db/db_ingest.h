/*
 * db_ingest.h: the writes (and the few reads) of an ingest, as prepared
 * statements kept for the whole run.  The callers (ingest/ingest.c) group
 * calls in transactions with db_ingest_begin/commit/rollback: an ingest
 * commits in batches so that an interrupted run keeps what it finished.
 *
 * Everything goes in and out as plain values and the row structs below:
 * object ids as 40-hex text, statuses and object states by their pd_domain
 * names.  Every function returns 0 or a negative pd_error code with the
 * message set (PD_EDB naming SQLite's error, PD_ENOMEM), unless it says
 * otherwise.  Strings passed in are borrowed for the call only.
 */
#ifndef DB_INGEST_H
#define DB_INGEST_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db.h"
#include "db_fns.h"
#include "pathfilter_value.h"

typedef struct db_ingest db_ingest;

/* Prepare the statements on `db` (borrowed, must outlive the store; the
 * store is used by one thread).  *out is freed with db_ingest_free.
 * 0, PD_ENOMEM or PD_EDB. */
int db_ingest_open(db_ingest **out, sqlite3 *db);

/* Finalize the statements; accepts NULL. */
void db_ingest_free(db_ingest *s);

/* Start a write transaction (BEGIN IMMEDIATE: the lock is taken now, so a
 * concurrent writer fails here rather than halfway).  0 or PD_EDB. */
int db_ingest_begin(db_ingest *s);

/* Commit the open transaction.  0 or PD_EDB. */
int db_ingest_commit(db_ingest *s);

/* Roll back the open transaction, if any; accepts NULL.  Keeps the thread's last error
 * message (the reason for rolling back), so it returns nothing. */
void db_ingest_rollback(db_ingest *s);

/*
 * Find or create repository `name`: *id_out receives its row id.  A new
 * one records `path` and the path filter `want` (NULL: the empty filter),
 * stored as its JSON (pathfilter_to_json, column repos.scope).  An existing
 * one gets its path updated; if `want` is not NULL and selects other globs
 * than the stored filter (pathfilter_equal: the same sets of include and
 * exclude globs, in any order, repeats ignored), fails with PD_EINVAL
 * naming both (a changed filter would make old and new commits disagree);
 * a stored filter that does not read back is PD_EINVAL too.  Else
 * *stored_out (if not NULL) receives the stored filter (for a new
 * repository, a copy of `want`), freed with pathfilter_owned_free.
 */
int db_ingest_repo(db_ingest *s, int64_t *id_out, pathfilter_owned *stored_out,
                   const char *name, const char *path, const pathfilter *want);

/*
 * Look up commit `oid` (40 hex) of the repository: *id_out is its row id
 * (0 if not stored) and *has_stats 1 if it has a summary (commit_stats)
 * under `rules_hash`, else 0.
 */
int db_ingest_commit_find(db_ingest *s, int64_t *id_out, int *has_stats,
                          int64_t repo_id, const char *oid, const char *rules_hash);

/* A commit's metadata as stored in table commits.  Strings are borrowed. */
typedef struct {
    const char *oid;               /* 40 hex */
    const char *parents;           /* every parent id, space-separated; "" */
    int64_t first_parent_id;       /* row id of the first parent; 0: none */
    const char *author_name, *author_email;
    int64_t author_time;           /* seconds since the epoch */
    int author_offset;             /* minutes east of UTC */
    int64_t committer_time;        /* seconds since the epoch */
    int committer_offset;          /* minutes east of UTC */
    const char *summary;           /* first paragraph of the message */
} db_commit_row;

/* Insert a commit; *id_out receives its row id. */
int db_ingest_commit_insert(db_ingest *s, int64_t *id_out, int64_t repo_id,
                            const db_commit_row *c);

/* *id_out: row id of `path`, the row created if new. */
int db_ingest_path_id(db_ingest *s, int64_t *id_out, const char *path);

/* Record that commit_id changed path_id to blob `blob_oid` (40 hex; NULL:
 * deleted); old_path_id is the path it was renamed from (0: not a rename).
 * Replaces an earlier change of the same commit and path. */
int db_ingest_change(db_ingest *s, int64_t commit_id, int64_t path_id,
                     const char *blob_oid, int64_t old_path_id);

/* Set the patch id (40 hex: git patch-id of the commit's selected diff). */
int db_ingest_patch_id(db_ingest *s, int64_t commit_id, const char *patch_id);

/* *commit_out: the commit row id ref `name` points at (0 if the ref is
 * new). */
int db_ingest_ref_get(db_ingest *s, int64_t *commit_out, int64_t repo_id,
                      const char *name);

/* 1 if commit `ancestor` is on the first-parent chain of `tip`, else 0;
 * negative PD_EDB. */
int db_ingest_on_chain(db_ingest *s, int64_t tip, int64_t ancestor);

/* Record (table rewrites, stamped now) that ref `name` moved from old_id
 * to new_id without descending. */
int db_ingest_rewrite(db_ingest *s, int64_t repo_id, const char *name,
                      int64_t old_id, int64_t new_id);

/* The 40-hex id of commit row `commit_id` into oid_out (41 bytes).
 * PD_EDB also when there is no such row. */
int db_ingest_commit_oid(db_ingest *s, char *oid_out, int64_t commit_id);

/*
 * Call fn for each stored change of a commit: the path's row id, the blob
 * (40 hex, NULL: deleted) and the path, valid during the call only.  fn may
 * use the store's other functions, not this one; a non-zero return stops
 * the walk and is returned.  Else 0 once every row was handed, or PD_EDB.
 */
int db_ingest_changes_of(db_ingest *s, int64_t commit_id,
                         int (*fn)(void *arg, int64_t path_id,
                                   const char *blob_oid, const char *path),
                         void *arg);

/* *id_out: analysis row id of (blob_oid, rules_hash), 0 if none. */
int db_ingest_analysis_find(db_ingest *s, int64_t *id_out,
                            const char *blob_oid, const char *rules_hash);

/*
 * Call fn with the blob id (40 hex, valid during the call) of every
 * analysis stored under `rules_hash`.  A non-zero return from fn stops the
 * walk and is returned; else 0 once every row was handed, or PD_EDB.
 */
int db_ingest_analysed_each(db_ingest *s, const char *rules_hash,
                            int (*fn)(void *arg, const char *blob_oid), void *arg);

/* db_function_row, one function as stored: db_fns.h. */

/* One row of table analyses without its id.  Pointers are borrowed. */
typedef struct {
    size_t size;                       /* blob bytes */
    uint32_t lines;
    const char *status;                /* pd_status name */
    const char *notes;                 /* NULL if none */
    const char *hpy_types;             /* NULL if none */
    const unsigned char *findings_z;   /* db_findings_encode's output */
    size_t findings_zlen, findings_len;
    const unsigned char *calls_z;      /* db_compress of the calls text; NULL: none */
    size_t calls_zlen, calls_len;
    const unsigned char *flow_z;       /* db_compress of the flow facts; NULL: none */
    size_t flow_zlen, flow_len;
    const char *flow_fns;              /* the functions' own bits and lines
                                        * (pd_flow_fns_encode); NULL: none */
    const unsigned char *fns_z;        /* db_compress of the functions' text
                                        * (db_fns_text); NULL: none */
    size_t fns_zlen, fns_len;
    int64_t ung[PD_CLASS_COUNT];       /* unguarded findings of the file */
    pd_counts counts;                  /* the measures, files = 1 */
} db_analysis_row;

/*
 * Insert analysis `a` of blob `blob_oid` (40 hex) under `rules_hash`, its
 * functions included (a->fns_z); *id_out receives the analysis row id.
 */
int db_ingest_analysis_put(db_ingest *s, int64_t *id_out, const char *blob_oid,
                           const char *rules_hash, const db_analysis_row *a);

/*
 * Store the no-object scope's figures `c` and `status` of analysis
 * `analysis_id` in the scope cache (analysis_noobject, replacing any; the
 * row db_scope_file_counts would write after reading the functions back).
 * 0 or PD_EDB.
 */
int db_ingest_noobject(db_ingest *s, int64_t analysis_id, const pd_counts *c, int status);

/* Store the summary of a commit under `rules_hash` (replacing any). */
int db_ingest_stats(db_ingest *s, int64_t commit_id, const char *rules_hash,
                    const pd_counts *c);

/* Point ref `name` at commit_id (created or moved, stamped now). */
int db_ingest_ref(db_ingest *s, int64_t repo_id, const char *name, int64_t commit_id);

#endif
