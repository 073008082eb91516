/*
 * db_kept.c: statements kept prepared between uses (see db_kept.h).
 *
 * One table for every connection: a cold answer asks for a few dozen
 * statements, so a scan of the table under its lock costs less than a
 * prepare by far (one of the page's costs 40 to 90 us).
 */
#include <pthread.h>
#include <stddef.h>

#include "db_kept.h"
#include "db_stmt.h"

typedef struct {
    sqlite3 *db;                /* NULL: a free slot */
    const char *sql;            /* the key, by address */
    sqlite3_stmt *st;
    int busy;                   /* handed out, not given back yet */
} db_kept_slot;

static pthread_mutex_t db_kept_mu = PTHREAD_MUTEX_INITIALIZER;
static db_kept_slot db_kept_tab[DB_KEPT_MAX];

int db_kept_prepare(sqlite3 *db, sqlite3_stmt **out, const char *sql)
{
    db_kept_slot *free_slot = NULL;
    int i;

    *out = NULL;
    pthread_mutex_lock(&db_kept_mu);
    for (i = 0; i < DB_KEPT_MAX; i++) {
        db_kept_slot *k = &db_kept_tab[i];

        if (k->db == db && k->sql == sql && !k->busy) {
            k->busy = 1;
            *out = k->st;
            pthread_mutex_unlock(&db_kept_mu);
            return 0;
        }
    }
    pthread_mutex_unlock(&db_kept_mu);
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL) != SQLITE_OK) {
        sqlite3_finalize(*out);
        *out = NULL;
        return db_prepare(db, out, sql);    /* its error, with the SQL named */
    }
    pthread_mutex_lock(&db_kept_mu);
    for (i = 0; i < DB_KEPT_MAX && !free_slot; i++)
        if (!db_kept_tab[i].db)
            free_slot = &db_kept_tab[i];
    if (free_slot) {            /* else it is finalized when given back */
        free_slot->db = db;
        free_slot->sql = sql;
        free_slot->st = *out;
        free_slot->busy = 1;
    }
    pthread_mutex_unlock(&db_kept_mu);
    return 0;
}

void db_kept_done(sqlite3_stmt *st)
{
    int i;

    if (!st)
        return;
    /* reset here, by the thread that used it, before it can be handed out */
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    pthread_mutex_lock(&db_kept_mu);
    for (i = 0; i < DB_KEPT_MAX; i++)
        if (db_kept_tab[i].st == st && db_kept_tab[i].db) {
            db_kept_tab[i].busy = 0;
            pthread_mutex_unlock(&db_kept_mu);
            return;
        }
    pthread_mutex_unlock(&db_kept_mu);
    sqlite3_finalize(st);
}

void db_kept_close(sqlite3 *db)
{
    int i;

    if (!db)
        return;
    pthread_mutex_lock(&db_kept_mu);
    for (i = 0; i < DB_KEPT_MAX; i++)
        if (db_kept_tab[i].db == db) {
            sqlite3_finalize(db_kept_tab[i].st);
            db_kept_tab[i] = (db_kept_slot){NULL, NULL, NULL, 0};
        }
    pthread_mutex_unlock(&db_kept_mu);
}

int db_kept_count(void)
{
    int i, n = 0;

    pthread_mutex_lock(&db_kept_mu);
    for (i = 0; i < DB_KEPT_MAX; i++)
        n += db_kept_tab[i].db != NULL;
    pthread_mutex_unlock(&db_kept_mu);
    return n;
}
