/*
 * analyze_scan.c: the token walk of the analyzer (see analyze_int.h).
 *
 * Function definitions are found without parsing C: at brace depth 0 the
 * candidate name is the last identifier directly followed by a balanced
 * (...) group; when the next brace comes with a candidate and no '=' in
 * between, it opens the candidate's body.  The declaration starts at its
 * first token after the previous ';' or '}', except that a macro call line
 * such as HPyDef_METH(...) above the definition is cut off: when a second
 * name(...) replaces the candidate and the tokens after the first group
 * start on a new line, the declaration restarts there.
 *
 * A name written as a function-like macro's argument, `void M(name)(...)`,
 * names the function (name_from_macro M); a macro call without ';' before
 * `struct S {`, `namespace`, `extern "C"` is cut off at the keyword.
 * Inside functions every token also goes to analyze_items.c (object-dtype
 * item access).  Nothing recurses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_class.h"
#include "analyze_flow.h"
#include "analyze_items.h"
#include "analyze_scan.h"
#include "analyze_shadow.h"
#include "pd_error.h"

/* First tokens of a declaration that opens a wrapper, not a body. */
enum { DK_NONE = 0, DK_NAMESPACE, DK_EXTERN, DK_EXTERN_STR };

/* 1 if s, whose length the caller matched, spells word w: the word's
 * length is known at compile time, so the compare is a load or two.  The
 * keyword tests below switch on the length first (issue 26: a loop over
 * the words was 87 instructions a name). */
#define AN_EQ(s, w) (memcmp((s), (w), sizeof(w) - 1) == 0)

/* 1 for keywords and attribute-like names that a '(' may follow but that
 * never name a function: if while for switch return sizeof defined
 * __attribute__ __attribute __declspec _Alignas alignas _Alignof alignof
 * __alignof__ typeof __typeof__ __typeof decltype _Static_assert
 * static_assert asm __asm__ __asm _Generic noexcept throw _Pragma __pragma
 * case do else goto. */
static int an_not_name(const an_tok *t)
{
    const char *s = t->s;

    if (t->kind != LEX_IDENT)
        return 0;
    switch (t->len) {
    case 2:
        return AN_EQ(s, "if") || AN_EQ(s, "do");
    case 3:
        return AN_EQ(s, "for") || AN_EQ(s, "asm");
    case 4:
        return AN_EQ(s, "case") || AN_EQ(s, "else") || AN_EQ(s, "goto");
    case 5:
        return AN_EQ(s, "while") || AN_EQ(s, "__asm") || AN_EQ(s, "throw");
    case 6:
        return AN_EQ(s, "switch") || AN_EQ(s, "return") ||
               AN_EQ(s, "sizeof") || AN_EQ(s, "typeof");
    case 7:
        return AN_EQ(s, "defined") || AN_EQ(s, "alignas") ||
               AN_EQ(s, "alignof") || AN_EQ(s, "__asm__") ||
               AN_EQ(s, "_Pragma");
    case 8:
        return AN_EQ(s, "_Alignas") || AN_EQ(s, "_Alignof") ||
               AN_EQ(s, "__typeof") || AN_EQ(s, "decltype") ||
               AN_EQ(s, "_Generic") || AN_EQ(s, "noexcept") ||
               AN_EQ(s, "__pragma");
    case 10:
        return AN_EQ(s, "__declspec") || AN_EQ(s, "__typeof__");
    case 11:
        return AN_EQ(s, "__attribute") || AN_EQ(s, "__alignof__");
    case 13:
        return AN_EQ(s, "__attribute__") || AN_EQ(s, "static_assert");
    case 14:
        return AN_EQ(s, "_Static_assert");
    default:
        return 0;
    }
}

/* 1 for C type keywords, which cannot name K&R parameters: void int
 * char long short float double signed unsigned const struct union enum. */
static int an_type_kw(const an_tok *t)
{
    const char *s = t->s;

    if (t->kind != LEX_IDENT)
        return 0;
    switch (t->len) {
    case 3:
        return AN_EQ(s, "int");
    case 4:
        return AN_EQ(s, "void") || AN_EQ(s, "char") || AN_EQ(s, "long") ||
               AN_EQ(s, "enum");
    case 5:
        return AN_EQ(s, "short") || AN_EQ(s, "float") || AN_EQ(s, "const") ||
               AN_EQ(s, "union");
    case 6:
        return AN_EQ(s, "double") || AN_EQ(s, "signed") || AN_EQ(s, "struct");
    case 8:
        return AN_EQ(s, "unsigned");
    default:
        return 0;
    }
}

