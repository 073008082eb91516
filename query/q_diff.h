/*
 * q_diff.h: what moved between two versions of a file, function by
 * function, typed.  The commit page (q_commit.h: changes against the first
 * parent) and compare (q_compare.h) list these moves.
 *
 * Functions are matched by name and, for names that occur more than once in
 * a file (#if/#else variants), by occurrence (gate_match).  Each move
 * carries tags:
 *   added, removed              the function appears / disappears
 *   progressed, regressed       status rank up / down, with legacy < bridged
 *                               < ported, and neutral ranked with ported
 *                               (nothing left to port)
 *   converted, object-regressed object state rank up / down, with
 *                               object-legacy < object-cpython-only <
 *                               object-universal
 *   introduced, object-dropped  the function becomes / stops being an
 *                               object-dtype path; with added / removed
 *                               too, so that the object-dtype moves tell
 *                               every function that joined or left the
 *                               object paths (a removed object path is
 *                               removed and object-dropped)
 * A file whose blob is the same on both sides moves only through the call
 * graph (a helper in another file changed): its moves say call_graph.
 */
#ifndef Q_DIFF_H
#define Q_DIFF_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#include "gate.h"
#include "pd_flow.h"

/* One side of a changed file: blob NULL when the file is absent there. */
typedef struct {
    const char *blob;
    const char *status;
    int ready;
    int64_t commit_id;           /* the side's commit: its call graph gives
                                  * the functions' object states */
} q_side;

/* One side of a function move. */
typedef struct {
    int present;                 /* 0: the function is absent on this side */
    char status[16];             /* pd_status name */
    char objstate[24];           /* "" when not an object-dtype path */
    int64_t start_line;
} q_fn_side;

/* A function that moved. */
typedef struct {
    char *path, *name;
    q_fn_side from, to;
    const char *changes[4];      /* tags (static strings), in order */
    size_t nchanges;
    int regressed;               /* 1: a regression (status or object rank down) */
    int call_graph;              /* 1: the file is the same blob on both sides:
                                  * only its callees' object states moved it */
} q_move;

/* A list of moves: the first `most` kept (0: all), `total` counted. */
typedef struct {
    q_move *v;
    size_t n, cap;
    size_t most;
    size_t total;
} q_moves;

/* Free the moves; the list is empty afterwards (`most` kept). */
void q_moves_free(q_moves *l);

/*
 * Append to `functions` (and, if not NULL, the regressions also to
 * `regressions`) the functions of `path` that moved between side `from`
 * and side `to`, object states being those of each side's commit
 * (db_flow.h): for the same blob on both sides, the moves of the call
 * graph alone.  0, PD_EDB, PD_ENOMEM.
 */
int q_diff_file(sqlite3 *db, const char *rules_hash, const char *path, const q_side *from,
                const q_side *to, q_moves *functions, q_moves *regressions);

/* The functions of a side's analysis of `path` under the rules into *out
 * (empty for a NULL blob; gate_fnlist_free), with the object states of the
 * side's commit.  0, PD_EDB, PD_ENOMEM. */
int q_diff_load(sqlite3 *db, const char *rules_hash, const char *path, const q_side *side,
                gate_fnlist *out);

#endif
