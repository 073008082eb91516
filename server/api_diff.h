/*
 * api_diff.h: what moved between two versions of a file, function by
 * function, and between two whole commits.  Used by the commit page
 * (changes against the first parent) and by compare.
 *
 * Functions are matched by name and, for names that occur more than once in
 * a file (#if/#else variants), by occurrence.  Each change carries tags:
 *   added, removed              the function appears / disappears
 *   progressed, regressed       status rank up / down, with legacy < bridged
 *                               < ported, and neutral ranked with ported
 *                               (nothing left to port)
 *   converted, object-regressed object state rank up / down, with
 *                               object-legacy < object-cpython-only <
 *                               object-universal
 *   introduced, object-dropped  the function becomes / stops being an
 *                               object-dtype path
 */
#ifndef API_DIFF_H
#define API_DIFF_H

#include "api.h"
#include "db.h"

/*
 * Append to `functions` (and, if not NULL, to `regressions`) the changed
 * functions of `path` between blob `from_blob` and blob `to_blob` (either
 * NULL: the file is absent on that side), as {"path", "name", "from",
 * "to", "changes"}.  0, or PD_EDB.
 */
int api_diff_file(srv_req *r, const char *rules_hash, const char *path,
                  const char *from_blob, const char *to_blob, json_t *functions,
                  json_t *regressions);

/* The functions of blob's analysis under the rules (empty list for NULL). */
#include "gate.h"
int api_diff_load(srv_req *r, const char *rules_hash, const char *blob, gate_fnlist *out);

/* Summary object S ({"files", "functions", "tokens", "object_paths",
 * "universal_ready_files"}) of counts. */
json_t *api_stats_obj(const db_counts *c);

/* One side of a changed file: blob NULL when the file is absent there. */
typedef struct {
    const char *blob;
    const char *status;
    int ready;
} api_side;

/*
 * Call `fn` for every in-scope path whose blob differs between two resolved
 * commits (present on one side only included), in path order.  A non-zero
 * return from fn stops the walk and is returned.  0 or PD_EDB.
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

/* GET /api/v1/repos/{repo}/compare/{base}...{head} */
enum MHD_Result api_compare(srv_req *r);

#endif
