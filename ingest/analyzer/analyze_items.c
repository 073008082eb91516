/*
 * analyze_items.c: object-dtype item access inside functions (see
 * analyze_int.h and DOMAIN.md "Why object dtype is special").
 *
 * Casts to an `itemcast` type, memcpy-like calls (`itemcopy`) that take the
 * address of a local declared with an `itemlocal` type, and `fieldarg`
 * calls (HPyField_Load/Store) whose field argument names a pointer local
 * or parameter of an `itemcast` type (`HPyField *pf`), or a by-value
 * parameter of an `itemlocal` type (`HPyField hf`).  It also watches the
 * arguments of `nullowner` calls.  All of it uses a few recent tokens (the
 * ring) and counters: nothing recurses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_flow.h"
#include "analyze_items.h"
#include "pd_error.h"

/* ---- object-dtype item access ------------------------------------------ */

/* The local named s[0..len), or NULL. */
static const an_local *an_find_local(const an_state *st, const char *s,
                                     size_t len)
{
    size_t i;

    for (i = st->nlocals; i-- > 0;)
        if (st->locals[i].len == len && memcmp(st->locals[i].s, s, len) == 0)
            return &st->locals[i];
    return NULL;
}

/* Record a local declared `e *... name` (stars '*'): with an itemlocal
 * type (v), an itemcast type (pv) or an itemdata type (data); param: in a
 * function's parameter list. */
static void an_add_local(an_state *st, const an_tok *name,
                         const rules_name *e, int stars, int data, int param)
{
    an_local *l;

    if (st->nlocals == st->caplocals) {
        size_t cap = st->caplocals ? st->caplocals * 2 : 16;

        if (!(l = realloc(st->locals, cap * sizeof(*l)))) {
            st->rc = pd_error_nomem("analysing");
            return;
        }
        st->locals = l;
        st->caplocals = cap;
    }
    l = &st->locals[st->nlocals++];
    l->s = name->s;
    l->len = name->len;
    l->v = e->item->itemlocal[stars];
    l->pv = e->item->itemcast[stars];
    l->param = param;
    l->data = data;
    l->stars = stars;
    l->type = e->name;
    st->nitemparams += param && l->pv.cls >= 0;
}

/*
 * Follow declarations `TYPE *...name` of itemlocal types: ld_state 0 waits
 * for the type, 1 reads stars up to the name, 2 skips the initializer up
 * to ',' (next declarator, unless in a parameter list) or ';' / ')'.
 */
void an_local_decl(an_state *st, const an_tok *t)
{
    const an_tok *prev = an_prev(st, 1);

    if (st->ld_state == 0) {
        if (t->kind == LEX_IDENT && t->e &&
            (t->e->flags & (RULES_F_HAS_LOCAL | RULES_F_HAS_CAST | RULES_F_HAS_DATA)) &&
            !an_punct_is(prev, '.') && !an_punct_is(prev, LEX_P2('-', '>'))) {
            st->ld_e = t->e;
            st->ld_state = 1;
            st->ld_stars = 0;
            st->ld_depth = st->pdepth;
            st->ld_param = an_punct_is(prev, '(') || an_punct_is(prev, ',');
        }
    } else if (st->ld_state == 1) {
        if (an_punct_is(t, '*'))
            st->ld_stars++;
        else if (an_is(t, "const") || an_is(t, "restrict") ||
                 an_is(t, "__restrict") || an_is(t, "volatile"))
            ;
        else if (t->kind == LEX_IDENT && st->ld_stars <= RULES_MAXSTARS) {
            const rules_name *e = st->ld_e;
            int param = st->cur < 0, dk = e->item->itemdata[st->ld_stars];
            int data = dk == RULES_DATA_ANY || (dk == RULES_DATA_PARAM && param);

            if (e->item->itemlocal[st->ld_stars].cls >= 0 ||
                e->item->itemcast[st->ld_stars].cls >= 0 || data)
                an_add_local(st, t, e, st->ld_stars, data, param);
            st->ld_state = 2;
        } else
            st->ld_state = 0;
    } else if (st->pdepth == st->ld_depth && t->kind == LEX_PUNCT) {
        if (t->punct == '(' && st->cur < 0)
            st->ld_state = 0;         /* PyObject *f(...): its parameters */
        else if (t->punct == ',')
            st->ld_state = st->ld_param ? 0 : 1, st->ld_stars = 0;
        else if (t->punct == ';' || t->punct == ')' || t->punct == '{' ||
                 t->punct == '}')
            st->ld_state = 0;
    }
}

