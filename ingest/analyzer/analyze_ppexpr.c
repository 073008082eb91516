/*
 * analyze_ppexpr.c: #if expressions evaluated with unknowns (see
 * analyze_ppexpr.h).
 *
 * A precedence-climbing reader over the directive's tokens.  Every value
 * carries whether it is known; the operators that a known operand decides
 * (&&, ||, *, &, ?:) give a known value with the other one unknown, the
 * rest need both.  Arithmetic is done on uint64_t bits with a flag for
 * unsigned, as intmax_t/uintmax_t under the usual conversions (C11
 * 6.10.1p4, 6.3.1.8): signed overflow wraps here rather than being an
 * error, which changes no condition a source file means.
 */
#include <string.h>

#include "analyze_ppexpr.h"

typedef struct {
    uint64_t bits;
    uint8_t known;               /* the value is known */
    uint8_t uns;                 /* its type is uintmax_t */
} ppx_val;

typedef struct {
    const lex_token *v;
    int n, i;
    int cpp;                     /* C++: __cplusplus is defined */
    int bad;                     /* not an expression */
} ppx_reader;

/* Binary operators: precedence (higher binds tighter), 0 for none. */
static int ppx_prec(uint32_t p)
{
    switch (p) {
    case '*': case '/': case '%':
        return 10;
    case '+': case '-':
        return 9;
    case LEX_P2('<', '<'): case LEX_P2('>', '>'):
        return 8;
    case '<': case '>': case LEX_P2('<', '='): case LEX_P2('>', '='):
        return 7;
    case LEX_P2('=', '='): case LEX_P2('!', '='):
        return 6;
    case '&':
        return 5;
    case '^':
        return 4;
    case '|':
        return 3;
    case LEX_P2('&', '&'):
        return 2;
    case LEX_P2('|', '|'):
        return 1;
    default:
        return 0;
    }
}

static const lex_token *ppx_peek(const ppx_reader *x)
{
    return x->i < x->n ? &x->v[x->i] : NULL;
}

static int ppx_punct(const ppx_reader *x, uint32_t p)
{
    const lex_token *t = ppx_peek(x);

    return t && t->kind == LEX_PUNCT && t->punct == p;
}

/* The token's text, spliced lines joined, in buf (cap bytes); NULL when
 * longer than that. */
static const char *ppx_text(const lex_token *t, char *buf, size_t cap,
                            size_t *len)
{
    if (!t->spliced) {
        *len = t->len;
        return t->start;
    }
    *len = lex_text(t, buf, cap);
    return *len < cap ? buf : NULL;
}

static int ppx_is(const lex_token *t, const char *word)
{
    char buf[32];
    size_t len;
    const char *s = ppx_text(t, buf, sizeof(buf), &len);

    return s && len == strlen(word) && memcmp(s, word, len) == 0;
}

static int ppx_digit(char c, unsigned base)
{
    unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
               : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
               : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;

    return d < base ? (int)d : -1;
}

static ppx_val ppx_known(uint64_t bits, int uns)
{
    ppx_val r = { bits, 1, (uint8_t)uns };

    return r;
}

static ppx_val ppx_unknown(void)
{
    ppx_val r = { 0, 0, 0 };

    return r;
}

/* An integer literal (decimal, 0x, 0b, octal; C++14 ' separators; any
 * u/l/ll suffix), or an unknown value for anything else (a float). */
