/*
 * cli_analyze_blobs.c: `portdash analyze --git-dir GITDIR --blobs FILE`,
 * the analyzer's benchmark (tests/bench/analyze.sh): blobs read into
 * memory first, then analysed on one thread, through the chunk memo as an
 * ingest does, timed by the process's CPU clock.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <git2.h>

#include "analyzer/analyzer.h"
#include "cli_analyze_blobs.h"
#include "pd_domain.h"
#include "pd_error.h"

/* Seconds of process CPU time (the benchmark is single-threaded). */
static double cli_cpu(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Bytes the analyzer reads for blob b at `path`: a template's expansion
 * (computed again here, untimed), else the blob. */
static size_t cli_analysed_bytes(git_blob *b, const char *path)
{
    size_t n = (size_t)git_blob_rawsize(b);
    tmpl_out *t = NULL;

    if (pd_path_kind(path) != PD_SRC_TEMPLATE ||
        tmpl_expand(&t, NULL, git_blob_rawcontent(b), n) < 0 || !t)
        return n;
    n = t->len;
    tmpl_free(t);
    return n;
}

/* Analyse one blob of --blobs through memo (may be NULL); with check, also
 * without it, and fail when the two results differ. */
static int cli_an_blob(const rules *r, an_memo *memo, const char *path,
                       const char *buf, size_t len, int check)
{
    an_result *res = NULL, *plain = NULL;
    char why[256];
    int rc = an_analyze_memo(&res, r, memo, path, buf, len);

    if (!rc && check && (rc = an_analyze(&plain, r, path, buf, len)) == 0 &&
        an_result_diff(res, plain, why, sizeof(why)))
        rc = pd_error_set(PD_ERROR, "memo check: %s: %s", path, why);
    an_result_free(res);
    an_result_free(plain);
    return rc;
}

/* --blobs (cli_analyze.h). */
int cli_an_blobs(const rules *r, git_repository *repo, const char *list)
{
    FILE *f = strcmp(list, "-") == 0 ? stdin : fopen(list, "r");
    git_blob **blobs = NULL;
    char **paths = NULL;
    size_t n = 0, cap = 0, i, bytes = 0, analysed = 0;
    char line[4096];
    double t0, t1, t2;
    int rc = 0, check = getenv("PORTDASH_MEMO_CHECK") != NULL;
    an_memo *memo = NULL;
    an_memo_stats ms = {0};

    if (!f)
        return pd_error_set(PD_EIO, "cannot open %s", list);
    t0 = cli_cpu();
    while (!rc && fgets(line, sizeof(line), f)) {
        git_oid oid;
        size_t idl = strcspn(line, " \t\r\n");
        char *path = line + idl + strspn(line + idl, " \t");

        path[strcspn(path, "\r\n")] = '\0';
        line[idl] = '\0';
        if (!line[0])
            continue;
        if (n == cap) {
            git_blob **p = realloc(blobs, (cap ? cap * 2 : 1024) * sizeof(*p));
            char **q = p ? realloc(paths, (cap ? cap * 2 : 1024) * sizeof(*q)) : NULL;

            if (p)
                blobs = p;
            if (!p || !q) {
                rc = pd_error_nomem(NULL);
                break;
            }
            paths = q;
            cap = cap ? cap * 2 : 1024;
        }
        if (!(paths[n] = strdup(*path ? path : "blob.c"))) {
            rc = pd_error_nomem(NULL);
            break;
        }
        if (git_oid_fromstr(&oid, line) < 0 ||
            git_blob_lookup(&blobs[n], repo, &oid) < 0) {
            rc = pd_error_set(PD_EGIT, "cannot read blob %s", line);
            free(paths[n]);
            break;
        }
        bytes += (size_t)git_blob_rawsize(blobs[n++]);
    }
    if (!rc && an_memo_env_bytes() && (rc = an_memo_new(&memo, r, an_memo_env_bytes())) < 0)
        memo = NULL;
    t1 = cli_cpu();
    for (i = 0; !rc && i < n; i++)
        rc = cli_an_blob(r, memo, paths[i], git_blob_rawcontent(blobs[i]),
                         (size_t)git_blob_rawsize(blobs[i]), check);
    t2 = cli_cpu();
    for (i = 0; !rc && i < n; i++)
        analysed += cli_analysed_bytes(blobs[i], paths[i]);
    if (memo)
        an_memo_stats_get(memo, &ms);
    if (!rc)
        printf("blobs %zu bytes %zu analysed_bytes %zu read_s %.3f analyze_s %.3f "
               "analyze_MBps %.1f memo_lookups %llu memo_hits %llu memo_hit_bytes %llu "
               "memo_bytes %zu%s\n", n, bytes, analysed, t1 - t0, t2 - t1,
               bytes / 1e6 / (t2 - t1 > 0 ? t2 - t1 : 1e-9),
               (unsigned long long)ms.lookups, (unsigned long long)ms.hits,
               (unsigned long long)ms.hit_bytes, ms.bytes, check ? " checked" : "");
    an_memo_free(memo);
    for (i = 0; i < n; i++) {
        git_blob_free(blobs[i]);
        free(paths[i]);
    }
    free(blobs);
    free(paths);
    if (f != stdin)
        fclose(f);
    return rc;
}
