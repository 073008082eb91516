/*
 * db_stmt.h: statement helpers and the meta table (db_stmt.c), and the
 * count record every db/ file shares.  Errors follow pd_error.h (PD_EDB
 * with SQLite's message).
 */
#ifndef DB_STMT_H
#define DB_STMT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "pd_domain.h"

/* The counts type lives in the domain core (pd_domain.h); db_counts is its
 * older name, kept so callers need not change at once. */
typedef pd_counts db_counts;

/* Older name of pd_counts_add. */
#define db_counts_add pd_counts_add

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

/*
 * Value of `key` in table meta, copied into buf (size n).  Returns 0,
 * PD_ENOTFOUND when unset, PD_EDB.
 */
int db_meta_get(sqlite3 *db, const char *key, char *buf, size_t n);

/* Set meta `key` to `value`.  0 or PD_EDB. */
int db_meta_set(sqlite3 *db, const char *key, const char *value);

#endif
