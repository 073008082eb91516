/*
 * q_file_typed.h: the file page's built-in findings kept typed
 * (q_file_params.typed, issue 26.3): a 3,800-finding page was 45,000 JSON
 * values built, written and freed; typed they are a few allocations and
 * api_file_write.c writes them straight out.  Used by q_file.c only.
 */
#ifndef Q_FILE_TYPED_H
#define Q_FILE_TYPED_H

#include <sqlite3.h>
#include <stdint.h>

#include "db_findings.h"
#include "q_file.h"

/*
 * Add finding `f` of function `function` (NULL: none) to out->builtin,
 * strings copied.  A finding with a string that is not UTF-8 is left out,
 * as the untyped page leaves it out (its JSON object cannot be made).
 * 0 or PD_ENOMEM.
 */
int q_file_typed_add(q_file *out, const db_finding *f, const char *function);

/*
 * Fingerprint the built-in findings, then the SARIF ones in out->findings
 * (occurrences counted across both, as q_dismissed_fingerprints counts
 * one list), and mark the dismissed ones (db_triage_marks); sets
 * out->dismissed_count.  0, PD_EDB, PD_ENOMEM.
 */
int q_file_typed_marks(sqlite3 *db, int64_t repo_id, q_file *out);

/* Free the typed findings and their strings. */
void q_file_typed_free(q_file *out);

#endif
