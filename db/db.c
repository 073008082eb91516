/*
 * db.c: opening the database, migrations, and small statement helpers.
 *
 * Migrations are applied in order, each in its own transaction, and the
 * version reached is kept in PRAGMA user_version, so a half-applied upgrade
 * never leaves a database that claims a schema it lacks.  What a migration
 * adds to rows stored before it is filled in the same transaction
 * (db_measures_migrated).
 */
#include <stdio.h>
#include <string.h>

#include "db.h"
#include "db_measures.h"
#include "db_migrations.h"
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

int db_schema_version(sqlite3 *db)
{
    sqlite3_stmt *st = NULL;
    int v = -1;

    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK
        && sqlite3_step(st) == SQLITE_ROW)
        v = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    return v;
}

/* Apply every migration newer than the database's user_version. */
static int db_migrate(sqlite3 *db, const char *path)
{
    int have = db_schema_version(db), i, rc;
    int newest = db_migrations[db_migrations_count - 1].version;
    char pragma[64];

    if (have < 0)
        return pd_error_set(PD_EDB, "%s: cannot read schema version: %s",
                            path, sqlite3_errmsg(db));
    if (have > newest)
        return pd_error_set(PD_EINVAL, "%s: schema version %d is newer than "
                            "this portdash (%d); upgrade portdash", path, have,
                            newest);
    for (i = 0; i < db_migrations_count; i++) {
        const struct db_migration *m = &db_migrations[i];

        if (m->version <= have)
            continue;
        if ((rc = db_exec(db, "BEGIN IMMEDIATE")) < 0)
            return rc;
        /* Another process (the server starting while an ingest migrates)
         * may have applied it while this one waited for the write lock:
         * read the version again under the lock (issue 27: "migration
         * failed: table already exists"). */
        if ((have = db_schema_version(db)) >= m->version) {
            if ((rc = db_exec(db, "COMMIT")) < 0)
                return rc;
            continue;
        }
        snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->version);
        if ((rc = db_exec(db, m->sql)) < 0 ||
            (rc = db_measures_migrated(db, m->version, m->version == newest)) < 0 ||
            (rc = db_exec(db, pragma)) < 0) {
            pd_error_set(rc, "%s: migration %s failed: %s", path, m->name,
                         sqlite3_errmsg(db));
            sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
            return rc;
        }
        if ((rc = db_exec(db, "COMMIT")) < 0)
            return rc;
    }
    return 0;
}

int db_open(sqlite3 **out, const char *path, int create)
{
    return db_open_wait(out, path, create, 10000);
}

int db_open_wait(sqlite3 **out, const char *path, int create, int busy_ms)
{
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    int rc;

    *out = NULL;
    if (create)
        flags |= SQLITE_OPEN_CREATE;
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        rc = pd_error_set(PD_EDB, "%s: cannot open database: %s", path,
                          db ? sqlite3_errmsg(db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(db, busy_ms);
    sqlite3_extended_result_codes(db, 1);
    /* WAL lets the server read while an ingest writes. */
    if ((rc = db_exec(db, "PRAGMA journal_mode = WAL")) < 0 ||
        (rc = db_exec(db, "PRAGMA synchronous = NORMAL")) < 0 ||
        (rc = db_exec(db, "PRAGMA foreign_keys = ON")) < 0)
        goto fail;
    if ((rc = db_migrate(db, path)) < 0)
        goto fail;
    *out = db;
    return 0;
fail:
    sqlite3_close(db);
    return rc;
}

void db_close(sqlite3 *db)
{
    if (db)
        sqlite3_close(db);
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
        return pd_error_set(PD_ENOMEM, "out of memory");
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
