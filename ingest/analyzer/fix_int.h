/*
 * fix_int.h: inside the rewrite engine (fix.h): the table of rewrites
 * (fix_table.c) that finding (fix_find.c) and checking (fix_check.c) share.
 * Not used outside ingest/fix_*.c.
 */
#ifndef FIX_INT_H
#define FIX_INT_H

#include "fix.h"
#include "lex.h"

/* What the table says a CPython name becomes (ingest/rules/fix_calls.tsv). */
typedef enum {
    FIX_SHAPE_NONE = 0,     /* no one-to-one row: see fix_row.other */
    FIX_SHAPE_NAME,         /* a plain rename (Py_ssize_t -> HPy_ssize_t) */
    FIX_SHAPE_HANDLE,       /* a context handle (PyExc_TypeError -> h_TypeError) */
    FIX_SHAPE_SAME,         /* a call; the result keeps its C type */
    FIX_SHAPE_VOID,         /* a call returning void in CPython: statement only */
    FIX_SHAPE_HANDLE_RES,   /* a call returning PyObject *, HPy in HPy */
    FIX_SHAPE_FLAG          /* PyObject * in CPython, an int flag in HPy */
} fix_shape;

typedef struct {
    const char *name, *hpy, *since;
    fix_shape shape;
    const char *params;     /* "o,v,..." or "" */
    int other;              /* 0: a fix_calls.tsv row; 1: server/hpy_api.tsv's
                             * row is generic or a pattern; 2: one-to-one there,
                             * but the headers do not confirm the shape */
} fix_row;

/* The row of CPython name s (n bytes), or NULL.  The table is read once
 * from the embedded files; NULL too when that failed (out of memory). */
const fix_row *fix_table_find(const char *s, size_t n);

/* A file's tokens (no comments), each with whether it is in a directive. */
typedef struct {
    lex_token *t;
    unsigned char *pp;      /* 1: inside a # directive line */
    size_t n;
} fix_toks;

/* Lex buf into *tk (C++ flags from path); 0 or PD_ENOMEM. */
int fix_toks_lex(fix_toks *tk, const char *path, const char *buf, size_t len);
void fix_toks_free(fix_toks *tk);

/* Index of the token at line:column, or -1. */
long fix_toks_at(const fix_toks *tk, uint32_t line, uint32_t column);

/* 1 when token i is the identifier or punctuator text s. */
int fix_tok_is(const fix_toks *tk, long i, const char *s);

/* Add a candidate (copying text when not NULL); its index or -1 (ENOMEM). */
long fix_list_add(fix_list *l, const fix_offer *o);

/*
 * The candidates of buf (fix_find.c): every unguarded or guarded legacy
 * finding of res with a table row, offered (reason FIX_OK, text set) or
 * refused by its form.  0 or PD_ENOMEM.
 */
int fix_find(fix_list *out, const char *path, const char *buf, size_t len,
             const an_result *res);

#endif
