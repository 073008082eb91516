/*
 * db_analysis.h: typed reads of one stored analysis (by blob or id) and of
 * a repository's ref names, for the server and the gate: which analysis a
 * blob has, its findings text, its functions, and a cheap readability
 * check.  Strings handed to callbacks are valid during the call only.
 */
#ifndef DB_ANALYSIS_H
#define DB_ANALYSIS_H

#include <stdint.h>
#include <sqlite3.h>

#include "db_fns.h"
#include "pd_domain.h"

/* The analysis row id of `blob` (40 hex) under `rules_hash` into *id, 0
 * when it has none.  0 or PD_EDB. */
int db_analysis_find(sqlite3 *db, const char *blob, const char *rules_hash, int64_t *id);

/*
 * The findings of analysis `analysis_id`, decompressed: the text in one of the
 * formats of db_findings.h (F1, or the JSON of older databases),
 * NUL-terminated, into *text (free()).
 * 0, PD_ENOTFOUND (no such analysis), PD_EDB (also for damaged bytes),
 * PD_ENOMEM.  db_findings_each (db_findings.h) reads this text as typed
 * rows; use that rather than parsing it again.
 */
int db_analysis_findings_text(sqlite3 *db, int64_t analysis_id, char **text);

/* The stored figures of one analysis.  The strings are the struct's own,
 * freed with db_analysis_row_free(). */
typedef struct {
    int64_t id;
    char *status;                /* pd_status name */
    int universal_ready;         /* 1: builds in universal mode */
    char *notes;                 /* the analyzer's notes; NULL: none */
    int64_t lines;               /* lines of the file */
    int64_t size;                /* bytes of the file */
} db_analysis_row;

/*
 * The analysis of `blob` (40 hex) under `rules_hash` into *out.  0,
 * PD_ENOTFOUND (the blob has no analysis under those rules; *out empty),
 * PD_EDB, PD_ENOMEM.  *out is freed with db_analysis_row_free() in every
 * case.
 */
int db_analysis_get(sqlite3 *db, const char *blob, const char *rules_hash,
                    db_analysis_row *out);

/* Free the strings of *a and empty it; accepts an empty row. */
void db_analysis_row_free(db_analysis_row *a);

/* One function of an analysis with everything the file page shows: the
 * stored function as db_fns.h reads it (name, lines, status, object state,
 * tokens, name_from_macro, why). */
typedef db_fn_stored db_function;

/* Call `fn` for each function of analysis `analysis_id` in index order;
 * the strings are valid during the call.  0, fn's non-zero return, or
 * PD_EDB (the list is then incomplete: an error, not a shorter list). */
int db_analysis_function_rows(sqlite3 *db, int64_t analysis_id,
                              int (*fn)(void *arg, const db_function *f), void *arg);

/* Call `fn` with the name of each function of analysis `analysis_id` in
 * index order.  0, fn's non-zero return, or PD_EDB. */
int db_analysis_function_names(sqlite3 *db, int64_t analysis_id,
                               int (*fn)(void *arg, const char *name), void *arg);

/* One function of an analysis, as the gate and diffs compare them. */
typedef struct {
    const char *name;
    const char *status;          /* pd_status name */
    const char *object_state;    /* pd_objstate name, NULL off object paths */
    int64_t start_line;
    int64_t tok_capi;            /* C API tokens, guarded or not */
} db_fn_brief;

/* Call `fn` for each function of the analysis of `blob` under
 * `rules_hash`, in index order (none when the blob has no analysis).
 * 0, fn's non-zero return, or PD_EDB. */
int db_blob_functions(sqlite3 *db, const char *blob, const char *rules_hash,
                      int (*fn)(void *arg, const db_fn_brief *f), void *arg);

/* A function found by name at a commit. */
typedef struct {
    const char *path;            /* its file */
    const char *name;
    int64_t start_line, end_line;
    const char *status;          /* pd_status name */
    const char *object_state;    /* its own state: NULL off object paths */
    int64_t idx;                 /* position in its file's analysis */
} db_fn_match;

/*
 * Call `fn` for each function of each analysed file at commit `commit_id`
 * (files in path order, functions in index order) whose name matches the
 * LIKE pattern `like` (escape character '\').  0, fn's non-zero return,
 * PD_EDB, PD_ENOMEM.
 */
int db_functions_like(sqlite3 *db, int64_t commit_id, const char *rules_hash,
                      const char *like, int (*fn)(void *arg, const db_fn_match *m),
                      void *arg);

/* Call `fn` for each function of analysis `analysis_id` in index order
 * (same row as db_blob_functions).  0, fn's non-zero return, or PD_EDB. */
int db_analysis_functions(sqlite3 *db, int64_t analysis_id,
                          int (*fn)(void *arg, const db_fn_brief *f), void *arg);

/* The flow facts of one analysis, decompressed and NUL-terminated, into *out
 * (the caller frees; NULL when not stored).  0, PD_ENOTFOUND (no such
 * analysis), PD_EDB, PD_ENOMEM. */
int db_analysis_flow(sqlite3 *db, int64_t analysis_id, char **out);

/* Call `fn` with each stored ref name of repository `repo_id`, sorted.
 * 0, fn's non-zero return, or PD_EDB. */
int db_ref_names(sqlite3 *db, int64_t repo_id,
                 int (*fn)(void *arg, const char *name), void *arg);

/* 0 when the database answers a query on its repositories, else PD_EDB
 * with SQLite's message (the liveness check). */
int db_check_readable(sqlite3 *db);

#endif
