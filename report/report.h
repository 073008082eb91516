/*
 * report.h: writing analyses (analyze.h) as text, JSON or a function list,
 * for `portdash analyze` and CI bots (report.c; SARIF 2.1.0 is written by
 * sarif/sarif_write.h, above this folder, from the same report_file
 * list).  Nothing here touches a database: the input is a list of
 * (path, result) pairs (report_file.h).
 */
#ifndef REPORT_H
#define REPORT_H

#include <stdio.h>

#include "analyzer/analyzer.h"
#include "report_fail.h"
#include "report_file.h"
#include "report_since.h"

/*
 * Write the n files to out in `format`:
 *   "text"       one line per function (... [(name from macro M)]) and per
 *                finding (path:line:col: class rule `text` [in FUNCTION]
 *                [(guarded)] [(why: REASON)])
 *   "json"       [{"path", "status", "universal_ready", "lines", "notes",
 *                  "functions": [{"name", "name_from_macro" (null or
 *                  the macro, see analyze.h), "start_line", "name_line",
 *                  "end_line", "status", "object_state", "tokens", "why"
 *                  (an_why_json)}], "findings": [{"line", "column",
 *                  "class", "rule", "text", "function", "guarded",
 *                  "reason" (null or an_finding.reason)}]}]
 *   "functions"  tab-separated path, name, name_line, start_line, end_line,
 *                language ("c" or "c++"; what tests/ctags_compare.sh reads)
 * ("sarif" is sarif_write's, which the caller calls: an unknown format
 * here.)  Returns 0, PD_EINVAL for an unknown format,
 * PD_ENOMEM or PD_EIO (write error).
 */
int report_write(FILE *out, const char *format, const report_file *files,
                 size_t n, const report_fail *f);

#endif
