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

#include "analyze_int.h"
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

/* Record a local declared with an itemlocal type (v) or an itemcast
 * type (pv); param: in a function's parameter list. */
static void an_add_local(an_state *st, const an_tok *name, rules_verdict v,
                         rules_verdict pv, int param)
{
    an_local *l;

    if (st->nlocals == st->caplocals) {
        size_t cap = st->caplocals ? st->caplocals * 2 : 16;

        if (!(l = realloc(st->locals, cap * sizeof(*l)))) {
            st->rc = pd_error_set(PD_ENOMEM, "out of memory analysing");
            return;
        }
        st->locals = l;
        st->caplocals = cap;
    }
    l = &st->locals[st->nlocals++];
    l->s = name->s;
    l->len = name->len;
    l->v = v;
    l->pv = pv;
    l->param = param;
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
            (t->e->has_local || t->e->has_cast) &&
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

            if (e->itemlocal[st->ld_stars].cls >= 0 ||
                e->itemcast[st->ld_stars].cls >= 0)
                an_add_local(st, t, e->itemlocal[st->ld_stars],
                             e->itemcast[st->ld_stars], st->cur < 0);
            st->ld_state = 2;
        } else
            st->ld_state = 0;
    } else if (st->pdepth == st->ld_depth && t->kind == LEX_PUNCT) {
        if (t->punct == ',')
            st->ld_state = st->ld_param ? 0 : 1, st->ld_stars = 0;
        else if (t->punct == ';' || t->punct == ')' || t->punct == '{' ||
                 t->punct == '}')
            st->ld_state = 0;
    }
}

/* At ')': a cast `( TYPE *... )` of an itemcast type is an item access. */
void an_check_cast(an_state *st)
{
    const an_tok *ty, *lp, *before;
    size_t k = 1;
    int stars = 0;
    char text[300];
    int n;

    while (stars <= RULES_MAXSTARS && an_punct_is(an_prev(st, k), '*'))
        stars++, k++;
    ty = an_prev(st, k);
    lp = an_prev(st, k + 1);
    before = an_prev(st, k + 2);
    if (stars == 0 || stars > RULES_MAXSTARS || ty->kind != LEX_IDENT ||
        !ty->e || ty->e->itemcast[stars].cls < 0 || !an_punct_is(lp, '('))
        return;
    if (before->kind == LEX_IDENT && !an_is(before, "return"))
        return;                       /* sizeof(T *), f(T *): not a cast */
    n = snprintf(text, sizeof(text), "(%.*s %.*s)", (int)ty->len, ty->s,
                 stars, "***");
    an_add_finding(st, lp->line, lp->column, ty->e->itemcast[stars], text,
                   (size_t)n, AN_FK_ITEM, NULL, 0);
}

/* The argument of call c is complete: check it. */
static void an_end_arg(an_state *st, an_call *c)
{
    const an_local *l;
    char text[300];
    int n, save = st->guard;
    const rules_name *e = c->e;

    st->guard = c->guarded;
    if ((e->flags & RULES_F_ITEMCOPY) && c->argi <= 1 && !c->hit &&
        c->ntok == 2 && c->amp && c->a_s &&
        (l = an_find_local(st, c->a_s, c->a_len)) != NULL &&
        l->v.cls >= 0) {
        n = snprintf(text, sizeof(text), "%.*s(&%.*s)", (int)c->namelen,
                     c->name, (int)l->len, l->s);
        an_add_finding(st, c->line, c->column, l->v, text, (size_t)n,
                       AN_FK_ITEM, NULL, 0);
        c->hit = 1;
    }
    if (c->argi == e->fieldarg_arg && c->a_s && c->a_ok &&
        (l = an_find_local(st, c->a_s, c->a_len)) != NULL &&
        (l->pv.cls >= 0 || (l->param && l->v.cls >= 0 && !c->deref))) {
        n = snprintf(text, sizeof(text), "%.*s(%s%.*s)", (int)c->namelen,
                     c->name, c->amp ? "&" : c->deref ? "*" : "",
                     (int)l->len, l->s);
        an_add_finding(st, c->line, c->column, l->pv.cls >= 0 ? l->pv : l->v,
                       text, (size_t)n, AN_FK_ITEM, NULL, 0);
    }
    if (e->nullowner.cls >= 0 && c->argi == e->nullowner_arg &&
        c->ntok == 1 && c->a_s && c->a_len == strlen(e->null_name) &&
        memcmp(c->a_s, e->null_name, c->a_len) == 0)
        an_add_finding(st, c->line, c->column, e->nullowner, c->name,
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
        ((t->e->flags & RULES_F_ITEMCOPY) || t->e->nullowner.cls >= 0 ||
         t->e->fieldarg_arg >= 0)) {
        st->callpend = *t;
        st->callpend_valid = 1;
    }
}
