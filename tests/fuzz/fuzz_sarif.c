/*
 * fuzz_sarif.c: libFuzzer target over SARIF import's reading: gzip
 * detection and streaming inflation with its bound (sarif_src), the two
 * streaming passes of yajl events pruned to jansson values (sarif_json.c),
 * the checks with {N} placeholders and uriBaseId chains and the batches
 * (sarif_log_read), and the mapping of every result's URI to a repository
 * path (sarif_map_path).  Every string handed to the sink is read so that
 * ASan sees bad pointers.  Storage is covered by tests/unit/test_sarif*.c.
 * Build and run with `make fuzz-sarif`; seeds: tests/fixtures/sarif.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sarif_import.h"
#include "sarif_log.h"

static size_t fz_sum;

static int fz_runs(void *arg, sarif_log *log)
{
    size_t i;

    for (i = 0; i < log->nruns; i++)
        fz_sum += strlen(log->runs[i].tool) + strlen(log->runs[i].category);
    return 0;
}

static int fz_batch(void *arg, sarif_log *log, size_t run, sarif_result *res, size_t n)
{
    size_t j;

    if (run >= log->nruns || n > SARIF_BATCH)
        abort();
    for (j = 0; j < n; j++) {
        const sarif_result *r = &res[j];
        char *path = r->uri ? sarif_map_path(r->uri, "/work/checkout") : NULL;

        fz_sum += strlen(r->message) + strlen(r->level) + strlen(r->kind);
        fz_sum += r->rule_id ? strlen(r->rule_id) : 0;
        fz_sum += path ? strlen(path) : 0;
        free(path);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sarif_sink sink = {NULL, fz_runs, fz_batch};
    sarif_src *src = NULL;
    sarif_log *log = NULL;

    /* 1 MiB keeps each run quick; the bound itself is what is tested. */
    if (sarif_src_mem(&src, data, size, (size_t)1 << 20) < 0)
        return 0;
    sarif_log_read(&log, src, &sink);
    if (fz_sum == (size_t)-1)
        abort();
    sarif_log_free(log);
    sarif_src_free(src);
    return 0;
}