/* Text of token t without continuations, in buf (cap bytes); returns it
 * and sets *len.  Tokens longer than cap are truncated. */
static const char *an_text(const an_tok *t, char *buf, size_t cap,
                           size_t *len)
{
    lex_token lt;
    size_t n;

    if (!memchr(t->s, '\\', t->len)) {
        *len = t->len;
        return t->s;
    }
    memset(&lt, 0, sizeof(lt));
    lt.start = t->s;
    lt.len = t->len;
    n = lex_text(&lt, buf, cap);
    *len = n < cap ? n : cap - 1;
    return buf;
}

void an_reset_decl(an_state *st)
{
    st->in_decl = 0;
    st->decl_ntok = 0;
    st->decl_kw = DK_NONE;
    st->decl_class = 0;
    st->init = st->ctor = 0;
    st->pend_valid = st->cand_valid = 0;
    st->after_group = st->post_seen = 0;
    st->kr = st->kr_next = 0;
    st->scope_name_valid = st->decl_colon = 0;
    st->adepth = 0;
    st->alt_valid = 0;
    st->cand_arg_valid = st->pend_macro_valid = st->cand_macro_valid = 0;
    st->tag_kw_valid = 0;
    if (st->cur < 0)
        an_shadow_clear(st);          /* a prototype's parameters */
}

/* Drop tracked calls whose parentheses are closed (depth restores). */
void an_clip_calls(an_state *st)
{
    while (st->ncalls > 0 && st->calls[st->ncalls - 1].depth > st->pdepth)
        st->ncalls--;
}

/* ---- declarations and function definitions at depth 0 ----------------- */

/* Bookkeeping for token t at depth 0 outside functions, before it is
 * classified: where the declaration starts, the first token after a
 * candidate's group, K&R statements, the shape of the open group. */
static void an_decl_token(an_state *st, const an_tok *t)
{
    size_t nf = st->res->nfindings;

    if (st->in_decl && st->cand_valid && st->pdepth == 0 && st->adepth == 0 &&
        (an_is(t, "namespace") || an_is(t, "extern")))
        an_reset_decl(st);            /* M(x) without ';' above them */
    if (!st->in_decl) {
        st->in_decl = 1;
        st->decl_line = t->line;
        st->decl_find = nf;
        st->decl_kw = an_is(t, "namespace") ? DK_NAMESPACE
                    : an_is(t, "extern") ? DK_EXTERN : DK_NONE;
        if (st->decl_kw == DK_NAMESPACE || an_is(t, "template"))
            st->cpp = 1;              /* C++ in a .h file */
        st->nlocals = st->nitemparams = 0;
        st->ld_state = 0;
    } else if (st->decl_kw == DK_EXTERN && st->decl_ntok == 1 &&
               t->kind == LEX_STRING) {
        st->decl_kw = DK_EXTERN_STR;
    }
    if (st->cand_valid && st->pdepth == 0 && st->adepth == 0 &&
        (an_is(t, "class") || an_is(t, "struct") || an_is(t, "union") ||
         an_is(t, "enum"))) {
        st->tag_kw = *t;              /* decided at '{' (an_tag_body) */
        st->tag_kw_valid = 1;
        st->tag_kw_find = nf;
    }
    if (an_is(t, "class") || an_is(t, "struct") || an_is(t, "union")) {
        st->decl_class = 1;
        st->scope_name_valid = 0;
    } else if (t->kind == LEX_IDENT && st->pdepth == 0 && st->decl_ntok > 0 &&
               st->adepth == 0 &&
               ((st->decl_kw == DK_NAMESPACE && st->decl_ntok == 1) ||
                (st->decl_class && !st->decl_colon && !an_is(t, "final")))) {
        st->scope_name = *t;          /* namespace NAME {, struct NAME { */
        st->scope_name_valid = 1;
    }
    st->decl_ntok++;
    if (st->kr_next) {
        st->kr_next = 0;
        st->kr_line = t->line;
        st->kr_find = nf;
    }
    if (st->after_group && !st->post_seen && st->pdepth == 0) {
        st->post_seen = 1;
        st->post_line = t->line;
        st->post_find = nf;
    }
    if (st->pend_valid && st->pdepth == 1) {
        if (!an_punct_is(t, ')') && st->group_ntok++ == 0)
            st->group_arg = *t;
        if (t->kind == LEX_IDENT && !an_type_kw(t))
            st->group_nident++;
        else if (!an_punct_is(t, ',') && !an_punct_is(t, ')'))
            st->group_idlist = 0;
    }
}

