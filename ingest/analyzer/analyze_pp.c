/*
 * analyze_pp.c: preprocessor directives for the analyzer (analyze_int.h).
 *
 * No macro is expanded.  What is read of the directives:
 *   - a condition whose value is known without macros (analyze_ppexpr.h:
 *     `#if 0`, `#if 2 == 1` as numpy's templates write it, `#if X && 0`,
 *     tests of __cplusplus by the file's language) skips its branch when
 *     false, and makes the later #elif/#else branches dead when true;
 *   - guards from the rules (`guard MACRO ifndef|ifdef`): `#ifndef M`,
 *     `#if !defined(M)`, `#ifdef M`, `#if defined(M)`, alone or as one
 *     operand of a top-level `&&` chain, mark their branch as guarded
 *     (CPython-only on purpose).  The single opposite test guards the #else
 *     branch instead: `#ifdef HPY_UNIVERSAL_ABI ... #else <guarded>`.
 *     Conditions joined by a top-level `||` are guarded when every operand
 *     that is not known to be 0 is; an operand of `||` or `&&` whose value
 *     is known counts as false/true;
 *   - brace and paren depth follow the first taken branch of each
 *     #if/#elif/#else chain: every later branch restarts from the depth
 *     at #if and #endif returns to the depth at the end of the first one.
 *     So a body whose branches each open a brace (`if (a) {` / `if (b) {`)
 *     is still one function.
 * #define bodies are classified as file-scope findings; #include and all
 * other directives are ignored.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_class.h"
#include "analyze_pp.h"
#include "analyze_ppexpr.h"
#include "analyze_scan.h"
#include "lex_fast.h"
#include "pd_error.h"

#define AN_PPMAX 64              /* condition tokens looked at */

/* Condition verdicts. */
#define CT_ZERO       0x1        /* known to be 0 */
#define CT_ONE        0x2        /* known not to be 0 */
#define CT_GUARD      0x4        /* the branch is CPython-only */
#define CT_ELSE_GUARD 0x8        /* the #else branch is CPython-only */

/*
 * Bytes that can make no lexer problem or count in a directive line, nor
 * carry a token past its newline (issue 26: 29 K directives on numpy/core
 * are skipped, mostly #define lines inside #if 0, at 540 instructions a
 * line): letters, digits, '_', blank and tab, and the punctuators
 * ( ) [ ] { } , ; . + - * & | ^ ! ~ = < > #.  Not: backslashes
 * (continuations), '/' (comments), quotes (literals, raw strings), '?'
 * (trigraphs), ':' '%' (digraphs: '<' makes one only with a ':' or '%'
 * after it, which ends a plain run), CR, FF, VT, '@' '$' '`', other
 * bytes.  ASCII only (rows 8-15 are zero).
 */
static const unsigned char an_pp_plain[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
};

/* Read and drop the rest of the directive line. */
static void an_pp_skip(an_state *st)
{
    lex_token t;

    do
        lex_next_fast(&st->lx, &t);   /* inline: a directive's tokens */
    while (t.kind != LEX_PP_END && t.kind != LEX_EOF);
}

/* The end of the directive line the lexer stands in (its newline, or the
 * end of the input) when every byte up to it is plain (an_pp_plain): the
 * lexer would only make tokens that change none of its counters, and the
 * line cannot continue, so moving the lexer there and ending the
 * directive (an_pp_skip) is what lexing the line does.  NULL otherwise. */
static const char *an_pp_plain_end(const an_state *st)
{
    const char *p = st->lx.p, *end = st->lx.end;

    while (p < end && an_pp_plain[(unsigned char)*p])
        p++;
    return p == end || *p == '\n' ? p : NULL;
}

/* an_pp_skip for a line that may be long (#define, #include, #undef,
 * #error ...; not #else or #endif, which are mostly alone on theirs):
 * moved over at once when it is plain (an_pp_plain_end). */
static void an_pp_skip_line(an_state *st)
{
    const char *q = an_pp_plain_end(st);

    if (q)
        st->lx.p = q;
    an_pp_skip(st);
}

