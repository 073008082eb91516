/*
 * pd_flow.h: the call-graph step of the object-dtype analysis.
 *
 * The analyzer gives, per function, the item sites of its own body and
 * its flow facts (ingest/analyzer/analyze_flow.c): which parameters its item sites
 * reach, which parameter is an HPyField owner, and every call with what
 * each argument is.  This step puts the functions of every file of one
 * revision together and follows the facts through the repository's own
 * functions (DOMAIN.md "Object-dtype paths": "or by calling, for that
 * purpose, a function of the repository that does"):
 *
 *   - a call g(.., x, ..) whose argument j reaches items inside g (g has an
 *     item site through its parameter j, itself or further down) is an
 *     item access of the caller, and of the caller's parameter when x is
 *     one of its parameters;
 *   - a function h passed as an argument (a visitor, a callback) whose
 *     item sites reach its parameters is an item access of the caller;
 *   - HPy_NULL passed where g takes the owner of an HPyField_Load/Store
 *     makes the caller's field use CPython-only;
 *   - a name resolves to the functions of the same file when the file
 *     defines it (static helpers), else to every definition of it.
 *
 * The final state is pd_objstate_rule() of what the function reaches.  A
 * helper's meaning is the one of its body at the revision given: nothing
 * here is a list of names.  Everything is in memory; a graph is updated
 * file by file (an ingest replaces the files a commit changed) and
 * resolved again; not thread-safe.
 */
#ifndef PD_FLOW_H
#define PD_FLOW_H

#include <stddef.h>
#include <stdint.h>

#include "pd_buf.h"
#include "pd_domain.h"

/* What a function's own body shows (pd_flow_fn.local) and what it
 * reaches after the graph (pd_flow_kinds). */
enum {
    PD_FLOW_LEGACY = 1,   /* PyObject * item site */
    PD_FLOW_FIELD = 2,    /* HPyField item site */
    PD_FLOW_CPYTHON = 4,  /* an unguarded C API use or bridge */
    PD_FLOW_NULLOWNER = 8, /* HPy_NULL given as a helper's HPyField owner */
    PD_FLOW_MARKER = 16,  /* mentions an object-dtype marker: says why a
                           * call reaches items (see pd_flow.c) */
    PD_FLOW_CPYCHAIN = 32 /* HPyField items reached through a callee that
                           * is CPython-only */
};

/* One function of a file, as pd_flow_set_file takes it (borrowed). */
typedef struct pd_flow_fn {
    const char *name;
    uint32_t line;         /* first line, for the chain */
    unsigned local;        /* PD_FLOW_LEGACY | FIELD | CPYTHON of its body */
    const char *flow;      /* its flow facts (analyze_flow.c), "" or NULL */
} pd_flow_fn;

typedef struct pd_flow pd_flow;

/*
 * Stored form (analyses.flow): one line per function in index order,
 *   NAME \t LINE \t BITS \t FACTS \n
 * BITS are letters of pd_flow_fn.local (L legacy, F field, C CPython, M
 * marker; "-" for none), FACTS the analyzer's flow facts.  Names hold no
 * tab or newline (C identifiers, C++ qualified names).
 */
/* Append fn's line to b (its sticky error says out of memory). */
void pd_flow_encode(pd_buf *b, const pd_flow_fn *fn);

/*
 * pd_flow_set_file() from the stored form: text[0..len) (not NUL-
 * terminated necessarily); NULL or empty removes the file.  Lines that do
 * not parse are functions with no facts (they keep their index).  0 or
 * PD_ENOMEM.
 */
int pd_flow_set_file_text(pd_flow *g, int64_t file, const char *path, const char *text,
                          size_t len);

/* The file id every caller that keys files by path uses (FNV-1a 64 of the
 * path; a collision would only merge two files' names). */
int64_t pd_flow_path_key(const char *path);

/* A new empty graph: 0 or PD_ENOMEM. */
int pd_flow_new(pd_flow **out);

/* Free a graph; accepts NULL. */
void pd_flow_free(pd_flow *g);

