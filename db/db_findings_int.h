/*
 * db_findings_int.h: what db_findings.c (format F1, the writer and
 * db_findings_each) shares with db_findings_json.c (the reader of the JSON
 * that databases written before F1 hold).  For those two files only; the
 * formats are described in db_findings.h.
 */
#ifndef DB_FINDINGS_INT_H
#define DB_FINDINGS_INT_H

#include <stdint.h>

#include "db_findings.h"

/*
 * Call `fn` for each row of `text`, stored findings in the JSON format
 * (NUL-terminated; not changed), as db_findings_each does: a non-zero
 * return of fn stops the walk and is returned; otherwise 0, PD_EDB naming
 * analysis `analysis_id` when the text is not rows of that shape (no row
 * after the damage is handed out), PD_ENOMEM.
 */
int db_findings_json_walk(const char *text, int64_t analysis_id,
                          int (*fn)(void *arg, const db_finding *f), void *arg);

#endif