/* Read the rest of the line into v (at most AN_PPMAX tokens kept);
 * returns how many were kept. */
static int an_pp_read(an_state *st, lex_token *v)
{
    lex_token t;
    int n = 0;

    for (;;) {
        lex_next_fast(&st->lx, &t);
        if (t.kind == LEX_PP_END || t.kind == LEX_EOF)
            return n;
        if (n < AN_PPMAX)
            v[n++] = t;
    }
}

static int an_pp_is(const lex_token *t, uint32_t punct)
{
    return t->kind == LEX_PUNCT && t->punct == punct;
}

/* Index of the ')' matching the '(' at v[i], or -1. */
static int an_pp_match(const lex_token *v, int i, int n)
{
    int d = 0;

    for (; i < n; i++) {
        if (an_pp_is(&v[i], '('))
            d++;
        else if (an_pp_is(&v[i], ')') && --d == 0)
            return i;
    }
    return -1;
}

/* If v[0..n) is `[!] defined NAME` or `[!] defined(NAME)`, in any number
 * of parentheses, set *name to NAME's token and *neg; returns 1, else 0. */
static int an_pp_defined(const lex_token *v, int n, const lex_token **name,
                         int *neg)
{
    *neg = 0;
    for (;;) {
        if (n >= 2 && an_pp_is(&v[0], '(') && an_pp_match(v, 0, n) == n - 1)
            v++, n -= 2;
        else if (n >= 1 && an_pp_is(&v[0], '!') && !*neg)
            v++, n--, *neg = 1;
        else
            break;
    }
    if (n < 2 || v[0].kind != LEX_IDENT || v[0].len != 7 ||
        memcmp(v[0].start, "defined", 7) != 0)
        return 0;
    if (n == 2 && v[1].kind == LEX_IDENT)
        *name = &v[1];
    else if (n == 4 && an_pp_is(&v[1], '(') && v[2].kind == LEX_IDENT &&
             an_pp_is(&v[3], ')'))
        *name = &v[2];
    else
        return 0;
    return 1;
}

/* Verdict of a test of macro `name`, negated or not: a rules guard gives
 * CT_GUARD or CT_ELSE_GUARD; __cplusplus is known (CT_ONE or CT_ZERO) so
 * that the extern "C" { ... } of C headers is not seen in C files. */
static int an_pp_test(an_state *st, const lex_token *name, int neg)
{
    const rules_name *e;

    if (name->len == 11 && memcmp(name->start, "__cplusplus", 11) == 0)
        return !neg == !!st->cpp ? CT_ONE : CT_ZERO;
    e = rules_lookup(st->r, name->start, name->len);
    if (!e || !e->guard)
        return 0;
    return neg == (e->guard == RULES_GUARD_IFNDEF) ? CT_GUARD : CT_ELSE_GUARD;
}

/* Verdict of one && operand: a value known without macros (see
 * analyze_ppexpr.h), or a test of a macro (see an_pp_defined). */
static int an_pp_conjunct(an_state *st, const lex_token *v, int n)
{
    const lex_token *name;
    int64_t value;
    int neg;

    if (an_ppexpr_eval(v, n, st->cpp, &value))
        return value ? CT_ONE : CT_ZERO;
    while (n >= 3 && an_pp_is(&v[0], '(') && an_pp_match(v, 0, n) == n - 1)
        v++, n -= 2;                  /* (defined X) */
    return an_pp_defined(v, n, &name, &neg) ? an_pp_test(st, name, neg) : 0;
}

/* 1 if v[0..n) has the punctuator p outside parentheses. */
static int an_pp_top(const lex_token *v, int n, uint32_t p)
{
    int i, d = 0;

    for (i = 0; i < n; i++) {
        if (an_pp_is(&v[i], '('))
            d++;
        else if (an_pp_is(&v[i], ')'))
            d--;
        else if (d == 0 && an_pp_is(&v[i], p))
            return 1;
    }
    return 0;
}

/* Verdict of a top-level `&&` chain v[0..n): false if one operand is 0,
 * guarded if one operand is a guard. */
