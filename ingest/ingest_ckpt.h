/*
 * ingest_ckpt.h: WAL checkpoints of a long ingest on a thread of their own.
 *
 * SQLite's automatic checkpoint runs in the committing thread
 * (https://www.sqlite.org/wal.html, "Automatic Checkpoint"): the ingest's
 * writer stopped at the commit that crossed its threshold to copy the WAL
 * back into the database and sync both, while the analysis threads ran out
 * of room and waited, and closing the database did it once more for
 * everything after.  Here the writer's commits only wake a thread with its
 * own connection, which runs PASSIVE checkpoints (they wait for no reader
 * nor writer: https://www.sqlite.org/c3ref/wal_checkpoint_v2.html) while
 * the writer goes on; the close finds little left to copy.
 *
 * A WAL starts again from its beginning only when a write transaction
 * starts after a checkpoint copied all of it, which a checkpoint running
 * beside the writer seldom has; so the WAL grows, and a commit that finds
 * it past INGEST_CKPT_BOUND pages checkpoints in the writer as before,
 * which bounds it.  Durability is unchanged: the same checkpoints sync the
 * same files, later.
 */
#ifndef INGEST_CKPT_H
#define INGEST_CKPT_H

#include <sqlite3.h>

/* WAL pages after which the writer checkpoints itself (4 KiB pages:
 * 128 MiB; numpy/core's history reaches 30,600): the WAL's bound on disk.
 * The thread has copied all but the last transaction by then, and the
 * WAL starts again at the writer's next transaction. */
#define INGEST_CKPT_BOUND 32768

/* WAL pages after which a commit wakes the checkpointer (16 MiB). */
#define INGEST_CKPT_WAKE 4096

typedef struct ingest_ckpt ingest_ckpt;

/*
 * Open a second connection to the database at `path` and start the
 * checkpointer; `writer` (the caller's connection to it, which keeps its
 * other settings) gets a WAL hook that replaces its automatic checkpoint.
 * *out is freed with ingest_ckpt_stop.  0, PD_ENOMEM, PD_EDB (the second
 * connection could not be opened), PD_ERROR (no thread): the caller may
 * go on without one, checkpointing as before.
 */
int ingest_ckpt_start(ingest_ckpt **out, sqlite3 *writer, const char *path);

/*
 * Stop the thread after the checkpoint it runs, close its connection and
 * give `writer` back SQLite's automatic checkpoint at `pages` pages
 * (sqlite3_wal_autocheckpoint); accepts NULL.  Call before closing
 * `writer`.
 */
void ingest_ckpt_stop(ingest_ckpt *k, int pages);

#endif
