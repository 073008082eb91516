/*
 * analyze_flow.c: the facts of each function that the call-graph step
 * (common/pd_flow.h) follows across the repository.
 *
 * Whether a function reaches object-array items through a helper, a
 * visitor or a static inline function in a header cannot be decided from
 * one file: the helper may live anywhere, and its meaning is that of its
 * body at the same revision.  So the analyzer records, per function, only
 * what its own body shows, relative to its parameters:
 *
 *   L<k>  F<k>   an item site (PyObject * items: L, HPyField items: F)
 *                reached through parameter k (a cast of it, of a local set
 *                from it, of PyArray_DATA(it), of it->dataptr, ...);
 *   o<k>         parameter k is the owner argument of a `nullowner` call
 *                (HPyField_Load/Store): a caller passing HPy_NULL there
 *                makes the field use CPython-only;
 *   c<d>:NAME:A  a call of NAME, d lines below the function's first line,
 *                with one code per argument, comma-separated: p<k> (the
 *                argument reaches parameter k), N (HPy_NULL), i<NAME> (a
 *                single other name: a local, or a function passed as a
 *                callback), - (anything else).  The codes are read by
 *                position; past AN_MAXCODES bytes an argument is -, and
 *                the codes end where not even that fits.
 *
 * "Reaches parameter k" is followed through locals assigned from an
 * expression that names the parameter (`fa = HPyArray_AsFields(ctx, h)`).
 * Parameter names are read from the declaration's last parenthesised
 * group (`T *NPY_UNUSED(x)` names x, `int (*visit)(...)` names visit).
 * The facts are strings in the text pool, kept per function like calls,
 * so the chunk memo replays them unchanged.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_flow.h"
#include "pd_dec.h"
#include "pd_error.h"

static int an_tok_eq(const an_tok *t, const char *s, size_t len)
{
    return t->len == len && memcmp(t->s, s, len) == 0;
}

static int an_after_member(const an_state *st)
{
    const an_tok *p = an_prev(st, 1);

    return an_punct_is(p, '.') || an_punct_is(p, LEX_P2('-', '>'));
}

/* ---- parameter names at file level ------------------------------------- */

static void an_param_end(an_flow *f)
{
    an_tok none;
    const an_tok *name = f->has_fp ? &f->p_fp : f->has_last ? &f->p_last
                         : f->has_inner ? &f->p_inner : NULL;

    if (!name) {
        memset(&none, 0, sizeof(none));
        name = &none;
    }
    if (f->p_ntok && f->ngp < AN_MAXPARAM)
        f->gp[f->ngp++] = *name;
    f->has_fp = f->has_last = f->has_inner = f->p_ntok = 0;
}

/* Token t at file level, before pdepth counts it. */
void an_flow_file_token(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;

    if (st->pdepth == 0) {
        if (an_punct_is(t, '(')) {
            f->ngp = 0;
            f->has_fp = f->has_last = f->has_inner = f->p_ntok = 0;
        }
        return;
    }
    if (st->pdepth == 1) {
        if (an_punct_is(t, ',')) {
            an_param_end(f);
        } else if (an_punct_is(t, ')')) {
            an_param_end(f);
            if (!(f->ngp == 1 && an_tok_eq(&f->gp[0], "void", 4))) {
                memcpy(f->fp, f->gp, (size_t)f->ngp * sizeof(f->gp[0]));
                f->nfp = f->ngp;
            } else {
                f->nfp = 0;
            }
        } else {
            f->p_ntok++;
            if (t->kind == LEX_IDENT) {
                f->p_last = *t;
                f->has_last = 1;
            } else if (an_punct_is(t, '(')) {
                f->has_last = 0;          /* NPY_UNUSED(x): a macro */
            }
        }
    } else if (st->pdepth == 2 && t->kind == LEX_IDENT) {
        if (an_punct_is(an_prev(st, 1), '*') && an_punct_is(an_prev(st, 2), '(') &&
            !f->has_fp) {
            f->p_fp = *t;                 /* int (*visit)(...) */
            f->has_fp = 1;
        } else {
            f->p_inner = *t;
            f->has_inner = 1;
        }
    }
}

