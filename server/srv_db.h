/*
 * srv_db.h: the worker threads' database connections.  Each thread keeps
 * its own connection (SQLite connections are not shared across threads),
 * opened on first use with the request budget's progress handler
 * (srv_budget.h), and opened again when the file at the database's path is
 * another file than the one the connection reads: an operator who replaces
 * the database (mv new.db portdash.db) gets answers from the new file, and
 * every cached answer of the old one is dropped (issue 27).
 */
#ifndef SRV_DB_H
#define SRV_DB_H

#include <sqlite3.h>

struct srv_cache;
typedef struct srv_dbs srv_dbs;

/*
 * Connections to `path` (copied) waiting `wait_ms` for locks; `cache`
 * (borrowed, may be NULL) is cleared when the file is replaced.  NULL when
 * out of memory.  Free with srv_dbs_free after the worker threads ended.
 */
srv_dbs *srv_dbs_new(const char *path, int wait_ms, struct srv_cache *cache);

/* Free; each thread's connection was closed when its thread ended.
 * Accepts NULL. */
void srv_dbs_free(srv_dbs *d);

/*
 * The calling thread's connection (owned by the thread), opened now when
 * it has none or its file is no longer the one at the path.  NULL with
 * pd_error_set (PD_EDB: cannot open, not a database, missing file).
 */
sqlite3 *srv_dbs_thread(srv_dbs *d);

/*
 * What /healthz reads besides a query: the file at the path exists and
 * starts with SQLite's header, read from the file now (a connection's page
 * cache would not notice the file overwritten) through `db`'s own file
 * handle (srv_dbs_thread's connection to that path).  Never opens the
 * file itself: closing any other descriptor of it would drop this
 * process's POSIX locks, SQLite's included, and the next writer would
 * delete the WAL under the server ("How To Corrupt An SQLite Database
 * File", section 2.2).  0, or PD_EDB with why.
 */
int srv_dbs_check_file(srv_dbs *d, sqlite3 *db);

#endif
