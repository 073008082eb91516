/*
 * lex.c: the tolerant C/C++ lexer (see lex.h).
 *
 * One forward pass over the bytes.  The common cases (blanks, identifiers,
 * punctuators) go through a byte-class table; continuations, comments and
 * literals take short slow paths.  Nothing here recurses or allocates, so
 * neither deep nesting nor huge inputs can hurt.
 */
#include <pthread.h>
#include <string.h>

#include "lex.h"

/* Byte classes. */
#define LC_SPACE 0x01u  /* blank other than newline */
#define LC_IDST  0x02u  /* may start an identifier: A-Z a-z _ @ */
#define LC_ID    0x04u  /* may continue an identifier: also 0-9 */
#define LC_DIGIT 0x08u
#define LC_PUNCT 0x10u  /* a punctuator byte */

/* What the first byte of a token, or of what lies between tokens, starts:
 * lex_next dispatches on it with one table look-up (issue 26: the chain
 * of tests before a punctuator cost about twenty instructions). */
enum {
    LK_OTHER = 0, /* LEX_OTHER */
    LK_SPACE,     /* a blank run */
    LK_NL,        /* a newline */
    LK_SLASH,     /* '/': a comment or a punctuator */
    LK_BSLASH,    /* '\\': a continuation or LEX_OTHER */
    LK_IDST,      /* an identifier */
    LK_DIGIT,     /* a number */
    LK_DOT,       /* a number (.5) or a punctuator */
    LK_QUOTE,     /* a string or char literal */
    LK_HASH,      /* a directive or a punctuator */
    LK_PCT,       /* %: (a directive's digraph) or a punctuator */
    LK_PUNCT      /* any other punctuator byte */
};

/* Second bytes that make a two-byte punctuator, as bits (lex_sb), and per
 * first byte the set of them that does (lex_two): -> -- -= ++ += << <=
 * >> >= && &= || |= :: ## and the X= of = ! * / % ^. */
#define LS_GT 0x01u
#define LS_MINUS 0x02u
#define LS_EQ 0x04u
#define LS_PLUS 0x08u
#define LS_LT 0x10u
#define LS_AMP 0x20u
#define LS_BAR 0x40u
#define LS_COLON 0x80u
#define LS_HASH 0x100u
#define LS_PCT 0x200u   /* only for the digraph candidates */

static unsigned char lex_cls[256];
static unsigned char lex_kind_of[256];
static uint16_t lex_sb[256], lex_two[256], lex_dg[256];
static pthread_once_t lex_cls_once = PTHREAD_ONCE_INIT;