/* A qualifier a cast's type may carry before its name. */
static int an_qualifier(const an_tok *t)
{
    return t->kind == LEX_IDENT && (an_is(t, "const") || an_is(t, "unsigned") ||
                                    an_is(t, "signed") || an_is(t, "volatile"));
}

/*
 * At ')' closing `( [qualifiers] TYPE * )` with TYPE a one-star `itemdata`
 * type (char *, void *), no other cast pending: the cast waits for an
 * operand `&x` (an_addr_operand).
 */
static void an_check_addr_cast(an_state *st, const an_tok *ty)
{
    size_t k = 3;
    const an_tok *lp;

    while (k < AN_RING && an_qualifier(an_prev(st, k)))
        k++;
    lp = an_prev(st, k);
    if (k >= AN_RING || !an_punct_is(lp, '(') ||
        (an_prev(st, k + 1)->kind == LEX_IDENT && !an_is(an_prev(st, k + 1), "return")))
        return;                       /* f(char *), sizeof(char *): not a cast */
    memset(&st->pcast, 0, sizeof(st->pcast));
    st->pcast.active = 1;
    st->pcast.addr = 1;
    st->pcast.line = lp->line;
    st->pcast.column = lp->column;
    st->pcast.type = ty->s;
    st->pcast.type_len = ty->len;
}

/* At ')': a cast `( TYPE *... )` of an itemcast type waits for its
 * operand (an_cast_operand); so does one of an itemdata type (above). */
void an_check_cast(an_state *st)
{
    const an_tok *ty, *lp, *before;
    size_t k = 1;
    int stars = 0;

    while (stars <= RULES_MAXSTARS && an_punct_is(an_prev(st, k), '*'))
        stars++, k++;
    ty = an_prev(st, k);
    lp = an_prev(st, k + 1);
    before = an_prev(st, k + 2);
    if (stars == 1 && ty->kind == LEX_IDENT && ty->e && ty->e->item->itemdata[1] &&
        !st->pcast.active && st->nlocals) {
        an_check_addr_cast(st, ty);
        return;
    }
    if (stars == 0 || stars > RULES_MAXSTARS || ty->kind != LEX_IDENT ||
        !ty->e || ty->e->item->itemcast[stars].cls < 0 || !an_punct_is(lp, '('))
        return;
    if (before->kind == LEX_IDENT && !an_is(before, "return"))
        return;                       /* sizeof(T *), f(T *): not a cast */
    memset(&st->pcast, 0, sizeof(st->pcast));
    st->pcast.active = 1;
    st->pcast.v = ty->e->item->itemcast[stars];
    st->pcast.line = lp->line;
    st->pcast.column = lp->column;
    st->pcast.stars = stars;
    st->pcast.type = ty->e->name;
}

/* The pending cast is an item site, for `why` (printf-made). */
static void an_cast_site(an_state *st, const char *why, const an_tok *t,
                         const an_local *l)
{
    an_pcast *pc = &st->pcast;
    char text[300];
    int n = snprintf(text, sizeof(text), "(%s %.*s)", pc->type, pc->stars, "***");
    size_t fi = an_add_finding(st, pc->line, pc->column, pc->v, text, (size_t)n,
                               AN_FK_ITEM, NULL, 0);

    if (l)
        an_set_reason(st, fi, "cast of `%.*s`, a %s %.*s%s: a pointer into "
                      "array data", (int)t->len, t->s, l->type, l->stars, "***",
                      l->param ? " parameter" : " local");
    else if (*why == '`')
        an_set_reason(st, fi, "cast of `%.*s`, a pointer into array data "
                      "declared by a macro (itemname rule)", (int)t->len, t->s);
    else
        an_set_reason(st, fi, "cast of %s%.*s%s, a pointer into array data",
                      why, (int)t->len, t->s, *why ? "" : "()");
    if (l)                            /* which parameter it reaches */
        an_flow_site(st, pc->v, t->s, t->len);
    else if (*why == '.' || *why == '-')
        an_flow_site(st, pc->v, an_prev(st, 2)->s, an_prev(st, 2)->len);
    else if (!*why)
        an_flow_site_wait(st, pc->v);
    pc->active = 0;
}

