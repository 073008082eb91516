/*
 * fix_find.c: the candidates of fix.h by their form, before any check by
 * re-analysis (fix_check.c).  Works on the file's tokens (comments and
 * string literals are single tokens or skipped, so they are never
 * rewritten) and on the analysis's findings and function ranges.
 */
#include <stdlib.h>
#include <string.h>

#include "fix_int.h"
#include "pd_buf.h"
#include "pd_error.h"

#define FIX_MAX_ARGS 16
#define FIX_MAX_CALL_TOKENS 4096

/* A variable the function declares: 1 HPy, 2 a Py* pointer. */
typedef struct {
    long tok;
    int kind;
} ff_var;

/* One function's scope. */
typedef struct {
    long t0, t1;          /* its tokens [t0, t1) */
    long ctx;             /* the context's name token, or -1 */
    int ret;              /* return type: 1 HPy, 2 a Py* pointer, 0 other */
    ff_var *vars;
    size_t nvars, cap;
} ff_fn;

typedef struct {
    const char *buf;
    const fix_toks *tk;
    const an_result *res;
    fix_list *out;
    long fn_index;        /* the function ff_fn holds, or -1 */
    ff_fn fn;
    size_t span_end;      /* end offset of the last offered candidate */
} ff;

static int ff_ident(const fix_toks *tk, long i)
{
    return i >= 0 && (size_t)i < tk->n && tk->t[i].kind == LEX_IDENT && !tk->pp[i];
}

static int ff_same(const fix_toks *tk, long a, long b)
{
    return tk->t[a].len == tk->t[b].len &&
           memcmp(tk->t[a].start, tk->t[b].start, tk->t[a].len) == 0;
}

static int ff_var_add(ff_fn *f, long tok, int kind)
{
    if (f->nvars == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 32;
        ff_var *p = realloc(f->vars, cap * sizeof(*p));

        if (!p)
            return PD_ENOMEM;
        f->vars = p;
        f->cap = cap;
    }
    f->vars[f->nvars].tok = tok;
    f->vars[f->nvars++].kind = kind;
    return 0;
}

/* 1 when token i ends a declarator: = ; , ) [ */
static int ff_decl_end(const fix_toks *tk, long i)
{
    return fix_tok_is(tk, i, "=") || fix_tok_is(tk, i, ";") || fix_tok_is(tk, i, ",") ||
           fix_tok_is(tk, i, ")") || fix_tok_is(tk, i, "[");
}

/* Past an initializer at i (after '='): the next ',' or ';' at depth 0. */
static long ff_skip_init(const fix_toks *tk, long i, long end)
{
    int depth = 0;

    for (; i < end; i++) {
        if (fix_tok_is(tk, i, "(") || fix_tok_is(tk, i, "{") || fix_tok_is(tk, i, "["))
            depth++;
        else if (fix_tok_is(tk, i, ")") || fix_tok_is(tk, i, "}") || fix_tok_is(tk, i, "]")) {
            if (--depth < 0)
                return i;
        } else if (depth == 0 && (fix_tok_is(tk, i, ",") || fix_tok_is(tk, i, ";")))
            return i;
    }
    return end;
}

/* The declarators after a type at i (HPy: kind 1, `T *`: kind 2). */
static int ff_decls(ff_fn *f, const fix_toks *tk, long i, int kind)
{
    for (;;) {
        while (kind == 2 && fix_tok_is(tk, i, "*"))
            i++;
        if (!ff_ident(tk, i) || !ff_decl_end(tk, i + 1))
            return 0;
        if (ff_var_add(f, i, kind))
            return PD_ENOMEM;
        i++;
        if (fix_tok_is(tk, i, "="))
            i = ff_skip_init(tk, i + 1, f->t1);
        if (!fix_tok_is(tk, i, ","))
            return 0;
        i++;
        if (kind == 1 && !ff_ident(tk, i))
            return 0;
        if (kind == 2 && !fix_tok_is(tk, i, "*"))
            return 0;       /* `T *a, b` declares b as T, not a pointer */
    }
}

/* 1 when token i names a Py* type spelled before a '*' (PyObject,
 * PyArrayObject, ...). */
static int ff_py_type(const fix_toks *tk, long i)
{
    return ff_ident(tk, i) && tk->t[i].len > 2 && memcmp(tk->t[i].start, "Py", 2) == 0 &&
           fix_tok_is(tk, i + 1, "*");
}

/* Set up ff->fn for function k: token range, context, return type,
 * declared variables. */
