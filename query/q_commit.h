/*
 * q_commit.h: one commit, typed: its metadata, its figures and how they
 * moved against its first parent, one page of the files it changed with
 * their function moves (q_diff.h), and the commits with the same patch.
 * server/api_commit.c renders it as JSON, cli/cli_show.c as text or the
 * same JSON.
 */
#ifndef Q_COMMIT_H
#define Q_COMMIT_H

#include <stddef.h>

#include "db.h"
#include "db_commit.h"
#include "q_at.h"
#include "q_diff.h"

/* Changed files of one page of a commit, and the most a page may ask: a
 * commit renaming 50,000 files once made a 25 MB answer. */
#define Q_COMMIT_PER_PAGE 1000

/* Which page of the changed files to read: page (1-based) of per. */
typedef struct {
    size_t page, per;
} q_commit_params;

/* One changed file. */
typedef struct {
    char *path;
    char *old_path;              /* renamed from; NULL otherwise */
    const char *change;          /* added, modified, renamed, deleted */
    char from_blob[41];          /* "" when absent from the first parent */
    char to_blob[41];            /* "" when deleted */
} q_change;

/* A commit elsewhere with the same patch. */
typedef struct {
    char oid[41];
    char *summary;               /* NULL: none stored */
} q_same;

/* One commit. */
typedef struct {
    char oid[41];
    db_commit meta;              /* author, dates, summary, parents */
    db_counts stats, delta;      /* figures, and against the first parent */
    q_change *files;             /* the page's changed files */
    size_t nfiles, capfiles;
    q_moves functions;           /* their function moves */
    size_t files_total;          /* changed files in all */
    size_t page, per;
    q_same *same_patch;
    size_t nsame, capsame;
} q_commit;

/*
 * Read commit `at` into *out (q_commit_free): the page `p` of its changed
 * files (NULL: the first page of Q_COMMIT_PER_PAGE).  0, PD_EDB,
 * PD_ENOMEM; on error *out is NULL.
 */
int q_commit_get(sqlite3 *db, const q_at *at, const q_commit_params *p, q_commit **out);

/* Free a q_commit (NULL is fine). */
void q_commit_free(q_commit *c);

#endif
