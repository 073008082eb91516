/*
 * analyze.h: the porting analysis of one C/C++/numpy-template source file.
 *
 * Input is the raw bytes of a file version (a git blob); output is the list
 * of function definitions with their porting status and object-dtype state,
 * the classified token findings with line and column, and per-file totals.
 * What counts as HPy, CPython C API, the project's legacy API or a bridge is
 * not in this code: it comes from a rules file (see rules.h and
 * ingest/rules/default.rules).  The classes and states are those of
 * shared/DOMAIN.md ("What to classify").
 */
#ifndef ANALYZE_H
#define ANALYZE_H

#include <stddef.h>
#include <stdint.h>

#include "pd_domain.h"
#include "analyze_result.h"
#include "rules.h"

/*
 * Version of what an_analyze() produces.  Bump it whenever a change to the
 * analyzer changes its results: stored analyses are keyed by the rules hash
 * and this version together, so the next ingest re-analyses.
 */
#define AN_ANALYZER_VERSION "20"


/*
 * Analyse one file.  `path` is the repository-relative path (its suffix
 * selects C, C++ or numpy-template handling); `buf`/`len` are its bytes,
 * which need not be NUL-terminated nor valid UTF-8.  A numpy template
 * (.c.src, .h.src, .inc.src) is expanded first (tmpl.h): each instance of a
 * templated function is a function of its own (OBJECT_getitem,
 * BOOL_getitem, ...), the tokens its substitutions bring in are findings of
 * that instance, and every line and column is mapped back to the template
 * (so findings of several instances may share a position).  On success *out is a
 * new result the caller frees with an_result_free().  Returns 0, or
 * PD_ENOMEM (with pd_error_set).  Never fails on malformed source: what is
 * not understood is described in (*out)->notes.
 */
int an_analyze(an_result **out, const rules *r, const char *path,
               const char *buf, size_t len);

/*
 * an_analyze() without the call-graph step's facts, for a caller that
 * runs no call-graph step (`portdash analyze --format functions` without
 * --fail-on): every function's `calls` and `flow` are "", all else is
 * an_analyze()'s, byte for byte (tests/unit/test_nograph.c checks it).
 * The facts were about a tenth of the work on numpy's templates (issue 26).
 */
int an_analyze_nograph(an_result **out, const rules *r, const char *path,
                       const char *buf, size_t len);

/*
 * Memo of analyses below the blob (analyze_memo.c).  A file is cut where
 * the analysis is back at file level with nothing pending: after a line
 * that is only `}` or `};` (a function's or a data definition's end).
 * The results of a chunk, from one cut to the next, depend only on its
 * bytes and on the little state that crosses a cut (the last eight
 * tokens, open #if blocks, namespaces/extern "C", whether the file reads
 * as C++), so both are the memo's key (with the rules object, which
 * carries the analysis key: rules hash and AN_ANALYZER_VERSION), and the
 * chunk's findings, functions and calls are stored with lines relative
 * to the cut and put back at the new position: a reused chunk gives
 * byte-for-byte the result of analysing it (tests/unit/test_memo.c).
 * Consecutive versions of a file share most chunks, and so do template
 * instances that expand to the same text.  Bounded by bytes, least
 * recently used entries dropped first; safe to share between threads.
 * From 2 MiB on, in up to 8 shards by key, each with its lock and an even
 * part of the bound, its own least recently used order (analyze_memo.h).
 */
typedef struct an_memo an_memo;

/* What a memo did (an_memo_stats_get). */
typedef struct {
    uint64_t lookups;              /* chunks looked up */
    uint64_t hits;                 /* ... found and reused */
    uint64_t hit_bytes;            /* bytes of the reused chunks */
    uint64_t stored;               /* entries stored */
    uint64_t evicted;              /* entries dropped for room */
    size_t bytes;                  /* bytes held now */
} an_memo_stats;

/*
 * A memo for analyses with rules r (borrowed; the memo is used only with
 * that rules object), holding at most max_bytes of entries in all (a
 * shard at most its part: an entry larger than that is not kept).  0 or
 * PD_ENOMEM.  Free with an_memo_free().
 */
int an_memo_new(an_memo **out, const rules *r, size_t max_bytes);

/* Free a memo; accepts NULL. */
void an_memo_free(an_memo *m);

/* Copy the memo's counters into *s (thread-safe). */
void an_memo_stats_get(an_memo *m, an_memo_stats *s);

/*
 * The memo's size by default: 12 MiB.  An ingest of numpy/core's history
 * (both refs) reuses 1,334 MB of chunks with it, 1,353 MB with 16 MiB
 * (0.4 s of CPU less), 1,211 MB with 8 (1 s more); but with 16 its peak
 * RSS went past 128 MB in some runs once the allocator's arenas kept a
 * pad (pd_malloc_ingest), 113-118 MB with 12 (issue 26,
 * doc/benchmarks.md).
 */
#define AN_MEMO_DEFAULT_BYTES ((size_t)12 << 20)

/*
 * The memo size of the environment: PORTDASH_MEMO_MB megabytes (0 turns
 * the memo off), AN_MEMO_DEFAULT_BYTES when unset or not a number.  In
 * bytes.
 */
size_t an_memo_env_bytes(void);

/*
 * an_analyze() through memo m (NULL: none): the same result, byte for
 * byte, with chunks seen before reused instead of analysed.
 */
int an_analyze_memo(an_result **out, const rules *r, an_memo *m,
                    const char *path, const char *buf, size_t len);

/*
 * Compare two results field by field (every function and finding field,
 * the totals, notes and HPy types).  Returns 0 when equal, else 1 with
 * the first difference described in why (cap bytes).
 */
int an_result_diff(const an_result *a, const an_result *b, char *why,
                   size_t cap);


/*
 * The functions of res as the call-graph step takes them (pd_flow.h): a
 * new array of res->nfunctions entries borrowing res's strings, freed by
 * the caller with free(); *out is NULL when there are none.  0 or
 * PD_ENOMEM.  The local bits come from each function's own object state
 * and `cpython`.
 */
struct pd_flow_fn;
int an_flow_fns(const an_result *res, struct pd_flow_fn **out);

/*
 * The call-graph step over the files of one revision, for a caller that
 * holds every result (portdash analyze --git-dir): each function's
 * object_state becomes the resolved one and object_chain says which call
 * gave it.  res[i] is the file paths[i].  0 or PD_ENOMEM.
 */
int an_flow_apply(an_result **res, const char *const *paths, size_t n);



/* 1 when `path` has the suffix of a source kind the analyzer reads:
 * (pd_path_kind: .c .h .inc, the .src templates, the C++ suffixes) */
int an_path_is_source(const char *path);

#endif
