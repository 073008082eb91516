/*
 * db_aside.c: a new database built aside and put in place whole (see
 * db_aside.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "db.h"
#include "db_aside.h"
#include "db_aside_probe.h"
#include "db_kept.h"
#include "db_lock.h"
#include "pd_error.h"

/* How often the writeback thread starts the disk writes of what the run
 * wrote since (db_aside.h). */
#define DB_ASIDE_WRITEBACK_MS 250

struct db_aside {
    char *path, *tmp;               /* PATH and PATH.new */
    int fd;                         /* PATH.new, for the writeback; -1: none */
    pthread_t thread;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int stop;
    int restarted;                  /* it removed a PATH.new a run left */
};

/* Remove SQLite's files beside p (-journal, -wal, -shm), and p itself when
 * `self`.  0 or PD_EIO / PD_ENOMEM. */
static int db_aside_clear(const char *p, int self)
{
    static const char *const sfx[] = {"", "-journal", "-wal", "-shm"};
    size_t i;
    int rc = 0;

    for (i = self ? 0 : 1; i < sizeof(sfx) / sizeof(sfx[0]) && rc == 0; i++) {
        char *f = db_aside_name(p, sfx[i]);

        if (!f)
            rc = pd_error_nomem("opening the database");
        else if (unlink(f) < 0 && errno != ENOENT)
            rc = pd_error_set(PD_EIO, "%s: cannot remove what an unfinished first "
                              "ingest or a removed database left: %s", f,
                              strerror(errno));
        free(f);
    }
    return rc;
}

/* Make room for a new database at a->path: PATH.new and its files when a
 * run left them (else refused: nothing that is not ours is removed), and
 * the -journal, -wal and -shm of a database removed from PATH, which
 * SQLite would replay into the new one once it is there (a new empty
 * file drops them; a built one does not).  The caller holds PATH's lock
 * and nothing is at PATH. */
static int db_aside_room(db_aside *a)
{
    struct stat sb;

    if ((a->restarted = lstat(a->tmp, &sb) == 0) && !db_aside_ours(a->tmp))
        return pd_error_set(PD_EINVAL, "%s is in the way of a new database at %s: "
                            "it is not one a first ingest left; move it away", a->tmp,
                            a->path);
    return db_aside_clear(a->tmp, 1) < 0 ? PD_EIO : db_aside_clear(a->path, 0);
}

/* The signals that stop an ingest (cli_ingest.c), held while a new
 * database is put in place. */
static void db_aside_signals(sigset_t *set)
{
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGHUP);
}

/* The writeback thread: every DB_ASIDE_WRITEBACK_MS until stopped, start
 * writing the file's dirty pages (sync_file_range SYNC_FILE_RANGE_WRITE
 * waits for no write to end; on its own thread, what it does wait for
 * delays no other).  Without it the kernel writes nothing of a run this
 * short (its own writeback starts after 30 s or 10 % of memory dirty), so
 * the one sync at the end wrote all of numpy/core's 117 MB: 0.13-0.16 s
 * with every other thread done; with it 0.02-0.04 s. */
static void *db_aside_writeback(void *arg)
{
    db_aside *a = arg;
    struct timespec until;
    sigset_t block;

    /* The run's signals go to its other threads: a second one, which ends
     * the process, must wait while db_aside_finish holds them there. */
    db_aside_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, NULL);
    pthread_mutex_lock(&a->mu);
    while (!a->stop) {
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += DB_ASIDE_WRITEBACK_MS * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        if (pthread_cond_timedwait(&a->cv, &a->mu, &until) != ETIMEDOUT || a->stop)
            continue;
        pthread_mutex_unlock(&a->mu);
        (void)sync_file_range(a->fd, 0, 0, SYNC_FILE_RANGE_WRITE);
        pthread_mutex_lock(&a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    return NULL;
}

/* Stop and join the writeback thread, close its descriptor. */
static void db_aside_stop(db_aside *a)
{
    if (a->started) {
        pthread_mutex_lock(&a->mu);
        a->stop = 1;
        pthread_cond_signal(&a->cv);
        pthread_mutex_unlock(&a->mu);
        pthread_join(a->thread, NULL);
        a->started = 0;
    }
    if (a->fd >= 0)
        close(a->fd);
    a->fd = -1;
}

static void db_aside_free(db_aside *a)
{
    if (!a)
        return;
    db_aside_stop(a);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a->path);
    free(a->tmp);
    free(a);
}

