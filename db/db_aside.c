/*
 * db_aside.c: a new database built aside and put in place whole (see
 * db_aside.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "db.h"
#include "db_aside.h"
#include "pd_error.h"

/* `path` with `suffix` appended (malloc), or NULL. */
static char *db_aside_name(const char *path, const char *suffix)
{
    size_t a = strlen(path), b = strlen(suffix);
    char *s = malloc(a + b + 1);

    if (s) {
        memcpy(s, path, a);
        memcpy(s + a, suffix, b + 1);
    }
    return s;
}

int db_aside_wanted(const char *path)
{
    struct stat sb;

    return lstat(path, &sb) < 0 && errno == ENOENT;
}

int db_aside_building(const char *path)
{
    char *tmp = db_aside_name(path, ".new");
    struct stat sb;
    int r = tmp && db_aside_wanted(path) && lstat(tmp, &sb) == 0;

    free(tmp);
    return r;
}

/* Remove what an unfinished run left at tmp: the file and SQLite's files
 * beside it.  0 or PD_EIO / PD_ENOMEM. */
static int db_aside_clear(const char *tmp)
{
    static const char *const sfx[] = {"", "-journal", "-wal", "-shm"};
    size_t i;
    int rc = 0;

    for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]) && rc == 0; i++) {
        char *f = db_aside_name(tmp, sfx[i]);

        if (!f)
            rc = pd_error_nomem("opening the database");
        else if (unlink(f) < 0 && errno != ENOENT)
            rc = pd_error_set(PD_EIO, "%s: cannot remove what an unfinished first "
                              "ingest left: %s", f, strerror(errno));
        free(f);
    }
    return rc;
}

int db_aside_open(sqlite3 **out, const char *path)
{
    char *tmp = db_aside_name(path, ".new");
    int rc;

    *out = NULL;
    if (!tmp)
        return pd_error_nomem("opening the database");
    if ((rc = db_aside_clear(tmp)) == 0 && (rc = db_open_private(out, tmp)) < 0) {
        char *msg = strdup(pd_error_last());

        (void)db_aside_clear(tmp);      /* a file half made: nothing to keep */
        if (msg)
            pd_error_set(rc, "%s", msg);
        free(msg);
    }
    free(tmp);
    return rc;
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

/* Sync tmp, put it at path, sync path's directory. */
static int db_aside_place(const char *tmp, const char *path)
{
    char *d;
    int rc = 0;

    if (db_aside_sync(tmp, 0) < 0)
        return pd_error_set(PD_EIO, "%s: cannot sync the new database: %s", tmp,
                            strerror(errno));
    if (db_aside_rename(tmp, path) < 0)
        return errno == EEXIST
            ? pd_error_set(PD_EBUSY, "%s appeared while this first ingest built it "
                           "aside (another command made a database there); the "
                           "ingest's database is kept in %s", path, tmp)
            : pd_error_set(PD_EIO, "cannot rename %s to %s: %s", tmp, path,
                           strerror(errno));
    /* The rename itself, made durable: best effort (some file systems
     * cannot open a directory). */
    if ((d = strdup(path)) != NULL)
        (void)db_aside_sync(dirname(d), 1);
    else
        rc = pd_error_nomem("putting the database in place");
    free(d);
    return rc;
}

int db_aside_finish(sqlite3 *db, const char *path)
{
    char *tmp = db_aside_name(path, ".new");
    int rc;

    /* Not stopped half way by the run's interrupt (ingest_options), which
     * may be why it ends: what it committed is kept as a run into an
     * existing database keeps it. */
    sqlite3_progress_handler(db, 0, NULL, NULL);
    /* The switch rewrites the header under the rollback journal; the
     * readers that open the file later find a WAL database. */
    rc = db_exec(db, "PRAGMA journal_mode = WAL");
    if (sqlite3_close(db) != SQLITE_OK) {
        if (rc == 0)
            rc = pd_error_set(PD_EDB, "%s: cannot close the new database: %s",
                              tmp ? tmp : path, sqlite3_errmsg(db));
        sqlite3_close_v2(db);       /* closed once its statements are */
    }
    if (rc == 0 && !tmp)
        rc = pd_error_nomem("putting the database in place");
    if (rc == 0)
        rc = db_aside_place(tmp, path);
    free(tmp);
    return rc;
}
