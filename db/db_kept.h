/*
 * db_kept.h: statements kept prepared on their connection between uses
 * (issue 26.3).  A cold answer prepares about twenty statements, some of
 * them recursive walks whose compiling is most of their cost: on the file
 * page of arraytypes.c.src, sqlite3_prepare_v2 was 8.6 % of the server's
 * time (perf, 60 cold pages).  A kept statement is prepared the first time
 * a connection asks for its SQL and reset for the next use after that.
 *
 * The key is the SQL's address, so `sql` must be a string that lives as
 * long as the process (a literal, or a literal concatenation): SQL made
 * at run time goes through db_prepare.  A kept statement is one caller's
 * at a time: asked for again while in use (a walk that calls itself), a
 * second one is prepared, and kept too when there is room.  At most
 * DB_KEPT_MAX statements are kept in all; past that db_kept_done
 * finalizes.  Thread-safe (one lock for the table); each connection's
 * statements are used only by the thread that uses the connection, as
 * SQLite requires of any statement.
 */
#ifndef DB_KEPT_H
#define DB_KEPT_H

#include <sqlite3.h>

#define DB_KEPT_MAX 256

/*
 * A statement for `sql` on `db` into *out: a kept one, reset and with its
 * parameters cleared, or a new one (sqlite3_prepare_v3 with
 * SQLITE_PREPARE_PERSISTENT).  Give it back with db_kept_done, never
 * sqlite3_finalize.  0 or PD_EDB (as db_prepare).
 */
int db_kept_prepare(sqlite3 *db, sqlite3_stmt **out, const char *sql);

/*
 * Give back a statement of db_kept_prepare: reset, its parameters
 * cleared, and kept for the next use (finalized when the table is full).
 * Ends any read the statement holds open, as sqlite3_finalize does.  A
 * statement that is not kept (db_prepare's) is finalized, so a helper
 * that ends statements of both kinds calls this.  Accepts NULL.
 */
void db_kept_done(sqlite3_stmt *st);

/*
 * Finalize every statement kept on `db`, before it is closed (db_close
 * calls it): sqlite3_close refuses a connection with statements left.
 */
void db_kept_close(sqlite3 *db);

/* Statements kept now, on any connection (for the tests). */
int db_kept_count(void);

#endif
