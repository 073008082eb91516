/*
 * api_diff.h: what moved between two versions of a file, function by
 * function (q_diff.h), as JSON, and between two whole commits.  Used by
 * the commit page (changes against the first parent), compare and the
 * report.
 * The tags of a move are described in q_diff.h.
 */
#ifndef API_DIFF_H
#define API_DIFF_H

#include "api.h"
#include "db.h"
#include "q_diff.h"

/* One side of a changed file: blob NULL when the file is absent there
 * (q_diff.h). */
typedef q_side api_side;

/*
 * A function move as the API answers it: {"path", "name", "from", "to",
 * "changes"}, "to" with its "start_line"; a side where the function is
 * absent is null.  A new reference.
 */
json_t *api_move_json(const q_move *m);

/* The moves of `l` as a JSON array of api_move_json.  A new reference. */
json_t *api_moves_json(const q_moves *l);

/*
 * Append to `functions` (and, if not NULL, to `regressions`) the changed
 * functions of `path` between side `from` and side `to` (blob NULL: the
 * file is absent on that side), as {"path", "name", "from", "to",
 * "changes"}; object states are those of each side's commit (db_flow.h).
 * 0, or PD_EDB.
 */
int api_diff_file(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *from, const api_side *to, json_t *functions,
                  json_t *regressions);

/* The functions of a side's analysis of `path` under the rules (empty list
 * for a NULL blob), with the object states of the side's commit. */
#include "gate.h"
int api_diff_load(srv_req *r, const char *rules_hash, const char *path,
                  const api_side *side, gate_fnlist *out);

/* Summary object S ({"files", "functions", "tokens", "object_paths",
 * "universal_ready_files"}) of counts. */
json_t *api_stats_obj(const db_counts *c);


/*
 * Call `fn` for every selected path (path filter) whose blob differs between two resolved
 * commits (present on one side only included), or whose object states the
 * two commits' call graphs give differently (q_changed_files), in path
 * order.  A non-zero return from fn stops the walk and is returned.  0 or
 * PD_EDB.
 */
int api_changed_files(srv_req *r, const api_at *base, const api_at *head,
                      int (*fn)(void *arg, srv_req *r, const char *path,
                                const api_side *a, const api_side *b), void *arg);

/*
 * Files whose status or universal readiness differ between two resolved
 * commits (appended to `files` as {"path", "from", "to"}), and all function
 * moves (to `fns`, regressions also to `regs`).  0 or PD_EDB.
 */
int api_compare_commits(srv_req *r, const api_at *base, const api_at *head,
                        json_t *files, json_t *fns, json_t *regs);

#endif
