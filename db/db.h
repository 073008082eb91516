/*
 * db.h: the portdash database: opening (with migrations), the shared count
 * record, and the read queries that the server and ingest both need.
 *
 * One sqlite3 connection per thread; every value goes to SQLite as a bound
 * parameter.  Errors follow pd_error.h (PD_EDB with SQLite's message).
 */
#ifndef DB_H
#define DB_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "pd_domain.h"

/* The counts type lives in the domain core (pd_domain.h); db_counts is its
 * older name, kept so callers need not change at once. */
typedef pd_counts db_counts;

/* Older name of pd_counts_add. */
#define db_counts_add pd_counts_add

/*
 * Open (create = 1: create if missing) the database at `path`, switch it to
 * WAL mode, and apply pending migrations in one transaction each.  *out is a
 * new connection closed with db_close().  Errors: PD_EDB (message names the
 * file), PD_EINVAL if the file's schema is newer than this binary.
 */
int db_open(sqlite3 **out, const char *path, int create);

/* db_open waiting at most `busy_ms` milliseconds (db_open: 10000) for a lock
 * another connection holds, when opening and on every later statement;
 * then the statement fails with SQLite's "database is locked" (PD_EDB,
 * db_error_busy()). */
int db_open_wait(sqlite3 **out, const char *path, int create, int busy_ms);

/* Close; accepts NULL. */
void db_close(sqlite3 *db);

/* Run SQL without results (BEGIN, COMMIT, ...).  0 or PD_EDB. */
int db_exec(sqlite3 *db, const char *sql);

/* Prepare a statement; 0 or PD_EDB naming the SQL's first words. */
int db_prepare(sqlite3 *db, sqlite3_stmt **out, const char *sql);

/*
 * Step `st`: 1 with a row, 0 when done, PD_EDB when SQLite fails (the
 * message has SQLite's text, so srv_reply_error answers 503 with
 * Retry-After for "database is locked"/busy and 500 otherwise).  Every
 * loop over rows steps with this, so an error ends the answer as an error,
 * never as a shorter list:  while ((rc = db_step(st)) > 0) { ... }
 */
int db_step(sqlite3_stmt *st);

/* A copy of text column `i` of the current row of `st` into *out (free()),
 * NULL when the column is NULL.  0 or PD_ENOMEM. */
int db_column_dup(sqlite3_stmt *st, int i, char **out);

/*
 * 1 when the current thread's last error (pd_error_last) is SQLite saying
 * that another connection holds a lock: SQLITE_BUSY (with its extended
 * codes: a writer in exclusive locking mode, a WAL recovery running
 * elsewhere, past the busy timeout), SQLITE_LOCKED, or SQLITE_PROTOCOL (a
 * WAL reader that lost the race for a read lock every time).  The request
 * may succeed later, so the server answers 503 with Retry-After.  Known by
 * SQLite's message, which every PD_EDB of db/ carries.
 */
int db_error_busy(void);

/*
 * Step `st` to its end, calling fn(arg, column 0 as text, column 1 as an
 * integer) for each row: rows of (name, count) or (name, id).  Stops at
 * fn's first non-zero return, which it returns; else 0 at the end, or
 * PD_EDB (db_step) when a step fails.  Finalizes `st` in every case.
 */
int db_each_text_int(sqlite3_stmt *st,
                     int (*fn)(void *arg, const char *text, int64_t value), void *arg);

/* Schema version recorded in the database (PRAGMA user_version). */
int db_schema_version(sqlite3 *db);

/*
 * Value of `key` in table meta, copied into buf (size n).  Returns 0,
 * PD_ENOTFOUND when unset, PD_EDB.
 */
int db_meta_get(sqlite3 *db, const char *key, char *buf, size_t n);

/* Set meta `key` to `value`.  0 or PD_EDB. */
int db_meta_set(sqlite3 *db, const char *key, const char *value);

/* Look a repository up by name: its id and (if path_out) its git directory
 * copied into path_out (size n).  0, PD_ENOTFOUND, PD_EDB. */
int db_repo_find(sqlite3 *db, const char *name, int64_t *id_out,
                 char *path_out, size_t n);

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
 * abbreviated (4+ hex digits) commit id among ingested commits.  Fills the
 * commit's row id and its 40-hex id (oid_out, 41 bytes).  Errors:
 * PD_ENOTFOUND (unknown or ambiguous; the message says which), PD_EDB.
 */
int db_rev_resolve(sqlite3 *db, int64_t repo_id, const char *rev,
                   int64_t *commit_out, char *oid_out);

/*
 * Call `fn` for every in-scope file at commit `commit_id`, in path order,
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

/* A cursor over the in-scope files of a commit, in path order. */
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

/* Close; accepts NULL. */
void db_files_close(db_files *f);

/*
 * The blob id (40 hex + NUL into blob_out) of `path` at commit `commit_id`.
 * 0, PD_ENOTFOUND (no such file at that commit), PD_EDB.
 */
int db_commit_file_blob(sqlite3 *db, int64_t commit_id, const char *path,
                        char *blob_out);

/* Read the counts of one analysis row (files = 1).  0, PD_ENOTFOUND, PD_EDB. */
int db_analysis_counts(sqlite3 *db, int64_t analysis_id, db_counts *out);

/* Read the stored summary of a commit.  0, PD_ENOTFOUND, PD_EDB. */
int db_commit_stats(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                    db_counts *out);

/*
 * Compress `len` bytes with zlib into a new buffer (*out, *out_len), freed
 * with free().  0, PD_ENOMEM, PD_ERROR.
 */
int db_deflate(unsigned char **out, size_t *out_len, const void *in, size_t len);

/* Largest inflated size db_inflate accepts (bytes). */
#define DB_INFLATE_MAX ((size_t)1 << 30)

/* Inverse of db_deflate; `raw_len` is the original size as stored, which
 * is not trusted (a damaged or edited database).  *out is NUL-terminated
 * and freed with free().  0, PD_ENOMEM, PD_EDB (damaged: a length that
 * cannot be, or data that does not inflate to it; the server answers 500). */
int db_inflate(char **out, const void *in, size_t len, size_t raw_len);

#endif
