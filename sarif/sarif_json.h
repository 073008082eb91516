/*
 * sarif_json.h: inside the sarif module: a SARIF log read as a stream of
 * JSON events (yajl), in which only the parts portdash reads become
 * jansson values, each bounded (sarif_json.c).  Used by sarif_parse.c.
 */
#ifndef SARIF_JSON_H
#define SARIF_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "sarif_log.h"

/* Most runs in one log; GitHub code scanning takes 20 per upload. */
#define SARIF_MAX_RUNS 1000

typedef struct sj_walk sj_walk;

/*
 * What a pass hands out.  Pass 1: runs_begin when a "runs" array starts
 * (an earlier one, with the same key repeated, is forgotten, as JSON
 * parsers keep the last), then run_meta once per element of it: the
 * element reduced to what is read (for an object: "tool",
 * "automationDetails", "artifacts", "originalUriBaseIds" and "results", an
 * array of results standing as []), a new reference the callee owns;
 * over_key names the member that passed SARIF_MAX_META (the value is then
 * partial), NULL otherwise.  Pass 2: result once per result of each run
 * not skipped (sj_walk_skip_run), in log order: the result reduced to what
 * is read, a new reference, or NULL when it passed SARIF_MAX_RESULT, and
 * the bytes it was counted at (SARIF_NODE_COST per value and its text).  A
 * callback's negative return ends the pass with that code.
 *
 * Text that is not UTF-8 (RFC 3629: overlong forms and surrogates
 * included; RFC 8259 section 8.1 requires it of JSON; yajl's own check,
 * which lets overlongs through, is off) in a string or member name that is
 * kept reaches the callbacks
 * with each invalid byte as U+FFFD, and bad_text (may be NULL) is called
 * first with the JSON pointer (RFC 6901) of the value or member and how
 * many bytes were replaced.  So every reader of the log sees the same,
 * valid, text, and the replacement shows where bytes were lost.  A
 * "\u0000" (valid JSON, but the end of a C string downstream) is replaced
 * the same way and counted apart (nnul), so one such character costs its
 * value, not the log.
 */
typedef struct {
    void *arg;
    void (*runs_begin)(void *arg);
    int (*run_meta)(void *arg, size_t run, json_t *meta, const char *over_key);
    int (*result)(void *arg, size_t run, size_t idx, json_t *res, size_t cost);
    int (*bad_text)(void *arg, const char *pointer, size_t nbad, size_t nnul);
} sj_handlers;

/* A new walker; 0 or PD_ENOMEM.  Free with sj_walk_free. */
int sj_walk_new(sj_walk **out, const sj_handlers *h);

/*
 * Read `src` from its start once, as pass 1 or 2.  0; PD_EINVAL for bytes
 * that are not one JSON value ("invalid JSON at line L, column C (byte
 * B): ..."), a token over SARIF_MAX_TOKEN, nesting past SARIF_MAX_DEPTH,
 * more than SARIF_MAX_RUNS runs, or an unreadable source (its message);
 * PD_ENOMEM, PD_EIO, or a callback's code.
 */
int sj_walk_pass(sj_walk *w, sarif_src *src, int pass);

/*
 * After pass 1: the log's top level as {"version": v, "runs": [] or v}
 * (members absent when the log has none), borrowed; NULL when the log is
 * not a JSON object.
 */
json_t *sj_walk_top(const sj_walk *w);

/* Pass 2 hands no result of run `run` (an index of the last runs array). */
void sj_walk_skip_run(sj_walk *w, size_t run);

/* Free; accepts NULL. */
void sj_walk_free(sj_walk *w);

#endif