/* Leave K&R mode: the declaration restarts after its last ';'. */
static void an_kr_drop(an_state *st)
{
    uint32_t line = st->kr_line;
    size_t find = st->kr_find;

    an_reset_decl(st);
    st->in_decl = 1;
    st->decl_ntok = 1;
    st->decl_line = line;
    st->decl_find = find;
}

/* The qualifier of the name before '(' (C++ `A::B::name`, `Cls::~Cls`,
 * `V::operator+`) into st->qual, from the recent tokens: at most three
 * levels.  an_prev(st, k0) is the token right before the name. */
static void an_qualifier(an_state *st, size_t k0)
{
    const an_tok *parts[3];
    size_t k = k0, n = 0, len = 0, i;

    st->qual[0] = '\0';
    if (!st->cpp)
        return;
    if (an_punct_is(an_prev(st, k0), '~'))
        k = k0 + 1;
    while (n < 3 && an_punct_is(an_prev(st, k), LEX_P2(':', ':'))) {
        size_t j = k + 1;
        long d = 0;

        if (an_punct_is(an_prev(st, j), '>')) {   /* Cls<T, U>::name */
            for (; j <= AN_RING; j++) {
                d += an_punct_is(an_prev(st, j), '>') -
                     an_punct_is(an_prev(st, j), '<');
                if (d == 0)
                    break;
            }
            j++;
        }
        if (j > AN_RING || an_prev(st, j)->kind != LEX_IDENT)
            break;
        parts[n++] = an_prev(st, j);
        k = j + 1;
    }
    for (i = n; i-- > 0;)
        len += (size_t)snprintf(st->qual + len, sizeof(st->qual) - len,
                                "%.*s::", (int)parts[i]->len, parts[i]->s);
    if (an_punct_is(an_prev(st, k0), '~') && len + 1 < sizeof(st->qual))
        snprintf(st->qual + len, sizeof(st->qual) - len, "~");
}

/* Enter a wrapper (namespace, class body, extern "C"): its name, if it
 * has one, extends the scope. */
static void an_push_scope(an_state *st, int named)
{
    if (st->wrappers < AN_MAXSCOPE)
        st->scope_marks[st->wrappers] = st->scope_len;
    if (named && st->scope_name_valid && st->wrappers < AN_MAXSCOPE) {
        int n = snprintf(st->scope + st->scope_len,
                         sizeof(st->scope) - st->scope_len, "%s%.*s",
                         st->scope_len ? "::" : "", (int)st->scope_name.len,
                         st->scope_name.s);

        if (n > 0 && st->scope_len + (size_t)n < sizeof(st->scope))
            st->scope_len += (uint32_t)n;
        else
            st->scope[st->scope_len] = '\0';
    }
    st->wrappers++;
}

/* Leave the innermost wrapper. */
static void an_pop_scope(an_state *st)
{
    st->wrappers--;
    if (st->wrappers < AN_MAXSCOPE) {
        st->scope_len = st->scope_marks[st->wrappers];
        st->scope[st->scope_len] = '\0';
    }
}

/* C++ `operator==(`, `operator()(`, `operator[](`: 1 and the name as
 * ctags writes it ("operator ==") in *name, pointing into st->opname[0];
 * 0 otherwise. */
static int an_operator(an_state *st, an_tok *name)
{
    const an_tok *p1 = an_prev(st, 1), *p2 = an_prev(st, 2), *p3 = an_prev(st, 3);
    const an_tok *op = an_is(p2, "operator") ? p2 : an_is(p3, "operator") ? p3 : NULL;
    int n;

    if (!st->cpp || p1->kind != LEX_PUNCT || !op)
        return 0;
    if (op == p3 && !(an_punct_is(p1, ')') && an_punct_is(p2, '(')) &&
        !(an_punct_is(p1, ']') && an_punct_is(p2, '[')) && p2->kind != LEX_PUNCT)
        return 0;
    n = snprintf(st->opname[0], sizeof(st->opname[0]), "operator %.*s%.*s",
                 op == p3 ? (int)p2->len : 0, p2->s, (int)p1->len, p1->s);
    *name = *op;
    name->s = st->opname[0];
    name->len = n > 0 && (size_t)n < sizeof(st->opname[0]) ? (uint32_t)n : 8;
    return 1;
}

