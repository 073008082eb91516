/*
 * db_fns.h: the one writer and the one reader of the stored functions of
 * an analysis, so that one file owns their format.
 *
 * Since migration 019 the functions of an analysis are one compressed
 * text in its analyses row (columns fns and fns_len), not a row each in a
 * table: every reader reads them a whole analysis at a time, and a row
 * per function was a million rows on numpy/core's history, 60 % of the
 * database and a third of the ingest's writer (doc/benchmarks.md, issue
 * 26).
 *
 * The text has one line per function, in index order, of 15 fields
 * separated by tabs:
 *   name, start_line, end_line, status, object_state, tok_hpy, tok_capi,
 *   tok_npy_legacy, tok_bridge, name_from_macro, why, ung_hpy, ung_capi,
 *   ung_npy_legacy, ung_bridge
 * Numbers are decimal.  In the text fields a backslash, tab or newline is
 * written \\, \t or \n.  An empty object_state, name_from_macro or why is
 * NULL (none of them is ever empty text).  The why is its JSON (pd_why.h)
 * or, since issue 26's compaction, its compact form when it has one
 * (pd_why_compact: it begins with PD_WHY_US, never '{'); the reader hands
 * out the JSON either way, the same bytes.  The text is compressed
 * (db_compress.h); an analysis without functions stores NULL.
 */
#ifndef DB_FNS_H
#define DB_FNS_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "pd_buf.h"
#include "pd_domain.h"

/* One function of an analysis, as db_fns_text stores it.  Strings are
 * borrowed. */
typedef struct {
    const char *name;
    uint32_t start_line, end_line;     /* 1-based, inclusive */
    const char *status;                /* pd_status name */
    const char *object_state;          /* pd_objstate name; NULL: none */
    uint32_t tokens[PD_CLASS_COUNT];   /* findings by class */
    uint32_t ung[PD_CLASS_COUNT];      /* unguarded findings by class */
    const char *name_from_macro;       /* NULL: not made by a macro */
    const char *why;                   /* the stored why: JSON or the
                                        * compact form (pd_why.h) */
    size_t name_len, why_len;          /* their bytes when known; 0: strlen
                                        * (SQLite's strlen of a million rows
                                        * was a tenth of their insert) */
} db_function_row;

/* One stored function.  From the reader the strings belong to it and are
 * valid during the callback only. */
typedef struct {
    int64_t idx;                 /* position in the analysis (0-based) */
    const char *name;
    int64_t start_line, end_line;
    const char *status;          /* pd_status name */
    const char *object_state;    /* pd_objstate name; NULL off object paths */
    int64_t tok[PD_CLASS_COUNT]; /* findings per pd_class, guarded or not */
    const char *name_from_macro; /* NULL: not named by a macro */
    const char *why;             /* JSON text of the status reasons; NULL */
    int64_t ung[PD_CLASS_COUNT]; /* unguarded findings per pd_class */
} db_fn_stored;

/*
 * Append the text of `n` function rows `fn` (index order) to `b`, in the
 * format above.  Touches no database, so analysis threads encode in
 * parallel.  Errors are b's (b->err set on allocation failure).
 */
void db_fns_text(pd_buf *b, const db_function_row *fn, size_t n);

/*
 * Call `fn` for each function of the text `text` (len bytes, changed in
 * place: separators become NULs, escapes are undone; a compact why is
 * handed out as its JSON).  A non-zero return from fn stops the walk and
 * is returned.  Otherwise 0, PD_EDB when a line is not of the format above
 * (nothing after it is handed out), or PD_ENOMEM.
 */
int db_fns_parse(char *text, size_t len,
                 int (*fn)(void *arg, const db_fn_stored *f), void *arg);

/* db_fns_parse with flags: DB_FNS_NO_WHY hands out every why as NULL,
 * for a reader of the figures alone (a compact why made JSON was a fifth
 * of a scoped history's time). */
#define DB_FNS_NO_WHY 1u
int db_fns_parse_flags(char *text, size_t len, unsigned flags,
                       int (*fn)(void *arg, const db_fn_stored *f), void *arg);

/*
 * Call `fn` for each function of analysis `analysis_id` in index order.
 * A non-zero return from fn stops the walk and is returned.  Otherwise 0
 * (also for an analysis without functions or no such analysis), PD_EDB
 * (a damaged column: "the database is damaged"; part of a list is never
 * handed out as if whole), PD_ENOMEM.
 */
int db_fns_each(sqlite3 *db, int64_t analysis_id,
                int (*fn)(void *arg, const db_fn_stored *f), void *arg);

/*
 * Migration 019: add the columns when they are missing, then move the rows
 * of the old table functions (when it exists) into them, one analysis at a
 * time, and drop the table.  Run inside the migration's transaction.
 * 0, PD_EDB, PD_ENOMEM.
 */
int db_fns_fill(sqlite3 *db);

#endif