static int an_pp_and(an_state *st, const lex_token *v, int n)
{
    int i, start = 0, d = 0, ct = 0, r;

    if ((r = an_pp_conjunct(st, v, n)) != 0 || !an_pp_top(v, n, LEX_P2('&', '&')))
        return r;                     /* known, a single test, or no chain */
    for (i = 0; i <= n; i++) {
        if (i < n && an_pp_is(&v[i], '('))
            d++;
        else if (i < n && an_pp_is(&v[i], ')'))
            d--;
        if (i < n && !(d == 0 && an_pp_is(&v[i], LEX_P2('&', '&'))))
            continue;
        r = an_pp_conjunct(st, v + start, i - start);
        if (r == CT_ZERO)
            return CT_ZERO;           /* one false operand */
        if (r == CT_GUARD)
            ct |= r;
        start = i + 1;
    }
    return ct;
}

/* Verdict (CT_*) of an #if/#elif condition v[0..n): a top-level `||` of
 * `&&` chains, each operand's value known or not (an_pp_conjunct), so the
 * condition's value is known when it can be.  The branch is guarded only
 * when every operand that can be true is guarded
 * (`!defined(HPY_UNIVERSAL_ABI) || defined(HPY_ABI_CPYTHON)`), its #else
 * is guarded when one operand's #else is, and false operands drop out.
 * A top-level `?:` binds looser than `||` and `&&`: such a condition is
 * no chain, only its value is read. */
static int an_pp_cond(an_state *st, const lex_token *v, int n)
{
    int i, start = 0, d = 0, live = 0, all_guard = 1, else_guard = 0, r;
    int64_t value;

    if (n == AN_PPMAX)
        return 0;                     /* cut: too long to be one of ours */
    if (an_pp_top(v, n, '?'))
        return !an_ppexpr_eval(v, n, st->cpp, &value) ? 0 : value ? CT_ONE : CT_ZERO;
    for (i = 0; i <= n; i++) {
        if (i < n && an_pp_is(&v[i], '('))
            d++;
        else if (i < n && an_pp_is(&v[i], ')'))
            d--;
        if (i < n && !(d == 0 && an_pp_is(&v[i], LEX_P2('|', '|'))))
            continue;
        r = an_pp_and(st, v + start, i - start);
        start = i + 1;
        if (r == CT_ZERO)
            continue;
        if (r == CT_ONE)
            return CT_ONE;
        live++;
        all_guard &= r == CT_GUARD;
        else_guard |= r == CT_ELSE_GUARD;
    }
    if (!live)
        return CT_ZERO;
    return (all_guard ? CT_GUARD : 0) | (else_guard ? CT_ELSE_GUARD : 0);
}

/* #if / #ifdef / #ifndef with verdict ct. */
static void an_pp_push(an_state *st, int ct)
{
    an_frame *f;

    if (st->nframes == st->capframes) {
        size_t cap = st->capframes ? st->capframes * 2 : 16;

        if (!(f = realloc(st->frames, cap * sizeof(*f)))) {
            st->rc = pd_error_nomem("analysing");
            return;
        }
        st->frames = f;
        st->capframes = cap;
    }
    f = &st->frames[st->nframes++];
    memset(f, 0, sizeof(*f));
    f->saved_depth = st->depth;
    f->saved_pdepth = st->pdepth;
    f->outer_skip = (uint8_t)st->skip;
    if (f->outer_skip) {
        f->skip = 1;
    } else {
        f->skip = (ct & CT_ZERO) != 0;
        f->else_skip = (ct & CT_ONE) != 0;
        f->guard = (ct & CT_GUARD) != 0;
        f->else_guard = (ct & CT_ELSE_GUARD) != 0;
    }
    st->skip = f->skip;
    st->guard += f->guard;
}

/* The current branch of f ends: remember the depth of the first taken
 * branch, drop its guard. */
static void an_pp_branch_end(an_state *st, an_frame *f)
{
    if (!f->skip && !f->ref_set) {
        f->ref_depth = st->depth;
        f->ref_pdepth = st->pdepth;
        f->ref_set = 1;
    }
    st->guard -= f->guard;
    f->guard = 0;
}