/*
 * Token t after a pending item-type cast.  The cast reads items only when
 * its operand reaches array data: an `itemsource` call or member
 * (PyArray_DATA(a), it->dataptr) or, as the operand's first name, a local
 * or parameter of an `itemdata` type (char *ip, char **args: dtype
 * functions and ufunc loops) or an undeclared `itemname` (ip1 of numpy's
 * loop macros).  `(PyObject **)&obj`, an array of dtypes or
 * of arrays is not an item site.  Inner casts and parentheses are skipped;
 * the operand ends at ';' ',' '=' or a ')' it did not open.
 */
/*
 * The operand of an itemdata cast (an_check_addr_cast): `&x` with x a
 * local or parameter declared with an `itemlocal` type (PyObject *obj,
 * HPyField f), as a whole (not `&x[i]`, `&x.f`, `&x->f`), hands x's bytes
 * on as raw item data: the item a function such as
 * PyArray_AssignRawScalar or PyArray_Scalar reads with a dtype (numpy's
 * PyArray_FillWithScalar: `value = (char *)&obj` for an object array).
 * The sibling of itemcopy's `memcpy(&tmp, ...)`: an item site of the
 * function, of x's itemlocal class.  Like memcpy's, its root is the first
 * argument of the call the value is handed to (an_flow_value_site): the
 * array whose items the value is written into.  Riding on the pending
 * cast, it costs the token walk nothing outside such casts.
 */
static void an_addr_operand(an_state *st, const an_tok *t)
{
    an_pcast *pc = &st->pcast;
    const an_local *l;
    char text[300];
    size_t fi;
    int n;

    if (++pc->ntok == 1) {                       /* & */
        pc->active = an_punct_is(t, '&');
        return;
    }
    if (pc->ntok == 2) {                         /* x */
        l = t->kind == LEX_IDENT ? an_find_local(st, t->s, t->len) : NULL;
        pc->active = l && l->v.cls >= 0;
        pc->local = l ? (size_t)(l - st->locals) : 0;
        return;
    }
    pc->active = 0;                              /* what follows x */
    if (an_punct_is(t, '[') || an_punct_is(t, '.') || an_punct_is(t, LEX_P2('-', '>')))
        return;
    l = &st->locals[pc->local];
    n = snprintf(text, sizeof(text), "(%.*s *)&%.*s", (int)pc->type_len, pc->type,
                 (int)l->len, l->s);
    fi = an_add_finding(st, pc->line, pc->column, l->v, text, (size_t)n, AN_FK_ITEM,
                        NULL, 0);
    an_set_reason(st, fi, "the bytes of `%.*s` (%s%s%.*s) handed on as raw item "
                  "data: its address cast to a data pointer", (int)l->len, l->s,
                  l->type, l->stars ? " " : "", l->stars, "***");
    an_flow_value_site(st, l->v);
}