/* The body of a function starts: its parameters are the last group's. */
void an_flow_begin(an_state *st)
{
    an_flow *f = &st->flow;

    memcpy(f->par, f->fp, (size_t)f->nfp * sizeof(f->fp[0]));
    f->npar = f->nfp;
    f->nal = f->nfc = f->asg = f->site_wait = f->nfa = f->nvl = 0;
    f->deref_valid = f->deref_pending = 0;
}

/* ---- roots: which parameter a name reaches ---------------------------- */

static int an_root(const an_state *st, const char *s, size_t len)
{
    const an_flow *f = &st->flow;
    int i;

    for (i = f->nal; i-- > 0;)
        if (f->al[i].len == len && memcmp(f->al[i].s, s, len) == 0)
            return f->al[i].root;
    for (i = 0; i < f->npar; i++)
        if (an_tok_eq(&f->par[i], s, len))
            return i;
    return -1;
}

static void an_set_alias(an_state *st, const an_tok *lhs, int root)
{
    an_flow *f = &st->flow;
    int i;

    for (i = 0; i < f->nal; i++)
        if (an_tok_eq(lhs, f->al[i].s, f->al[i].len)) {
            f->al[i].root = root;
            return;
        }
    if (an_root(st, lhs->s, lhs->len) >= 0 && root < 0)
        return;                           /* a parameter reassigned */
    if (f->nal < AN_MAXALIAS) {
        f->al[f->nal].s = lhs->s;
        f->al[f->nal].len = lhs->len;
        f->al[f->nal].root = root;
        f->nal++;
    }
}

/* ---- recording facts --------------------------------------------------- */

static void an_flow_rec(an_state *st, const char *text, size_t len)
{
    struct an_callrec *c;
    uint32_t off;

    if (st->cur < 0 || st->rc || an_intern(st, text, len, &off))
        return;
    if (st->nflowrecs && st->flowrecs[st->nflowrecs - 1].fn == st->cur &&
        st->flowrecs[st->nflowrecs - 1].off == off)
        return;
    if (st->nflowrecs == st->capflowrecs) {
        size_t cap = st->capflowrecs ? st->capflowrecs * 2 : 256;

        if (!(c = realloc(st->flowrecs, cap * sizeof(*c)))) {
            st->rc = pd_error_nomem("analysing");
            return;
        }
        st->flowrecs = c;
        st->capflowrecs = cap;
    }
    c = &st->flowrecs[st->nflowrecs++];
    c->fn = st->cur;
    c->off = off;
    c->len = (uint32_t)len;
}

static char an_site_cls(rules_verdict v)
{
    return v.cls == AN_CLASS_CAPI || v.cls == AN_CLASS_NPY_LEGACY ? 'L' : 'F';
}

/* The fact "<c><root>" (root >= 0) into buf; its length. */
static size_t an_put_root(char *buf, char c, int root)
{
    buf[0] = c;
    return 1 + pd_utoa(buf + 1, (uint32_t)root);
}

static void an_site_root(an_state *st, char cls, int root)
{
    char buf[16];

    if (root < 0 || st->guard)
        return;
    an_flow_rec(st, buf, an_put_root(buf, cls, root));
}

/* An item site of class v reached through the name s[0..len). */
void an_flow_site(an_state *st, rules_verdict v, const char *s, size_t len)
{
    if (!st->nograph)
        an_site_root(st, an_site_cls(v), an_root(st, s, len));
}

/* An item value site of class v (an_addr_operand: `(char *)&obj`, the
 * bytes of an item-typed variable handed on as raw item data), at the
 * token after obj.  The item is the variable's own storage, but the call
 * it is handed to, directly or through the local it is stored in
 * (`value = (char *)&obj; PyArray_AssignRawScalar(arr, dtype, value, ...)`
 * in numpy's PyArray_FillWithScalar), writes it into the items of the
 * array given first: the site reaches that argument's parameter. */
void an_flow_value_site(an_state *st, rules_verdict v)
{
    an_flow *f = &st->flow;
    char cls = an_site_cls(v);

    if (st->nograph)
        return;
    if (f->nfc > 0 && st->pdepth >= f->fc[f->nfc - 1].depth)
        f->fc[f->nfc - 1].vcls = cls;
    else if (f->asg && f->nvl < (int)(sizeof(f->vl) / sizeof(f->vl[0]))) {
        f->vl[f->nvl].name = f->lhs;
        f->vl[f->nvl].cls = cls;
        f->nvl++;
    }
}

/* An item site of class v whose root is the next name that reaches a
 * parameter (PyArray_DATA( (PyObject *)arr )). */
