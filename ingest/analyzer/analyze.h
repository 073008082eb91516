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
#include "rules.h"

/*
 * Version of what an_analyze() produces.  Bump it whenever a change to the
 * analyzer changes its results: stored analyses are keyed by the rules hash
 * and this version together, so the next ingest re-analyses.
 */
#define AN_ANALYZER_VERSION "8"

/* Token classes, statuses and object states are the domain core's
 * (pd_domain.h); these are the analyzer's names for them. */
typedef pd_class an_class;
#define AN_CLASS_HPY PD_CLASS_HPY
#define AN_CLASS_CAPI PD_CLASS_CAPI
#define AN_CLASS_NPY_LEGACY PD_CLASS_NPY_LEGACY
#define AN_CLASS_BRIDGE PD_CLASS_BRIDGE
#define AN_CLASS_COUNT PD_CLASS_COUNT

typedef pd_status an_status;
#define AN_STATUS_PORTED PD_STATUS_PORTED
#define AN_STATUS_BRIDGED PD_STATUS_BRIDGED
#define AN_STATUS_LEGACY PD_STATUS_LEGACY
#define AN_STATUS_NEUTRAL PD_STATUS_NEUTRAL
#define AN_STATUS_COUNT PD_STATUS_COUNT

typedef pd_objstate an_objstate;
#define AN_OBJ_LEGACY PD_OBJ_LEGACY
#define AN_OBJ_CPYTHON_ONLY PD_OBJ_CPYTHON_ONLY
#define AN_OBJ_UNIVERSAL PD_OBJ_UNIVERSAL
#define AN_OBJ_COUNT PD_OBJ_COUNT
#define AN_OBJ_NONE PD_OBJ_NONE

/*
 * One classified occurrence: an identifier, or one of three synthetic
 * findings whose text is not a single token:
 *   rule "object-item-legacy"/"object-item-field" (from `itemcast`,
 *   `itemlocal` and `itemcall` rules): item access at the cast's '(' with
 *   text "(PyObject **)" (only when what is cast reaches array data: an
 *   `itemsource` call or member, or an `itemdata` local or parameter), at
 *   a copy call with text "memcpy(&tmp)", at a `fieldarg` call with text
 *   "HPyField_Store(hf)" ("(&hf)" when the argument is written so), or at
 *   an `itemcall` call with text "PyArray_XDECREF()"; each with a reason;
 *   rule "field-null-owner" (class bridge): at the called name, with the
 *   name as text ("HPyField_Load").
 * Synthetic findings count in tokens[] like the others.
 */
typedef struct {
    uint32_t line;      /* 1-based line in the file */
    uint32_t column;    /* 1-based byte column */
    an_class cls;
    const char *rule;   /* rule id; owned by the rules object */
    char *text;         /* the token text (NUL-terminated); owned by result */
    int32_t function;   /* index into an_result.functions, -1 at file scope */
    int guarded;        /* 1 when inside a CPython-only #if block */
    const char *reason; /* item findings (object-item-*): why the site
                         * reaches object-array items, a sentence such as
                         * "cast of PyArray_DATA(), a pointer into array
                         * data"; NULL for other findings.  Owned by the
                         * result. */
} an_finding;

/* One function definition. */
typedef struct {
    char *name;                    /* owned by result */
    uint32_t start_line;           /* line of the name/signature start */
    uint32_t end_line;             /* line of the closing brace */
    an_status status;
    an_objstate object_state;      /* AN_OBJ_NONE if not an object path */
    uint32_t tokens[AN_CLASS_COUNT]; /* unguarded + guarded occurrences */
    uint32_t name_line;            /* line of the function's name (the line
                                    * ctags reports); >= start_line */
    const char *calls;             /* names called in the body (`name(`,
                                    * not after '.' or '->'), distinct, in
                                    * order of first call, separated by one
                                    * space; "" when none; NULL in a result
                                    * built by hand.  Owned by the result. */
    /* Why the function has its status and object state: indexes into
     * an_result.findings of the deciding unguarded finding, or -1.
     * status: ported = its first hpy finding; bridged = its first bridge
     * finding, else its first capi one; legacy = its first capi finding,
     * else its first npy-legacy one.  object: object-legacy = its first
     * legacy item site; object-cpython-only and object-universal = its
     * first HPyField item site (object_also: for cpython-only, the first
     * bridge or capi finding that keeps it on CPython).  A function on an
     * object path by a marker only has object_finding -1 and
     * object_marker (the marker's name, line object_marker_line), or by
     * its name only (an `objfunc` rule) neither. */
    int32_t status_finding;
    int32_t object_finding;
    int32_t object_also;
    const char *object_marker;     /* owned by the result, or NULL */
    uint32_t object_marker_line;
    char *object_chain;            /* set by an_flow_apply when a call
                                    * gives the state: pd_flow_chain_json's
                                    * array; NULL otherwise.  Owned by the
                                    * result (malloc). */
    int mentions;                  /* 1: uses a `marker` or has an
                                    * `objfunc` name (object dtype is
                                    * mentioned, a lesser fact) */
    int cpython;                   /* 1: an unguarded capi or bridge
                                    * finding (the function still needs
                                    * CPython) */
    const char *flow;              /* the body's flow facts for the
                                    * call-graph step (analyze_flow.c
                                    * says the format), space-separated;
                                    * "" when none; NULL in a result built
                                    * by hand.  Owned by the result. */
    const char *name_from_macro;   /* `M` when the name is written as the
                                    * argument of a function-like macro,
                                    * `void M(name)(params) {...}`, and the
                                    * function is named `name`; NULL
                                    * otherwise.  Owned by the result. */
} an_function;

