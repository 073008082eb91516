/*
 * fuzz_sarif.c: libFuzzer target over SARIF import's reading: gzip
 * detection and inflation with its bound (sarif_gunzip), the log check and
 * reduction with {N} placeholders and uriBaseId chains (sarif_log_parse),
 * and the mapping of every result's URI to a repository path
 * (sarif_map_path).  Every string of the reduced log is read so that ASan
 * sees bad pointers.  Storage is covered by tests/unit/test_sarif*.c.
 * Build and run with `make fuzz-sarif`; seeds: tests/fixtures/sarif.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sarif_import.h"
#include "sarif_log.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *inflated = NULL;
    size_t len = 0, i, j, n = 0;
    int too_big = 0;
    sarif_log *log = NULL;

    /* 1 MiB keeps each run quick; the bound itself is what is tested. */
    if (sarif_gunzip(&inflated, &len, &too_big, data, size, (size_t)1 << 20) < 0)
        return 0;
    if (sarif_log_parse(&log, inflated ? inflated : (const char *)data,
                        inflated ? len : size) == 0) {
        for (i = 0; i < log->nruns; i++) {
            const sarif_run *run = &log->runs[i];

            n += strlen(run->tool) + strlen(run->category);
            for (j = 0; j < run->nresults; j++) {
                const sarif_result *r = &run->results[j];
                char *path = r->uri ? sarif_map_path(r->uri, "/work/checkout") : NULL;

                n += strlen(r->message) + strlen(r->level) + strlen(r->kind);
                n += r->rule_id ? strlen(r->rule_id) : 0;
                n += path ? strlen(path) : 0;
                free(path);
            }
        }
        if (n == (size_t)-1)
            abort();
    }
    sarif_log_free(log);
    free(inflated);
    return 0;
}
