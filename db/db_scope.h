/*
 * db_scope.h: named scopes and the figures of a commit under a scope.
 *
 * A scopes file (db/scopes/default.scopes documents the format) names
 * scopes: path globs (common/pathfilter.h's pathfilter_glob_match) and optionally the
 * object-dtype filter `exclude-object-paths`, which leaves out every
 * function whose object state is not null.  The built-in `no-object-dtype`
 * scope answers the team's plan (DOMAIN.md, seed): object arrays stay on the
 * CPython API and raise an error in universal mode, so how far is the rest
 * from universal mode?
 *
 * Scoped figures are computed from what ingest stored, never by analysing
 * again.  Under the object filter, a file with object paths keeps:
 * functions that are not object paths (counted by status); tokens = the
 * file's totals minus the object functions' tokens (so file-scope tokens
 * stay); status and universal readiness from the unguarded findings outside
 * object functions (functions.ung_* and analyses.ung_*, migration 011).  Those per-analysis
 * figures do not depend on the scope's globs, which apply per path, so they
 * are cached in table analysis_noobject (migration 011; derived data
 * whose rows any run may delete).  A file without object paths keeps its stored
 * figures.
 */
#ifndef DB_SCOPE_H
#define DB_SCOPE_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "db.h"
#include "pd_flow.h"

typedef struct {
    char *name;
    char *title;                 /* "" when none */
    char **include;              /* ninclude globs; none: every path */
    size_t ninclude;
    char **exclude;
    size_t nexclude;
    int exclude_object_paths;    /* 1: leave out object-dtype functions */
} db_scope;

typedef struct db_scopes {
    db_scope *v;
    size_t n;
    char hash[17];               /* FNV-1a 64 of the file text, hex */
} db_scopes;

/*
 * Parse scopes file text (`origin` names it in messages).  *out is freed
 * with db_scopes_free().  Errors: PD_EINVAL with "ORIGIN:LINE: what"
 * (unknown directive, directive before any scope, bad or duplicate name),
 * PD_ENOMEM.
 */
int db_scopes_parse(db_scopes **out, const char *text, const char *origin);

/* Read and parse the file at `path`, or the built-in scopes when path is
 * NULL.  Errors as db_scopes_parse, PD_EIO when the file cannot be read. */
int db_scopes_load(db_scopes **out, const char *path);

/* Free; accepts NULL. */
void db_scopes_free(db_scopes *s);

/* The scope named `name`, or NULL. */
const db_scope *db_scopes_find(const db_scopes *s, const char *name);

/*
 * Write the scopes' names, in order and comma-separated ("none" when there
 * are none), into buf of `size` bytes, cut to fit, for the message that
 * refuses an unknown scope name.
 */
void db_scopes_names(const db_scopes *s, char *buf, size_t size);

/* 1 when `path` is in the scope's globs, else 0. */
int db_scope_has_path(const db_scope *sc, const char *path);

/* Index of a status name in db_counts.fn order, -1 when unknown. */
int db_scope_status_index(const char *status);

/*
 * The figures of one analysed file under scope `sc` (its path already
 * matched): `full` and `status` are the stored ones (files = 1), *out and
 * *status_out (index as db_counts.fn) the scoped ones.  Reads or fills the
 * analysis_noobject cache when the filter applies and the file has object
 * paths.  0, PD_ENOTFOUND (no such analysis), PD_EDB, PD_ENOMEM.
 */
int db_scope_file_counts(sqlite3 *db, const db_scope *sc, int64_t analysis_id,
                         const db_counts *full, int status, db_counts *out,
                         int *status_out);

/*
 * Fill the analysis_noobject cache for every analysis under `rules_hash`
 * that has object paths and no cached row yet, in one transaction, so that
 * the first scoped history after an ingest is as fast as the next ones.
 * *filled (may be NULL) gets the number of rows written.  0 or an error
 * code as db_scope_file_counts.
 */
int db_scope_warm(sqlite3 *db, const char *rules_hash, int64_t *filled);

/* Room for db_scope_cache_text: every measure as a signed 64-bit number
 * and a space. */
#define DB_SCOPE_CACHE_TEXT (PD_NMEASURES * 21 + 1)

/*
 * The stored form of the no-object figures `c` in the scope cache
 * (analysis_noobject.counts, migration 011): every measure in
 * pd_measures.def order, space-separated, into `text`.  Written by the
 * ingest (db_ingest_noobject) and by db_scope_file_counts; read back by
 * the latter.
 */
void db_scope_cache_text(char text[DB_SCOPE_CACHE_TEXT], const db_counts *c);

/* A function of one analysis: its stored figures and its unguarded uses
 * per class (index order of db_counts.tok). */
