/*
 * db_lock.h: the work lock of a database: one ingest or snapshot writes it
 * at a time (issue 27: two ingests at once failed with a raw UNIQUE or
 * migration error, and the shipped hourly ingest and Monday snapshot units
 * could overlap).  The lock is flock(2) on the file DB.lock beside the
 * database, so it holds across processes (CLI, systemd units) and between
 * the server's threads (each taker opens the file anew), and it goes when
 * its holder exits, however it exits (kill -9 included): there is no stale
 * lock to clear.  The file keeps a line naming the holder, for the message
 * of whoever finds it taken; it is never removed (removing would let two
 * takers lock two different files).
 */
#ifndef DB_LOCK_H
#define DB_LOCK_H

typedef struct db_lock db_lock;

/*
 * Take the work lock of database `db_path` for `what` ("ingest",
 * "snapshot"), waiting up to `wait_s` seconds while another holds it (0:
 * not at all).  0 with *out set (release with db_lock_release); PD_EBUSY
 * "another ingest is running (pid P, ingest of NAME since TIME); ..." when
 * still taken; PD_EIO when the lock file cannot be made or locked;
 * PD_ENOMEM.
 */
int db_lock_take(db_lock **out, const char *db_path, const char *what, int wait_s);

/* db_lock_take whose wait ends early, with PD_EBUSY "stopped while waiting
 * for ...", once stop(arg) returns nonzero (checked every 100 ms; stop may
 * be NULL): an ingest told to stop (SIGTERM from `systemctl stop`) while
 * it waits with --wait. */
int db_lock_take_stoppable(db_lock **out, const char *db_path, const char *what,
                           int wait_s, int (*stop)(void *), void *arg);

/* 1 when another process holds the work lock of `db_path` now, 0 when
 * none does (or only this one: db_lock_take) or it has no lock file.
 * Tried with a shared flock let go at once: a taker that does not wait
 * could be refused only in that moment. */
int db_lock_held(const char *db_path);

/* Release; accepts NULL. */
void db_lock_release(db_lock *l);

#endif
