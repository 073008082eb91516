/*
 * ingest_progress.h: the one-line progress display of an ingest on a
 * terminal: commits done of the chain, blobs analysed, rate and time left.
 */
#ifndef INGEST_PROGRESS_H
#define INGEST_PROGRESS_H

#include <stdint.h>
#include <stddef.h>

typedef struct ingest_progress ingest_progress;

/* A display writing to stderr when `enabled`; a silent one otherwise.
 * Returns NULL only when out of memory (all calls accept NULL). */
ingest_progress *ingest_progress_new(int enabled);

/* Start a ref with `total` commits to process. */
void ingest_progress_ref(ingest_progress *p, const char *ref, size_t total);

/* Report `done` commits of the ref and the run's blob figures; redraws at
 * most four times a second. */
void ingest_progress_update(ingest_progress *p, size_t done, uint64_t blobs,
                            uint64_t bytes);

/* A line of its own on stderr (printf format, no newline needed) when
 * enabled: what the user should know while the run goes on. */
void ingest_progress_note(ingest_progress *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* End the ref's line. */
void ingest_progress_done(ingest_progress *p);

/* Free; accepts NULL. */
void ingest_progress_free(ingest_progress *p);

#endif