static int ff_scope(ff *s, long k)
{
    const an_function *fn = &s->res->functions[k];
    const fix_toks *tk = s->tk;
    ff_fn *f = &s->fn;
    long i, lo = 0, hi = (long)tk->n;

    f->nvars = 0;
    f->ctx = -1;
    f->ret = 0;
    s->fn_index = k;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;

        if (tk->t[mid].line < fn->start_line)
            lo = mid + 1;
        else
            hi = mid;
    }
    f->t0 = lo;
    for (f->t1 = f->t0; (size_t)f->t1 < tk->n && tk->t[f->t1].line <= fn->end_line; f->t1++)
        ;
    for (i = f->t0; i < f->t1; i++) {
        if (tk->pp[i])
            continue;
        if (fix_tok_is(tk, i, "(") && f->ret == 0 && i > f->t0 && ff_ident(tk, i - 1)) {
            f->ret = fix_tok_is(tk, i - 2, "HPy") ? 1 : ff_py_type(tk, i - 3) ? 2 : 3;
        }
        if (f->ctx < 0 && fix_tok_is(tk, i, "HPyContext") && fix_tok_is(tk, i + 1, "*") &&
            ff_ident(tk, i + 2))
            f->ctx = i + 2;
        if (fix_tok_is(tk, i, "HPy") && ff_ident(tk, i + 1) && ff_decls(f, tk, i + 1, 1))
            return PD_ENOMEM;
        if (ff_py_type(tk, i) && ff_decls(f, tk, i + 1, 2))
            return PD_ENOMEM;
    }
    if (f->ret == 3)
        f->ret = 0;
    return 0;
}

/* Kind of the variable named by token i, declared before it: 0 unknown. */
static int ff_var_kind(const ff *s, long i)
{
    size_t k;
    int kind = 0;

    for (k = 0; k < s->fn.nvars && s->fn.vars[k].tok <= i; k++)
        if (ff_same(s->tk, s->fn.vars[k].tok, i))
            kind = s->fn.vars[k].kind;
    return kind;
}

/* 1 when token i starts a statement (what precedes it ends one). */
static int ff_stmt_start(const fix_toks *tk, long i)
{
    return fix_tok_is(tk, i - 1, ";") || fix_tok_is(tk, i - 1, "{") ||
           fix_tok_is(tk, i - 1, "}") || fix_tok_is(tk, i - 1, ")") ||
           fix_tok_is(tk, i - 1, "else") || fix_tok_is(tk, i - 1, ":");
}

/* Whether the result of a call from token i to its ')' at close fits
 * where it lands; FIX_OK or the reason. */
static fix_reason ff_result(const ff *s, const fix_row *row, long i, long close)
{
    const fix_toks *tk = s->tk;
    int stmt = ff_stmt_start(tk, i) && fix_tok_is(tk, close + 1, ";");
    int kind;

    switch (row->shape) {
    case FIX_SHAPE_SAME:
        return FIX_OK;
    case FIX_SHAPE_VOID:
        return stmt ? FIX_OK : FIX_R_RESULT_TYPE;
    case FIX_SHAPE_FLAG:
        if ((fix_tok_is(tk, i - 1, "!") || fix_tok_is(tk, i - 1, "&&") ||
             fix_tok_is(tk, i - 1, "||") ||
             (fix_tok_is(tk, i - 1, "(") && (fix_tok_is(tk, i - 2, "if") ||
                                             fix_tok_is(tk, i - 2, "while")))) &&
            (fix_tok_is(tk, close + 1, ")") || fix_tok_is(tk, close + 1, "&&") ||
             fix_tok_is(tk, close + 1, "||")))
            return FIX_OK;
        return FIX_R_RESULT_TYPE;
    default:
        break;
    }
    if (fix_tok_is(tk, i - 1, "=") && ff_ident(tk, i - 2)) {
        kind = ff_var_kind(s, i - 2);
        return kind == 1 ? FIX_OK : kind == 2 ? FIX_R_RESULT_PYOBJECT : FIX_R_RESULT_NOT_HANDLE;
    }
    if (fix_tok_is(tk, i - 1, "return") && fix_tok_is(tk, close + 1, ";"))
        return s->fn.ret == 1 ? FIX_OK : s->fn.ret == 2 ? FIX_R_RESULT_PYOBJECT
                                                        : FIX_R_RESULT_NOT_HANDLE;
    /* The PyErr_ calls that return an object return NULL: nothing to close. */
    if (stmt && strncmp(row->name, "PyErr_", 6) == 0)
        return FIX_OK;
    return FIX_R_RESULT_NOT_HANDLE;
}

/* An object argument of tokens [a, b): FIX_OK (*handle set to the token
 * of a context handle to rewrite, or -1) or the reason. */
