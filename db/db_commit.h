/*
 * db_commit.h: typed reads of repositories, refs, one commit's metadata
 * and the files a commit changed, for the commit and repository pages.
 * Strings handed to callbacks are valid during the call only.
 */
#ifndef DB_COMMIT_H
#define DB_COMMIT_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* A repository. */
typedef struct {
    int64_t id;
    const char *name;
} db_repo;

/* Call `fn` for each repository, by name.  0, fn's non-zero return, or
 * PD_EDB (the list is then incomplete: an error, not a shorter list). */
int db_repos(sqlite3 *db, int (*fn)(void *arg, const db_repo *repo), void *arg);

/* A stored ref and the commit it points at. */
typedef struct {
    const char *name;
    const char *oid;             /* 40 hex */
} db_ref;

/* Call `fn` for each ref of repository `repo_id`, by name.  0, fn's
 * non-zero return, or PD_EDB. */
int db_refs(sqlite3 *db, int64_t repo_id, int (*fn)(void *arg, const db_ref *ref),
            void *arg);

/* A commit's stored metadata.  The strings and the parent list are the
 * struct's own, freed with db_commit_free(); text columns git may leave
 * empty (author, e-mail, message) are NULL when not stored. */
typedef struct {
    char *author_name, *author_email;
    int64_t author_time;         /* unix seconds */
    int author_offset;           /* minutes east of UTC */
    int64_t committer_time;
    int committer_offset;
    char *summary;               /* the message's summary (git_commit_summary) */
    char (*parents)[41];         /* 40 hex + NUL each, in git's order */
    size_t nparents;
    int64_t first_parent_id;     /* commit row id; 0: a root commit */
    char *patch_id;              /* git patch id; "" when none was computed */
} db_commit;

/*
 * Commit row `commit_id` into *out.  0, PD_EDB (no such row, since callers
 * hold an id resolved a moment before; a first parent stored after its
 * child, which ingest never writes: damage and the start of a cycle; or
 * SQLite's error), PD_ENOMEM.  *out is freed with db_commit_free() in
 * every case.
 */
int db_commit_get(sqlite3 *db, int64_t commit_id, db_commit *out);

/* Free what *c owns and empty it; accepts an empty struct. */
void db_commit_free(db_commit *c);

/* One file a commit changed, as the commit page shows it: a rename's
 * deletion of the old path is part of the rename, not a row of its own. */
typedef struct {
    const char *path;
    const char *blob;            /* 40 hex; NULL: deleted */
    const char *old_path;        /* the path renamed from; NULL otherwise */
} db_change;

/* How many files commit `commit_id` changed (as db_commit_changes counts
 * them) into *n.  0 or PD_EDB. */
int db_commit_changes_count(sqlite3 *db, int64_t commit_id, size_t *n);

/*
 * Call `fn` for the files commit `commit_id` changed, by path, skipping
 * the first `offset` and stopping after `limit`.  0, fn's non-zero return,
 * or PD_EDB.
 */
int db_commit_changes(sqlite3 *db, int64_t commit_id, size_t offset, size_t limit,
                      int (*fn)(void *arg, const db_change *ch), void *arg);

/*
 * Call `fn` with the id and stored message of each other commit of
 * repository `repo_id` whose git patch id is `patch_id` (the same change,
 * e.g. before and after a rebase), by committer date, leaving out commit
 * `except_id`.  No call when patch_id is "".  0, fn's non-zero return, or
 * PD_EDB.
 */
int db_same_patch(sqlite3 *db, int64_t repo_id, const char *patch_id, int64_t except_id,
                  int (*fn)(void *arg, const char *oid, const char *summary), void *arg);

#endif
