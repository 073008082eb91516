/*
 * db_path.h: what a --db path may be, checked before any file is made for
 * it (the database by db_open, its lock file by db_lock_take).
 */
#ifndef DB_PATH_H
#define DB_PATH_H

/*
 * 0 when `path` may name a database file; PD_EINVAL with the message when
 * it is a directory (`--db /tmp`: SQLite says only "unable to open database
 * file", and the lock file was made beside it as /tmp.lock).
 */
int db_path_check(const char *path);

#endif