/* '(' at paren depth 0: the identifier before it may name a function. */
static void an_open_group(an_state *st)
{
    const an_tok *prev = an_prev(st, 1);
    an_tok opn;

    if (st->kr) {
        /* `#ifdef KR_headers  T f(a) int a;  #else  T f(int a)  #endif {`:
         * one function, starting at the first header (as ctags has it). */
        int same = st->cand_valid && prev->kind == LEX_IDENT &&
                   prev->len == st->cand.len &&
                   memcmp(prev->s, st->cand.s, prev->len) == 0;
        an_tok c = st->cand;
        uint32_t line = st->decl_line;
        size_t find = st->decl_find;

        an_kr_drop(st);
        if (same) {
            st->alt = c;
            st->alt_valid = 1;
            st->alt_line = line;
            st->alt_find = find;
        }
    }
    if (!st->init && !st->ctor && st->cand_valid && st->cand_arg_valid &&
        an_punct_is(prev, ')') && st->nring == st->cand_ring + 1) {
        /* `void M(name)(params)`: only a macro makes a name so; the
         * function is `name` (`int (name)(params)` too, without M). */
        st->pend_macro = st->cand;
        st->pend_macro_valid = !an_type_kw(&st->cand);
        st->pend = st->cand_arg;
        st->pend_valid = 1;
        st->qual[0] = '\0';
        st->group_idlist = 1;
        st->group_nident = 0;
        st->group_ntok = 0;
        return;
    }
    st->pend_macro_valid = 0;
    if (!st->init && !st->ctor && an_operator(st, &opn)) {
        st->pend = opn;
        st->pend_valid = 1;
        st->group_ntok = 2;              /* never a macro argument */
        st->group_idlist = 1;
        st->group_nident = 0;
        /* V V::operator+(...): the class, as ctags names it */
        an_qualifier(st, an_is(an_prev(st, 2), "operator") ? 3 : 4);
        return;
    }
    if (st->init || st->ctor || prev->kind != LEX_IDENT || an_not_name(prev)) {
        st->pend_valid = 0;
        return;
    }
    if (st->cand_valid && st->post_seen &&
        st->post_line > st->group_close_line) {
        /* A macro call line (HPyDef_METH...) above: not part of it. */
        st->decl_line = st->post_line;
        st->decl_find = st->post_find;
    }
    st->pend = *prev;
    st->pend_valid = 1;
    an_qualifier(st, 2);
    st->group_idlist = 1;
    st->group_nident = 0;
    st->group_ntok = 0;
}

/*
 * The function's own name where it is defined is a definition, not a use
 * of the legacy API: numpy's PyArray_TypestrConvert or a port's own
 * Py-named helper are the repository's, whatever their prefix.  Its capi
 * or npy-legacy finding (made when the name was read) is taken back.  A
 * name the rules call HPy or a bridge keeps its class: defining the
 * bridge mechanism (npy_get_context) is bridge work, and the frontier
 * names it as such.
 */
static void an_drop_definition(an_state *st, const an_tok *name)
{
    an_result *res = st->res;
    size_t i;

    for (i = res->nfindings; i-- > st->decl_find;) {
        an_finding *f = &res->findings[i];

        if (f->line != name->line || f->column != name->column ||
            st->fmeta[i].kind != AN_FK_PLAIN || f->function >= 0 ||
            (f->cls != AN_CLASS_CAPI && f->cls != AN_CLASS_NPY_LEGACY))
            continue;
        res->tokens[f->cls]--;
        if (!f->guarded)
            st->file_unguarded[f->cls]--;
        memmove(&res->findings[i], &res->findings[i + 1],
                (res->nfindings - i - 1) * sizeof(*f));
        memmove(&st->fmeta[i], &st->fmeta[i + 1],
                (res->nfindings - i - 1) * sizeof(*st->fmeta));
        res->nfindings--;
        return;
    }
}

