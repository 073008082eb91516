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

#endif
