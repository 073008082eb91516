/*
 * fix.h: HPy rewrites offered for legacy C API uses, checked before they
 * are offered (issue 25; doc/fixes.md).
 *
 * What may be rewritten comes from ingest/rules/fix_calls.tsv, which
 * tools/gen_fix_calls.py keeps to the one-to-one rows of server/hpy_api.tsv
 * whose shape CPython's and HPy's headers confirm.  A use is offered only
 * in a function with an `HPyContext *` in scope (a parameter or a local
 * declared before the use), and only where the types stay right: every
 * object argument must be a handle (a variable declared `HPy`, HPy_NULL,
 * a context handle such as PyExc_ValueError -> ctx->h_ValueError), and the
 * result must land where its HPy type fits (an `HPy` variable, a return of
 * a function returning HPy, a condition for HPyErr_Occurred's int, a
 * statement for a call whose CPython result is void).  Anything else is
 * refused with a reason.  Each candidate is then applied to the bytes in
 * memory and the file analysed again (an_analyze): the legacy tokens it
 * replaces must be gone, no other finding may appear or go, and no
 * function's status may get worse.  numpy templates are rewritten in the
 * template text, once per position, whatever the number of instances.
 */
#ifndef FIX_H
#define FIX_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analyze.h"
#include "rules.h"

/* Why a use was not offered (FIX_OK: it was). */
typedef enum {
    FIX_OK = 0,
    FIX_R_NO_CONTEXT,        /* no HPyContext * in scope */
    FIX_R_NOT_ONE_TO_ONE,    /* the table's replacement is generic or a pattern */
    FIX_R_NO_SHAPE,          /* one-to-one, but the headers do not confirm the shape */
    FIX_R_GUARDED,           /* in a CPython-only #if block on purpose */
    FIX_R_IN_MACRO,          /* in a #define: the context is not in scope there */
    FIX_R_HANDLE_ALONE,      /* a context handle outside a rewritten call */
    FIX_R_ARG_PYOBJECT,      /* an object argument is a PyObject * variable */
    FIX_R_ARG_NOT_HANDLE,    /* an object argument is not known to be a handle */
    FIX_R_RESULT_PYOBJECT,   /* the result is kept as a PyObject * */
    FIX_R_RESULT_NOT_HANDLE, /* the result goes where an HPy is not known to fit */
    FIX_R_RESULT_TYPE,       /* the HPy result type differs and the use needs it */
    FIX_R_CALL_SHAPE,        /* not a call, a directive inside it, or the wrong
                              * number of arguments */
    FIX_R_OVERLAP,           /* inside another offered rewrite */
    FIX_R_TOKEN_LEFT,        /* re-analysis: the legacy token is still there */
    FIX_R_NEW_FINDING,       /* re-analysis: another finding appeared or went */
    FIX_R_STATUS_WORSE,      /* re-analysis: a function's status got worse */
    FIX_R_COUNT
} fix_reason;

/* One offered (reason FIX_OK) or refused rewrite. */
typedef struct {
    uint32_t line, column;         /* the legacy token (1-based, byte column) */
    uint32_t end_line, end_column; /* the replaced bytes end before this column */
    size_t off, len;               /* the replaced bytes of the blob */
    char *text;                    /* their replacement (NUL-terminated; NULL
                                    * when refused); owned by the list */
    const char *rule;              /* "hpy-call" or "hpy-name" (static) */
    const char *from, *to, *since; /* the table's names and HPy version
                                    * (owned by the table, static) */
    int32_t function;              /* index into the result's functions */
    fix_reason reason;
    uint32_t nremoved;             /* legacy tokens replaced (the call, handles) */
    uint32_t removed[8][2];        /* their line, column */
} fix_offer;

typedef struct fix_list {
    fix_offer *v;                  /* in order of position */
    size_t n, cap;
    size_t refused[FIX_R_COUNT];   /* refusals by reason ([FIX_OK]: offers) */
    size_t tokens_removed;         /* legacy findings the offers replace
                                    * (every template instance counted) */
} fix_list;

/*
 * Find and check the rewrites of one file: `buf`/`len` its bytes, `path`
 * (suffix as for an_analyze), `res` its analysis with rules r (an_analyze
 * of the same bytes).  *out gets every candidate, offered or refused;
 * free it with fix_list_free().  0 or PD_ENOMEM.
 */
int fix_file(fix_list *out, const rules *r, const char *path, const char *buf,
             size_t len, const an_result *res);

/* Free a list's contents (not the list itself); accepts a zeroed list. */
void fix_list_free(fix_list *l);

/*
 * The bytes of buf with the offers of l that want(offer, arg) accepts
 * applied (want NULL: arg NULL for all offered ones, or an array of one
 * flag per entry of l), as a new buffer in *out (*out_len bytes,
 * NUL-terminated, free()).  Refused entries are never applied.  0 or
 * PD_ENOMEM.
 */
int fix_apply(const char *buf, size_t len, const fix_list *l,
              int (*want)(const fix_offer *, void *), void *arg,
              char **out, size_t *out_len);

/*
 * Write a unified diff (git's form, `diff --git a/PATH b/PATH`, three
 * lines of context) from a to b, which have the same number of lines (a
 * rewrite never adds or removes a newline).  Lines ending in CRLF keep it;
 * a last line without a newline gets git's "\ No newline at end of file".
 * Nothing is written when a and b are equal.  0, or PD_EIO on a write error.
 */
int fix_diff(FILE *out, const char *path, const char *a, size_t alen,
             const char *b, size_t blen);

/* The reason's stable name ("no-context", "result-pyobject", ...). */
const char *fix_reason_name(fix_reason r);

/* 1 when offer o matches --rule R: its rule id or its CPython name. */
int fix_rule_matches(const fix_offer *o, const char *rule);

/* 1 when some offer could match --rule R: R is a rule id ("hpy-call",
 * "hpy-name") or a CPython name with a row of fix_calls.tsv; 0 for a
 * name no offer can have (a typo reads as "nothing to fix" otherwise). */
int fix_rule_known(const char *rule);

/* 1 when v is an HPy version recorded in server/hpy_api.tsv ("@versions":
 * 0.0.4, 0.9.0, master), 0 otherwise. */
int fix_hpy_version_known(const char *v);

#endif