/* Start the body of the candidate at '{'. */
static void an_begin_function(an_state *st)
{
    char buf[256], full[2 * AN_QUAL + 256];
    size_t len, i;
    const char *s = an_text(&st->cand, buf, sizeof(buf), &len);
    int32_t fn;

    if (st->scope_len || st->cand_qual[0]) {    /* C++: ns::Cls::name */
        int n = snprintf(full, sizeof(full), "%s%s%s%.*s", st->scope,
                         st->scope_len ? "::" : "", st->cand_qual, (int)len, s);

        s = full;
        len = n > 0 && (size_t)n < sizeof(full) ? (size_t)n : strlen(full);
    }
    /* The declaration cannot start below its name (a K&R restart on
     * malformed input could say so; found by the fuzzer). */
    fn = an_new_function(st, s, len, st->decl_line <= st->cand.line
                                     ? st->decl_line : st->cand.line);

    if (fn < 0)
        return;
    st->res->functions[fn].name_line = st->cand.line;
    if (st->cand_macro_valid) {
        s = an_text(&st->cand_macro, buf, sizeof(buf), &len);
        an_set_macro(st, fn, s, len);
    }
    an_drop_definition(st, &st->cand);
    for (i = st->decl_find; i < st->res->nfindings; i++)
        if (!st->fmeta[i].define && st->res->findings[i].function < 0)
            an_assign(st, i, fn);
    st->cur = fn;
    an_flow_begin(st);
    st->depth = 1;
    st->pdepth = 0;
    st->ncalls = 0;
    st->pcast.active = 0;
    st->callpend_valid = 0;
    an_reset_decl(st);
}

/*
 * '{' right after `struct S`, `union`, `enum E`, `class C : bases` that
 * follow a macro call written without ';' (HPyType_HELPERS(T),
 * HPyDef_METH(...)): the call is not a declarator, the body is the tag's.
 * The declaration restarts at the keyword.  Returns 1 when so.
 */
static int an_tag_body(an_state *st)
{
    const an_tok *p1 = an_prev(st, 1), *p2 = an_prev(st, 2);
    an_tok name = st->scope_name;
    int name_valid = st->scope_name_valid, colon = st->decl_colon;
    an_tok kw = st->tag_kw;
    size_t find = st->tag_kw_find;

    if (!st->tag_kw_valid || st->pdepth != 0 || st->init ||
        !(p1->s == kw.s || (p1->kind == LEX_IDENT && p2->s == kw.s) || colon))
        return 0;
    an_reset_decl(st);
    st->in_decl = 1;
    st->decl_ntok = 2;
    st->decl_line = kw.line;
    st->decl_find = find;
    st->decl_class = !an_is(&kw, "enum");
    st->scope_name = name;
    st->scope_name_valid = name_valid;
    return 1;
}

/* '{' at depth 0 outside functions. */
static void an_file_brace(an_state *st)
{
    an_tag_body(st);
    if (st->pdepth == 0 && !st->init &&
        ((st->decl_kw == DK_NAMESPACE && !st->cand_valid &&
          !st->pend_valid) ||
         (st->decl_kw == DK_EXTERN_STR && st->decl_ntok == 3))) {
        an_push_scope(st, st->decl_kw == DK_NAMESPACE);
        an_reset_decl(st);            /* extern "C" {, namespace x { */
        return;
    }
    if (st->cpp && st->decl_class && st->pdepth == 0 && !st->init &&
        !st->cand_valid) {
        an_push_scope(st, 1);         /* C++ class body: methods inside */
        an_reset_decl(st);
        return;
    }
    if (st->kr) {
        if (an_punct_is(an_prev(st, 1), ';')) {
            an_begin_function(st);
            return;
        }
        an_kr_drop(st);
    }
    if (st->pdepth == 0 && st->cand_valid && !st->init) {
        an_begin_function(st);
        return;
    }
    st->depth++;                      /* struct, enum, initializer */
}

/* ';' at depth 0 outside functions. */
static void an_file_semicolon(an_state *st)
{
    st->pdepth = 0;
    st->tag_kw_valid = 0;
    if (st->kr) {
        st->kr_next = 1;
        return;
    }
    if (st->cand_valid && st->cand_idlist && st->post_seen && !st->init) {
        st->kr = 1;                   /* int f(a, b) int a; ... { */
        st->kr_next = 1;
        return;
    }
    an_reset_decl(st);
}

/* The parenthesised group after a pending name closed at depth 0: the
 * name becomes the candidate of a declaration (t is the ')'). */