/*
 * Make file `file` (any id the caller chooses; path for the chain text,
 * copied) hold functions fns[0..n), replacing what it held; n = 0 removes
 * the file.  Facts that do not parse are skipped.  0 or PD_ENOMEM (then
 * the graph must be freed).  Results are stale until pd_flow_resolve().
 */
int pd_flow_set_file(pd_flow *g, int64_t file, const char *path,
                     const pd_flow_fn *fns, size_t n);

/* Follow the facts of every file to their fixed point, walking functions
 * in path order (files by path, then index), so that states and chains do
 * not depend on the order files were set or replaced in.  0, PD_ENOMEM,
 * PD_EINVAL (a graph of stored results). */
int pd_flow_resolve(pd_flow *g);

/* 1 when pd_flow_set_file() changed something since the last resolve. */
int pd_flow_dirty(const pd_flow *g);

/* The resolved state of function idx of file `file` (index in the fns it
 * was given); PD_OBJ_NONE when unknown. */
pd_objstate pd_flow_state(const pd_flow *g, int64_t file, size_t idx);

/* 1 when the graph holds function idx of `file`. */
int pd_flow_known(const pd_flow *g, int64_t file, size_t idx);

/*
 * 1 when a function of the file with key `file` (pd_flow_path_key) has
 * another object state in graph `a` than in graph `b`: the test of a
 * file that did not change between two commits but whose states did,
 * through its callees (the compare page, and the gates, judge it).
 */
int pd_flow_file_moved(const pd_flow *a, const pd_flow *b, int64_t file);

/* Its local state (the same rule on its own body only). */
pd_objstate pd_flow_local_state(const pd_flow *g, int64_t file, size_t idx);

/*
 * The chain that gives function idx of `file` its state when a call does,
 * as JSON written into buf (cap bytes, NUL-terminated, truncated chains
 * end early): an array of {"function", "path", "line"} hops, the first
 * being the callee called at "line" of the function, each next one called
 * by the previous, the last one holding the item site itself.  Returns
 * the length, 0 when the state is the function's own (no chain).
 */
size_t pd_flow_chain_json(const pd_flow *g, int64_t file, size_t idx, char *buf,
                          size_t cap);

/*
 * The sum over every function of the graph of (resolved - local) object
 * states: delta[s] for s in PD_OBJ_LEGACY..PD_OBJ_UNIVERSAL (how many more
 * or fewer functions are in state s once calls are followed).
 */
void pd_flow_delta(const pd_flow *g, int64_t delta[PD_OBJ_COUNT]);

/* The same for the functions of one file. */
void pd_flow_file_delta(const pd_flow *g, int64_t file, int64_t delta[PD_OBJ_COUNT]);

/* ---- packed input (db_flow_graph.h, migration 022) ----------------------
 *
 * A push whose facts change needs its base commit's whole graph; made from
 * the facts, that is every file's stored facts decompressed and parsed
 * (45 % of such a push).  The ingest keeps each stored ref's graph packed.
 */

/*
 * Append the input of g (what pd_flow_set_file kept of every file's facts:
 * files, functions, calls, arguments and the names they use, in g's own
 * order; pd_flow_pack.c gives the format) to b.  g need not be resolved.
 * 0, PD_EINVAL (a graph of stored results), PD_ENOMEM (also b's sticky
 * error).
 */
int pd_flow_pack(const pd_flow *g, pd_buf *b);

/*
 * A new graph in *out (the caller frees it; unresolved) from data[0..len)
 * as pd_flow_pack wrote it: it resolves to the results of the graph packed,
 * and takes pd_flow_set_file like it (a file set again is read in full
 * once: the functions unpacked have no facts text to compare).  0,
 * PD_EINVAL (not a packed graph of this build's format, or damaged: read
 * the facts instead), PD_ENOMEM.
 */
int pd_flow_unpack(pd_flow **out, const void *data, size_t len);

/* ---- stored results (db_flow_set.h, migration 018) ---------------------
 *
 * What a resolved graph adds to its functions' own states is small: the
 * functions whose resolved kinds differ from their own (a few dozen on
 * numpy/core).  A commit keeps that set, so a reader rebuilds a graph that
 * answers every function above (state, known, local state, chain, deltas)
 * from each file's own bits and lines and the set, without facts or a
 * resolve.
 */

