/*
 * srv_db.c: per-thread database connections (srv_db.h).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "db.h"
#include "pd_error.h"
#include "srv_budget.h"
#include "srv_cache.h"
#include "srv_db.h"

/* SQLite statements between two looks at the request budget: about a
 * tenth of a millisecond of work. */
#define SRV_DB_PROGRESS_OPS 1000

struct srv_dbs {
    char *path;
    int wait_ms;
    struct srv_cache *cache;
    pthread_key_t key;
    pthread_mutex_t lock;
    dev_t dev;                 /* the file seen last by any thread */
    ino_t ino;
};

/* One thread's connection and the file it was opened on. */
typedef struct {
    sqlite3 *db;
    dev_t dev;
    ino_t ino;
} srv_tdb;

static void srv_tdb_free(void *p)
{
    srv_tdb *t = p;

    db_close(t->db);
    free(t);
}

srv_dbs *srv_dbs_new(const char *path, int wait_ms, struct srv_cache *cache)
{
    srv_dbs *d = calloc(1, sizeof(*d));
    struct stat sb;

    if (!d || !(d->path = strdup(path)) || pthread_key_create(&d->key, srv_tdb_free)) {
        if (d)
            free(d->path);
        free(d);
        return NULL;
    }
    pthread_mutex_init(&d->lock, NULL);
    d->wait_ms = wait_ms;
    d->cache = cache;
    if (stat(path, &sb) == 0) {
        d->dev = sb.st_dev;
        d->ino = sb.st_ino;
    }
    return d;
}

void srv_dbs_free(srv_dbs *d)
{
    if (!d)
        return;
    pthread_key_delete(d->key);
    pthread_mutex_destroy(&d->lock);
    free(d->path);
    free(d);
}

/* The file at the path is `sb`: the first thread to see a new file drops
 * the answers cached from the old one. */
static void srv_dbs_seen(srv_dbs *d, const struct stat *sb)
{
    int changed;

    pthread_mutex_lock(&d->lock);
    changed = sb->st_dev != d->dev || sb->st_ino != d->ino;
    d->dev = sb->st_dev;
    d->ino = sb->st_ino;
    pthread_mutex_unlock(&d->lock);
    if (changed)
        srv_cache_clear(d->cache);
}

sqlite3 *srv_dbs_thread(srv_dbs *d)
{
    srv_tdb *t = pthread_getspecific(d->key);
    struct stat sb;

    if (!t) {
        if (!(t = calloc(1, sizeof(*t))) || pthread_setspecific(d->key, t) != 0) {
            free(t);
            pd_error_set(PD_EDB, "out of memory for a database connection");
            return NULL;
        }
    }
    /* A connection keeps reading the file it opened, even once removed or
     * replaced: look at the path first (a stat, about a microsecond). */
    if (stat(d->path, &sb) != 0) {
        db_close(t->db);
        t->db = NULL;
        pd_error_set(PD_EDB, "the database file is gone");
        return NULL;
    }
    srv_dbs_seen(d, &sb);
    if (t->db && (sb.st_dev != t->dev || sb.st_ino != t->ino)) {
        db_close(t->db);
        t->db = NULL;
    }
    if (!t->db) {
        if (db_open_wait(&t->db, d->path, 0, d->wait_ms) < 0)
            return NULL;
        t->dev = sb.st_dev;
        t->ino = sb.st_ino;
        sqlite3_progress_handler(t->db, SRV_DB_PROGRESS_OPS, srv_budget_progress, NULL);
    }
    return t->db;
}

int srv_dbs_check_file(srv_dbs *d, sqlite3 *db)
{
    static const char magic[16] = "SQLite format 3";
    char head[16];
    sqlite3_file *fp = NULL;
    struct stat sb;
    int rc;

    if (stat(d->path, &sb) < 0)
        return pd_error_set(PD_EDB, "the database file cannot be read");
    if (!db || sqlite3_file_control(db, "main", SQLITE_FCNTL_FILE_POINTER, &fp) != SQLITE_OK ||
        !fp || !fp->pMethods)
        return pd_error_set(PD_EDB, "the database file is not open");
    /* xRead reads the file (not the page cache); a short read is zero-filled */
    rc = fp->pMethods->xRead(fp, head, (int)sizeof(head), 0);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ)
        return pd_error_set(PD_EDB, "the database file cannot be read");
    if (rc == SQLITE_IOERR_SHORT_READ || memcmp(head, magic, sizeof(magic)) != 0)
        return pd_error_set(PD_EDB, "the database file is not an SQLite database");
    return 0;
}