typedef struct {
    an_function *functions;
    size_t nfunctions;
    an_finding *findings;          /* sorted by line, then column */
    size_t nfindings;
    uint32_t tokens[AN_CLASS_COUNT];
    an_status status;              /* file status from all its tokens */
    int universal_ready;           /* 1: nothing unguarded needs CPython */
    uint32_t lines;                /* number of lines in the file */
    char *notes;                   /* what was not understood; NULL if none */
    /* Private: one block holding every finding text and function name
     * (they point into it).  Freed by an_result_free(); a result built by
     * hand may leave it NULL and then must free those strings itself. */
    char *text_pool;
    int cpp;                       /* 1: read as C++ (.cpp .hpp .cc, or a
                                    * header with namespace/template) */
    /* HPy types for traverse coverage, as compact JSON, or NULL when the
     * file has none of them (see analyze_types.c for the shape):
     * {"specs", "helpers", "structs", "aliases", "defines", "traverse",
     * "visits"}.  Lines are lines of the file.  Owned by the result. */
    char *hpy_types;
    char *calls_pool;              /* Private: holds functions[].calls */
    char *flow_pool;               /* Private: holds functions[].flow */
} an_result;

/*
 * Analyse one file.  `path` is the repository-relative path (its suffix
 * selects C, C++ or numpy-template handling); `buf`/`len` are its bytes,
 * which need not be NUL-terminated nor valid UTF-8.  A numpy template
 * (.c.src, .h.src) is expanded first (tmpl.h): each instance of a
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
 * that rules object), holding at most max_bytes of entries.  0 or
 * PD_ENOMEM.  Free with an_memo_free().
 */
int an_memo_new(an_memo **out, const rules *r, size_t max_bytes);

/* Free a memo; accepts NULL. */
void an_memo_free(an_memo *m);

/* Copy the memo's counters into *s (thread-safe). */
void an_memo_stats_get(an_memo *m, an_memo_stats *s);

/*
 * The memo size of the environment: PORTDASH_MEMO_MB megabytes (0 turns
 * the memo off), 16 MiB when unset or not a number (numpy-hpy's history
 * reuses 0.2 % more with 32, 3.5 % less with 8).  In bytes.
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
 * Why function fn of res has its status and object state, as compact JSON
 * written into buf (cap bytes, NUL-terminated; truncated output is never
 * valid JSON, so give 2 KB):
 *   {"status": F | null, "object": F | {"chain": [HOP...]} | null,
 *    "mentions": {"name": MARKER, "line": N} | null, "object_also": F | null}
 * with F = {"rule", "text", "line", "column"} of the deciding finding (see
 * an_function.status_finding), HOP = {"function", "path", "line"} of
 * an_function.object_chain (a call gives the state), and "mentions" the
 * lesser fact of a function with no object state that uses an object-dtype
 * marker.  Returns the length written.
 */
size_t an_why_json(const an_result *res, const an_function *fn, char *buf,
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

/* Free a result; accepts NULL. */
void an_result_free(an_result *res);

/* Stable names used in the database and the JSON API:
 * "hpy" "capi" "npy-legacy" "bridge"; "ported" "bridged" "legacy" "neutral";
 * "object-legacy" "object-cpython-only" "object-universal" (NULL for NONE). */
const char *an_class_name(an_class c);
const char *an_status_name(an_status s);
const char *an_objstate_name(an_objstate s);

/* 1 when `path` has a suffix in scope by default:
 * .c .h .c.src .h.src .cpp .hpp .cc */
int an_path_in_scope(const char *path);

#endif
