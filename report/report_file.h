/*
 * report_file.h: what a report is made of: the analysed files, what a run
 * forbids (--fail-on), and the tool's name and version.  Types only.
 */
#ifndef REPORT_FILE_H
#define REPORT_FILE_H

#include <stddef.h>

#include "analyzer/analyzer.h"

/* One analysed file: `path` is repository- or cwd-relative, as printed. */
typedef struct {
    const char *path;
    const an_result *res;
    const unsigned char *keep;  /* NULL: every finding; else SARIF writes
                                   finding i only when keep[i] (report_new_since) */
    const struct fix_list *fixes; /* NULL: none; else the checked rewrites of
                                   the file (fix.h), written as SARIF fixes */
} report_file;

/* What a run forbids (--fail-on): token classes and object states. */
typedef struct {
    unsigned classes;   /* bit an_class: an unguarded finding fails */
    unsigned objstates; /* bit an_objstate: a function in it fails */
} report_fail;


/* tool.driver.informationUri: where to learn what the results ask for (HPy's
 * porting guide; portdash has no public home page to name instead). */
#define REPORT_TOOL_URI "https://docs.hpyproject.org/en/latest/porting-guide.html"

/* The version written in SARIF tool.driver.version and --version. */
#define REPORT_TOOL_VERSION "0.3.0"

#endif
