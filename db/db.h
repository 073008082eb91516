/*
 * db.h: the portdash database: opening (with migrations, db.c); it also
 * brings the statement helpers (db_stmt.h), the read queries the server
 * and ingest both need (db_query.h) and compression (db_compress.h), so that
 * one include gives a caller the database.
 *
 * One sqlite3 connection per thread; every value goes to SQLite as a bound
 * parameter.  Errors follow pd_error.h (PD_EDB with SQLite's message).
 */
#ifndef DB_H
#define DB_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db_query.h"
#include "db_stmt.h"
#include "db_compress.h"
#include "pd_domain.h"

/*
 * Open (create = 1: create if missing) the database at `path`, switch it to
 * WAL mode, and apply pending migrations in one transaction each.  *out is a
 * new connection closed with db_close().  Errors: PD_EDB (message names the
 * file), also when the file's schema is newer than this binary (the
 * message says so and the file is left as it was).
 */
int db_open(sqlite3 **out, const char *path, int create);

/* db_open waiting at most `busy_ms` milliseconds (db_open: 10000) for a lock
 * another connection holds, when opening and on every later statement;
 * then the statement fails with SQLite's "database is locked" (PD_EDB,
 * db_error_busy()). */
int db_open_wait(sqlite3 **out, const char *path, int create, int busy_ms);

/*
 * db_open() creating `path` for a writer that nobody else opens it beside
 * (db_aside.h: a new database built aside): a rollback journal in memory
 * (ROLLBACK works while the process lives) and no sync, instead of WAL
 * and its checkpoints (a full ingest of numpy/core: 0.55 s of 7.1 s, in
 * doc/benchmarks.md).  A crash or power loss can leave the file
 * inconsistent: it is never opened this way where data lives, only where
 * a crash means the file is thrown away.  `first` (may be NULL) is SQL run
 * before the schema is made, so that it is in the file's first write
 * (db_aside's mark).  Switch it to WAL before others open it
 * (db_aside_finish).  An empty `path` is refused (PD_EINVAL), here as in
 * db_open.
 */
int db_open_private(sqlite3 **out, const char *path, const char *first);

/* Close; accepts NULL. */
void db_close(sqlite3 *db);

/* Schema version recorded in the database (PRAGMA user_version). */
int db_schema_version(sqlite3 *db);

#endif