static ppx_val ppx_number(const lex_token *t)
{
    ppx_val r = { 0, 0, 0 };
    char buf[72];
    size_t len, i = 0;
    const char *s = ppx_text(t, buf, sizeof(buf), &len);
    unsigned base = 10;
    int d, digits = 0, over = 0, u = 0;

    if (!s)
        return r;
    if (len == 1 && s[0] >= '0' && s[0] <= '9')
        return ppx_known((uint64_t)(s[0] - '0'), 0);   /* most of them */
    if (len > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        base = 16, i = 2;
    else if (len > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
        base = 2, i = 2;
    else if (s[0] == '0')
        base = 8;
    for (; i < len; i++) {
        if (s[i] == '\'' && digits)
            continue;
        if ((d = ppx_digit(s[i], base)) < 0)
            break;
        over |= r.bits > (UINT64_MAX - (uint64_t)d) / base;
        r.bits = r.bits * base + (uint64_t)d;
        digits++;
    }
    for (; i < len && memchr("uUlL", s[i], 4); i++)
        u |= s[i] == 'u' || s[i] == 'U';
    if (i < len || !digits || over)
        return r;                     /* a float, a bad suffix, too big */
    /* A decimal literal too big for intmax_t is no value; an octal or
     * hexadecimal one is uintmax_t (C11 6.4.4.1p5). */
    if (r.bits > INT64_MAX && !u && base == 10)
        return r;
    r.uns = (uint8_t)(u || r.bits > INT64_MAX);
    r.known = 1;
    return r;
}

static ppx_val ppx_cond(ppx_reader *x);

/* `defined NAME` or `defined ( NAME )`, the `defined` read. */
static ppx_val ppx_defined(ppx_reader *x)
{
    const lex_token *name;
    int paren = ppx_punct(x, '(');

    x->i += paren;
    name = ppx_peek(x);
    if (!name || name->kind != LEX_IDENT) {
        x->bad = 1;
        return ppx_unknown();
    }
    x->i++;
    if (paren) {
        x->bad |= !ppx_punct(x, ')');
        x->i++;
    }
    return ppx_is(name, "__cplusplus") ? ppx_known((uint64_t)!!x->cpp, 0)
                                       : ppx_unknown();
}

/* An identifier: defined, true/false, __cplusplus in C, a macro call
 * (its arguments skipped), or a macro. */
static ppx_val ppx_ident(ppx_reader *x, const lex_token *t)
{
    int depth = 0;

    if (memchr("dtf_", t->start[0], 4)) {   /* most names start otherwise */
        int is_true;

        if (ppx_is(t, "defined"))
            return ppx_defined(x);
        /* false is 0 as a macro (<stdbool.h>, C23, C++) or as a name
         * no macro defines; true is 1 in C++ and with <stdbool.h> or
         * C23, but 0 in a C file that includes none. */
        is_true = x->cpp && ppx_is(t, "true");
        if (is_true || ppx_is(t, "false"))
            return ppx_known((uint64_t)is_true, 0);
        if (!x->cpp && ppx_is(t, "__cplusplus"))
            return ppx_known(0, 0);
    }
    if (ppx_punct(x, '(')) {
        do {
            depth += ppx_punct(x, '(') - ppx_punct(x, ')');
            x->i++;
        } while (depth > 0 && x->i < x->n);
        x->bad |= depth != 0;
    }
    return ppx_unknown();
}

/* A unary operator and its operand, or a primary expression. */
static ppx_val ppx_unary(ppx_reader *x)
{
    const lex_token *t = ppx_peek(x);
    ppx_val r;

    if (!t) {
        x->bad = 1;
        return ppx_unknown();
    }
    x->i++;
    if (t->kind == LEX_NUMBER)
        return ppx_number(t);
    if (t->kind == LEX_IDENT)
        return ppx_ident(x, t);
    if (t->kind != LEX_PUNCT) {
        x->bad |= t->kind != LEX_CHAR;
        return ppx_unknown();         /* a character constant */
    }
    if (t->punct == '(') {
        r = ppx_cond(x);
        if (!ppx_punct(x, ')'))
            x->bad = 1;
        x->i++;
        return r;
    }
    if (t->punct > 0x7f || !memchr("+-!~", (int)t->punct, 4)) {
        x->bad = 1;
        return ppx_unknown();
    }
    r = ppx_unary(x);
    if (t->punct == '-')
        r.bits = 0 - r.bits;
    else if (t->punct == '~')
        r.bits = ~r.bits;
    else if (t->punct == '!')
        r.bits = r.bits == 0, r.uns = 0;
    return r;
}

/* l < r under the usual conversions. */
static int ppx_less(ppx_val l, ppx_val r, int uns)
{
    return uns ? l.bits < r.bits : (int64_t)l.bits < (int64_t)r.bits;
}

/* / and % (div): no value for a zero divisor or INTMAX_MIN / -1. */
static ppx_val ppx_divide(ppx_val l, ppx_val r, int uns, int div)
{
    int64_t a = (int64_t)l.bits, b = (int64_t)r.bits;

    if (r.bits == 0 || (!uns && a == INT64_MIN && b == -1))
        return ppx_unknown();
    if (uns)
        return ppx_known(div ? l.bits / r.bits : l.bits % r.bits, 1);
    return ppx_known((uint64_t)(div ? a / b : a % b), 0);
}

/* << and >>: the left operand's type; no value for a count out of range. */
static ppx_val ppx_shift(ppx_val l, ppx_val r, int left)
{
    if ((!r.uns && (int64_t)r.bits < 0) || r.bits >= 64)
        return ppx_unknown();
    if (left)
        return ppx_known(l.bits << r.bits, l.uns);
    if (l.uns)
        return ppx_known(l.bits >> r.bits, 1);
    /* Arithmetic shift of a negative value, as GCC and Clang do. */
    return ppx_known((uint64_t)((int64_t)l.bits >> r.bits), 0);
}

/* The operators a known operand decides alone: && || * &. */
static int ppx_decided(uint32_t op, ppx_val l, ppx_val r, ppx_val *out)
{
    int lz = l.known && l.bits == 0, rz = r.known && r.bits == 0;
    int lt = l.known && l.bits != 0, rt = r.known && r.bits != 0;

    if (op == LEX_P2('&', '&') && (lz || rz))
        *out = ppx_known(0, 0);
    else if (op == LEX_P2('|', '|') && (lt || rt))
        *out = ppx_known(1, 0);
    else if ((op == '*' || op == '&') && (lz || rz))
        *out = ppx_known(0, l.uns | r.uns);
    else
        return 0;
    return 1;
}

/* l op r. */
static ppx_val ppx_apply(uint32_t op, ppx_val l, ppx_val r)
{
    int uns = l.uns | r.uns;
    ppx_val out;

    if (ppx_decided(op, l, r, &out))
        return out;
    if (!l.known || !r.known)
        return ppx_unknown();
    switch (op) {
    case '*': return ppx_known(l.bits * r.bits, uns);
    case '/': return ppx_divide(l, r, uns, 1);
    case '%': return ppx_divide(l, r, uns, 0);
    case '+': return ppx_known(l.bits + r.bits, uns);
    case '-': return ppx_known(l.bits - r.bits, uns);
    case LEX_P2('<', '<'): return ppx_shift(l, r, 1);
    case LEX_P2('>', '>'): return ppx_shift(l, r, 0);
    case '<': return ppx_known(ppx_less(l, r, uns), 0);
    case '>': return ppx_known(ppx_less(r, l, uns), 0);
    case LEX_P2('<', '='): return ppx_known(!ppx_less(r, l, uns), 0);
    case LEX_P2('>', '='): return ppx_known(!ppx_less(l, r, uns), 0);
    case LEX_P2('=', '='): return ppx_known(l.bits == r.bits, 0);
    case LEX_P2('!', '='): return ppx_known(l.bits != r.bits, 0);
    case '&': return ppx_known(l.bits & r.bits, uns);
    case '^': return ppx_known(l.bits ^ r.bits, uns);
    case '|': return ppx_known(l.bits | r.bits, uns);
    case LEX_P2('&', '&'): return ppx_known(l.bits && r.bits, 0);
    case LEX_P2('|', '|'): return ppx_known(l.bits || r.bits, 0);
    default:  return ppx_unknown();     /* no other binary operator */
    }
}

/* Binary operators of precedence min and above (precedence climbing). */
static ppx_val ppx_binary(ppx_reader *x, int min)
{
    ppx_val l = ppx_unary(x), r;
    const lex_token *t;
    int p;

    while (!x->bad && (t = ppx_peek(x)) && t->kind == LEX_PUNCT &&
           (p = ppx_prec(t->punct)) >= min && p > 0) {
        x->i++;
        r = ppx_binary(x, p + 1);
        l = ppx_apply(t->punct, l, r);
    }
    return l;
}

/* c ? a : b, or a binary expression. */
static ppx_val ppx_cond(ppx_reader *x)
{
    ppx_val c = ppx_binary(x, 1), a, b;

    if (x->bad || !ppx_punct(x, '?'))
        return c;
    x->i++;
    a = ppx_cond(x);
    if (!ppx_punct(x, ':')) {
        x->bad = 1;
        return ppx_unknown();
    }
    x->i++;
    b = ppx_cond(x);
    a.uns = b.uns = a.uns | b.uns;
    if (c.known)
        return c.bits ? a : b;
    return a.known && b.known && a.bits == b.bits ? a : ppx_unknown();
}

int an_ppexpr_eval(const lex_token *v, int n, int cpp, int64_t *value)
{
    ppx_reader x = { v, n, 0, cpp, 0 };
    ppx_val r;

    if (n <= 0)
        return 0;
    r = ppx_cond(&x);
    if (x.bad || x.i != n || !r.known)
        return 0;
    *value = (int64_t)r.bits;
    return 1;
}