typedef struct {
    char *name;                  /* owned by the detail; NULL when read
                                  * without names (db_scope_detail_row) */
    int64_t start_line;
    int status;                  /* index as db_counts.fn */
    int object;                  /* pd_objstate, PD_OBJ_NONE */
    int is_object;               /* 1: an object-dtype path */
    int64_t tok[4];              /* guarded + unguarded, as stored */
    int64_t ung[4];              /* unguarded only */
} db_scope_fn;

typedef struct {
    db_scope_fn *fn;
    size_t nfn;
    pd_file_facts file;          /* the whole file: functions and file scope */
    int64_t file_ung[4];         /* unguarded, outside any function */
} db_scope_detail;

/*
 * The functions of analysis `analysis_id` with their unguarded uses per
 * class, and the file's, as ingest stored them (migration 011).  *out is
 * filled; free its contents with db_scope_detail_free.  0, PD_ENOTFOUND,
 * PD_EDB, PD_ENOMEM.
 */
int db_scope_detail_read(sqlite3 *db, int64_t analysis_id, db_scope_detail *out);

/*
 * The same from the current row of a statement of the caller's (one
 * prepared for many analyses) that selected DB_SCOPE_DETAIL_COLS of
 * analysis `analysis_id` from column `col` on; `names` 0 leaves every
 * function's name NULL (a reader of the figures alone).  0, PD_EDB,
 * PD_ENOMEM.
 */
#define DB_SCOPE_DETAIL_COLS \
    "fns, fns_len, tok_hpy, tok_capi, tok_npy_legacy, tok_bridge, " \
    "ung_hpy, ung_capi, ung_npy_legacy, ung_bridge"
int db_scope_detail_row(sqlite3_stmt *st, int col, int64_t analysis_id, int names,
                        db_scope_detail *out);

/*
 * Every measure of the analysis in `d` (files = 1) by the rules of
 * pd_measures.def, and its status; with `exclude_object` 1 as if its
 * object-dtype functions were not there (the no-object-dtype scope).
 * 0 or PD_ENOMEM.
 */
int db_scope_detail_counts(const db_scope_detail *d, int exclude_object, db_counts *out,
                           int *status);

/* Free what db_scope_detail_read allocated; accepts NULL. */
void db_scope_detail_free(db_scope_detail *d);

/*
 * db_scope_detail_read with the object states a commit's call graph `g`
 * gives the functions of the file at `path` (a callee elsewhere can put a
 * function on an object-dtype path, db_flow.h); `g` NULL: the blob's own.
 * Every reader of per-function states at a commit takes them from here, so
 * the summary, the file list, the blockers and the gate agree.
 */
int db_scope_detail_read_at(sqlite3 *db, int64_t analysis_id, const pd_flow *g,
                            const char *path, db_scope_detail *out);

/* 1 when nothing unguarded outside object-dtype paths in `d` needs CPython
 * (no capi or bridge use at file scope or in a function that is not an
 * object path: pd_universal_ready_rule), else 0. */
int db_scope_detail_ready(const db_scope_detail *d);

/*
 * db_scope_file_counts for the file at `path` of a commit whose call graph
 * is `g` (NULL: the blob's own states).  `full` are the file's figures with
 * the graph's object states already applied (as db_files_next reads them).
 * When the graph changes a state of the file, its scoped figures are
 * computed from those states (and not cached: they belong to the commit);
 * else they are the blob's, cached.  Errors as db_scope_file_counts.
 */
int db_scope_file_counts_at(sqlite3 *db, const db_scope *sc, int64_t analysis_id,
                            const db_counts *full, int status, const pd_flow *g,
                            const char *path, db_counts *out, int *status_out);

/* A commit of a replayed chain. */
typedef struct {
    int64_t id;                             /* commit row id */
    char oid[41];
    int64_t author_time, committer_time;    /* unix seconds */
    int author_offset, committer_offset;    /* minutes east of UTC */
} db_scope_commit;

/*
 * Called for each commit of a first-parent chain that has a stored summary
 * under the rules, oldest first, with the scoped totals after it.  A
 * non-zero return stops the walk and is returned.
 */
typedef int (*db_scope_commit_fn)(void *arg, const db_scope_commit *cm,
                                  const db_counts *c);

/*
 * Replay the first-parent chain ending at `tip` oldest first, keeping the
 * scope's running totals as ingest keeps the stored ones (a change
 * subtracts the path's previous figures and adds the new ones), with the
 * object states of each commit's call graph: every point is what
 * db_scope_commit_counts gives at its commit (db_scope_history.c).  0, or
 * fn's return, or an error code as above.
 */
int db_scope_history(sqlite3 *db, const db_scope *sc, int64_t tip,
                     const char *rules_hash, db_scope_commit_fn fn, void *arg);

/*
 * The scope's totals at commit `commit_id` (sum over its files).  0 or an
 * error code as above.
 */
int db_scope_commit_counts(sqlite3 *db, const db_scope *sc, int64_t commit_id,
                           const char *rules_hash, db_counts *out);

#endif
