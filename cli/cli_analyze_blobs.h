/*
 * cli_analyze_blobs.h: the benchmark mode of `portdash analyze` (cli_analyze_blobs.c).
 */
#ifndef CLI_ANALYZE_BLOBS_H
#define CLI_ANALYZE_BLOBS_H

#include <git2.h>

#include "analyzer/analyzer.h"

/*
 * --blobs FILE of `portdash analyze` (cli_analyze_blobs.c), the
 * analyzer's benchmark: read every blob FILE lists ("ID [PATH]" lines,
 * '-' for stdin; the path's suffix picks C, C++ or template handling,
 * default C) from `repo` into memory, then analyse them all on this
 * thread, through the chunk memo when PORTDASH_MEMO_MB asks for one, and
 * print "blobs N bytes B analysed_bytes E read_s R analyze_s A
 * analyze_MBps M memo_lookups ..." on stdout: CPU seconds of this
 * process, E counting templates expanded, M being B over A.  With
 * PORTDASH_MEMO_CHECK set, each blob is analysed plainly too and the
 * first difference fails.  0, or a PD_E* code with its message.
 */
int cli_an_blobs(const rules *r, git_repository *repo, const char *list);

#endif
