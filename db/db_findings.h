/*
 * db_findings.h: the one writer and the one reader of the stored findings
 * of an analysis, so that one file owns their format (db_findings.c; the
 * reader of the older JSON in db_findings_json.c).
 *
 * They are stored per analysis as one compressed text (migration 001:
 * columns analyses.findings, and findings_len, the bytes of the text before
 * compression).  The reader hands them out as typed rows, one at a time,
 * so a file with hundreds of thousands of findings never becomes one tree
 * in memory.  A text that begins with 'F' is in format F1; any other is the
 * JSON that databases written before F1 hold (it begins with '['), read
 * exactly as before; no migration rewrites it.
 *
 * Format F1, written by db_findings_encode, lines ended by LF:
 *
 *   F1 <entries> <rows>                            the header, once
 *   <guarded>TAB<class>TAB<rule>TAB<text>[TAB<reason>]  <entries> lines: the table
 *   <line delta> <column> <entry>[ <function>]     <rows> lines: the findings
 *
 * and nothing after the last row.  The table holds each distinct (guarded,
 * class, rule, text, reason) once, in order of first use; <guarded> is 0
 * or 1, and TAB<reason> is there only when the finding has a reason (so no
 * reason and "" differ).  A row is one finding, in stored order; <entry>
 * is the 0-based number of its table line; its line is <line delta> plus
 * the line of the row before (0 before the first row), modulo 2^64, so any
 * int64_t line can be written; <function> is left out when it is the
 * function of the row before (-1 before the first row).  Numbers are
 * decimal, '-' before a negative one, no '+', no leading zero, within
 * int64_t.  A string holds its bytes as they are, except a backslash, TAB
 * and LF, written as the two bytes \\, \t and \n, and each byte above
 * 0x7f, written as U+FFFD (EF BF BD) as the JSON did: so a reader hands out
 * the same strings for an analysis as it did from the JSON, and the text
 * is valid UTF-8.  A findings text of other bytes is damage (PD_EDB).
 *
 * Why: the JSON ([399,26,"capi","capi-names-cpython","PyObject",86,false],
 * about 55 bytes a finding) repeated class, rule and text on every row, and
 * deflate, which is paid per byte, compressed 517 MB of it per ingest of
 * numpy/core's history (12 % of the ingest's CPU); a finding is here about
 * 8 bytes and a table entry about 50, 112 MB in all, 27 MB compressed
 * rather than 51.  The distinct entries are few (a file has on average 900
 * findings and 110 entries); most findings are on the line of the one
 * before or a few lines down, and in the function of the one before.  It
 * stays text, so a findings column can be read with zstd (zlib before
 * migration 020) and a pager.
 *
 * The JSON of older databases: one array of rows [line, column, "class",
 * "rule", "text", function, guarded(, "reason")], "reason" left out when
 * there is none; strings escaped as JSON, a byte above 0x7f as U+FFFD.
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
 * analysis), PD_EDB when the stored bytes do not inflate or are not a text
 * of either format above (the message says "the database is damaged"; the
 * rows before the damage may have been handed to fn, but the walk never
 * ends with 0 on a damaged list), PD_ENOMEM.
 */
int db_findings_each(sqlite3 *db, int64_t analysis_id,
                     int (*fn)(void *arg, const db_finding *f), void *arg);

/*
 * Encode `n` findings (`rows`, in the analyzer's order; NULL when n is 0)
 * as the stored column: *out receives the compressed text (db_compress.h) of format
 * F1 (above; freed with free()), *zlen its size and *len the size of the
 * text, for analyses.findings_len.  NULL class, rule and text are written
 * as "" (a NULL reason is none); guarded is written as 0 or 1.  The same
 * rows give the same bytes.  Touches no database, so analysis threads
 * encode in parallel.  0, PD_ENOMEM or PD_ERROR (compression failed); *out is
 * NULL on error.
 */
int db_findings_encode(const db_finding *rows, size_t n, unsigned char **out,
                       size_t *zlen, size_t *len);

#endif
