/*
 * db_measures_fill.h: what a migration adds to stored rows, filled in the
 * migration's transaction (db_measures_fill.c).
 */
#ifndef DB_MEASURES_FILL_H
#define DB_MEASURES_FILL_H

#include <sqlite3.h>

/*
 * Called by db_open inside the transaction of migration `version`, after
 * its SQL (`last` 1 for the newest migration this binary has): fills what
 * migrations added to rows stored before them, so no old row reads as a
 * silent zero.  After 011, the unguarded counts of every function and file
 * from the stored findings; after the last one, each measure column that
 * is NULL (a measure's migration adds its column
 * without a default): analyses from the stored facts (pd_counts_of_file),
 * commit_stats by summing the files of the commit, snapshots and
 * snapshot_files from those (their immutability triggers are lifted for
 * the fill only and put back as they were).  0, PD_EDB, PD_ENOMEM,
 * PD_EINVAL (findings of another shape).
 */
int db_measures_migrated(sqlite3 *db, int version, int last);

#endif
