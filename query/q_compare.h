/*
 * q_compare.h: what moved between two commits, typed: the figures of
 * both, the files whose status or universal readiness changed, and the
 * function moves (q_diff.h), regressions apart.  server/api_compare.c
 * renders it as JSON, cli/cli_show.c as text or the same JSON.
 */
#ifndef Q_COMPARE_H
#define Q_COMPARE_H

#include <stddef.h>

#include "db.h"
#include "q_at.h"
#include "q_diff.h"

/* Most entries of each list the API keeps in a compare answer. */
#define Q_COMPARE_CAP 5000

/* How much to keep: the first `most` entries of each list (0: all). */
typedef struct {
    size_t most;
} q_compare_params;

/* One side of a file: present, with its status and readiness. */
typedef struct {
    int present;
    char status[24];             /* pd_status name, or "unanalysed" */
    int ready;                   /* universal-ready */
} q_file_side;

/* A file whose status or readiness differ between the two commits. */
typedef struct {
    char *path;
    q_file_side from, to;
} q_file_move;

/* Two commits compared. */
typedef struct {
    char base[41], head[41];
    db_counts base_stats, head_stats, delta;
    q_file_move *files;          /* the first `most` */
    size_t nfiles, capfiles;
    size_t files_total;          /* all of them */
    q_moves functions;           /* every function move (the first `most`) */
    q_moves regressions;         /* the moves that regress */
    size_t most;                 /* the cap the lists were read with; 0: none */
} q_compare;

/*
 * Compare resolved commits `base` and `head` (the rules of `head`) into
 * *out (q_compare_free): the function moves of changed files, and of
 * files whose blob is the same but whose functions' object states the two
 * call graphs give differ (q_move.call_graph), so that the object-dtype
 * moves add up to the delta of the object paths.  `p` NULL keeps every
 * entry.  0, PD_EDB, PD_ENOMEM; on error *out is NULL.
 */
int q_compare_get(sqlite3 *db, const q_at *base, const q_at *head,
                  const q_compare_params *p, q_compare **out);

/* Free a q_compare (NULL is fine). */
void q_compare_free(q_compare *c);

/* 1 when a list of `c` holds fewer entries than there are. */
int q_compare_truncated(const q_compare *c);

/*
 * Call `fn` for every selected path whose blob differs between two resolved
 * commits (present on one side only included), and every path of the same
 * blob whose object states the two commits' call graphs give differently
 * (a helper the change made read PyObject * items puts its unchanged
 * callers on object paths), in path order: the gate's walk, which judges
 * what a change did.  A non-zero return from fn stops the walk and is
 * returned.  0 or PD_EDB.
 */
int q_changed_files(sqlite3 *db, const q_at *base, const q_at *head,
                    int (*fn)(void *arg, const char *path, const q_side *a,
                              const q_side *b), void *arg);

#endif
