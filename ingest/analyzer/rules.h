/*
 * rules.h: the rules file that tells the analyzer which identifiers belong to
 * which class (hpy, capi, npy-legacy, bridge), which ones mark object-dtype
 * paths, which macros guard CPython-only code, and which calls take an owner
 * argument that must not be HPy_NULL in universal mode.  The format is
 * documented at the top of ingest/rules/default.rules.
 */
#ifndef RULES_H
#define RULES_H

#include <stddef.h>
#include <stdint.h>

#include "rules_def.h"

/*
 * Load a rules file.  On success *out is a new object freed with
 * rules_free().  Errors: PD_EIO (cannot read; message names the file),
 * PD_EINVAL (syntax; message gives file:line and the problem), PD_ENOMEM.
 */
int rules_load(rules **out, const char *path);

/* Parse rules from memory (`name` is used in error messages). */
int rules_parse(rules **out, const char *name, const char *text, size_t len);

/* Free; accepts NULL. */
void rules_free(rules *r);

/*
 * Hex SHA-1-sized content hash (40 chars, NUL-terminated) of the rules,
 * owned by `r`.  Stored with every analysis, so changed rules re-analyse.
 * It is the git blob id (pd_sha1_blob_hex, without libgit2) of their
 * canonical text: each directive on a line of its own, its words one blank
 * apart (its id= last), comments and blank lines left out, so a comment or
 * a layout change re-analyses nothing; with `names` sets, that text
 * followed by each set's text (after a "\nnames SET\n" line), so a changed
 * set re-analyses.  Computed by the first call (any thread may make it),
 * not by the load: a run that never asks skips hashing the text.
 */
const char *rules_hash(const rules *r);

/*
 * The hash rules_hash gave before comments and layout were left out
 * (2026-12-07): the git blob id of the text as read, with the sets, into
 * out (40 hex and a NUL).  A database whose rules were recorded under it
 * is under these same rules (db_repo_rules_check); its analyses are made
 * again once, under the new key, as after an analyzer upgrade.
 */
void rules_hash_raw(const rules *r, char out[41]);

/*
 * The port profile the rules file declares with `profile` lines, as JSON
 * text (malloc'd; NULL when out of memory): {"object_dtype": true|false|
 * "auto", "scopes": [NAME...] or null (all), "default_measure": KEY or
 * null, "hpy_version": TEXT or null}.  What a port has, for the views
 * (issue 23, point 4): a port without object dtype shows no object-dtype
 * card, panel or scope; "auto" (no line) shows them where a commit has
 * object paths.  Stored with the repository at each ingest.
 */
char *rules_profile_json(const rules *r);

/* ingest/rules/default.rules, embedded by the Makefile as SYMBOL and
 * SYMBOL_len
 * (build/gen/rules_default.c, made by common/embed.sh). */
extern const char rules_default_text[];
extern const unsigned long rules_default_text_len;

/* ingest/rules/cpython.names (tools/gen_capi_names.py: the names
 * CPython's headers declare), embedded the same way
 * (build/gen/cpython_names.c); the names set `builtin:cpython`. */
extern const char rules_cpython_names_text[];
extern const unsigned long rules_cpython_names_text_len;

/* rules_parse() of the embedded default rules, named "default.rules" in
 * messages.  Same errors and ownership as rules_parse(). */
int rules_load_default(rules **out);

/*
 * The built-in rules, parsed once per process on first use (thread-safe)
 * and shared read-only by every caller for the process's life: the server's
 * handlers and queries that ask what a name is.  Not owned by the caller.
 * NULL when they cannot be parsed (not for the embedded file; a caller then
 * treats every name as unclassified).
 */
const rules *rules_default(void);

/* ---- Lookup API used by the analyzer (analyze.c) ---------------------- */

/* The hash of a name, as stored in rules_name.hash and used by the
 * rules' index: a word at a time (rules_build.c), not for anything an
 * attacker must not steer. */
uint32_t rules_hash_name(const char *s, size_t len);

/*
 * Classify the identifier s[0..len) (no NUL needed).  Returns its exact
 * entry or NULL, and sets *v to its class: the exact rule if any, else the
 * longest matching prefix or suffix rule (a suffix wins a tie), else
 * cls = RULES_CLS_UNSET.  An explicit "none" is returned as UNSET too.
 * Allocation-free; safe to call from many threads on one rules object.
 */
const rules_name *rules_classify(const rules *r, const char *s, size_t len,
                                 rules_verdict *v);

/* The exact entry of s[0..len), or NULL. */
const rules_name *rules_lookup(const rules *r, const char *s, size_t len);

/* 1 when a function named `name` is an object-dtype function by an
 * `objfunc` rule, else 0. */
int rules_objfunc(const rules *r, const char *name);

/* 1 when s[0..len) (exact entry e, or NULL) gives a pointer into array
 * data by an `itemsource` rule: the name, or a `suffix` pattern. */
int rules_itemsource(const rules *r, const char *s, size_t len,
                     const rules_name *e);

/* Number of exact-if rules (bits 0 .. n-1 of cond_bit/triggers). */
int rules_ncond(const rules *r);

#endif
