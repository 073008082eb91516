/*
 * db_stmt.c: the statement helpers every db/ file uses (db_stmt.h) and the
 * two accessors of the meta table.  A leaf of db/: errors carry SQLite's
 * message (PD_EDB), so the server can tell "locked" from "broken".
 */
#include <stdio.h>
#include <string.h>

#include "db_stmt.h"
#include "pd_error.h"

int db_exec(sqlite3 *db, const char *sql)
{
    char *msg = NULL;

    if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
        pd_error_set(PD_EDB, "database: %s", msg ? msg : sqlite3_errmsg(db));
        sqlite3_free(msg);
        return PD_EDB;
    }
    return 0;
}

int db_step(sqlite3_stmt *st)
{
    int rc = sqlite3_step(st);

    if (rc == SQLITE_ROW)
        return 1;
    if (rc == SQLITE_DONE)
        return 0;
    return pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(sqlite3_db_handle(st)));
}

int db_error_busy(void)
{
    const char *msg = pd_error_last();

    return strstr(msg, sqlite3_errstr(SQLITE_BUSY)) || strstr(msg, sqlite3_errstr(SQLITE_LOCKED)) ||
           strstr(msg, sqlite3_errstr(SQLITE_PROTOCOL));
}

int db_prepare(sqlite3 *db, sqlite3_stmt **out, const char *sql)
{
    if (sqlite3_prepare_v2(db, sql, -1, out, NULL) != SQLITE_OK)
        return pd_error_set(PD_EDB, "database: %s (in: %.40s...)",
                            sqlite3_errmsg(db), sql);
    return 0;
}

int db_meta_get(sqlite3 *db, const char *key, char *buf, size_t n)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "SELECT value FROM meta WHERE key = ?1")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        snprintf(buf, n, "%s", (const char *)sqlite3_column_text(st, 0));
        rc = 0;
    } else if (rc == SQLITE_DONE) {
        rc = pd_error_set(PD_ENOTFOUND, "meta key %s is not set", key);
    } else {
        rc = pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    }
    sqlite3_finalize(st);
    return rc;
}

int db_meta_set(sqlite3 *db, const char *key, const char *value)
{
    sqlite3_stmt *st = NULL;
    int rc;

    if ((rc = db_prepare(db, &st, "INSERT INTO meta(key, value) VALUES(?1, ?2) "
                         "ON CONFLICT(key) DO UPDATE SET value = ?2")) < 0)
        return rc;
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    rc = sqlite3_step(st) == SQLITE_DONE ? 0
         : pd_error_set(PD_EDB, "database: %s", sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

int db_column_dup(sqlite3_stmt *st, int i, char **out)
{
    const char *s = (const char *)sqlite3_column_text(st, i);

    if (!(*out = s ? strdup(s) : NULL) && s)
        return pd_error_nomem(NULL);
    return 0;
}

int db_each_text_int(sqlite3_stmt *st,
                     int (*fn)(void *arg, const char *text, int64_t value), void *arg)
{
    int rc;

    while ((rc = db_step(st)) > 0)
        if ((rc = fn(arg, (const char *)sqlite3_column_text(st, 0),
                     sqlite3_column_int64(st, 1))) != 0)
            break;
    sqlite3_finalize(st);
    return rc;
}