/*
 * Append g's results (g resolved, not dirty since) to b: one line per
 * function whose resolved kinds differ from its own, in path order,
 *   KEY \t IDX \t KINDS ( \t VKEY \t VIDX \t VOFF \t VNAME ) x 2 \n
 * KEY the file's id (16 hex digits), IDX the function's index, KINDS the
 * PD_FLOW_* bits it reaches; then for legacy and for HPyField items the
 * callee a chain starts with ("-" and empty fields: none): its file, index,
 * the calling line less the function's first line (line-independent: an
 * edit that only moves functions keeps the set) and its name.  The same
 * text whatever order files were set in.  0, PD_EINVAL (dirty), PD_ENOMEM.
 */
int pd_flow_results_encode(const pd_flow *g, pd_buf *b);

/*
 * The stored form of a file's functions fns[0..n) appended to `text` (a
 * pd_flow_encode() line each), their "LINE BITS\n" lines appended to
 * `lines` (what pd_flow_fns_encode() makes of that text) and
 * pd_flow_facts_hash() of the text in *hash: the three in one pass over
 * the functions, without reading the text back (issue 26: an ingest spent
 * 3 % of its CPU re-reading and hashing what it had just written).  Names
 * or facts that hold a separator are encoded the long way, with the same
 * result.  0, or PD_ENOMEM (the buffers' sticky error).
 */
int pd_flow_encode_file(const pd_flow_fn *fns, size_t n, pd_buf *text, pd_buf *lines,
                        uint64_t *hash);

/*
 * Each function's own bits and first line from the stored form text[0..len)
 * (pd_flow_set_file_text's lines, index for index): "LINE BITS\n" per
 * function (BITS as in the stored form), appended to b.
 */
void pd_flow_fns_encode(const char *text, size_t len, pd_buf *b);

/*
 * A graph of stored results: pd_flow_new(), then pd_flow_results_file() for
 * each file (what pd_flow_set_file_text would have been given, as
 * pd_flow_fns_encode made it; empty: no file), then
 * pd_flow_results_apply() with the set.  It answers the reading functions
 * above like the resolved graph; it cannot be set or resolved again
 * (PD_EINVAL).  0, PD_EINVAL (a line that names no function of the graph:
 * damaged or foreign results), PD_ENOMEM.
 */
int pd_flow_results_file(pd_flow *g, int64_t file, const char *path, const char *fns,
                         size_t len);
int pd_flow_results_apply(pd_flow *g, const char *text, size_t len);

/*
 * pd_flow_file_delta of one file from stored results alone, without a
 * graph: fns[0..fnslen) the file's functions as pd_flow_fns_encode made
 * them, key its pd_flow_path_key, set[0..setlen) a commit's set.  Only the
 * set's lines of that file are read: what a file's history needs at each
 * commit (db_history_file.c).  0 or PD_ENOMEM.
 */
int pd_flow_results_file_delta(const char *fns, size_t fnslen, int64_t key,
                               const char *set, size_t setlen, int64_t delta[PD_OBJ_COUNT]);

/*
 * The same with each function's state besides: *states (malloc'd, for the
 * caller to free; NULL when the file has no functions) gets
 * pd_flow_state() of every function of the file by index and *nstates
 * their number (the functions pd_flow_known() holds), from fns and the
 * set's lines of the file alone: what a scoped history needs of a file the
 * graph moved (db_scope_history.c).  states NULL: the delta only.  0 or
 * PD_ENOMEM.
 */
int pd_flow_results_file_states(const char *fns, size_t fnslen, int64_t key,
                                const char *set, size_t setlen,
                                int64_t delta[PD_OBJ_COUNT], pd_objstate **states,
                                size_t *nstates);

/* The facts of a stored form text without the functions' first lines,
 * hashed (XXH3 64, xxHash): equal for two versions of a file whose
 * results are the same but for moved lines.  For this process only: the
 * value is never stored. */
uint64_t pd_flow_facts_hash(const char *text);

#endif
