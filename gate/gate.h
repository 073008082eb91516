/*
 * gate.h: the ratchet gate that CI bots ask before merging: did the head
 * make the port worse than the base?
 *
 * Inputs are the functions of every file whose content differs between base
 * and head (matched by name and occurrence, see gate_match) and the summary
 * totals of both sides.  The default policy is a ratchet: no function less
 * ported than before (status legacy < bridged < ported, neutral ranked with
 * ported), no new object-legacy path, no file that stops being
 * universal-ready outside object-dtype paths, no new C API use in a
 * function that had none.  Readiness is judged outside object-dtype paths
 * because the team's plan keeps object arrays on the CPython API for now
 * (in universal mode creating one raises); the object-legacy ratchet judges
 * those paths.  A policy
 * file can choose conditions and add bounds (see gate_policy_parse).
 */
#ifndef GATE_H
#define GATE_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "pd_domain.h"

/* One function on one side. */
typedef struct {
    char *name;
    char status[16];        /* ported | bridged | legacy | neutral */
    char objstate[24];      /* "" when not an object-dtype path */
    int64_t start_line;
    int64_t capi;           /* CPython C API tokens in the function */
    int matched;            /* used by gate_match */
} gate_fn;

typedef struct {
    gate_fn *v;
    size_t n, cap;
} gate_fnlist;

/* Append a function (strings copied).  0 or PD_ENOMEM. */
int gate_fnlist_push(gate_fnlist *l, const char *name, const char *status,
                     const char *objstate, int64_t start_line, int64_t capi);

/* Free the functions; the list is empty afterwards.  Accepts NULL. */
void gate_fnlist_free(gate_fnlist *l);

/* Status rank: legacy 0, bridged 1, ported and neutral 2. */
int gate_status_rank(const char *status);

/* Object state rank: object-legacy 0, object-cpython-only 1, object-universal 2. */
int gate_obj_rank(const char *objstate);

/*
 * Pair the functions of `a` (base) and `b` (head): the k-th function of a
 * name on one side with the k-th of that name on the other.  `fn` is called
 * once per pair, with NULL for a side that has no partner, head order first
 * then the base's leftovers.
 */
void gate_match(gate_fnlist *a, gate_fnlist *b,
                void (*fn)(void *arg, const gate_fn *a, const gate_fn *b), void *arg);

/*
 * gate_match, then renames (gate_rename.c): where exactly one base function
 * is left without a partner between two name-matched neighbours (or the
 * file's start or end), it is paired with the first head function left
 * without one there, as when array_dealloc becomes array_finalize_impl
 * (followed by a new array_traverse_impl) in place.  Such
 * a pair reaches `fn` with two different names.  A function deleted where
 * another is added is taken for a rename too: the gate then compares the
 * two, which judges the new one by what was there before.  Falls back to
 * gate_match when out of memory.
 */
void gate_match_renames(gate_fnlist *a, gate_fnlist *b,
                        void (*fn)(void *arg, const gate_fn *a, const gate_fn *b),
                        void *arg);

/* Conditions a policy may enable (bit flags). */
enum {
    GATE_STATUS = 1,          /* no function less ported */
    GATE_OBJECT_LEGACY = 2,   /* no new object-legacy path */
    GATE_UNIVERSAL = 4,       /* no file stops being universal-ready */
    GATE_NEW_CAPI = 8,        /* no new C API use in a function that had none */
    GATE_FIXABLE = 16         /* no added line with a legacy use that a checked
                               * HPy rewrite replaces (fix.h; gate_git only;
                               * not in the default policy) */
};

#define GATE_MAX_BOUNDS 16

typedef struct {
    unsigned ratchets;                 /* GATE_* bits */
    struct {
        char measure[64];              /* summary key path, see api_history.c */
        int is_max;                    /* 1: head <= limit; 0: head >= limit */
        int64_t limit;
    } bounds[GATE_MAX_BOUNDS];
    size_t nbounds;
} gate_policy;

/* The default policy: all four ratchets, no bounds. */
void gate_policy_default(gate_policy *p);

/*
 * Parse a policy file's text.  One directive a line, '#' starts a comment:
 *   ratchet status|object-legacy|universal-ready|new-capi|fixable
 *   max MEASURE N     (the head's value of MEASURE must be at most N)
 *   min MEASURE N     (at least N)
 * MEASURE is a summary key path (object_paths.object-legacy, functions.ported,
 * tokens.capi, universal_ready_files, files, ...).  A file lists every
 * condition it wants: the default ratchets do not apply on top.  0, or
 * PD_EINVAL naming `name`:line, or `name` for a file with no directive at
 * all (empty or only comments: it would pass every change).
 */
int gate_policy_parse(gate_policy *p, const char *name, const char *text);

/* Value of summary key path `measure` in counts; -1 if unknown. */
int64_t gate_measure(const pd_counts *c, const char *measure);

typedef struct gate gate;

/* A gate under `policy` (copied); NULL when out of memory. */
gate *gate_new(const gate_policy *policy);
void gate_free(gate *g);

/*
 * Feed one file that differs between the sides: its path, functions on each
 * side (either list may be empty when the file is absent there) and its
 * universal readiness outside object-dtype paths on each side (-1: absent).
 * 0 or PD_ENOMEM.
 */
int gate_add_file(gate *g, const char *path, gate_fnlist *base, gate_fnlist *head,
                  int base_ready, int head_ready);

/*
 * The numbers of files universal-ready outside object-dtype paths on each
 * side, reported with the universal-ready condition, which then names
 * their scope ("scope": "no-object-dtype"); unset, the condition reports
 * the summaries' universal_ready_files and names no scope.
 */
void gate_set_ready_totals(gate *g, int64_t base, int64_t head);

/*
 * The verdict: {"result": "pass"|"fail", "base", "head", "conditions":
 * [{"measure", "rule", "base", "head", "ok", "tested", "found", ["scope"]}],
 * "regressions": [{"path", "name", ["renamed_from",] "from", "to",
 * "reasons": [...]}], "files_no_longer_universal_ready": [...]}.  "base"
 * and "head" of a condition are the summary totals of its measure (the
 * context); "tested" says what the condition counts and "found" is that
 * count (a ratchet holds when it is 0; a bound's is the head's value);
 * "scope" names the scope whose totals they are (gate_set_ready_totals).
 * "renamed_from" is the base name of a function paired as a rename
 * (gate_match_renames).  New reference.
 */
json_t *gate_result(gate *g, const char *base_oid, const char *head_oid,
                    const pd_counts *base, const pd_counts *head);

/* The verdict as a pull-request comment in Markdown (caller frees). */
char *gate_markdown(json_t *result);

#endif
