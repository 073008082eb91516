/*
 * analyze_result.h: the result of analysing one file (analyze_result.c):
 * its findings and functions with their statuses and object-dtype states,
 * in the domain core's classes (pd_domain.h).  Public through analyze.h.
 */
#ifndef ANALYZE_RESULT_H
#define ANALYZE_RESULT_H

#include <stddef.h>
#include <stdint.h>

#include "pd_domain.h"
#include "pd_why.h"

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
     * HPy_NULL owner of a field call, else the first bridge or capi
     * finding that keeps it on CPython).  A function on an
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

/* Free a result; accepts NULL. */
void an_result_free(an_result *res);

/* Stable names used in the database and the JSON API:
 * "hpy" "capi" "npy-legacy" "bridge"; "ported" "bridged" "legacy" "neutral";
 * "object-legacy" "object-cpython-only" "object-universal" (NULL for NONE). */
const char *an_class_name(an_class c);
const char *an_status_name(an_status s);
const char *an_objstate_name(an_objstate s);

/*
 * Why function fn of res has its status and object state, typed
 * (pd_why.h): the deciding finding of each (an_function.status_finding,
 * object_finding or object_chain, object_also), and the marker a function
 * without object state mentions.  Strings are borrowed from res.
 */
void an_why_of(const an_result *res, const an_function *fn, pd_why *w);

#endif