void an_cast_operand(an_state *st, const an_tok *t)
{
    an_pcast *pc = &st->pcast;
    const an_tok *prev = an_prev(st, 1);
    int member = an_punct_is(prev, '.') || an_punct_is(prev, LEX_P2('-', '>'));
    const an_local *l;

    if (!pc->active)
        return;
    if (pc->addr) {
        an_addr_operand(st, t);
        return;
    }
    if (pc->src_valid) {              /* PyArray_DATA then '(': a call */
        pc->src_valid = 0;
        if (an_punct_is(t, '(')) {
            an_cast_site(st, "", &pc->src, NULL);
            return;
        }
    }
    if (++pc->ntok > 16) {
        pc->active = 0;
        return;
    }
    if (t->kind == LEX_PUNCT) {
        if (t->punct == '(')
            pc->depth++;
        else if (t->punct == ')' && pc->depth > 0)
            pc->depth--;
        else if (t->punct == '&' && !pc->seen_ident && pc->ntok == 1)
            pc->active = 0;           /* (PyObject **)&obj: a variable */
        else if (t->punct == ')' || t->punct == ';' || t->punct == '{' ||
                 t->punct == '}' || (pc->depth == 0 && (t->punct == ',' || t->punct == '=')))
            pc->active = 0;
        return;
    }
    if (t->kind != LEX_IDENT || an_is(t, "char") || an_is(t, "void") ||
        an_is(t, "const") || an_is(t, "unsigned") || an_is(t, "signed"))
        return;
    if (member) {                     /* members have no t->e */
        const rules_name *me = rules_lookup(st->r, t->s, t->len);

        /* A member cast to HPyField * is raw memory read as an item (a
         * struct's own fields are declared HPyField, never cast):
         * `(HPyField *)it->constant`, the padding item of numpy-hpy's
         * neighborhood iterator.  PyObject ** casts of members are
         * arrays of dtypes or arrays as often as items: only itemsource
         * members count for them. */
        if ((me && (me->flags & RULES_F_ITEMSOURCE)) ||
            (pc->v.cls == AN_CLASS_HPY && pc->ntok <= 3))
            an_cast_site(st, an_punct_is(prev, '.') ? "." : "->", t, NULL);
        return;
    }
    l = an_find_local(st, t->s, t->len);
    if (!pc->seen_ident && l && l->data) {
        an_cast_site(st, "", t, l);
        return;
    }
    if (!pc->seen_ident && !l && t->e && (t->e->flags & RULES_F_ITEMNAME)) {
        an_cast_site(st, "`", t, NULL);
        return;
    }
    if (!l && rules_itemsource(st->r, t->s, t->len, t->e)) {
        pc->src = *t;                 /* a call only if '(' follows */
        pc->src_valid = 1;
    }
    pc->seen_ident = 1;
}

/* '(' after `name` in a function: an `itemcall` (numpy's item helpers
 * such as PyArray_XDECREF) reads or writes object items. */
void an_item_call(an_state *st, const an_tok *name)
{
    char text[300];
    int n;
    size_t fi;

    if (!name->e || name->e->item->itemcall.cls < 0 ||
        an_punct_is(an_prev(st, 2), '.') || an_punct_is(an_prev(st, 2), LEX_P2('-', '>')))
        return;
    n = snprintf(text, sizeof(text), "%.*s()", (int)name->len, name->s);
    fi = an_add_finding(st, name->line, name->column, name->e->item->itemcall, text,
                        (size_t)n, AN_FK_ITEM, NULL, 0);
    an_set_reason(st, fi, "%.*s reads or writes the items of an object array "
                  "as %s", (int)name->len, name->s,
                  name->e->item->itemcall.cls == AN_CLASS_HPY ? "HPyField" : "PyObject *");
}

