/*
 * db_snapshot_read.c: reading snapshots back (db_snapshot.h): the snapshot
 * rows with their figures, the previous snapshot of a ref, and the files
 * of one snapshot.  The figure columns come from the measures table
 * (pd_measures.def), whose column names the snapshots table shares with
 * commit_stats.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "db_measures.h"
#include "db_snapshot.h"
#include "pd_error.h"

struct db_snaps {
    sqlite3_stmt *st;
};

/* Columns before the measures: id, commit id, week, ref, oid, taken_at, method. */
#define DB_SNAP_HEAD 7

/* "SELECT <head>, s.<measure columns> FROM ... <tail>" into a new cursor. */
static int db_snaps_prepare(sqlite3 *db, db_snaps **out, const char *tail)
{
    char sql[2048];
    size_t n;
    int rc;

    *out = NULL;
    n = (size_t)snprintf(sql, sizeof(sql), "SELECT s.id, s.commit_id, s.week, s.ref, "
                         "c.oid, s.taken_at, s.method");
    if (n < sizeof(sql) - 2) {
        memcpy(sql + n, ", ", 3);
        n += 2;
        if ((rc = db_measure_list(sql + n, sizeof(sql) - n, DB_M_TOTALS, "s.")) < 0)
            return rc;
        n += strlen(sql + n);
    }
    if (n < sizeof(sql))
        n += (size_t)snprintf(sql + n, sizeof(sql) - n, " FROM snapshots s JOIN commits c "
                              "ON c.id = s.commit_id WHERE s.repo_id = ?1 %s", tail);
    if (n >= sizeof(sql))
        return pd_error_set(PD_ERROR, "snapshot query too long");
    if (!(*out = calloc(1, sizeof(**out))))
        return pd_error_nomem(NULL);
    if ((rc = db_prepare(db, &(*out)->st, sql)) < 0) {
        free(*out);
        *out = NULL;
    }
    return rc;
}

int db_snaps_open(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *week)
{
    int64_t end;
    int rc;

    *out = NULL;
    /* a malformed week is the asker's error, not a week without one */
    if (week && (rc = db_iso_week_end(week, &end)) < 0)
        return rc;
    rc = db_snaps_prepare(db, out, week ? "AND s.week = ?2 ORDER BY s.ref"
                                        : "ORDER BY s.week, s.ref");
    if (rc < 0)
        return rc;
    sqlite3_bind_int64((*out)->st, 1, repo_id);
    if (week)
        sqlite3_bind_text((*out)->st, 2, week, -1, SQLITE_TRANSIENT);
    return 0;
}

int db_snaps_open_prev(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *ref,
                       const char *week)
{
    int rc = db_snaps_prepare(db, out, "AND s.ref = ?2 AND s.week < ?3 "
                              "ORDER BY s.week DESC LIMIT 1");

    if (rc < 0)
        return rc;
    sqlite3_bind_int64((*out)->st, 1, repo_id);
    sqlite3_bind_text((*out)->st, 2, ref, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text((*out)->st, 3, week, -1, SQLITE_TRANSIENT);
    return 0;
}

int db_snaps_open_ref(sqlite3 *db, db_snaps **out, int64_t repo_id, const char *ref,
                      const char *until)
{
    int rc = db_snaps_prepare(db, out, "AND s.ref = ?2 AND s.week <= ?3 ORDER BY s.week");

    if (rc < 0)
        return rc;
    sqlite3_bind_int64((*out)->st, 1, repo_id);
    sqlite3_bind_text((*out)->st, 2, ref, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text((*out)->st, 3, until ? until : "9999", -1, SQLITE_TRANSIENT);
    return 0;
}

int db_snaps_next(db_snaps *c, db_snap_row *row)
{
    sqlite3_stmt *st = c->st;
    int rc = db_step(st);

    if (rc <= 0)
        return rc;
    row->id = sqlite3_column_int64(st, 0);
    row->commit_id = sqlite3_column_int64(st, 1);
    row->week = (const char *)sqlite3_column_text(st, 2);
    row->ref = (const char *)sqlite3_column_text(st, 3);
    row->commit = (const char *)sqlite3_column_text(st, 4);
    row->taken_at = sqlite3_column_int64(st, 5);
    row->method = (const char *)sqlite3_column_text(st, 6);
    memset(&row->counts, 0, sizeof(row->counts));
    db_measure_read(st, DB_SNAP_HEAD, DB_M_TOTALS, &row->counts);
    return 1;
}

void db_snaps_close(db_snaps *c)
{
    if (!c)
        return;
    sqlite3_finalize(c->st);
    free(c);
}

int db_snap_files(sqlite3 *db, int64_t snap_id,
                  int (*fn)(void *arg, const db_snap_file *f), void *arg)
{
    char cols[1024], sql[1280];
    sqlite3_stmt *st = NULL;
    db_snap_file f;
    int rc;

    if ((rc = db_measure_list(cols, sizeof(cols), DB_M_SNAPFILE, "")) < 0)
        return rc;
    snprintf(sql, sizeof(sql), "SELECT path, status, %s FROM snapshot_files WHERE "
             "snapshot_id = ?1 ORDER BY path", cols);
    if ((rc = db_prepare(db, &st, sql)) < 0)
        return rc;
    sqlite3_bind_int64(st, 1, snap_id);
    while ((rc = db_step(st)) > 0) {
        memset(&f, 0, sizeof(f));
        f.path = (const char *)sqlite3_column_text(st, 0);
        f.status = (const char *)sqlite3_column_text(st, 1);
        f.counts.files = 1;
        db_measure_read(st, 2, DB_M_SNAPFILE, &f.counts);
        if ((rc = fn(arg, &f)) != 0)
            break;
    }
    sqlite3_finalize(st);
    return rc;
}
