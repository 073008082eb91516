/*
 * ingest_setup.h: the settings an ingest run starts from: the key its
 * analyses are stored under and libgit2's process-wide options.
 */
#ifndef INGEST_SETUP_H
#define INGEST_SETUP_H

#include <git2.h>

/*
 * The analysis key of `rules_hash` into out (GIT_OID_HEXSZ + 1 bytes): a
 * hash of the rules file's hash and the analyzer's version, so that a new
 * rules file or a new analyzer both lead to re-analysis on the next ingest,
 * and nothing else does.
 */
void ingest_analysis_key(char *out, const char *rules_hash);

/* libgit2's process-wide settings for reading a whole history (the
 * comment in ingest_setup.c gives each figure's reason). */
void ingest_git_options(void);

/*
 * Keep blobs in libgit2's object cache (`on`: those up to 8 MiB) or not
 * (libgit2's default, restored by on = 0).  A short chain (a push) reads
 * each changed blob twice on one repository handle, for the patch id and
 * for the analysis: cached, the second read neither inflates nor applies
 * deltas again.  A long walk keeps them out: it reads each blob once, and
 * a full cache costs more to evict than it saves (ingest_setup.c).  The
 * setting is process-wide: call it with no analysis thread running.
 */
void ingest_git_blob_cache(int on);

#endif