static void an_group_close(an_state *st, const an_tok *t)
{
    st->cand = st->pend;
    st->cand_valid = 1;
    memcpy(st->cand_qual, st->qual, sizeof(st->qual));
    if (st->alt_valid && st->alt.len == st->cand.len &&
        memcmp(st->alt.s, st->cand.s, st->alt.len) == 0) {
        st->cand = st->alt;   /* see an_open_group() */
        st->decl_line = st->alt_line;
        st->decl_find = st->alt_find;
    }
    st->alt_valid = 0;
    if (st->cand.s == st->opname[0]) {
        memcpy(st->opname[1], st->opname[0], sizeof(st->opname[0]));
        st->cand.s = st->opname[1];
    }
    st->cand_idlist = st->group_idlist && st->group_nident > 0;
    st->cand_arg = st->group_arg;
    st->cand_arg_valid = st->group_ntok == 1 &&
                         st->group_arg.kind == LEX_IDENT;
    st->cand_macro = st->pend_macro;
    st->cand_macro_valid = st->pend_macro_valid;
    st->pend_macro_valid = 0;
    st->cand_ring = st->nring;
    st->after_group = 1;
    st->post_seen = 0;
    st->group_close_line = t->line;
    st->pend_valid = 0;
}

/* A punctuator at depth 0 outside functions. */
static void an_file_punct(an_state *st, const an_tok *t)
{
    switch (t->punct) {
    case '(':
        if (st->pdepth == 0)
            an_open_group(st);
        else if (st->pdepth == 1 && st->pend_valid &&
                 an_prev(st, 1)->kind == LEX_IDENT && !an_not_name(an_prev(st, 1)) &&
                 an_punct_is(an_prev(st, 2), '*') && an_punct_is(an_prev(st, 3), '(')) {
            st->pend = *an_prev(st, 1);   /* T (*name(args))(int): returns */
            st->group_idlist = 0;         /* a function pointer */
            st->qual[0] = '\0';
        }
        st->pdepth++;
        break;
    case ')':
        if (st->pdepth > 0 && --st->pdepth == 0 && st->pend_valid)
            an_group_close(st, t);
        break;
    case '<':
        if (st->cpp && st->pdepth == 0 && !st->init &&
            an_prev(st, 1)->kind == LEX_IDENT)
            st->adepth++;             /* template <..., Cls<T> */
        break;
    case '>':
    case LEX_P2('>', '>'):
        if (st->pdepth == 0 && st->adepth > 0)
            st->adepth -= t->punct == '>' || st->adepth == 1 ? 1 : 2;
        break;
    case '=':
        if (st->pdepth == 0 && st->adepth > 0)
            break;                    /* a default template argument */
        if (st->pdepth == 0) {
            if (st->kr)
                an_kr_drop(st);
            st->init = 1;
            st->cand_valid = st->pend_valid = 0;
        }
        break;
    case ':':
        if (st->pdepth == 0 && st->tag_kw_valid)
            st->decl_colon = 1;       /* M(x)  class NAME : bases { */
        else if (st->pdepth == 0 && st->cand_valid)
            st->ctor = 1;             /* C++ constructor initializers */
        else if (st->pdepth == 0 && st->decl_class && st->adepth == 0)
            st->decl_colon = 1;       /* class NAME : bases { */
        break;
    case ';':
        an_file_semicolon(st);
        break;
    case '{':
        an_file_brace(st);
        break;
    case '}':
        if (st->wrappers > 0) {
            an_pop_scope(st);
        } else if (!st->bad_closes++) {
            st->bad_close_line = t->line;
        }
        an_reset_decl(st);
        break;
    default:
        break;
    }
}

/* A punctuator inside a function body. */
static void an_func_punct(an_state *st, const an_tok *t)
{
    switch (t->punct) {
    case '(':
        st->pdepth++;
        break;
    case ')':
        an_check_cast(st);
        if (st->pdepth > 0)
            st->pdepth--;
        an_clip_calls(st);
        break;
    case ';':
        if (st->pdepth == 0)
            st->ncalls = 0;
        break;
    case '{':
        st->depth++;
        break;
    case '}':
        if (st->depth > 0)
            st->depth--;
        an_shadow_close(st);
        if (st->depth == 0) {
            an_flow_end(st);
            st->res->functions[st->cur].end_line = t->line;
            st->cur = -1;
            st->pdepth = 0;
            st->ncalls = 0;
            st->callpend_valid = 0;
            st->pcast.active = 0;
            st->ld_state = 0;
            an_reset_decl(st);
        }
        break;
    default:
        break;
    }
}

/* A punctuator inside a brace block that is not a function (struct body,
 * initializer): only depth matters. */
