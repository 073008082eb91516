/*
 * analyze_shadow.c: variables named like a C API type (analyze_shadow.h).
 */
#include <string.h>

#include "analyze_build.h"
#include "analyze_shadow.h"

/* s begins with keyword w (a literal: its length is known at compile time). */
#define AN_SH_EQ(s, w) (memcmp((s), (w), sizeof(w) - 1) == 0)

/* 1 if identifier t always makes the next name a type: struct union enum
 * class typename new. */
static int an_shadow_tag_kw(const an_tok *t)
{
    return an_is(t, "struct") || an_is(t, "union") || an_is(t, "enum") ||
           an_is(t, "class") || an_is(t, "typename") || an_is(t, "new");
}

/* 1 if the statement the last tokens belong to starts with `typedef`:
 * `typedef ssize_t Py_ssize_t;` defines the C API's name again (a shim
 * for old Pythons), which is the C API's, not a variable.  Looks back as
 * far as the ring reaches. */
static int an_shadow_in_typedef(const an_state *st)
{
    size_t k;

    for (k = 1; k <= AN_RING; k++) {
        const an_tok *t = an_prev(st, k);

        if (t->kind == LEX_EOF || an_punct_is(t, ';') || an_punct_is(t, '{') ||
            an_punct_is(t, '}'))
            return 0;
        if (an_is(t, "typedef"))
            return 1;
    }
    return 0;
}

/* 1 if a declarator can follow token t: a name that is not a keyword
 * of statements or expressions, a qualifier or a storage class, a type
 * keyword, '*', '&', '&&'. */
static int an_shadow_decl_prev(const an_tok *t)
{
    const char *s = t->s;

    if (t->kind == LEX_PUNCT)
        return t->punct == '*' || t->punct == '&' || t->punct == LEX_P2('&', '&');
    if (t->kind != LEX_IDENT)
        return 0;
    /* Keywords after which the name is not a declarator: return case goto
     * sizeof else do if while for switch throw delete operator typedef
     * using template co_return co_yield defined _Alignof alignof decltype
     * typeof __typeof__ _Generic; and, before the type of an unnamed
     * parameter (f(void *, const digit)), const volatile static extern
     * register inline.  By length first, as an_not_name (analyze_scan.c):
     * a CPython type name such as PyObject is read here every time. */
    switch (t->len) {
    case 2:
        return !(AN_SH_EQ(s, "do") || AN_SH_EQ(s, "if"));
    case 3:
        return !AN_SH_EQ(s, "for");
    case 4:
        return !(AN_SH_EQ(s, "case") || AN_SH_EQ(s, "goto") || AN_SH_EQ(s, "else"));
    case 5:
        return !(AN_SH_EQ(s, "while") || AN_SH_EQ(s, "throw") || AN_SH_EQ(s, "using") ||
                 AN_SH_EQ(s, "const"));
    case 6:
        return !(AN_SH_EQ(s, "return") || AN_SH_EQ(s, "sizeof") || AN_SH_EQ(s, "switch") ||
                 AN_SH_EQ(s, "delete") || AN_SH_EQ(s, "typeof") || AN_SH_EQ(s, "static") ||
                 AN_SH_EQ(s, "extern") || AN_SH_EQ(s, "inline"));
    case 7:
        return !(AN_SH_EQ(s, "typedef") || AN_SH_EQ(s, "defined") || AN_SH_EQ(s, "alignof"));
    case 8:
        return !(AN_SH_EQ(s, "operator") || AN_SH_EQ(s, "template") ||
                 AN_SH_EQ(s, "co_yield") || AN_SH_EQ(s, "_Alignof") ||
                 AN_SH_EQ(s, "decltype") || AN_SH_EQ(s, "_Generic") ||
                 AN_SH_EQ(s, "volatile") || AN_SH_EQ(s, "register"));
    case 9:
        return !AN_SH_EQ(s, "co_return");
    case 10:
        return !AN_SH_EQ(s, "__typeof__");
    default:
        return 1;
    }
}

