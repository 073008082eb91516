/*
 * db_query.h: the read queries the server and ingest both need
 * (db_query.c): repositories, refs, revisions, a commit's files and
 * their counts.
 */
#ifndef DB_QUERY_H
#define DB_QUERY_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db_stmt.h"
#include "pd_flow.h"

/* Look a repository up by name: its id and (if path_out) its git directory
 * copied into path_out (size n).  0, PD_ENOTFOUND (message as
 * db_repo_unknown), PD_EDB. */
int db_repo_find(sqlite3 *db, const char *name, int64_t *id_out,
                 char *path_out, size_t n);

/* Set the message of repository `name` that the database does not hold,
 * "no repository named 'NAME'", naming the repositories it holds (the
 * first PD_REV_NAMED, by name, and how many more) or saying it holds none
 * yet; returns PD_ENOTFOUND. */
int db_repo_unknown(sqlite3 *db, const char *name);

/*
 * Call `fn` for every stored ref of repository `repo_id`, by name, with its
 * tip's commit row id (the name is valid during the call).  A non-zero
 * return from fn stops the walk and is returned; otherwise 0 or PD_EDB
 * (the list is then incomplete).
 */
int db_refs_list(sqlite3 *db, int64_t repo_id,
                 int (*fn)(void *arg, const char *name, int64_t commit_id), void *arg);

/*
 * Resolve `rev` in repository `repo_id`: a stored ref name, then a full or
 * abbreviated (4+ hex digits) commit id among ingested commits, then the
 * steps after it, as git reads them: ~N is N first parents, ^N the N-th
 * parent (pd_rev_check's syntax; the parents must be stored).  Fills the
 * commit's row id and its 40-hex id (oid_out, 41 bytes).  Errors:
 * PD_EINVAL (not that syntax), PD_ENOTFOUND (unknown or ambiguous, or a
 * parent not stored; the message says which), PD_EDB.
 */
int db_rev_resolve(sqlite3 *db, int64_t repo_id, const char *rev,
                   int64_t *commit_out, char *oid_out);

/*
 * Call `fn` for every selected file (path filter) at commit `commit_id`, in path order,
 * with its path row id, path, blob id and analysis row id (0 if that blob has no
 * analysis under `rules_hash`).  A non-zero return from fn stops the walk
 * and is returned.  Otherwise 0 or PD_EDB.
 */
typedef int (*db_file_fn)(void *arg, int64_t path_id, const char *path,
                          const char *blob_oid, int64_t analysis_id);
int db_commit_files(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    db_file_fn fn, void *arg);

/*
 * The statement behind db_commit_files, for callers that want every column:
 * 0 path_id, 1 path, 2 blob_oid, 3 analysis id (0: none), 4 status (NULL:
 * no analysis), then the analyses' measure columns (db_measures.h; read
 * them with db_counts_from_files_row).  The caller steps and finalizes it.
 * 0 or PD_EDB.
 */
int db_commit_files_stmt(sqlite3 *db, sqlite3_stmt **out, int64_t commit_id,
                         const char *rules_hash);

/* Counts of the current row of a db_commit_files_stmt (all 0 when the file
 * has no analysis). */
void db_counts_from_files_row(sqlite3_stmt *st, db_counts *c);

/* One file of a commit, as db_files_next() reads it.  The strings belong to
 * the cursor and stay valid until its next db_files_next or db_files_close. */
typedef struct {
    int64_t path_id;
    const char *path;
    const char *blob;        /* 40 hex */
    int64_t analysis_id;     /* 0: the blob has no analysis under the rules */
    const char *status;      /* pd_status name; NULL without an analysis */
    pd_counts counts;        /* the file's figures (files = 1); all 0 without
                              * an analysis */
} db_file_row;

/* A cursor over the selected files of a commit, in path order. */
typedef struct db_files db_files;

/*
 * Open the cursor over the files at commit `commit_id` (the newest change of
 * each path along the first-parent chain) with their analyses under
 * `rules_hash` (copied).  *out is closed with db_files_close().  0, PD_EDB,
 * PD_ENOMEM.
 */
int db_files_open(sqlite3 *db, db_files **out, int64_t commit_id, const char *rules_hash);

/* The next file into *row: 1, 0 at the end, PD_EDB when reading fails (the
 * list is then incomplete and must not be answered as if whole). */
int db_files_next(db_files *f, db_file_row *row);

/* The commit's call graph the cursor applies (db_flow.h): valid until
 * db_files_close.  Readers of a file's per-function states at the commit
 * (db_scope_detail_read_at) take it from here. */
const pd_flow *db_files_graph(const db_files *f);

/* Close; accepts NULL. */
void db_files_close(db_files *f);

/*
 * The blob id (40 hex + NUL into blob_out) of `path` at commit `commit_id`.
 * 0, PD_ENOTFOUND (no such file at that commit), PD_EDB.
 */
int db_commit_file_blob(sqlite3 *db, int64_t commit_id, const char *path,
                        char *blob_out);

/*
 * 1 when some stored path (of any repository) lies under directory `dir`
 * (starts with dir and a '/'), 0 when none does, PD_EDB.  For saying why
 * a file path names nothing: it names a directory.
 */
int db_path_is_dir(sqlite3 *db, const char *dir);

/* Read the counts of one analysis row (files = 1).  0, PD_ENOTFOUND, PD_EDB. */
int db_analysis_counts(sqlite3 *db, int64_t analysis_id, db_counts *out);

/* Read the stored summary of a commit.  0, PD_ENOTFOUND, PD_EDB. */
int db_commit_stats(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    db_counts *out);

#endif