static fix_reason ff_arg(const ff *s, long a, long b, long *handle, const fix_row **hrow)
{
    const fix_toks *tk = s->tk;
    int kind;

    *handle = -1;
    if (b - a == 3 && ff_same(tk, a, s->fn.ctx) && fix_tok_is(tk, a + 1, "->") &&
        tk->t[a + 2].len > 2 && memcmp(tk->t[a + 2].start, "h_", 2) == 0)
        return FIX_OK;
    if (b - a != 1 || !ff_ident(tk, a))
        return FIX_R_ARG_NOT_HANDLE;
    if (fix_tok_is(tk, a, "HPy_NULL"))
        return FIX_OK;
    if ((kind = ff_var_kind(s, a)) != 0)
        return kind == 1 ? FIX_OK : FIX_R_ARG_PYOBJECT;
    *hrow = fix_table_find(tk->t[a].start, tk->t[a].len);
    if (*hrow && (*hrow)->shape == FIX_SHAPE_HANDLE) {
        *handle = a;
        return FIX_OK;
    }
    return FIX_R_ARG_NOT_HANDLE;
}

/* The closing ')' of the call whose '(' is token open, its argument
 * starts in args[] (*nargs; the ')' ends the last); -1 when a directive
 * or the end comes first or there are too many. */
static long ff_call_args(const fix_toks *tk, long open, long *args, int *nargs)
{
    long i;
    int depth = 0;

    *nargs = 0;
    for (i = open + 1; (size_t)i < tk->n && i < open + FIX_MAX_CALL_TOKENS; i++) {
        if (tk->pp[i] != tk->pp[open])
            return -1;
        if (fix_tok_is(tk, i, "(") || fix_tok_is(tk, i, "[") || fix_tok_is(tk, i, "{"))
            depth++;
        else if (fix_tok_is(tk, i, ")") || fix_tok_is(tk, i, "]") || fix_tok_is(tk, i, "}")) {
            if (depth-- == 0) {
                if (i > open + 1 && *nargs < FIX_MAX_ARGS)
                    args[(*nargs)++] = i;          /* the last argument's end */
                return fix_tok_is(tk, i, ")") ? i : -1;
            }
        } else if (depth == 0 && fix_tok_is(tk, i, ",")) {
            if (*nargs >= FIX_MAX_ARGS - 1)
                return -1;
            args[(*nargs)++] = i;
        }
    }
    return -1;
}

/* Build the candidate for a call at token i; its reason set. */
static int ff_call(ff *s, const fix_row *row, long i, fix_offer *o)
{
    const fix_toks *tk = s->tk;
    long ends[FIX_MAX_ARGS], handles[FIX_MAX_ARGS], close, from;
    const fix_row *hrows[FIX_MAX_ARGS];
    const char *p = row->params;
    int nargs, nfixed = 0, variadic = strstr(p, "...") != NULL, k;
    char kinds[FIX_MAX_ARGS];
    pd_buf b;

    for (; *p && nfixed < FIX_MAX_ARGS; p += strcspn(p, ","), p += *p == ',')
        if (*p != '.')
            kinds[nfixed++] = *p;
    if (!fix_tok_is(tk, i + 1, "(") || (close = ff_call_args(tk, i + 1, ends, &nargs)) < 0 ||
        !(nargs == nfixed || (variadic && nargs >= nfixed))) {
        o->reason = FIX_R_CALL_SHAPE;
        return 0;
    }
    for (k = 0; k < nargs; k++) {
        long a = k ? ends[k - 1] + 1 : i + 2;

        handles[k] = -1;
        if (k < nfixed && kinds[k] == 'o' &&
            (o->reason = ff_arg(s, a, ends[k], &handles[k], &hrows[k])) != FIX_OK)
            return 0;
    }
    if ((o->reason = ff_result(s, row, i, close)) != FIX_OK)
        return 0;
    pd_buf_init(&b, 0);
    pd_buf_printf(&b, "%s(%.*s%s", row->hpy, (int)tk->t[s->fn.ctx].len, tk->t[s->fn.ctx].start,
                  nargs == 0 ? "" : strchr(" \t\r\n", tk->t[i + 1].start[1]) ? "," : ", ");
    from = i + 1;
    for (k = 0; k < nargs; k++) {
        long h = handles[k];
        const char *done = tk->t[from].start + tk->t[from].len;

        if (h < 0)
            continue;
        pd_buf_put(&b, done, (size_t)(tk->t[h].start - done));
        pd_buf_printf(&b, "%.*s->%s", (int)tk->t[s->fn.ctx].len, tk->t[s->fn.ctx].start,
                      hrows[k]->hpy);
        from = h;
        if (o->nremoved < 8) {
            o->removed[o->nremoved][0] = tk->t[h].line;
            o->removed[o->nremoved++][1] = tk->t[h].column;
        }
        if (strcmp(hrows[k]->since, o->since) > 0)
            o->since = hrows[k]->since;      /* "0.0.4" < "0.9.0" < "master" */
    }
    pd_buf_put(&b, tk->t[from].start + tk->t[from].len,
               (size_t)(tk->t[close].start - (tk->t[from].start + tk->t[from].len)));
    pd_buf_puts(&b, ")");
    if (b.err) {
        pd_buf_free(&b);
        return PD_ENOMEM;
    }
    o->text = pd_buf_take(&b, NULL);
    o->len = (size_t)(tk->t[close].start + 1 - s->buf) - o->off;
    o->end_line = tk->t[close].line;
    o->end_column = tk->t[close].column + 1;
    o->rule = "hpy-call";
    return 0;
}

