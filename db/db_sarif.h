/*
 * db_sarif.h: the stored SARIF runs and results (db/migrations/004_sarif.sql,
 * 006_sarif_generation.sql, 013_sarif_rules.sql): the writes of one upload, all in one
 * transaction, and the reads behind the API's run list, file findings and
 * per-tool counts.  sarif/ parses a log and maps its results; this module
 * only stores and reads rows.  Errors follow pd_error.h: PD_EDB with
 * SQLite's message (so db_error_busy() tells a lock from damage),
 * PD_ENOMEM.  Strings handed to callbacks are valid during the call only.
 */
#ifndef DB_SARIF_H
#define DB_SARIF_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sqlite3.h>

/*
 * 1 if a result of SARIF kind `kind` (3.27.9) is a finding: every kind but
 * "pass" and "notApplicable", which say nothing needs doing.  The reads
 * below count and list findings by the same rule, in SQL.
 */
static inline int db_sarif_kind_is_finding(const char *kind)
{
    return strcmp(kind, "pass") != 0 && strcmp(kind, "notApplicable") != 0;
}

/* One stored run (table sarif_runs). */
typedef struct {
    const char *tool;          /* tool.driver.name */
    const char *version;       /* tool version; NULL: none */
    const char *category;      /* "" when none */
    int64_t uploaded_at;       /* unix seconds */
    int64_t results;           /* every result of the run */
    int64_t findings;          /* results that are findings */
    int64_t unmapped;          /* results not at a file of the commit */
} db_sarif_run_row;

/* One stored result (table sarif_results). */
typedef struct {
    int64_t run_id;            /* its run, from db_sarif_upload_run */
    int64_t idx;               /* position in the log's run.results */
    const char *path;          /* repository path; NULL: outside it */
    int64_t line, column;      /* 1-based; 0: absent (stored NULL) */
    int64_t rule;              /* its rule, from db_sarif_upload_rule; 0: none */
    const char *level;         /* none, note, warning, error */
    const char *kind;          /* fail, pass, open, ... */
    const char *message;
    const char *function;      /* analysed function holding the line; NULL: none */
    const char *fingerprints;  /* JSON object text */
} db_sarif_result_row;

/* One upload being stored: its transaction and its reused statements. */
typedef struct db_sarif_upload db_sarif_upload;

/*
 * Begin storing an upload: BEGIN IMMEDIATE (so no other writer slips in
 * between its reads and writes) and prepare the statements every result
 * reuses.  *out is ended with db_sarif_upload_end(), which rolls back
 * whatever db_sarif_upload_commit() has not committed.  0, PD_EDB (*out
 * NULL; no transaction is left open), PD_ENOMEM.
 */
int db_sarif_upload_begin(sqlite3 *db, db_sarif_upload **out);

/*
 * Delete the runs of commit `commit_id` stored under (`tool`, `category`)
 * with their results: an upload replaces the runs of an earlier one with
 * the same key.  0 or PD_EDB.
 */
int db_sarif_upload_replace(db_sarif_upload *u, int64_t commit_id, const char *tool,
                            const char *category);

/*
 * Store run `run` of repository `repo_id` at commit `commit_id` (its counts
 * as given; set the final ones with db_sarif_upload_counts); *id is its row
 * id, for its results.  0 or PD_EDB.
 */
int db_sarif_upload_run(db_sarif_upload *u, int64_t repo_id, int64_t commit_id,
                        const db_sarif_run_row *run, int64_t *id);

/*
 * The name of the innermost function of analysis `analysis_id` whose lines
 * hold `line`, copied into fn (size n, truncated); "" when none.  0 or
 * PD_EDB (then fn is "" too, and must not be taken for "no function").
 */
int db_sarif_upload_function(db_sarif_upload *u, int64_t analysis_id, int64_t line,
                             char *fn, size_t n);

/*
 * The row of rule `rule_id` of run `run_id` (table sarif_rules, migration
 * 013): found, or stored (then *added is 1), so a rule id many results
 * name is stored once.  *id is what db_sarif_result_row.rule takes.
 * 0 or PD_EDB.
 */
int db_sarif_upload_rule(db_sarif_upload *u, int64_t run_id, const char *rule_id,
                         int64_t *id, int *added);

/* Store one result.  0 or PD_EDB (for example a duplicate (run_id, idx)). */
int db_sarif_upload_result(db_sarif_upload *u, const db_sarif_result_row *r);

/* Set the counts of run `run_id`.  0 or PD_EDB. */
int db_sarif_upload_counts(db_sarif_upload *u, int64_t run_id, int64_t results,
                           int64_t findings, int64_t unmapped);

/* Commit the upload's transaction.  0 or PD_EDB (then the end rolls it
 * back). */
int db_sarif_upload_commit(db_sarif_upload *u);

/* Roll back unless committed, finalize, free.  Accepts NULL.  Keeps the
 * thread's last error (pd_error_last), which says why the upload failed. */
void db_sarif_upload_end(db_sarif_upload *u);

/*
 * Call `fn` for every stored run of commit `commit_id`, by tool, category
 * and upload order (results, findings and unmapped as counted by the
 * upload).  A non-zero return from fn stops the walk and is returned;
 * otherwise 0 or PD_EDB (the list is then incomplete).
 */
int db_sarif_runs(sqlite3 *db, int64_t commit_id,
                  int (*fn)(void *arg, const db_sarif_run_row *r), void *arg);

/* One stored finding at a file, as db_sarif_file_findings gives it. */
typedef struct {
    int64_t line, column;      /* 0: absent */
    const char *rule_id;       /* NULL: none */
    const char *message;
    const char *function;      /* NULL: none */
    const char *tool, *level, *category;
    const char *fingerprint;   /* the member asked for; NULL: absent */
} db_sarif_finding_row;

/* How many stored findings the runs of commit `commit_id` have at `path`
 * into *n.  0 or PD_EDB. */
int db_sarif_file_count(sqlite3 *db, int64_t commit_id, const char *path, int64_t *n);

/*
 * Call `fn` for the stored findings (see db_sarif_kind_is_finding) of the
 * runs of commit `commit_id` at `path`, by line, column, tool and position
 * in the log, skipping the first `offset` and stopping after `limit` (so
 * one page of a file costs a page of memory, issue 27), with `fp_key`'s
 * member of its fingerprints as fingerprint.  A non-zero return from fn
 * stops the walk and is returned; otherwise 0, PD_EDB (the list is then
 * incomplete), PD_EINVAL (fp_key over 200 bytes).
 */
int db_sarif_file_findings(sqlite3 *db, int64_t commit_id, const char *path,
                           const char *fp_key, size_t offset, size_t limit,
                           int (*fn)(void *arg, const db_sarif_finding_row *f), void *arg);

/* One count of db_sarif_tool_levels. */
typedef struct {
    const char *tool;
    const char *level;         /* NULL: the row that lists a run of the tool */
    int64_t count;             /* findings of the tool at the level; 0 when
                                  level is NULL */
} db_sarif_level_row;

/*
 * Call `fn`, in tool order, for the findings of commit `commit_id`'s runs
 * counted per tool and level, and once per run with level NULL (so a tool
 * whose runs have no findings is listed too).  A non-zero return from fn
 * stops the walk and is returned; otherwise 0 or PD_EDB (the counts are
 * then incomplete).
 */
int db_sarif_tool_levels(sqlite3 *db, int64_t commit_id,
                         int (*fn)(void *arg, const db_sarif_level_row *r), void *arg);

#endif