/* A handle for `path` (no thread yet), or NULL when out of memory. */
static db_aside *db_aside_new(const char *path)
{
    db_aside *a = calloc(1, sizeof(*a));

    if (!a)
        return NULL;
    a->fd = -1;
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    if (!(a->path = strdup(path)) || !(a->tmp = db_aside_name(path, ".new"))) {
        db_aside_free(a);
        return NULL;
    }
    return a;
}

/* Clear the mark of the database file at p (a plain connection: WAL by
 * then), so that no later run takes it for one it may remove.  0 or
 * PD_EDB. */
static int db_aside_unmark(const char *p)
{
    sqlite3 *db = NULL;
    int rc;

    if (sqlite3_open_v2(p, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        rc = pd_error_set(PD_EDB, "%s: cannot open it again: %s", p,
                          db ? sqlite3_errmsg(db) : "out of memory");
        sqlite3_close(db);
        return rc;
    }
    rc = db_exec(db, "PRAGMA application_id = 0");
    if (sqlite3_close(db) != SQLITE_OK && rc == 0)
        rc = pd_error_set(PD_EDB, "%s: cannot close it: %s", p, sqlite3_errmsg(db));
    return rc;
}

int db_aside_open(db_aside **out, sqlite3 **db, const char *path)
{
    db_aside *a = db_aside_new(path);
    char mark[64];
    int rc;

    *out = NULL;
    *db = NULL;
    if (!a)
        return pd_error_nomem("opening the database");
    snprintf(mark, sizeof(mark), "PRAGMA application_id = %ld", (long)DB_ASIDE_MARK);
    if ((rc = db_aside_room(a)) == 0 && (rc = db_open_private(db, a->tmp, mark)) < 0) {
        char *msg = strdup(pd_error_last());

        sqlite3_close(*db);
        *db = NULL;
        (void)db_aside_clear(a->tmp, 1);    /* a file half made: nothing to keep */
        if (msg)
            pd_error_set(rc, "%s", msg);
        free(msg);
    }
    if (rc < 0) {
        db_aside_free(a);
        return rc;
    }
    /* Best effort: without it the final sync only takes longer. */
    if ((a->fd = open(a->tmp, O_RDONLY | O_CLOEXEC)) >= 0)
        a->started = pthread_create(&a->thread, NULL, db_aside_writeback, a) == 0;
    *out = a;
    return 0;
}

/* fsync the file or directory at p; 0 or -1 with errno. */
static int db_aside_sync(const char *p, int dir)
{
    int fd = open(p, (dir ? O_RDONLY | O_DIRECTORY : O_RDONLY) | O_CLOEXEC), r, e;

    if (fd < 0)
        return -1;
    r = fsync(fd);
    e = errno;
    close(fd);
    errno = e;
    return r;
}

/* Rename tmp to path unless something is at path: renameat2's
 * RENAME_NOREPLACE, or link and unlink where the file system refuses it.
 * 0 or -1 with errno (EEXIST: something is there). */
static int db_aside_rename(const char *tmp, const char *path)
{
#ifdef RENAME_NOREPLACE
    if (renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS)
        return -1;
#endif
    if (link(tmp, path) < 0)
        return -1;
    (void)unlink(tmp);
    return 0;
}

/* Remove tmp (the run failed with rc) and add to the error message what
 * a first ingest that fails leaves at path: nothing. */
static void db_aside_lost(const char *tmp, const char *path, int rc)
{
    char *msg = strdup(pd_error_last());

    (void)db_aside_clear(tmp, 1);
    pd_error_set(rc, "%s; a first ingest that fails keeps nothing: nothing is at %s",
                 msg ? msg : "", path);
    free(msg);
}

/* Sync tmp, put it at path, sync path's directory, clear the mark.  The
 * mark stays until the rename, so that a run killed before it leaves a
 * PATH.new the next run removes. */
static int db_aside_place(const char *tmp, const char *path)
{
    char *d;

    if (db_aside_sync(tmp, 0) < 0 || db_aside_rename(tmp, path) < 0) {
        int e = errno;

        if (e == EEXIST) {
            /* Kept, and no longer ours to remove: the user chooses. */
            (void)db_aside_unmark(tmp);
            return pd_error_set(PD_EBUSY, "%s appeared while this first ingest built "
                                "it aside (another command made a database there); "
                                "the ingest's database is kept in %s", path, tmp);
        }
        pd_error_set(PD_EIO, "cannot put %s in place of %s: %s", tmp, path, strerror(e));
        db_aside_lost(tmp, path, PD_EIO);
        return PD_EIO;
    }
    /* The rename itself, made durable: best effort (some file systems
     * cannot open a directory). */
    if ((d = strdup(path)) != NULL)
        (void)db_aside_sync(dirname(d), 1);
    free(d);
    /* A database in place whose mark stayed (this failing) is whole; the
     * mark only matters at PATH.new. */
    (void)db_aside_unmark(path);
    return 0;
}


/* PRAGMA quick_check says "ok": 0, else PD_EDB naming what it found. */
static int db_aside_check(sqlite3 *db, const char *tmp)
{
    sqlite3_stmt *st = NULL;
    int rc = 0;

    if (sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, NULL) != SQLITE_OK)
        return pd_error_set(PD_EDB, "%s: cannot check the new database: %s", tmp,
                            sqlite3_errmsg(db));
    if (sqlite3_step(st) != SQLITE_ROW ||
        strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
        rc = pd_error_set(PD_EDB, "%s: the new database is damaged (%s)", tmp,
                          sqlite3_column_text(st, 0) ? (const char *)sqlite3_column_text(st, 0)
                                                     : sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return rc;
}

/* Close db; PD_EDB when it would not (unfinalized statements: it closes
 * once they are). */
static int db_aside_close(sqlite3 *db, const char *tmp, int rc)
{
    db_kept_close(db);          /* the ingest's kept statements (db_kept.h) */
    if (sqlite3_close(db) != SQLITE_OK) {
        if (rc == 0)
            rc = pd_error_set(PD_EDB, "%s: cannot close the new database: %s", tmp,
                              sqlite3_errmsg(db));
        sqlite3_close_v2(db);
    }
    return rc;
}

int db_aside_finish(db_aside *a, sqlite3 *db, int check)
{
    sigset_t block, old;
    int rc;

    /* Not cut by a second signal half way (the first may be why the run
     * ends): the database is put in place whole, then the signal acts. */
    db_aside_signals(&block);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    db_aside_stop(a);
    /* Nor stopped by the run's interrupt (ingest_options). */
    sqlite3_progress_handler(db, 0, NULL, NULL);
    rc = check ? db_aside_check(db, a->tmp) : 0;
    /* The switch rewrites the header under the rollback journal; readers
     * open the file in WAL mode (db_open would switch it otherwise). */
    if (rc == 0)
        rc = db_exec(db, "PRAGMA journal_mode = WAL");
    rc = db_aside_close(db, a->tmp, rc);
    if (rc == 0 && db_aside_wanted(a->path))
        rc = db_aside_clear(a->path, 0);     /* none can have come: the lock */
    if (rc == 0)
        rc = db_aside_place(a->tmp, a->path);
    else
        db_aside_lost(a->tmp, a->path, rc);
    db_aside_free(a);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

void db_aside_discard(db_aside *a, sqlite3 *db, int rc)
{
    db_aside_stop(a);
    (void)db_aside_close(db, a->tmp, 0);
    db_aside_lost(a->tmp, a->path, rc);
    db_aside_free(a);
}

int db_aside_restarted(const db_aside *a)
{
    return a && a->restarted;
}