/* Record a #else/#elif/#endif without #if at line. */
static void an_pp_unmatched(an_state *st, uint32_t line)
{
    if (!st->bad_pps++)
        st->bad_pp_line = line;
}

/* #else (is_else) or #elif with verdict ct. */
static void an_pp_branch(an_state *st, int is_else, int ct, uint32_t line)
{
    an_frame *f;

    if (!st->nframes) {
        an_pp_unmatched(st, line);
        return;
    }
    f = &st->frames[st->nframes - 1];
    an_pp_branch_end(st, f);
    if (!f->outer_skip) {
        st->depth = f->saved_depth;
        st->pdepth = f->saved_pdepth;
        an_clip_calls(st);
        if (is_else) {
            f->skip = f->else_skip;
            f->guard = !f->skip && f->else_guard && !f->seen_elif;
        } else {
            f->seen_elif = 1;
            f->skip = f->else_skip || (ct & CT_ZERO);
            f->guard = !f->skip && (ct & CT_GUARD);
            f->else_skip |= !f->skip && (ct & CT_ONE);  /* #elif 1: the rest dead */
        }
    }
    st->skip = f->skip;
    st->guard += f->guard;
}

/* #endif */
static void an_pp_endif(an_state *st, uint32_t line)
{
    an_frame *f;

    if (!st->nframes) {
        an_pp_unmatched(st, line);
        return;
    }
    f = &st->frames[st->nframes - 1];
    an_pp_branch_end(st, f);
    if (!f->outer_skip && f->ref_set) {
        st->depth = f->ref_depth;
        st->pdepth = f->ref_pdepth;
        an_clip_calls(st);
    }
    st->nframes--;
    st->skip = st->nframes ? st->frames[st->nframes - 1].skip : 0;
}

/* #define: classify the identifiers of the name and body (file scope). */
static void an_pp_define(an_state *st)
{
    lex_token t, prev;

    memset(&prev, 0, sizeof(prev));
    for (;;) {
        lex_next_fast(&st->lx, &t);   /* inline: a #define's tokens */
        if (t.kind == LEX_PP_END || t.kind == LEX_EOF)
            return;
        if (t.kind == LEX_IDENT)
            an_classify(st, &t, an_pp_is(&prev, '.') ? 1
                                : an_pp_is(&prev, LEX_P2('-', '>')) ? 2 : 0, 1);
        prev = t;
    }
}

/* Whether a condition read now could change nothing: an #if (is_elif 0)
 * inside a skipped branch, or an #elif of a chain that is skipped as a
 * whole or already had its true branch (an_pp_push and an_pp_branch ignore
 * the verdict then, and an_pp_cond only reads: it must stay so).  Its
 * line is skipped unread: half of numpy's expanded templates lie in
 * skipped branches, and their conditions were read and evaluated (issue
 * 26). */
static int an_pp_moot(const an_state *st, int is_elif)
{
    const an_frame *f;

    if (!is_elif)
        return st->skip;
    if (!st->nframes)
        return 0;                     /* unmatched: an_pp_branch records it */
    f = &st->frames[st->nframes - 1];
    return f->outer_skip || f->else_skip;
}

/* The directives read, by name (the rest are skipped). */
enum { PP_OTHER = 0, PP_IF, PP_ELIF, PP_IFDEF, PP_IFNDEF, PP_ELSE, PP_ENDIF,
       PP_DEFINE };

/* The directive named s[0..n): by length, then the bytes (constant-length
 * compares, where a copy and a chain of strcmp were 2 % of a numpy/core
 * run, issue 26). */
static int an_pp_kind(const char *s, size_t n)
{
    switch (n) {
    case 2:
        return memcmp(s, "if", 2) == 0 ? PP_IF : PP_OTHER;
    case 4:
        return memcmp(s, "else", 4) == 0 ? PP_ELSE
             : memcmp(s, "elif", 4) == 0 ? PP_ELIF : PP_OTHER;
    case 5:
        return memcmp(s, "endif", 5) == 0 ? PP_ENDIF
             : memcmp(s, "ifdef", 5) == 0 ? PP_IFDEF : PP_OTHER;
    case 6:
        return memcmp(s, "define", 6) == 0 ? PP_DEFINE
             : memcmp(s, "ifndef", 6) == 0 ? PP_IFNDEF : PP_OTHER;
    default:
        return PP_OTHER;
    }
}