void an_flow_site_wait(an_state *st, rules_verdict v)
{
    if (st->nograph)
        return;
    st->flow.site_wait = 8;
    st->flow.site_cls = an_site_cls(v);
}

/* ---- calls and their arguments ---------------------------------------- */

/* Append argument c->argi's code s[0..len).  Codes are read by position
 * (the call-graph step takes the k-th as argument k), so one that does not
 * fit is written "-" (nothing known), and when not even that fits the
 * codes end: an argument is never moved to an earlier one's place (it
 * was, with 96 bytes, after long names: tests/unit/test_rename.c). */
static void an_code(an_state *st, an_fcall *c, const char *s, size_t len)
{
    char *codes = st->fcodes[c - st->flow.fc];

    if (c->codes_full)
        return;
    if (c->ncodes + len + 2 >= AN_MAXCODES) {
        if (c->ncodes + 1 + 2 >= AN_MAXCODES) {
            c->codes_full = 1;
            return;
        }
        s = "-";
        len = 1;
    }
    if (c->argi > 0)
        codes[c->ncodes++] = ',';
    memcpy(codes + c->ncodes, s, len);
    c->ncodes += len;
    codes[c->ncodes] = '\0';
}

static void an_end_flow_arg(an_state *st, an_fcall *c)
{
    const rules_name *e = c->name.e;
    char buf[160];

    if (c->ntok == 0 && c->argi == 0)
        return;                           /* f(): no argument */
    if (c->one_valid && c->ntok == 1 && !c->amp) {   /* a local holding an item value */
        int k;

        for (k = 0; k < st->flow.nvl; k++)
            if (an_tok_eq(&st->flow.vl[k].name, c->one.s, c->one.len))
                c->vcls = st->flow.vl[k].cls;
    }
    if (c->root >= 0) {
        an_code(st, c, buf, an_put_root(buf, 'p', c->root));
        if (c->firstroot < 0)
            c->firstroot = c->root;
    } else if (c->one_valid && c->ntok == 1 + c->amp && an_is(&c->one, "HPy_NULL")) {
        an_code(st, c, "N", 1);
    } else if (c->one_valid && c->ntok == 1 + c->amp && c->one.len < sizeof(buf) - 2) {
        buf[0] = 'i';
        memcpy(buf + 1, c->one.s, c->one.len);
        an_code(st, c, buf, 1 + c->one.len);
    } else {
        an_code(st, c, "-", 1);
    }
    if (e && e->item->nullowner.cls >= 0 && c->argi == e->item->nullowner_arg && c->root >= 0 &&
        c->ntok == 1) {
        an_flow_rec(st, buf, an_put_root(buf, 'o', c->root));
    }
    c->argi++;
    c->ntok = c->amp = c->one_valid = 0;
    c->root = -1;
}

/* An itemcopy call (memcpy) that made an item finding at its name: the
 * site's root is the root of its arguments. */
static void an_copy_root(an_state *st, const an_fcall *c)
{
    const an_result *res = st->res;
    size_t i, lo = res->nfindings > 8 ? res->nfindings - 8 : 0;

    if (!c->name.e || !(c->name.e->flags & RULES_F_ITEMCOPY) || c->firstroot < 0)
        return;
    for (i = res->nfindings; i-- > lo;) {
        const an_finding *fd = &res->findings[i];

        if (fd->line == c->name.line && fd->column == c->name.column &&
            st->fmeta[i].kind == AN_FK_ITEM) {
            an_site_root(st, an_site_cls((rules_verdict){fd->cls, fd->rule}),
                         c->firstroot);
            return;
        }
    }
}

/* Record call c as a call of `name` (its own, or a name its function
 * pointer was set to): "c<line - start>:<name>:<codes>", codes shorter
 * than AN_MAXCODES. */
static void an_call_rec(an_state *st, const an_fcall *c, const an_tok *name)
{
    char buf[AN_MAXCODES + 200];
    uint32_t start = st->res->functions[st->cur].start_line;
    size_t n, k;

    if (name->len > 96)
        return;
    buf[0] = 'c';
    n = 1 + pd_utoa(buf + 1, c->name.line >= start ? c->name.line - start : 0);
    buf[n++] = ':';
    memcpy(buf + n, name->s, name->len);
    n += name->len;
    buf[n++] = ':';
    k = c->ncodes;
    memcpy(buf + n, st->fcodes[c - st->flow.fc], k);
    an_flow_rec(st, buf, n + k);
}

