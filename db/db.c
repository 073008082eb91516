/*
 * db.c: opening the database and its migrations.
 *
 * Migrations are applied in order, each in its own transaction, and the
 * version reached is kept in PRAGMA user_version, so a half-applied upgrade
 * never leaves a database that claims a schema it lacks.  What a migration
 * adds to rows stored before it is filled in the same transaction
 * (db_measures_migrated; db_tree_fill for 017's checkpoints, db_flow_fill
 * for 018's call-graph results, db_fns_fill for 019's packed functions).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "db.h"
#include "db_path.h"
#include "db_kept.h"
#include "db_aside_probe.h"
#include "db_fns.h"
#include "db_measures_fill.h"
#include "db_migrations.h"
#include "db_flow_set.h"
#include "db_tree.h"
#include "pd_error.h"

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
    /* A failure of the database, not of the command line: every command
     * exits 1 on it (an older portdash exited 2 from some, 1 from others). */
    if (have > newest)
        return pd_error_set(PD_EDB, "%s: schema version %d is newer than "
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
            /* before the measures, whose fill reads the functions */
            (m->version == 19 && (rc = db_fns_fill(db)) < 0) ||
            (rc = db_measures_migrated(db, m->version, m->version == newest)) < 0 ||
            (m->version == 17 && (rc = db_tree_fill(db)) < 0) ||
            (m->version == 18 && (rc = db_flow_fill(db)) < 0) ||
            (rc = db_exec(db, pragma)) < 0) {
            char why[512];

            /* The step's own message (a fill's says what is wrong; SQLite's
             * last message may be of another statement). */
            snprintf(why, sizeof(why), "%s", pd_error_last());
            pd_error_set(rc, "%s: migration %s failed: %s", path, m->name,
                         why[0] ? why : sqlite3_errmsg(db));
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

/* The journal of a connection to a database others open too: WAL, so
 * that the server reads while an ingest writes, synced at checkpoints. */
static const char db_journal_shared[] =
    "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL";

/* The journal of one nobody else opens while it is written (db.h,
 * db_open_private): a rollback journal in memory, so that ROLLBACK works,
 * and no sync; what a crash leaves is thrown away, not read. */
static const char db_journal_private[] =
    "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF";

static int db_open_journal(sqlite3 **out, const char *path, int create, int busy_ms,
                           const char *journal);

int db_open_wait(sqlite3 **out, const char *path, int create, int busy_ms)
{
    return db_open_journal(out, path, create, busy_ms, db_journal_shared);
}

int db_open_private(sqlite3 **out, const char *path, const char *first)
{
    char sql[256];

    if (snprintf(sql, sizeof(sql), "%s; %s", db_journal_private, first ? first : "") >=
        (int)sizeof(sql))
        return pd_error_set(PD_EINVAL, "%s: statement too long to open with", path);
    return db_open_journal(out, path, 1, 10000, sql);
}

static int db_open_journal(sqlite3 **out, const char *path, int create, int busy_ms,
                           const char *journal)
{
    sqlite3 *db = NULL;
    int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
    struct stat sb;
    int rc;

    *out = NULL;
    /* SQLite would open a temporary database for "" and lose what is
     * written to it (`token create --db ''`). */
    if (!path[0])
        return pd_error_set(PD_EINVAL, "the database path is empty (--db '')");
    if ((rc = db_path_check(path)) < 0)
        return rc;
    if (create)
        flags |= SQLITE_OPEN_CREATE;
    else if (stat(path, &sb) < 0 && errno == ENOENT)
        /* SQLite's "unable to open database file" says neither what is
         * missing nor how to make it (a mistyped --db), nor that a first
         * ingest is making it (db_aside.h). */
        return (rc = db_aside_say(path, "run this once it has ended")) < 0 ? rc
               : pd_error_set(PD_EINVAL, "no database at %s: `portdash ingest --db %s "
                              "--git-dir GITDIR --name NAME --ref BRANCH` makes one "
                              "(doc/guide.md)", path, path);
    else if (S_ISREG(sb.st_mode) && sb.st_size == 0)
        /* SQLite takes an empty file for an empty database, and the
         * migrations would make it one with no repository: a --db that
         * names the wrong file (`touch`ed, or a log) is said, not written. */
        return pd_error_set(PD_EINVAL, "%s is an empty file, not a portdash database: "
                            "`portdash ingest --db %s --git-dir GITDIR --name NAME "
                            "--ref BRANCH` makes one (doc/guide.md)", path, path);
    if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
        rc = pd_error_set(PD_EDB, "%s: cannot open database: %s", path,
                          db ? sqlite3_errmsg(db) : "out of memory");
        goto fail;
    }
    sqlite3_busy_timeout(db, busy_ms);
    sqlite3_extended_result_codes(db, 1);
    if ((rc = db_exec(db, journal)) < 0 ||
        (rc = db_exec(db, "PRAGMA foreign_keys = ON")) < 0) {
        if (sqlite3_errcode(db) == SQLITE_NOTADB)   /* "file is not a database", unnamed */
            rc = pd_error_set(PD_EINVAL, "%s is not a database (not SQLite): "
                              "`portdash ingest` makes one", path);
        /* "unable to open database file" from the journal: SQLite could
         * not make the WAL's files beside the database (a read-only or
         * immutable directory); it names neither. */
        else if ((sqlite3_errcode(db) & 0xff) == SQLITE_CANTOPEN)
            rc = pd_error_set(PD_EDB, "%s: cannot open its write-ahead log (%s-wal, "
                              "%s-shm): SQLite makes them beside the database, so its "
                              "directory must be writable (%s)", path, path, path,
                              sqlite3_errmsg(db));
        goto fail;
    }
    if ((rc = db_migrate(db, path)) < 0)
        goto fail;
    *out = db;
    return 0;
fail:
    db_close(db);
    return rc;
}

void db_close(sqlite3 *db)
{
    if (db) {
        db_kept_close(db);
        sqlite3_close(db);
    }
}