/* Fill the class table; run once through pthread_once(). */
static void lex_cls_init(void)
{
    int c;
    const char *punct = "!%&()*+,-./:;<=>?[]^{|}~#";

    for (c = 'a'; c <= 'z'; c++)
        lex_cls[c] = LC_IDST | LC_ID;
    for (c = 'A'; c <= 'Z'; c++)
        lex_cls[c] = LC_IDST | LC_ID;
    lex_cls['_'] = lex_cls['@'] = LC_IDST | LC_ID;
    for (c = '0'; c <= '9'; c++)
        lex_cls[c] = LC_ID | LC_DIGIT;
    lex_cls[' '] = lex_cls['\t'] = lex_cls['\r'] = LC_SPACE;
    lex_cls['\f'] = lex_cls['\v'] = LC_SPACE;
    for (; *punct; punct++) {
        lex_cls[(unsigned char)*punct] = LC_PUNCT;
        lex_kind_of[(unsigned char)*punct] = LK_PUNCT;
    }
    for (c = 0; c < 256; c++)
        if (lex_cls[c] & LC_IDST)
            lex_kind_of[c] = LK_IDST;
        else if (lex_cls[c] & LC_DIGIT)
            lex_kind_of[c] = LK_DIGIT;
        else if (lex_cls[c] & LC_SPACE)
            lex_kind_of[c] = LK_SPACE;
    lex_kind_of['\n'] = LK_NL;
    lex_kind_of['/'] = LK_SLASH;
    lex_kind_of['\\'] = LK_BSLASH;
    lex_kind_of['.'] = LK_DOT;
    lex_kind_of['"'] = lex_kind_of['\''] = LK_QUOTE;
    lex_kind_of['#'] = LK_HASH;
    lex_kind_of['%'] = LK_PCT;
    lex_sb['>'] = LS_GT; lex_sb['-'] = LS_MINUS; lex_sb['='] = LS_EQ;
    lex_sb['+'] = LS_PLUS; lex_sb['<'] = LS_LT; lex_sb['&'] = LS_AMP;
    lex_sb['|'] = LS_BAR; lex_sb[':'] = LS_COLON; lex_sb['#'] = LS_HASH;
    lex_sb['%'] = LS_PCT;
    lex_two['-'] = LS_GT | LS_MINUS | LS_EQ;
    lex_two['+'] = LS_PLUS | LS_EQ;
    lex_two['<'] = LS_LT | LS_EQ;
    lex_two['>'] = LS_GT | LS_EQ;
    lex_two['&'] = LS_AMP | LS_EQ;
    lex_two['|'] = LS_BAR | LS_EQ;
    lex_two[':'] = LS_COLON;
    lex_two['#'] = LS_HASH;
    lex_two['='] = lex_two['!'] = lex_two['*'] = LS_EQ;
    lex_two['/'] = lex_two['%'] = lex_two['^'] = LS_EQ;
    /* digraphs: <% <: %> %: :> */
    lex_dg['<'] = LS_PCT | LS_COLON;
    lex_dg['%'] = LS_GT | LS_COLON;
    lex_dg[':'] = LS_GT;
}

#define LEX_IS(c, cls) (lex_cls[(unsigned char)(c)] & (cls))

/* The rarer paths stay out of lex_next, which then keeps fewer registers
 * to save and restore per token (issue 26: a tenth of the lexer's
 * instructions were its entry and exit). */
#define LEX_COLD __attribute__((noinline))

/* Length of a backslash-newline at p ("\\\n" or "\\\r\n"), or 0. */
static size_t lex_splice(const char *p, const char *end)
{
    if (p + 1 < end && p[1] == '\n')
        return 2;
    if (p + 2 < end && p[1] == '\r' && p[2] == '\n')
        return 3;
    return 0;
}

/* Account for a newline whose last byte is at nl. */
static void lex_newline(lex_state *lx, const char *nl)
{
    lx->line++;
    lx->line_start = nl + 1;
}

void lex_init(lex_state *lx, const char *buf, size_t len, unsigned flags)
{
    pthread_once(&lex_cls_once, lex_cls_init);
    memset(lx, 0, sizeof(*lx));
    lx->p = buf;
    lx->end = buf + len;
    lx->line_start = buf;
    lx->line = 1;
    lx->flags = flags;
    lx->at_bol = 1;
    /* The last byte that neither continues an identifier nor is a blank
     * (usually the final newline): a run of either that starts before it
     * ends at it at the latest, so those loops need no end test there. */
    for (lx->stop = lx->end; lx->stop > buf; lx->stop--)
        if (!LEX_IS(lx->stop[-1], LC_ID | LC_SPACE))
            break;
    lx->stop = lx->stop > buf ? lx->stop - 1 : buf;   /* none: never before */
}

/* Skip a block comment opened at p; returns the byte after it. */
static LEX_COLD const char *lex_block_comment(lex_state *lx, const char *p)
{
    const char *end = lx->end;
    uint32_t line = lx->line;

    for (p += 2; p < end; p++) {
        if (*p == '*' && p + 1 < end && p[1] == '/')
            return p + 2;
        if (*p == '\n')
            lex_newline(lx, p);
    }
    if (!lx->bad_comment_line)
        lx->bad_comment_line = line;
    return end;
}

/* Skip a // comment opened at p, continuations included; returns the
 * newline that ends it (not consumed) or the end. */
