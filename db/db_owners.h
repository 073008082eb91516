/*
 * db_owners.h: the versions of one file along a commit's first-parent
 * history, renames followed, as pd_owners_compute() takes them (issue 24,
 * point 3: who ported a function, who changed it lately).
 */
#ifndef DB_OWNERS_H
#define DB_OWNERS_H

#include <sqlite3.h>
#include <stdint.h>

#include "pd_owners.h"

/* Maps a commit's author to the identity shown (a mailmap; for a merge,
 * whose first parent is on the chain, the author of the merged tip):
 * `parents` are the commit's parent ids, space-separated.  *name and
 * *email get new strings (free()), or stay NULL to keep the given ones. */
typedef void (*db_owners_who)(void *arg, const char *name, const char *email,
                              const char *parents, char **out_name, char **out_email);

typedef struct {
    pd_own_ver *v;           /* oldest first; v[n-1] is the file at the commit */
    size_t n;
    int baseline;            /* 1: the walk stopped before the file's first version */
    int64_t *start_line;     /* of v[n-1]'s functions */
    int64_t *end_line;
    int64_t **starts, **ends; /* per version, of its functions */
    char **blob;             /* per version, its blob id */
    char **owned;            /* strings and arrays to free */
    size_t nowned;
} db_owner_hist;

/*
 * The versions of `path` at commit `commit_id` under `rules_hash`, newest
 * `max` changes at most, following renames (changes.old_path_id).  The
 * walk also stops at the first version with no HPy token once it has
 * `min` versions: nobody ported anything before it.  `who` (may be NULL)
 * maps each author.  0 (h->n is 0 when the path has no analysed version),
 * PD_EDB, PD_ENOMEM.  Free with db_owner_hist_free.
 */
int db_owner_hist_read(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                       const char *path, size_t min, size_t max, db_owners_who who,
                       void *who_arg, db_owner_hist *h);

void db_owner_hist_free(db_owner_hist *h);

#endif
