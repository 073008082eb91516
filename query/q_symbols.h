/*
 * q_symbols.h: universal blockers by C API symbol, typed.  A blocking use
 * is an unguarded finding of class capi or bridge in a file of the scope,
 * inside a function the scope keeps (no-object-dtype leaves out
 * object-dtype paths) or outside any function; its symbol is the
 * finding's text, the name the analyzer matched (PyErr_SetString,
 * Py_INCREF, PyObject, ...).  server/api_symbols.c renders the results as
 * JSON with the HPy API that replaces each symbol, cli/cli_show.c as text
 * or the same JSON.
 */
#ifndef Q_SYMBOLS_H
#define Q_SYMBOLS_H

#include <stddef.h>
#include <stdint.h>

#include "db_scope.h"
#include "q_at.h"

/* One use, as q_symbols_walk reports it. */
typedef struct {
    const char *path;
    const char *cls;             /* "capi" or "bridge" */
    const char *text;            /* the symbol */
    int64_t line, column;
    int64_t fn;                  /* function index in the file, -1: none */
    const char *fn_name;         /* NULL outside functions */
    int64_t fn_line;
    int64_t file_seq;            /* 0, 1, 2 ... per file walked */
} q_sym_use;

typedef int (*q_sym_cb)(void *arg, const q_sym_use *u);

/*
 * Report to cb every blocking use at `at` under scope `sc` (unguarded
 * capi or bridge, object-dtype paths left out when the scope says so;
 * with `guarded_too`, guarded uses too), files in path order.  0, cb's
 * non-zero return, PD_EDB, PD_ENOMEM.
 */
int q_symbols_walk(sqlite3 *db, const q_at *at, const db_scope *sc, int guarded_too,
                   q_sym_cb cb, void *arg);

/* One symbol with blocking uses. */
typedef struct {
    char *symbol;
    const char *cls;             /* "capi" or "bridge": of its first use */
    int64_t uses;                /* blocking uses */
    int64_t functions;           /* functions with one (per file) */
    int64_t files;               /* files with one */
} q_symbol_row;

/* Every symbol with blocking uses at a commit under a scope. */
typedef struct {
    char commit[41];
    char *scope;                 /* the scope's name */
    q_symbol_row *v;             /* most uses first, then by name */
    size_t n;
    int64_t uses_total;
} q_symbols;

/*
 * The symbols with blocking uses at `at` under scope `sc` into *out
 * (q_symbols_free).  0, PD_EDB, PD_ENOMEM; on error *out is NULL.
 */
int q_symbols_get(sqlite3 *db, const q_at *at, const db_scope *sc, q_symbols **out);

/* Free a q_symbols (NULL is fine). */
void q_symbols_free(q_symbols *s);

/* One blocking use of a symbol. */
typedef struct {
    char *path;
    int64_t line, column;
    char *function;              /* NULL outside functions */
    int64_t function_line;
} q_site;

/* One symbol's blocking uses at a commit under a scope. */
typedef struct {
    char commit[41];
    char *scope;
    char *symbol;
    const char *cls;             /* static: "capi" or "bridge"; without a
                                  * use, the class the built-in rules give */
    int64_t functions, files;
    q_site *sites;               /* in walk order (files by path) */
    size_t nsites, capsites;
} q_symbol;

/*
 * The blocking uses of `symbol` at `at` under scope `sc` into *out
 * (q_symbol_free).  A C API or bridge name without any use (one the
 * built-in rules class so: ported away, or not used yet) has none and is
 * still an answer; any other name without a use is PD_ENOTFOUND (a typo
 * must not read as "nothing left to port").  0, PD_ENOTFOUND, PD_EDB,
 * PD_ENOMEM; on error *out is NULL.
 */
int q_symbol_get(sqlite3 *db, const q_at *at, const db_scope *sc, const char *symbol,
                 q_symbol **out);

/* Free a q_symbol (NULL is fine). */
void q_symbol_free(q_symbol *s);

#endif