static LEX_COLD const char *lex_line_comment(lex_state *lx, const char *p)
{
    const char *end = lx->end;
    size_t n;

    for (p += 2; p < end && *p != '\n'; p++) {
        if (*p == '\\' && (n = lex_splice(p, end)) != 0) {
            p += n - 1;
            lex_newline(lx, p);
        }
    }
    return p;
}

/* Scan a quoted literal whose body starts at p; returns the byte after the
 * closing quote.  An unescaped newline ends it early (not consumed). */
static LEX_COLD const char *lex_quoted(lex_state *lx, const char *p, char quote,
                              int *spliced)
{
    const char *end = lx->end;
    size_t n;

    while (p < end) {
        if (*p == quote)
            return p + 1;
        if (*p == '\\') {
            if ((n = lex_splice(p, end)) != 0) {
                p += n;
                lex_newline(lx, p - 1);
                *spliced = 1;
                continue;
            }
            p += 2;
            continue;
        }
        if (*p == '\n')
            break;
        p++;
    }
    if (p > end)
        p = end;
    if (!lx->bad_literal_line)
        lx->bad_literal_line = lx->line;
    lx->bad_literals++;
    return p;
}

/* Scan a C++ raw string R"delim( ... )delim" whose '"' is at q.  Returns
 * the byte after it, or NULL when q does not open a valid raw string. */
static LEX_COLD const char *lex_raw_string(lex_state *lx, const char *q)
{
    const char *end = lx->end, *d = q + 1, *p;
    size_t dlen;

    for (p = d; p < end && p - d <= 16 && *p != '('; p++) {
        if (*p == ')' || *p == '\\' || *p == '"' || LEX_IS(*p, LC_SPACE) ||
            *p == '\n')
            return NULL;
    }
    if (p >= end || *p != '(')
        return NULL;
    dlen = (size_t)(p - d);
    for (p++; p < end; p++) {
        if (*p == '\n')
            lex_newline(lx, p);
        else if (*p == ')' && (size_t)(end - p) > dlen + 1 &&
                 memcmp(p + 1, d, dlen) == 0 && p[1 + dlen] == '"')
            return p + dlen + 2;
    }
    if (!lx->bad_literal_line)
        lx->bad_literal_line = lx->line;
    lx->bad_literals++;
    return end;
}

/* 1 if the identifier [s, e) is a raw-string prefix (R, LR, uR, UR, u8R). */
static int lex_raw_prefix(const char *s, const char *e)
{
    size_t n = (size_t)(e - s);

    return (n == 1 && s[0] == 'R') ||
           (n == 2 && s[1] == 'R' && (s[0] == 'L' || s[0] == 'u' ||
                                      s[0] == 'U')) ||
           (n == 3 && memcmp(s, "u8R", 3) == 0);
}

/* Scan an identifier starting at p; returns the byte after it. */
static const char *lex_ident(lex_state *lx, const char *p, int *spliced)
{
    const char *end = lx->end;
    size_t n;

    for (p++;;) {
        if (p < lx->stop)
            while (LEX_IS(*p, LC_ID))
                p++;
        else
            while (p < end && LEX_IS(*p, LC_ID))
                p++;
        if (p < end && *p == '\\' && (n = lex_splice(p, end)) != 0 &&
            p + n < end && LEX_IS(p[n], LC_ID)) {
            p += n;
            lex_newline(lx, p - 1);
            *spliced = 1;
            continue;
        }
        return p;
    }
}

/* Scan a preprocessing number starting at p; returns the byte after it. */
static const char *lex_number(lex_state *lx, const char *p, int *spliced)
{
    const char *end = lx->end;
    char prev = *p;
    size_t n;

    for (p++; p < end; p++) {
        char c = *p;

        if (LEX_IS(c, LC_ID) || c == '.')
            ;
        else if ((c == '+' || c == '-') && (prev == 'e' || prev == 'E' ||
                                            prev == 'p' || prev == 'P'))
            ;
        else if (c == '\'' && p + 1 < end && LEX_IS(p[1], LC_ID) &&
                 LEX_IS(prev, LC_ID))
            ;
        else if (c == '\\' && (n = lex_splice(p, end)) != 0) {
            p += n - 1;
            lex_newline(lx, p);
            *spliced = 1;
            continue;
        }
        else
            break;
        prev = c;
    }
    return p;
}