/* 1 if punctuator p cannot follow a type name: the name before it is a
 * variable (see analyze_shadow.h). */
static int an_shadow_var_next(const an_state *st, uint32_t p)
{
    switch (p) {
    case '=': case ';': case '[': case '.': case '/': case '%': case '+':
    case '-': case '<': case '|': case '^': case '?': case ':':
    case LEX_P2('+', '+'): case LEX_P2('-', '-'): case LEX_P2('-', '>'):
    case LEX_P2('=', '='): case LEX_P2('!', '='): case LEX_P2('<', '='):
    case LEX_P2('>', '='): case LEX_P2('<', '<'): case LEX_P2('&', '&'):
    case LEX_P2('|', '|'): case LEX_P2('+', '='): case LEX_P2('-', '='):
    case LEX_P2('*', '='): case LEX_P2('/', '='): case LEX_P2('%', '='):
    case LEX_P2('&', '='): case LEX_P2('|', '='): case LEX_P2('^', '='):
        return 1;
    case '>': case LEX_P2('>', '>'):
        return !st->cpp;              /* C++: closes template arguments */
    default:
        return 0;
    }
}

/* The index of s[0..len) in st->shadow, or -1. */
static int an_shadow_find(const an_state *st, const char *s, size_t len)
{
    int i;

    for (i = st->nshadow - 1; i >= 0; i--)
        if (st->shadow[i].len == len && memcmp(st->shadow[i].s, s, len) == 0)
            return i;
    return -1;
}

int an_shadow_defer(an_state *st, const lex_token *t, const char *s, size_t len,
                    const rules_name *e, rules_verdict v, int define)
{
    const an_tok *prev = an_prev(st, 1);

    if (define || s != t->start || an_shadow_tag_kw(prev) ||
        an_punct_is(prev, LEX_P2(':', ':')) || an_shadow_in_typedef(st))
        return 0;
    if (st->nshadow && an_shadow_find(st, s, len) >= 0)
        return 1;
    st->tpend.valid = 1;
    st->tpend.decl = an_shadow_decl_prev(prev);
    st->tpend.s = s;
    st->tpend.len = (uint32_t)len;
    st->tpend.line = t->line;
    st->tpend.column = t->column;
    st->tpend.v = v;
    st->tpend.cond = e->cond.cls >= 0 ? e : NULL;
    return 1;
}

/* The name st->tpend is a variable: visible for the rest of its block
 * inside a function, or the function's body when it is a parameter. */
static void an_shadow_add(an_state *st)
{
    an_tpend *p = &st->tpend;
    long depth;

    if (st->cur >= 0)
        depth = st->depth;
    else if (st->depth == 0 && st->pdepth > 0 && st->in_decl)
        depth = 1;                    /* a parameter */
    else
        return;                       /* file scope: see analyze_shadow.h */
    if (st->nshadow == AN_MAXSHADOW || an_shadow_find(st, p->s, p->len) >= 0)
        return;
    st->shadow[st->nshadow].s = p->s;
    st->shadow[st->nshadow].len = p->len;
    st->shadow[st->nshadow].depth = depth;
    st->nshadow++;
}

void an_shadow_next(an_state *st, const lex_token *next)
{
    an_tpend *p = &st->tpend;
    int var = 0;

    p->valid = 0;
    if (next && next->kind == LEX_PUNCT)
        var = an_shadow_var_next(st, next->punct) ||
              (p->decl && (next->punct == ',' || next->punct == ')'));
    if (var)
        an_shadow_add(st);
    else
        an_add_finding(st, p->line, p->column, p->v, p->s, p->len, AN_FK_PLAIN,
                       p->cond, 0);
}

void an_shadow_close(an_state *st)
{
    while (st->nshadow > 0 && st->shadow[st->nshadow - 1].depth > st->depth)
        st->nshadow--;
}
