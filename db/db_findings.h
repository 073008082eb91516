/*
 * db_findings.h: the one writer and the one reader of the stored findings
 * of an analysis, so that one file owns their format.
 *
 * They are stored as one zlib-compressed JSON array of rows [line, column,
 * "class", "rule", "text", function, guarded(, "reason")] per analysis
 * (migration 001, columns analyses.findings and findings_len); "reason" is
 * left out when there is none.  The reader hands them out as typed rows,
 * one at a time, so a file with hundreds of thousands of findings never
 * becomes one tree in memory.
 */
#ifndef DB_FINDINGS_H
#define DB_FINDINGS_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

/* One finding of the built-in analyzer.  From db_findings_each the strings
 * belong to the reader and are valid during the callback only; to
 * db_findings_encode they are borrowed for the call. */
typedef struct {
    int64_t line, column;        /* 1-based, in the file */
    const char *cls;             /* pd_class name: hpy, capi, npy-legacy, bridge */
    const char *rule;            /* the rule's id */
    const char *text;            /* what matched (a C API name, ...) */
    int64_t function;            /* index of its function in the analysis
                                  * (functions.idx), -1: outside any function */
    int guarded;                 /* 1: under a guard that keeps it out of
                                  * universal builds */
    const char *reason;          /* why (item-access sites); NULL: none */
} db_finding;

/*
 * Call `fn` for each finding of analysis `analysis_id`, in stored order
 * (the analyzer's: by position in the file).  A non-zero return from fn
 * stops the walk and is returned.  Otherwise 0, PD_ENOTFOUND (no such
 * analysis), PD_EDB when the stored bytes do not inflate or are not rows
 * of that shape (the message says "the database is damaged"; the reader
 * never hands out part of a damaged list as if whole), PD_ENOMEM.
 */
int db_findings_each(sqlite3 *db, int64_t analysis_id,
                     int (*fn)(void *arg, const db_finding *f), void *arg);

/*
 * Encode `n` findings (`rows`, in the analyzer's order) as the stored
 * column: *out receives the zlib-compressed JSON (freed with free()),
 * *zlen its size and *len the size of the JSON text, for
 * analyses.findings_len.  NULL strings are written as "" (a NULL reason is
 * left out); bytes outside printable ASCII in a string are escaped, or
 * become U+FFFD above 0x7f, so the text is always valid UTF-8 and JSON.
 * Touches no database, so analysis threads encode in parallel.  0,
 * PD_ENOMEM or PD_ERROR (zlib failed); *out is NULL on error.
 */
int db_findings_encode(const db_finding *rows, size_t n, unsigned char **out,
                       size_t *zlen, size_t *len);

#endif