/*
 * A C99/C++ digraph at p (ISO C 6.4.6p3): <% %> <: :> %: %:%: stand for
 * { } [ ] # ##.  Returns the punctuator code and sets *len, or 0.  In C++
 * `<::` not followed by ':' or '>' is `<` then `::` (C++11 [lex.pptoken]p3:
 * `std::vector<::T>`).
 */
static LEX_COLD uint32_t lex_digraph(const lex_state *lx, const char *p,
                            const char *end, size_t *len)
{
    char a = p[0], b = p + 1 < end ? p[1] : '\0';

    *len = 2;
    if (a == '<' && b == '%')
        return '{';
    if (a == '%' && b == '>')
        return '}';
    if (a == ':' && b == '>')
        return ']';
    if (a == '<' && b == ':') {
        if ((lx->flags & LEX_F_CPP) && p + 2 < end && p[2] == ':' &&
            !(p + 3 < end && (p[3] == ':' || p[3] == '>')))
            return 0;
        return '[';
    }
    if (a == '%' && b == ':') {
        if (p + 3 < end && p[2] == '%' && p[3] == ':') {
            *len = 4;
            return LEX_P2('#', '#');
        }
        return '#';
    }
    return 0;
}

/* The punctuator code at p (see LEX_P2); sets *len to its bytes.  Two
 * table look-ups decide a digraph candidate and a two-byte punctuator. */
static inline uint32_t lex_punct(lex_state *lx, const char *p, const char *end,
                                 size_t *len)
{
    unsigned char a = (unsigned char)p[0];
    unsigned char b = p + 1 < end ? (unsigned char)p[1] : 0;
    unsigned sb = lex_sb[b];
    uint32_t dg;

    if ((lex_dg[a] & sb) && (dg = lex_digraph(lx, p, end, len)) != 0) {
        lx->digraphs++;
        return dg;
    }
    if (lex_two[a] & sb) {
        *len = 2;
        return LEX_P2(a, b);
    }
    /* ??< ??> ??( ... are trigraphs; compilers read them only with
     * -trigraphs (and C23 removed them): counted for the notes. */
    if (a == '?' && b == '?' && p + 2 < end && strchr("=/'()!<>-", p[2]) &&
        p[2] != '\0' && !lx->bad_trigraphs++)
        lx->bad_trigraph_line = lx->line;
    *len = 1;
    return a;
}

/* A comment opened at p: skipped, or returned in *tok with
 * LEX_F_COMMENTS.  Returns the byte after it, or NULL when *tok holds it. */
static LEX_COLD const char *lex_comment(lex_state *lx, const char *p,
                                        lex_token *tok)
{
    const char *s = p;

    tok->line = lx->line;
    tok->column = (uint32_t)(p - lx->line_start) + 1;
    p = p[1] == '*' ? lex_block_comment(lx, p) : lex_line_comment(lx, p);
    if (!(lx->flags & LEX_F_COMMENTS))
        return p;
    tok->kind = LEX_COMMENT;
    tok->punct = 0;
    tok->spliced = 0;
    tok->start = s;
    tok->len = (size_t)(p - s);
    lx->p = p;
    return NULL;
}

