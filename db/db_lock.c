/*
 * db_lock.c: the work lock of a database (see db_lock.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "db_lock.h"
#include "db_path.h"
#include "pd_error.h"
#include "pd_time.h"

struct db_lock {
    int fd;
    dev_t dev;
    ino_t ino;
};

/* The lock files this process holds locks on, so that db_lock_held asks
 * about other processes only: a command that took the lock and then
 * finds no database (`snapshot`) must not read its own lock as a first
 * ingest's (db_aside_probe.h).  A process holds one or two at a time. */
#define DL_MINE 16
static struct { dev_t dev; ino_t ino; } dl_mine[DL_MINE];
static size_t dl_nmine;
static pthread_mutex_t dl_mu = PTHREAD_MUTEX_INITIALIZER;

/* 1 when this process holds a lock on the file (dev, ino). */
static int dl_is_mine(dev_t dev, ino_t ino)
{
    size_t i;
    int mine = 0;

    pthread_mutex_lock(&dl_mu);
    for (i = 0; i < dl_nmine && !mine; i++)
        mine = dl_mine[i].dev == dev && dl_mine[i].ino == ino;
    pthread_mutex_unlock(&dl_mu);
    return mine;
}

/* Note (add) or forget (!add) one lock of this process's on (dev, ino). */
static void dl_note(dev_t dev, ino_t ino, int add)
{
    size_t i;

    pthread_mutex_lock(&dl_mu);
    if (add && dl_nmine < DL_MINE) {
        dl_mine[dl_nmine].dev = dev;
        dl_mine[dl_nmine++].ino = ino;
    }
    for (i = 0; !add && i < dl_nmine; i++)
        if (dl_mine[i].dev == dev && dl_mine[i].ino == ino) {
            dl_mine[i] = dl_mine[--dl_nmine];
            break;
        }
    pthread_mutex_unlock(&dl_mu);
}

/* The holder's line from the lock file into buf ("" when unreadable). */
static void dl_holder(int fd, char *buf, size_t n)
{
    ssize_t got = pread(fd, buf, n - 1, 0);

    buf[got > 0 ? got : 0] = '\0';
    buf[strcspn(buf, "\n")] = '\0';
}

/* flock, retried every 100 ms up to wait_s seconds or until stop(arg);
 * 0, or errno (ECANCELED: stopped). */
static int dl_flock(int fd, int wait_s, int (*stop)(void *), void *arg)
{
    struct timespec step = {0, 100 * 1000 * 1000};
    long tries = (long)wait_s * 10;

    for (;;) {
        if (flock(fd, LOCK_EX | LOCK_NB) == 0)
            return 0;
        if (errno != EWOULDBLOCK && errno != EINTR)
            return errno;
        if (tries-- <= 0)
            return EWOULDBLOCK;
        if (stop && stop(arg))
            return ECANCELED;
        nanosleep(&step, NULL);
    }
}

int db_lock_held(const char *db_path)
{
    char path[4200];
    struct stat sb;
    int fd, held;

    if (snprintf(path, sizeof(path), "%s.lock", db_path) >= (int)sizeof(path) ||
        (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
        return 0;
    held = flock(fd, LOCK_SH | LOCK_NB) < 0 && errno == EWOULDBLOCK &&
           !(fstat(fd, &sb) == 0 && dl_is_mine(sb.st_dev, sb.st_ino));
    close(fd);              /* a shared lock taken goes with it */
    return held;
}

int db_lock_take(db_lock **out, const char *db_path, const char *what, int wait_s)
{
    return db_lock_take_stoppable(out, db_path, what, wait_s, NULL, NULL);
}

int db_lock_take_stoppable(db_lock **out, const char *db_path, const char *what,
                           int wait_s, int (*stop)(void *), void *arg)
{
    char path[4200], holder[256], when[40], line[300];
    struct stat sb;
    db_lock *l;
    int fd, err;

    *out = NULL;
    if (snprintf(path, sizeof(path), "%s.lock", db_path) >= (int)sizeof(path))
        return pd_error_set(PD_EIO, "%s: path too long for its lock file", db_path);
    /* before a lock file is made beside it (`--db /tmp` made /tmp.lock) */
    if ((err = db_path_check(db_path)) < 0)
        return err;
    if ((fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0640)) < 0) {
        const char *slash = strrchr(db_path, '/');

        /* The usual cause: a database path in a directory that is not
         * there, which the lock file's name would hide. */
        if (errno == ENOENT && slash && slash > db_path)
            return pd_error_set(PD_EIO, "%s: no directory %.*s to hold the database", db_path,
                                (int)(slash - db_path), db_path);
        return pd_error_set(PD_EIO, "%s: cannot open the lock file: %s", path,
                            strerror(errno));
    }
    if ((err = dl_flock(fd, wait_s, stop, arg)) != 0) {
        dl_holder(fd, holder, sizeof(holder));
        close(fd);
        if (err == ECANCELED)
            return pd_error_set(PD_EBUSY, "stopped while waiting for another ingest "
                                "(%s); this %s did not start",
                                holder[0] ? holder : "holder unknown", what);
        if (err != EWOULDBLOCK)
            return pd_error_set(PD_EIO, "%s: cannot lock: %s", path, strerror(err));
        return pd_error_set(PD_EBUSY, "another ingest is running (%s); this %s did not "
                            "start: run it again when that one ends",
                            holder[0] ? holder : "holder unknown", what);
    }
    pd_iso8601(when, sizeof(when), (int64_t)time(NULL), 0);
    snprintf(line, sizeof(line), "pid %ld, %s since %s\n", (long)getpid(), what, when);
    /* The line only feeds a message: the lock is what counts. */
    if (ftruncate(fd, 0) == 0 && pwrite(fd, line, strlen(line), 0) < 0)
        line[0] = '\0';
    if (!(l = malloc(sizeof(*l)))) {
        close(fd);
        return pd_error_nomem(NULL);
    }
    l->fd = fd;
    l->dev = 0;
    l->ino = 0;
    if (fstat(fd, &sb) == 0) {
        l->dev = sb.st_dev;
        l->ino = sb.st_ino;
        dl_note(l->dev, l->ino, 1);
    }
    *out = l;
    return 0;
}

void db_lock_release(db_lock *l)
{
    if (!l)
        return;
    if (l->ino)
        dl_note(l->dev, l->ino, 0);
    close(l->fd);           /* the lock goes with the descriptor */
    free(l);
}