static void an_data_punct(an_state *st, const an_tok *t)
{
    if (t->punct == '{') {
        st->depth++;
    } else if (t->punct == '}') {
        if (--st->depth == 0) {
            st->pdepth = 0;
            an_reset_decl(st);
        }
    } else if (t->punct == '(') {
        st->pdepth++;
    } else if (t->punct == ')' && st->pdepth > 0) {
        st->pdepth--;
    }
}

/* '(' inside a function after a name: record the call (frontier, see
 * analyze.h an_function.calls).  Calls through '.' or '->' are function
 * pointers, not the repository's functions. */
static void an_record_call(an_state *st, const an_tok *name)
{
    const an_tok *before = an_prev(st, 2);
    struct an_callrec *c;
    char buf[256];
    size_t len;
    const char *s;
    uint32_t off;

    if (an_not_name(name) || an_punct_is(before, '.') ||
        an_punct_is(before, LEX_P2('-', '>')))
        return;
    s = an_text(name, buf, sizeof(buf), &len);
    if (!len || an_intern(st, s, len, &off))
        return;
    if (st->ncallrecs && st->callrecs[st->ncallrecs - 1].fn == st->cur &&
        st->callrecs[st->ncallrecs - 1].off == off)
        return;
    if (st->ncallrecs == st->capcallrecs) {
        size_t cap = st->capcallrecs ? st->capcallrecs * 2 : 256;

        if (!(c = realloc(st->callrecs, cap * sizeof(*c)))) {
            st->rc = pd_error_nomem("analysing");
            return;
        }
        st->callrecs = c;
        st->capcallrecs = cap;
    }
    c = &st->callrecs[st->ncallrecs++];
    c->fn = st->cur;
    c->off = off;
    c->len = (uint32_t)len;
}

/* Token t inside a function body, classified: calls, object-dtype items,
 * flow facts, depth. */
static inline __attribute__((always_inline)) void
an_body_token(an_state *st, an_tok *t, const an_tok *prev)
{
    if (t->kind == LEX_PUNCT && t->punct == '(' && prev->kind == LEX_IDENT) {
        if (!st->nograph)
            an_record_call(st, prev);
        an_item_call(st, prev);
    }
    if (an_cast_operand_wants(st))
        an_cast_operand(st, t);
    if (an_call_token_wants(st, t))
        an_call_token(st, t);
    if (an_local_decl_wants(st, t))
        an_local_decl(st, t);
    if (an_flow_body_wants(st, t))
        an_flow_body_token(st, t);
    if (t->kind == LEX_PUNCT)
        an_func_punct(st, t);
}

/* Token t at depth 0 outside functions, classified: declarations,
 * parameters (an_decl_token came before the classification). */
static inline __attribute__((always_inline)) void
an_file_token(an_state *st, an_tok *t)
{
    if (st->in_decl && an_local_decl_wants(st, t))
        an_local_decl(st, t);
    if (!st->nograph)
        an_flow_file_token(st, t);    /* parameter names: for facts only */
    if (t->kind == LEX_PUNCT)
        an_file_punct(st, t);
}

/* The walk's step: one significant token, classified if an identifier,
 * then by where it is (a function body, file level, a struct body or
 * initializer) once, then into the ring. */
void an_scan_token(an_state *st, const lex_token *lt)
{
    an_tok t;
    const an_tok *prev = an_prev(st, 1);
    int level = st->cur >= 0 ? 0 : st->depth == 0 ? 1 : 2;

    t.kind = lt->kind;
    t.punct = lt->punct;
    t.s = lt->start;
    t.len = (uint32_t)lt->len;
    t.line = lt->line;
    t.column = lt->column;
    t.e = NULL;
    if (level == 1)
        an_decl_token(st, &t);        /* before its findings are made */
    if (t.kind == LEX_IDENT) {
        int member = an_punct_is(prev, '.') ? 1
                     : an_punct_is(prev, LEX_P2('-', '>')) ? 2 : 0;

        if (!st->types_seen && an_types_word(t.s, t.len))
            st->types_seen = 1;
        t.e = an_classify_fast(st, lt, member, 0);
    }
    if (level == 0)
        an_body_token(st, &t, prev);
    else if (level == 1)
        an_file_token(st, &t);
    else if (t.kind == LEX_PUNCT)
        an_data_punct(st, &t);
    st->ring[st->nring++ & (AN_RING - 1)] = t;
}
