/*
 * db_aside_probe.h: what a first ingest building its database aside
 * (db_aside.h) shows at PATH, read without SQLite, so that every command
 * that opens a database (db.c) and the ingest itself (db_aside.c) say the
 * same of it.
 */
#ifndef DB_ASIDE_PROBE_H
#define DB_ASIDE_PROBE_H

/* PRAGMA application_id of a database being built aside ("pdNW"), 0 once
 * it is put in place: what marks a PATH.new as one a run left, which the
 * next may remove (https://sqlite.org/fileformat2.html, offset 68). */
#define DB_ASIDE_MARK 0x70644e57

/* `path` with `suffix` appended (malloc: the caller frees it), or NULL
 * when out of memory. */
char *db_aside_name(const char *path, const char *suffix);

/* 1 when nothing is at `path` (lstat: ENOENT), so that a database made
 * there may be built aside; 0 when something is (or lstat failed
 * otherwise: the plain open then says why). */
int db_aside_wanted(const char *path);

/* 1 when `tmp` (a PATH.new) is a file a run building it aside left: empty
 * (killed before its first page), or a database whose header carries
 * DB_ASIDE_MARK; 0 for anything else (another's file, a directory, an
 * unreadable file). */
int db_aside_ours(const char *tmp);

/* 1 when nothing is at `path` but PATH.new is and an ingest holds the
 * database's lock: a first ingest is building it; 2 when PATH.new is one
 * a run left (db_aside_ours) and no one holds the lock: a first ingest
 * was killed (the next ingest starts again); 0 otherwise.  Creates
 * nothing. */
int db_aside_building(const char *path);

/* When a first ingest is building the database at `path` or left it
 * unfinished (db_aside_building), set the error "no database at PATH yet:
 * a first ingest is building it (PATH.new); THEN" or "... was stopped
 * before it ended (PATH.new); run `portdash ingest` again" and return
 * PD_EINVAL; otherwise 0.  `then` says what the command's user may do
 * once the run has ended ("run this once it has ended"). */
int db_aside_say(const char *path, const char *then);

#endif
