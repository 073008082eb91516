/*
 * ingest_ckpt.c: WAL checkpoints on their own thread (see ingest_ckpt.h).
 */
#include <pthread.h>
#include <stdlib.h>

#include "ingest_ckpt.h"
#include "pd_error.h"

struct ingest_ckpt {
    sqlite3 *writer;
    sqlite3 *db;                /* the checkpointer's own connection */
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int wake, stop;
};

static void *ingest_ckpt_main(void *arg)
{
    ingest_ckpt *k = arg;

    pthread_setname_np(pthread_self(), "pd-ckpt");   /* for top and perf */
    pthread_mutex_lock(&k->mu);
    for (;;) {
        while (!k->wake && !k->stop)
            pthread_cond_wait(&k->cv, &k->mu);
        if (k->stop)
            break;
        k->wake = 0;
        pthread_mutex_unlock(&k->mu);
        /* A failure (busy, I/O) leaves the frames for the next one, or
         * for the close's checkpoint: nothing is lost. */
        sqlite3_wal_checkpoint_v2(k->db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        pthread_mutex_lock(&k->mu);
    }
    pthread_mutex_unlock(&k->mu);
    return NULL;
}

/* The writer's WAL hook, after each commit: `pages` is the WAL's size. */
static int ingest_ckpt_hook(void *arg, sqlite3 *db, const char *name, int pages)
{
    ingest_ckpt *k = arg;

    if (pages >= INGEST_CKPT_BOUND)
        return sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
    if (pages >= INGEST_CKPT_WAKE) {
        pthread_mutex_lock(&k->mu);
        k->wake = 1;
        pthread_cond_signal(&k->cv);
        pthread_mutex_unlock(&k->mu);
    }
    return SQLITE_OK;
}

int ingest_ckpt_start(ingest_ckpt **out, sqlite3 *writer, const char *path)
{
    ingest_ckpt *k = calloc(1, sizeof(*k));

    *out = NULL;
    if (!k)
        return pd_error_nomem(NULL);
    if (sqlite3_open_v2(path, &k->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close(k->db);
        free(k);
        return pd_error_set(PD_EDB, "%s: cannot open a checkpoint connection", path);
    }
    sqlite3_busy_timeout(k->db, 1000);
    /* A connection reads its file at its first statement: before that a
     * checkpoint finds no WAL and does nothing (pnLog -1). */
    if (sqlite3_exec(k->db, "PRAGMA journal_mode", NULL, NULL, NULL) != SQLITE_OK) {
        sqlite3_close(k->db);
        free(k);
        return pd_error_set(PD_EDB, "%s: cannot read the database for checkpoints", path);
    }
    k->writer = writer;
    pthread_mutex_init(&k->mu, NULL);
    pthread_cond_init(&k->cv, NULL);
    if (pthread_create(&k->th, NULL, ingest_ckpt_main, k) != 0) {
        pthread_cond_destroy(&k->cv);
        pthread_mutex_destroy(&k->mu);
        sqlite3_close(k->db);
        free(k);
        return pd_error_set(PD_ERROR, "cannot start the checkpoint thread");
    }
    sqlite3_wal_hook(writer, ingest_ckpt_hook, k);
    *out = k;
    return 0;
}

void ingest_ckpt_stop(ingest_ckpt *k, int pages)
{
    if (!k)
        return;
    sqlite3_wal_autocheckpoint(k->writer, pages);   /* replaces the hook */
    pthread_mutex_lock(&k->mu);
    k->stop = 1;
    pthread_cond_signal(&k->cv);
    pthread_mutex_unlock(&k->mu);
    pthread_join(k->th, NULL);
    pthread_cond_destroy(&k->cv);
    pthread_mutex_destroy(&k->mu);
    sqlite3_close(k->db);
    free(k);
}
