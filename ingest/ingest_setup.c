/*
 * ingest_setup.c: the settings a run starts from (see ingest_setup.h).
 */
#include <stdio.h>
#include <string.h>

#include "analyzer/analyzer.h"
#include "ingest_setup.h"
#include "pd_domain.h"

/* The key analyses are stored under: a hash of the rules file's hash, the
 * analyzer's version and the source-kind generation, so that a new rules
 * file, a new analyzer or new kinds of file (ingest_kinds.h) lead to
 * re-analysis on the next ingest, and nothing else does. */
void ingest_analysis_key(char *out, const char *rules_hash)
{
    char text[128];
    git_oid oid;

    snprintf(text, sizeof(text), "rules %s analyzer %s kinds %d", rules_hash,
             AN_ANALYZER_VERSION, PD_SRC_KINDS);
    git_odb_hash(&oid, text, strlen(text), GIT_OBJECT_BLOB);
    git_oid_tostr(out, GIT_OID_HEXSZ + 1, &oid);
}

/*
 * libgit2's process-wide settings for reading a whole history:
 * - no hash check of every object read (git itself does not check on
 *   read either; it was an eighth of the ingest's profile);
 * - pack windows of 1 MiB, at most 16 MiB mapped, instead of one window
 *   per pack of up to 1 GiB: every page of a mapped window that was read
 *   counts in the resident size, so a 100 MB pack read end to end stayed
 *   resident (64 MiB mapped still made a quarter of the peak); 1 MiB
 *   windows map and unmap a third as often as 4 MiB ones (random reads
 *   across history) and halved the system time;
 * - an object cache of 64 MiB instead of 256 MiB: a history walk parses
 *   each commit and small tree once or twice, close together, so a large
 *   cache only kept them all alive.  Not less: libgit2 1.5 evicts by
 *   scanning its table from the start, and at 16 MiB eviction took more
 *   CPU than the whole analysis (2.7 times the user time on npysort); the
 *   diffs, which fill it, use a handle reopened every 500 commits
 *   (ingest_plan_repo) so that the limit is seldom reached;
 * - no commit cached: the walk back to the stored base reads every commit
 *   of the chain once and the planner once more, far apart, so the cache
 *   only held the whole chain (numpy/core, both refs: 15,000 commits,
 *   18 MB of peak RSS).  Reading one again is not free (45,000
 *   instructions, most of them inflating it), so the walk hands the
 *   planner each parent's tree id and the planner hands the writer what
 *   it stores of the commit (ingest_plan.h): two reads a commit, not
 *   four.
 */
void ingest_git_options(void)
{
    git_libgit2_opts(GIT_OPT_SET_CACHE_MAX_SIZE, (ssize_t)64 << 20);
    git_libgit2_opts(GIT_OPT_ENABLE_STRICT_HASH_VERIFICATION, 0);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_SIZE, (size_t)1 << 20);
    git_libgit2_opts(GIT_OPT_SET_MWINDOW_MAPPED_LIMIT, (size_t)16 << 20);
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_COMMIT, (size_t)0);
}

void ingest_git_blob_cache(int on)
{
    git_libgit2_opts(GIT_OPT_SET_CACHE_OBJECT_LIMIT, GIT_OBJECT_BLOB,
                     on ? (size_t)8 << 20 : (size_t)0);
}