static void an_end_call(an_state *st, an_fcall *c)
{
    const an_flow *f = &st->flow;
    int i;

    an_end_flow_arg(st, c);
    an_copy_root(st, c);
    if (c->vcls && c->firstroot >= 0)     /* the value goes into that array */
        an_site_root(st, c->vcls, c->firstroot);
    an_call_rec(st, c, &c->name);
    for (i = 0; i < f->nfa; i++)
        if (an_tok_eq(&f->fa[i].ptr, c->name.s, c->name.len))
            an_call_rec(st, c, &f->fa[i].fn);
}

/* `ptr = name;`: remember name as a function ptr may call (once). */
static void an_set_fn_alias(an_state *st, const an_tok *ptr, const an_tok *name)
{
    an_flow *f = &st->flow;
    int i;

    if (an_is(name, "NULL") || an_tok_eq(ptr, name->s, name->len))
        return;
    for (i = 0; i < f->nfa; i++)
        if (an_tok_eq(&f->fa[i].ptr, ptr->s, ptr->len) &&
            an_tok_eq(&f->fa[i].fn, name->s, name->len))
            return;
    if (f->nfa < AN_MAXFNALIAS) {
        f->fa[f->nfa].ptr = *ptr;
        f->fa[f->nfa].fn = *name;
        f->nfa++;
    }
}