/* The argument of call c is complete: check it. */
static void an_end_arg(an_state *st, an_call *c)
{
    const an_local *l;
    char text[300];
    int n, save = st->guard;
    size_t fi;
    const rules_name *e = c->e;

    st->guard = c->guarded;
    if ((e->flags & RULES_F_ITEMCOPY) && c->argi <= 1 && !c->hit &&
        c->ntok == 2 && c->amp && c->a_s &&
        (l = an_find_local(st, c->a_s, c->a_len)) != NULL &&
        l->v.cls >= 0) {
        n = snprintf(text, sizeof(text), "%.*s(&%.*s)", (int)c->namelen,
                     c->name, (int)l->len, l->s);
        fi = an_add_finding(st, c->line, c->column, l->v, text, (size_t)n,
                            AN_FK_ITEM, NULL, 0);
        an_set_reason(st, fi, "%.*s copies an item from or into the local "
                      "`%.*s` (%s %.*s)", (int)c->namelen, c->name, (int)l->len,
                      l->s, l->type, l->stars, "***");
        c->hit = 1;
    }
    if (c->argi == e->item->fieldarg_arg && c->a_s && c->a_ok &&
        (l = an_find_local(st, c->a_s, c->a_len)) != NULL &&
        (l->pv.cls >= 0 || (l->param && l->v.cls >= 0 && !c->deref))) {
        n = snprintf(text, sizeof(text), "%.*s(%s%.*s)", (int)c->namelen,
                     c->name, c->amp ? "&" : c->deref ? "*" : "",
                     (int)l->len, l->s);
        fi = an_add_finding(st, c->line, c->column, l->pv.cls >= 0 ? l->pv : l->v,
                            text, (size_t)n, AN_FK_ITEM, NULL, 0);
        an_flow_site(st, l->pv.cls >= 0 ? l->pv : l->v, l->s, l->len);
        if (l->pv.cls >= 0)
            an_set_reason(st, fi, "%.*s through `%.*s`, a %s %.*s%s into the "
                          "items", (int)c->namelen, c->name, (int)l->len, l->s,
                          l->type, l->stars, "***", l->param ? " parameter" : " local");
        else
            an_set_reason(st, fi, "%.*s of the item `%.*s`, a %s parameter "
                          "passed by value", (int)c->namelen, c->name,
                          (int)l->len, l->s, l->type);
    }
    if (e->item->nullowner.cls >= 0 && c->argi == e->item->nullowner_arg &&
        c->ntok == 1 && c->a_s && c->a_len == strlen(e->item->null_name) &&
        memcmp(c->a_s, e->item->null_name, c->a_len) == 0)
        an_add_finding(st, c->line, c->column, e->item->nullowner, c->name,
                       c->namelen, AN_FK_NULLOWNER, NULL, 0);
    st->guard = save;
    c->argi++;
    c->ntok = c->amp = c->deref = c->a_ok = 0;
    c->a_s = NULL;
}

/* Feed token t (not yet counted in pdepth) to the tracked calls. */
void an_call_token(an_state *st, const an_tok *t)
{
    an_call *c = st->ncalls ? &st->calls[st->ncalls - 1] : NULL;

    if (c && st->pdepth == c->depth) {
        if (an_punct_is(t, ',')) {
            an_end_arg(st, c);
        } else if (an_punct_is(t, ')')) {
            an_end_arg(st, c);
            st->ncalls--;
        } else {
            if (c->ntok == 0 && an_punct_is(t, '&')) {
                c->amp = 1;
            } else if (c->ntok == 0 && an_punct_is(t, '*')) {
                c->deref = 1;
            } else if (t->kind == LEX_IDENT &&
                       c->ntok == (c->amp || c->deref ? 1 : 0)) {
                c->a_s = t->s;
                c->a_len = t->len;
                c->a_ok = 1;
            } else if (c->a_s && c->ntok == (c->amp || c->deref ? 2 : 1)) {
                /* x++, x[i], x + i: still x; x->m, x.m, x(...): not */
                c->a_ok = t->kind == LEX_PUNCT &&
                          (t->punct == LEX_P2('+', '+') ||
                           t->punct == LEX_P2('-', '-') || t->punct == '[' ||
                           t->punct == '+' || t->punct == '-');
            }
            c->ntok++;
        }
    } else if (c && st->pdepth > c->depth) {
        c->ntok++;
    }
    if (st->callpend_valid && an_punct_is(t, '(') &&
        st->ncalls < AN_MAXCALLS) {
        c = &st->calls[st->ncalls++];
        memset(c, 0, sizeof(*c));
        c->e = st->callpend.e;
        c->name = st->callpend.s;
        c->namelen = st->callpend.len;
        c->line = st->callpend.line;
        c->column = st->callpend.column;
        c->depth = st->pdepth + 1;
        c->guarded = st->guard;
    }
    st->callpend_valid = 0;
    if (t->kind == LEX_IDENT && t->e &&
        (t->e->flags & (RULES_F_ITEMCOPY | RULES_F_ITEMARG))) {
        st->callpend = *t;
        st->callpend_valid = 1;
    }
}