/* The most bytes of a condition the cache holds. */
#define AN_PCC_MAXLEN 256

/* The condition cache (an_state.pcc) for the rest of an #if/#elif line,
 * the lexer after its name.  When the line is plain (an_pp_plain_end)
 * and a slot holds the same bytes read in the same language (the slot
 * chosen as the classification cache chooses one for a name, by
 * an_cc_key), the lexer is moved to the line's end, the directive ended
 * there as the lexer would have, and the slot's verdict is
 * returned.  Else -1, with *c the slot to fill with the verdict of bytes
 * *s, *len (NULL: the line cannot be cached).  numpy's expanded
 * templates repeat a few conditions thousands of times (`#if 0`,
 * `#elif 0 && (_FROM_BSIZE >= 8) && ...`), each read and evaluated
 * (issue 26).  The slots point into the one buffer an an_state walks; a
 * verdict that came to depend on more than the tokens, the language and
 * the rules (__LINE__, the file's own #defines) would need that in the
 * key. */
static int an_pp_cached(an_state *st, an_pcc **c, const char **s, size_t *len)
{
    const char *p = st->lx.p, *q = an_pp_plain_end(st);
    size_t n = q ? (size_t)(q - p) : 0;
    uint64_t w[3];
    an_pcc *slot;

    *c = NULL;
    if (n == 0 || n > AN_PCC_MAXLEN)
        return -1;                    /* not plain, empty or long */
    an_cc_key(p, n, st->lx.end, w);
    slot = &st->pcc[an_cc_index(w, n) & ((1u << AN_PCC_BITS) - 1)];
    if (slot->s && slot->len == n && slot->cpp == st->cpp &&
        memcmp(slot->s, p, n) == 0) {
        st->lx.p = q;
        an_pp_skip(st);
        return slot->ct;
    }
    *c = slot;
    *s = p;
    *len = n;
    return -1;
}

/*
 * What a directive of the template's bytes did (an_state.dv, by the
 * template token of its '#'): its kind, and the verdict of its condition
 * once read.  Its bytes are the same in every instance of the loop, so
 * are its kind and verdict (which depend on the bytes, the language and
 * the rules, as the condition cache's do), and an instance after the
 * first applies them without reading the line: numpy's instances repeat
 * their bodies' directives thousands of times (lowlevel_strided_loops.c.src
 * has 45 in each of 1,296), and reading them was a tenth of numpy/core's
 * templates (issue 26).  The line's end is where the replay's next token
 * starts (tmpl_replay_put), which is where lexing it leaves the lexer.
 */
#define AN_DV_KIND    0x1u    /* kind known: bits 1-3 */
#define AN_DV_CT      0x10u   /* the condition's verdict known: bits 5-8 */

/* The entry of directive `hash` when it is the template's bytes and the
 * walk replays (else NULL). */
static uint16_t *an_pp_dv(const an_state *st, const lex_token *hash)
{
    return st->rp && hash->tmpl_tok - 1u < st->ntv ? &st->dv[hash->tmpl_tok - 1] : NULL;
}

/* Move the lexer past directive `hash` (an_pp_dv's) as reading it would. */
static void an_pp_past(an_state *st, const lex_token *hash)
{
    tmpl_replay *r = st->rp;

    r->j = r->tok[hash->tmpl_tok - 1].dnext;
    tmpl_replay_put(r, &st->lx);
}

/* Read the directive's name (the lexer after its '#'): its kind (PP_*),
 * or -1 for a null directive; *t gets the name's token. */
static int an_pp_name(an_state *st, lex_token *t)
{
    char name[16];

    lex_next_fast(&st->lx, t);        /* inline: once per directive */
    if (t->kind == LEX_PP_END || t->kind == LEX_EOF)
        return -1;
    if (t->kind != LEX_IDENT)
        return PP_OTHER;
    if (!t->spliced)
        return an_pp_kind(t->start, t->len);
    if (lex_text(t, name, sizeof(name)) < sizeof(name))
        return an_pp_kind(name, strlen(name));
    return PP_OTHER;
}

