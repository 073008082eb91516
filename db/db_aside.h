/*
 * db_aside.h: a database that does not exist yet, built aside and put in
 * place whole (the first ingest into a new --db).
 *
 * While nothing is at PATH, no reader and no other writer can have it
 * open, so there is nothing for WAL and its syncs to protect: the ingest
 * writes PATH.new with a rollback journal in memory and no sync
 * (db_open_private), then switches it to WAL, syncs it once and renames
 * it to PATH.  On numpy/core's full ingest that is 7.1 -> 6.5 s of wall
 * time (the checkpoints' copies and syncs, with the other threads waiting
 * behind them; doc/benchmarks.md, issue 26).
 *
 * What a run leaves:
 * - done, or stopped by a signal (its open transaction rolled back as
 *   before, then PRAGMA quick_check): PATH, holding what it committed, as
 *   a run that wrote PATH itself leaves it;
 * - failed otherwise (an unknown ref, a full disk: a rollback after an
 *   I/O error cannot be trusted with the journal in memory): nothing, as
 *   a failed first run keeps nothing anyway (ingest.c, ingest_forget_new);
 * - killed, or the machine stops: PATH.new, unfinished, and no PATH.  The
 *   next ingest (which holds PATH's ingest lock, db_lock.h) removes it and
 *   starts again.  That run's progress is lost, never data: nothing was at
 *   PATH.
 * Until the run ends there is no database at PATH, and every command that
 * opens it says why (db_aside_probe.h; `serve`'s systemd unit retries
 * every 5 s, doc/service.md).
 */
#ifndef DB_ASIDE_H
#define DB_ASIDE_H

#include <sqlite3.h>

#include "db_aside_probe.h"

/* A database being built aside: its paths and its writeback thread. */
typedef struct db_aside db_aside;

/*
 * Open PATH.new (`path` with ".new") for a new database at `path`, after
 * removing what an unfinished run left there (PATH.new and its -journal,
 * -wal, -shm) and the -journal, -wal and -shm of a database removed from
 * PATH (SQLite would replay them into the new database once it is at
 * PATH).  A PATH.new that no run left (not empty, and without the mark
 * these files carry in their header from their first write until they
 * are renamed to PATH, PRAGMA application_id) is not removed: PD_EINVAL,
 * "in the way".  The caller holds the ingest lock of
 * `path` (db_lock.h), so no other run builds it.  *db as db_open_private() gives it; *out
 * the handle db_aside_finish takes.  A thread starts the disk writes of
 * what was written every 250 ms (sync_file_range, waiting for none), so
 * that the sync at the end finds little left: numpy/core's 117 MB took
 * 0.13-0.16 s there, every other thread done, and take 0.02-0.04 s.
 * Errors: PD_ENOMEM, PD_EIO (a leftover that cannot be removed, named),
 * PD_EDB (as db_open); nothing is then left at PATH.new.
 */
int db_aside_open(db_aside **out, sqlite3 **db, const char *path);

/*
 * Close db (opened by db_aside_open with handle a; every statement
 * finalized) and put it in place: checked first when `check`
 * (PRAGMA quick_check: after a run stopped by an interrupt, whose open
 * transaction was rolled back from the journal in memory), switched to
 * WAL, closed, synced, renamed to PATH without replacing anything there
 * (renameat2 RENAME_NOREPLACE, or link and unlink where the file system
 * has no such rename), the directory synced and the mark cleared at PATH.
 * SIGINT, SIGTERM and SIGHUP wait meanwhile.  db is closed and a freed in
 * every case.  Errors: PD_EDB (the check, the switch or the close) and
 * PD_EIO (sync or rename; the message names both paths): PATH.new is then
 * removed, and the message says so as db_aside_discard's does; PD_EBUSY
 * when something appeared at PATH meanwhile (another command made a
 * database there): PATH.new is then kept, unmarked (no run removes it),
 * and the message says so.
 */
int db_aside_finish(db_aside *a, sqlite3 *db, int check);

/* 1 when db_aside_open removed a PATH.new that a first ingest stopped
 * before it ended had left (so that the ingest says it started again);
 * 0 otherwise, and for NULL. */
int db_aside_restarted(const db_aside *a);

/* Close db and remove PATH.new: the run failed with rc otherwise than by
 * an interrupt, and a rollback after an I/O error (a full disk) cannot be
 * trusted with the journal in memory; nothing existed at PATH, so nothing
 * is lost but the run.  The error message gets "; a first ingest that
 * fails keeps nothing: nothing is at PATH", as every error that removes
 * PATH.new.  Frees a. */
void db_aside_discard(db_aside *a, sqlite3 *db, int rc);

#endif