void lex_next(lex_state *lx, lex_token *tok)
{
    const char *p = lx->p, *q, *end = lx->end;
    int bol, spliced = 0;
    unsigned k;
    size_t n;

    /* Blanks, newlines, continuations and comments before the token. */
    for (;;) {
        if (p >= end) {
            k = LK_NL;
            break;
        }
        k = lex_kind_of[(unsigned char)*p];
        if (k == LK_SPACE) {
            if (p < lx->stop)
                while (LEX_IS(*++p, LC_SPACE))
                    ;
            else
                p++;
        } else if (k == LK_NL) {
            if (lx->in_pp)
                break;                /* LEX_PP_END below */
            lex_newline(lx, p);
            lx->at_bol = 1;
            p++;
        } else if (k == LK_BSLASH && (n = lex_splice(p, end)) != 0) {
            p += n;
            lex_newline(lx, p - 1);
        } else if (k == LK_SLASH && p + 1 < end &&
                   (p[1] == '*' || p[1] == '/')) {
            if (!(p = lex_comment(lx, p, tok)))
                return;
        } else {
            break;
        }
    }
    tok->start = p;
    tok->line = lx->line;
    tok->column = (uint32_t)(p - lx->line_start) + 1;
    tok->punct = 0;
    if (k == LK_NL) {
        /* End of a directive line, or of the input. */
        tok->kind = lx->in_pp ? LEX_PP_END : LEX_EOF;
        tok->len = 0;
        tok->spliced = 0;
        lx->in_pp = 0;
        lx->p = p;
        return;
    }
    bol = lx->at_bol;
    lx->at_bol = 0;
    switch (k) {
    case LK_IDST:
        q = lex_ident(lx, p, &spliced);
        tok->kind = LEX_IDENT;
        if ((lx->flags & LEX_F_CPP) && q < end && *q == '"' && !spliced &&
            lex_raw_prefix(p, q)) {
            const char *r = lex_raw_string(lx, q);

            if (r) {
                tok->kind = LEX_STRING;
                q = r;
            }
        }
        break;
    case LK_DOT:   /* a number if a digit follows: .5 */
        if (!(p + 1 < end && LEX_IS(p[1], LC_DIGIT)))
            goto punct;
        /* fall through */
    case LK_DIGIT:
        q = lex_number(lx, p, &spliced);
        tok->kind = LEX_NUMBER;
        break;
    case LK_QUOTE:
        q = lex_quoted(lx, p + 1, *p, &spliced);
        tok->kind = *p == '"' ? LEX_STRING : LEX_CHAR;
        break;
    case LK_PCT:
        /* %: is # (but %:%: is ##) */
        if (!(p + 1 < end && p[1] == ':' &&
              !(p + 3 < end && p[2] == '%' && p[3] == ':')))
            goto punct;
        /* fall through */
    case LK_HASH:
        if (!bol || lx->in_pp)
            goto punct;
        q = p + (*p == '#' ? 1 : 2);   /* # or its digraph %: */
        lx->digraphs += *p == '%';
        tok->kind = LEX_PP_BEGIN;
        tok->punct = '#';
        lx->in_pp = 1;
        break;
    case LK_PUNCT:
    case LK_SLASH:
    punct:
        tok->punct = lex_punct(lx, p, end, &n);
        tok->kind = LEX_PUNCT;
        q = p + n;
        break;
    default:
        q = p + 1;
        tok->kind = LEX_OTHER;
        if (!lx->in_pp && !lx->other_bytes++)
            lx->other_line = lx->line;
        break;
    }
    tok->len = (size_t)(q - p);
    tok->spliced = spliced;
    lx->p = q;
}

size_t lex_text(const lex_token *tok, char *dst, size_t cap)
{
    const char *p = tok->start, *end = tok->start + tok->len;
    size_t out = 0, n;

    while (p < end) {
        if (*p == '\\' && (n = lex_splice(p, end)) != 0) {
            p += n;
            continue;
        }
        if (out + 1 < cap)
            dst[out] = *p;
        out++;
        p++;
    }
    if (cap > 0)
        dst[out < cap ? out : cap - 1] = '\0';
    return out;
}

uint32_t lex_count_lines(const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len;
    uint32_t n = 0;

    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    if (len > 0 && buf[len - 1] != '\n')
        n++;
    return n;
}