/* The candidate (or refusal) for finding f at token i with row `row`. */
static int ff_one(ff *s, const an_finding *f, long i, const fix_row *row)
{
    const fix_toks *tk = s->tk;
    fix_offer o;
    int rc = 0;

    memset(&o, 0, sizeof(o));
    o.line = o.end_line = f->line;
    o.column = f->column;
    o.end_column = f->column + (uint32_t)tk->t[i].len;
    o.off = (size_t)(tk->t[i].start - s->buf);
    o.len = tk->t[i].len;
    o.function = f->function;
    o.from = row->name;
    o.to = row->hpy;
    o.since = row->since ? row->since : "";
    o.rule = row->shape == FIX_SHAPE_NAME || row->shape == FIX_SHAPE_HANDLE ? "hpy-name"
                                                                            : "hpy-call";
    o.nremoved = 1;
    o.removed[0][0] = f->line;
    o.removed[0][1] = f->column;
    if (row->other)
        o.reason = row->other == 1 ? FIX_R_NOT_ONE_TO_ONE : FIX_R_NO_SHAPE;
    else if (f->guarded)
        o.reason = FIX_R_GUARDED;
    else if (tk->pp[i])
        o.reason = FIX_R_IN_MACRO;
    else if (o.off < s->span_end)
        o.reason = FIX_R_OVERLAP;
    else if (f->function != s->fn_index && (rc = ff_scope(s, f->function)) < 0)
        return rc;
    else if (s->fn.ctx < 0 || s->fn.ctx > i)
        o.reason = FIX_R_NO_CONTEXT;
    else if (row->shape == FIX_SHAPE_HANDLE)
        o.reason = FIX_R_HANDLE_ALONE;
    else if (row->shape == FIX_SHAPE_NAME) {
        o.reason = fix_tok_is(tk, i + 1, "(") ? FIX_R_CALL_SHAPE : FIX_OK;
        o.text = o.reason == FIX_OK ? (char *)row->hpy : NULL;
    } else if ((rc = ff_call(s, row, i, &o)) < 0)
        return rc;
    if (o.reason != FIX_OK && o.text != row->hpy)
        free(o.text);
    if (o.reason != FIX_OK)
        o.text = NULL;
    if (fix_list_add(s->out, &o) < 0)
        rc = PD_ENOMEM;
    if (o.text != row->hpy)
        free(o.text);
    if (!rc && o.reason == FIX_OK)
        s->span_end = o.off + o.len;
    return rc ? pd_error_nomem("finding fixes") : 0;
}

/* 1 when the last offered candidate consumed the handle at line:column. */
static int ff_consumed(const fix_list *l, uint32_t line, uint32_t column)
{
    const fix_offer *o;
    uint32_t k;

    if (!l->n || (o = &l->v[l->n - 1])->reason != FIX_OK)
        return 0;
    for (k = 1; k < o->nremoved; k++)
        if (o->removed[k][0] == line && o->removed[k][1] == column)
            return 1;
    return 0;
}

int fix_find(fix_list *out, const char *path, const char *buf, size_t len,
             const an_result *res)
{
    fix_toks tk;
    ff s;
    size_t k;
    int rc;

    if ((rc = fix_toks_lex(&tk, path, buf, len)) < 0)
        return rc;
    memset(&s, 0, sizeof(s));
    s.buf = buf;
    s.tk = &tk;
    s.res = res;
    s.out = out;
    s.fn_index = -1;
    for (k = 0; k < res->nfindings && !rc; k++) {
        const an_finding *f = &res->findings[k];
        const fix_row *row;
        long i;

        if (f->cls != AN_CLASS_CAPI || f->function < 0 ||
            (k > 0 && f->line == res->findings[k - 1].line &&
             f->column == res->findings[k - 1].column))
            continue;       /* template instances share the position */
        if (!(row = fix_table_find(f->text, strlen(f->text))) ||
            (i = fix_toks_at(&tk, f->line, f->column)) < 0 ||
            ff_consumed(out, f->line, f->column))
            continue;
        rc = ff_one(&s, f, i, row);
    }
    free(s.fn.vars);
    fix_toks_free(&tk);
    return rc;
}