/* The verdict of the condition of an #if, #elif (the lexer after the
 * name), read through the condition cache (an_pp_cached). */
static int an_pp_if_verdict(an_state *st)
{
    lex_token v[AN_PPMAX];
    an_pcc *c;
    const char *cs;
    size_t clen;
    int ct;

    if ((ct = an_pp_cached(st, &c, &cs, &clen)) >= 0)
        return ct;
    ct = an_pp_cond(st, v, an_pp_read(st, v));
    if (c) {
        c->s = cs;
        c->len = (uint32_t)clen;
        c->cpp = st->cpp;
        c->ct = ct;
    }
    return ct;
}

/* The verdict of an #ifdef (ifndef 0) or #ifndef (1) (the lexer after
 * the name). */
static int an_pp_ifdef_verdict(an_state *st, int ifndef)
{
    lex_token v[AN_PPMAX];
    int nv = an_pp_read(st, v);

    return nv >= 1 && v[0].kind == LEX_IDENT ? an_pp_test(st, &v[0], ifndef) : 0;
}

/* Past the rest of the directive: by the replay when its line was not
 * read (`unread`: an_pp_past), else by `skip` reading it. */
static void an_pp_rest(an_state *st, const lex_token *hash, int unread,
                       void (*skip)(an_state *))
{
    if (unread)
        an_pp_past(st, hash);
    else
        skip(st);
}

void an_directive(an_state *st, const lex_token *hash)
{
    lex_token t;
    uint16_t *dv = an_pp_dv(st, hash);
    /* its kind known from an instance before (dv): the line is not read */
    int unread = dv && (*dv & AN_DV_KIND), kind, ct;
    uint32_t line = hash->line;

    if (unread) {
        kind = (int)(*dv >> 1) & 7;
    } else if ((kind = an_pp_name(st, &t)) < 0) {
        return;                       /* null directive */
    } else if (dv && t.line == hash->line) {
        *dv = (uint16_t)(AN_DV_KIND | (unsigned)kind << 1);
    } else {
        dv = NULL;                    /* kept only when its name is on the
                                       * line of its '#', the line used then */
        line = t.line;
    }
    switch (kind) {
    case PP_IF:
    case PP_ELIF:
    case PP_IFDEF:
    case PP_IFNDEF:
        if (an_pp_moot(st, kind == PP_ELIF)) {
            an_pp_rest(st, hash, unread, an_pp_skip_line);
            ct = 0;
        } else if (unread && (*dv & AN_DV_CT)) {
            an_pp_past(st, hash);
            ct = (int)(*dv >> 5) & 0xf;
        } else {
            if (unread)
                an_pp_name(st, &t);   /* the condition is read after it */
            ct = kind == PP_IF || kind == PP_ELIF ? an_pp_if_verdict(st)
                                                  : an_pp_ifdef_verdict(st, kind == PP_IFNDEF);
            if (dv)
                *dv |= (uint16_t)(AN_DV_CT | (unsigned)ct << 5);
        }
        if (kind == PP_ELIF)
            an_pp_branch(st, 0, ct, line);
        else
            an_pp_push(st, ct);
        break;
    case PP_ELSE:
        an_pp_rest(st, hash, unread, an_pp_skip);
        an_pp_branch(st, 1, 0, line);
        break;
    case PP_ENDIF:
        an_pp_rest(st, hash, unread, an_pp_skip);
        an_pp_endif(st, line);
        break;
    case PP_DEFINE:
        if (st->skip) {
            an_pp_rest(st, hash, unread, an_pp_skip_line);  /* not read in skipped code */
        } else {
            if (unread)
                an_pp_name(st, &t);   /* its body makes findings: read */
            an_pp_define(st);
        }
        break;
    default:
        an_pp_rest(st, hash, unread, an_pp_skip_line);
        break;
    }
}