static int an_call_name(const an_tok *t)
{
    static const char *const kw[] = {"if", "while", "for", "switch", "return",
                                     "sizeof", "defined", "case", "do", "else",
                                     "__attribute__", "_Alignof", "alignof",
                                     "typeof", "__typeof__", "decltype"};
    static const unsigned char kwlen[] = {2, 5, 3, 6, 6, 6, 7, 4, 2, 4, 13, 8, 7,
                                          6, 10, 8};
    size_t i;

    _Static_assert(sizeof(kw) / sizeof(kw[0]) == sizeof(kwlen), "a length per keyword");
    if (t->kind != LEX_IDENT)
        return 0;
    for (i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
        if (t->len == kwlen[i] && memcmp(t->s, kw[i], kwlen[i]) == 0)
            return 0;
    return 1;
}

/* Track calls: t is a token in a function body, pdepth not yet counted. */
static void an_flow_calls(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;
    an_fcall *c = f->nfc ? &f->fc[f->nfc - 1] : NULL;
    int i;

    if (c && st->pdepth == c->depth && an_punct_is(t, ',')) {
        an_end_flow_arg(st, c);
        return;
    }
    if (c && st->pdepth == c->depth && an_punct_is(t, ')')) {
        an_end_call(st, c);
        f->nfc--;
        return;
    }
    if (an_punct_is(t, ';') && st->pdepth == 0)
        f->nfc = 0;
    for (i = 0; i < f->nfc; i++) {
        an_fcall *o = &f->fc[i];

        if (st->pdepth < o->depth)
            continue;
        if (t->kind == LEX_IDENT && o->root < 0 && !an_after_member(st))
            o->root = an_root(st, t->s, t->len);
        if (o == c) {
            if (c->ntok == 0 && an_punct_is(t, '&'))
                c->amp = 1;
            else if (t->kind == LEX_IDENT && c->ntok == c->amp) {
                c->one = *t;
                c->one_valid = 1;
            }
            c->ntok++;
        }
    }
    if (an_punct_is(t, '(')) {
        const an_tok *name = an_prev(st, 1);

        if (c && st->pdepth >= c->depth)
            c->ntok++;
        if (!an_call_name(name) || an_punct_is(an_prev(st, 2), '.') ||
            an_punct_is(an_prev(st, 2), LEX_P2('-', '>')) || f->nfc >= AN_MAXFCALL)
            return;
        c = &f->fc[f->nfc++];
        memset(c, 0, sizeof(*c));
        st->fcodes[c - f->fc][0] = '\0';
        c->name = *name;
        c->depth = st->pdepth + 1;
        c->root = c->firstroot = -1;
    }
}

/* ---- assignments: aliases and item pointers set without a cast -------- */

/* `x = ...` where x is a pointer of an itemcast type (PyObject **op)
 * and the value starts with array data (a data parameter such as `void
 * *output`, PyArray_DATA(...), it->dataptr): the cast templates' item
 * access `PyObject **op = output;` has no cast. */
static void an_asg_item(an_state *st, const an_tok *t)
{
    const an_flow *f = &st->flow;
    char text[300];
    size_t i;
    int n;
    const an_local *l = NULL, *src = NULL;

    for (i = st->nlocals; i-- > 0;)
        if (an_tok_eq(&f->lhs, st->locals[i].s, st->locals[i].len)) {
            l = &st->locals[i];
            break;
        }
    if (!l || l->pv.cls < 0 || l->stars < 1)
        return;
    for (i = st->nlocals; i-- > 0;)
        if (an_tok_eq(t, st->locals[i].s, st->locals[i].len)) {
            src = &st->locals[i];
            break;
        }
    if (!src || !src->data)
        return;
    n = snprintf(text, sizeof(text), "%.*s = %.*s", (int)f->lhs.len, f->lhs.s,
                 (int)t->len, t->s);
    i = an_add_finding(st, t->line, t->column, l->pv, text, (size_t)n, AN_FK_ITEM,
                       NULL, 0);
    an_set_reason(st, i, "`%.*s`, a %s %.*s local, is set from `%.*s`, a %s %.*s%s: "
                  "a pointer into array data", (int)f->lhs.len, f->lhs.s, l->type,
                  l->stars, "***", (int)t->len, t->s, src->type, src->stars, "***",
                  src->param ? " parameter" : " local");
    an_flow_site(st, l->pv, t->s, t->len);
}

/* 1 when t names a raw data pointer local (`char *p`: an itemdata
 * type): one set from a call (scalar_value(scalar, descr), PyDataMem_NEW)
 * points into memory of its own, not into the parameters' items. */
static int an_data_local(const an_state *st, const an_tok *t)
{
    size_t i;

    for (i = st->nlocals; i-- > 0;)
        if (an_tok_eq(t, st->locals[i].s, st->locals[i].len))
            return st->locals[i].data;
    return 0;
}

/*
 * `x = VALUE`: x becomes an alias of parameter k when VALUE is that
 * parameter, after casts (`(PyArrayObject *)op`, `op->base`), or a call of
 * at most two arguments whose last argument reaching a parameter reaches
 * k (`HPyArray_AsFields(ctx, h_arr)`, `PyArray_IterNew(mp)`): a
 * conversion or a view of the same object.  A call with more arguments
 * (PyArray_NewFromDescr(&PyArray_Type, descr, ...)) makes a new object,
 * which is no alias of the parameters it was made from, unless an
 * `itemview` rule names the callee and the argument whose array it returns
 * or views with its dtype (`self = PyArray_CheckAxis(self0, &axis,
 * flags)`): then that argument's parameter, whatever the count.
 */
static void an_asg_value(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;

    if (f->asg_call) {
        int end = st->pdepth == f->asg_call && (an_punct_is(t, ',') || an_punct_is(t, ')'));

        if (end && f->asg_argroot >= 0)
            f->asg_lastroot = f->asg_argroot;
        if (end && f->asg_argc == f->asg_view + 1)
            f->asg_viewroot = f->asg_argroot;
        if (end && an_punct_is(t, ',')) {
            f->asg_argc++;
            f->asg_argroot = -1;
        } else if (end) {
            if (f->asg_view >= 0) {
                if (f->asg_viewroot >= 0 && !an_data_local(st, &f->lhs))
                    an_set_alias(st, &f->lhs, f->asg_viewroot);
            } else if (f->asg_argc <= 2 && f->asg_lastroot >= 0 &&
                       (f->asg_source || !an_data_local(st, &f->lhs))) {
                an_set_alias(st, &f->lhs, f->asg_lastroot);
            }
            f->asg = 0;
        } else if (an_punct_is(t, '(') && an_prev(st, 1)->kind == LEX_IDENT) {
            f->asg_argroot = -2;          /* f(g(x)): x is g's, not f's */
        } else if (t->kind == LEX_IDENT && !an_after_member(st) && f->asg_argroot == -1) {
            f->asg_argroot = an_root(st, t->s, t->len);
        }
        return;
    }
    if (f->asg_cand_valid) {
        f->asg_cand_valid = 0;
        if (an_punct_is(t, '(')) {        /* a call */
            const rules_name *e = f->asg_cand.e;   /* looked up when it was scanned */

            f->asg_call = st->pdepth + 1;
            f->asg_argc = 1;
            f->asg_argroot = f->asg_lastroot = f->asg_viewroot = -1;
            f->asg_view = e ? e->item->itemview_arg : -1;
            f->asg_source = rules_itemsource(st->r, f->asg_cand.s, f->asg_cand.len, e);
            return;
        }
        if (!an_punct_is(t, '*') && !an_punct_is(t, ')')) {
            int r = an_root(st, f->asg_cand.s, f->asg_cand.len);

            if (r >= 0)
                an_set_alias(st, &f->lhs, r);
            f->asg = 0;
            return;
        }                                 /* (T *) or (T): a cast's type */
    }
    if (t->kind == LEX_IDENT && !an_is(t, "const") && !an_is(t, "struct")) {
        f->asg_cand = *t;
        f->asg_cand_valid = 1;
    } else if (!an_punct_is(t, '(') && !an_punct_is(t, ')') && !an_punct_is(t, '*') &&
               !an_punct_is(t, '&')) {
        f->asg = 0;                       /* an expression: no alias */
    }
}

/* `*p = v;` at the start of a statement: a store through p, which leaves
 * p pointing where it did (`*value = (obj == Py_True);` made the
 * out-parameter value an alias of obj).  `T *p = v` declares p, with a
 * type name before the '*', and stays an assignment. */
static int an_flow_store(const an_state *st)
{
    const an_tok *p3 = an_prev(st, 3);

    return an_punct_is(an_prev(st, 2), '*') &&
           (an_punct_is(p3, ';') || an_punct_is(p3, '{') || an_punct_is(p3, '}') ||
            an_punct_is(p3, ')') || an_punct_is(p3, ':') || an_is(p3, "else") ||
            an_is(p3, "do"));
}

static void an_flow_asg(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;

    if (f->asg) {
        if (st->pdepth < f->asg_pdepth ||
            (st->pdepth == f->asg_pdepth &&
             (an_punct_is(t, ';') || an_punct_is(t, ',') || an_punct_is(t, ')')))) {
            int r = f->asg_cand_valid ? an_root(st, f->asg_cand.s, f->asg_cand.len) : -1;

            if (r >= 0)                   /* `x = (T *)p;`: the value ends */
                an_set_alias(st, &f->lhs, r);
            else if (f->asg_cand_valid && an_punct_is(t, ';'))
                an_set_fn_alias(st, &f->lhs, &f->asg_cand);   /* `fp = (T *)g;` */
            f->asg = 0;
            return;
        }
        if (f->asg_ntok++ == 0 && t->kind == LEX_IDENT)
            an_asg_item(st, t);
        an_asg_value(st, t);
        return;
    }
    if (an_punct_is(t, '=') && an_prev(st, 1)->kind == LEX_IDENT &&
        !an_punct_is(an_prev(st, 2), '.') &&
        !an_punct_is(an_prev(st, 2), LEX_P2('-', '>')) && !an_flow_store(st)) {
        f->lhs = *an_prev(st, 1);
        f->asg = 1;
        f->asg_ntok = 0;
        f->asg_pdepth = st->pdepth;
        f->asg_cand_valid = 0;
        f->asg_call = 0;
    }
}

/* The item-typed parameter named t (PyObject **ip, HPyField *pf), or
 * NULL. */
static const an_local *an_item_param(const an_state *st, const an_tok *t)
{
    size_t i;

    if (t->kind != LEX_IDENT || !st->nitemparams)
        return NULL;
    for (i = st->nlocals; i-- > 0;)
        if (an_tok_eq(t, st->locals[i].s, st->locals[i].len))
            return st->locals[i].param && st->locals[i].pv.cls >= 0 ? &st->locals[i] : NULL;
    return NULL;
}

/*
 * `*ip1`, `ip[i]`, `ip++` of a parameter declared with an itemcast type:
 * the first one is kept, and becomes an item site at the function's end
 * when the function says it works on the object dtype (a marker or an
 * OBJECT_ name, an_flow_end).  The type alone is no evidence: a
 * PyObject ** parameter is as often an out-parameter or an argument
 * vector; the dereference is the access, the mention explains it.
 */
static void an_flow_deref(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;
    const an_tok *p1 = an_prev(st, 1), *p2 = an_prev(st, 2);

    if (f->deref_valid)
        return;
    if (f->deref_pending) {           /* the name, then what follows it */
        f->deref_pending = 0;
        if (an_punct_is(t, '[') || an_punct_is(t, LEX_P2('+', '+')) ||
            an_punct_is(t, LEX_P2('-', '-')))
            f->deref_valid = 1;
        return;
    }
    if (t->kind != LEX_IDENT || !st->nitemparams || an_after_member(st) ||
        !an_item_param(st, t))
        return;
    f->deref = *t;
    if (an_punct_is(p1, '*') && p2->kind != LEX_IDENT && p2->kind != LEX_NUMBER &&
        !an_punct_is(p2, ')') && !an_punct_is(p2, ']'))
        f->deref_valid = 1;           /* unary `*ip1`, not `a * ip1` */
    else
        f->deref_pending = 1;
}

void an_flow_end(an_state *st)
{
    an_flow *f = &st->flow;
    const an_facc *a = &st->facc[st->cur];
    const an_local *l;
    char text[300];
    size_t fi;
    int n, save = st->guard;

    /* Only in a dtype's function for the object dtype (OBJECT_compare):
     * in others a PyObject ** parameter was an out-parameter each time the
     * labels met one (numpy's fast_scalar_power, copy_object), even where
     * the function names the object dtype. */
    if (!f->deref_valid || !a->objname ||
        !(l = an_item_param(st, &f->deref)))
        return;
    st->guard = 0;
    n = snprintf(text, sizeof(text), "*%.*s", (int)f->deref.len, f->deref.s);
    fi = an_add_finding(st, f->deref.line, f->deref.column, l->pv, text, (size_t)n,
                        AN_FK_ITEM, NULL, 0);
    an_set_reason(st, fi, "`%.*s`, a %s %.*s parameter, is dereferenced in a function "
                  "of the object dtype (named OBJECT_): an item read or written",
                  (int)f->deref.len, f->deref.s, l->type, l->stars, "***");
    an_flow_site(st, l->pv, f->deref.s, f->deref.len);
    st->guard = save;
    f->deref_valid = 0;
}

/* Token t in a function body (after the item trackers saw it, before
 * pdepth counts it). */
void an_flow_body_token(an_state *st, const an_tok *t)
{
    an_flow *f = &st->flow;

    an_flow_deref(st, t);
    if (st->nograph) {                    /* calls only make facts; an */
        an_flow_asg(st, t);               /* assignment makes findings */
        return;
    }
    if (f->site_wait) {
        if (t->kind == LEX_IDENT && !an_after_member(st)) {
            int r = an_root(st, t->s, t->len);

            if (r >= 0) {
                an_site_root(st, f->site_cls, r);
                f->site_wait = 0;
            }
        }
        if (f->site_wait && (an_punct_is(t, ';') || --f->site_wait == 0))
            f->site_wait = 0;
    }
    an_flow_asg(st, t);
    an_flow_calls(st, t);
}

/* Nothing of a function is pending (the memo cuts only then). */
int an_flow_clean(const an_state *st)
{
    return st->flow.nfc == 0 && !st->flow.asg && !st->flow.site_wait;
}

/* ---- the result ------------------------------------------------------- */

/*
 * Fill functions[].flow from the flow records: each function's facts in
 * the order they were made, space-separated, in one pool.
 */
void an_flow_build(an_state *st)
{
    an_result *res = st->res;
    size_t i, total = 1;
    char *p;

    for (i = 0; i < st->nflowrecs; i++)
        total += st->flowrecs[i].len + 1;
    if (!(p = res->flow_pool = malloc(total))) {
        st->rc = pd_error_nomem("analysing");
        return;
    }
    *p++ = '\0';
    for (i = 0; i < res->nfunctions; i++)
        res->functions[i].flow = res->flow_pool;
    for (i = 0; i < st->nflowrecs;) {
        int32_t fn = st->flowrecs[i].fn;
        char *start = p;

        for (; i < st->nflowrecs && st->flowrecs[i].fn == fn; i++) {
            if (p > start)
                *p++ = ' ';
            memcpy(p, st->pool + st->flowrecs[i].off, st->flowrecs[i].len);
            p += st->flowrecs[i].len;
        }
        *p++ = '\0';
        if (fn >= 0 && (size_t)fn < res->nfunctions)
            res->functions[fn].flow = start;
    }
}
