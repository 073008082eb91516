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

static unsigned char lex_cls[256];
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
    for (; *punct; punct++)
        lex_cls[(unsigned char)*punct] = LC_PUNCT;
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

/* The punctuator code at p (see LEX_P2); sets *len to its bytes. */
static uint32_t lex_punct(lex_state *lx, const char *p, const char *end,
                          size_t *len)
{
    char a = p[0], b = p + 1 < end ? p[1] : '\0';
    uint32_t dg;
    int two = 0;

    if ((b == '%' || b == ':' || b == '>') &&
        (a == '<' || a == '%' || a == ':') &&
        (dg = lex_digraph(lx, p, end, len)) != 0) {
        lx->digraphs++;
        return dg;
    }
    switch (a) {
    case '-': two = b == '>' || b == '-' || b == '='; break;
    case '+': two = b == '+' || b == '='; break;
    case '<': two = b == '<' || b == '='; break;
    case '>': two = b == '>' || b == '='; break;
    case '&': two = b == '&' || b == '='; break;
    case '|': two = b == '|' || b == '='; break;
    case ':': two = b == ':'; break;
    case '#': two = b == '#'; break;
    case '=': case '!': case '*': case '/': case '%': case '^':
        two = b == '=';
        break;
    case '?':
        /* ??< ??> ??( ... are trigraphs; compilers read them only with
         * -trigraphs (and C23 removed them): counted for the notes. */
        if (b == '?' && p + 2 < end && strchr("=/'()!<>-", p[2]) &&
            p[2] != '\0' && !lx->bad_trigraphs++)
            lx->bad_trigraph_line = lx->line;
        break;
    default:
        break;
    }
    *len = two ? 2 : 1;
    return two ? LEX_P2(a, b) : (uint32_t)(unsigned char)a;
}

/* Skip blanks, newlines, continuations and comments.  Returns the first
 * byte of the next token, or NULL when a token was already produced in
 * *tok (a directive end, or a comment with LEX_F_COMMENTS). */
static const char *lex_skip(lex_state *lx, const char *p, lex_token *tok)
{
    const char *end = lx->end, *s;
    size_t n;

    while (p < end) {
        unsigned char c = (unsigned char)*p;

        if (LEX_IS(c, LC_SPACE)) {
            if (p < lx->stop)
                while (LEX_IS(*++p, LC_SPACE))
                    ;
            else
                p++;
        } else if (c == '\n') {
            if (lx->in_pp)
                return p;             /* lex_next emits LEX_PP_END */
            lex_newline(lx, p);
            lx->at_bol = 1;
            p++;
        } else if (c == '\\' && (n = lex_splice(p, end)) != 0) {
            p += n;
            lex_newline(lx, p - 1);
        } else if (c == '/' && p + 1 < end && (p[1] == '*' || p[1] == '/')) {
            tok->line = lx->line;
            tok->column = (uint32_t)(p - lx->line_start) + 1;
            s = p;
            p = p[1] == '*' ? lex_block_comment(lx, p)
                            : lex_line_comment(lx, p);
            if (lx->flags & LEX_F_COMMENTS) {
                tok->kind = LEX_COMMENT;
                tok->start = s;
                tok->len = (size_t)(p - s);
                lx->p = p;
                return NULL;
            }
        } else {
            break;
        }
    }
    return p;
}

void lex_next(lex_state *lx, lex_token *tok)
{
    const char *p, *q, *end = lx->end;
    int bol, spliced = 0;
    unsigned char c;

    tok->punct = 0;
    tok->spliced = 0;
    p = lex_skip(lx, lx->p, tok);
    if (!p)
        return;
    tok->start = p;
    tok->line = lx->line;
    tok->column = (uint32_t)(p - lx->line_start) + 1;
    tok->len = 0;
    if (p >= end || *p == '\n') {
        /* End of a directive line, or of the input. */
        tok->kind = lx->in_pp ? LEX_PP_END : LEX_EOF;
        lx->in_pp = 0;
        lx->p = p;
        return;
    }
    bol = lx->at_bol;
    lx->at_bol = 0;
    c = (unsigned char)*p;
    if (LEX_IS(c, LC_IDST)) {
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
    } else if (LEX_IS(c, LC_DIGIT) ||
               (c == '.' && p + 1 < end && LEX_IS(p[1], LC_DIGIT))) {
        q = lex_number(lx, p, &spliced);
        tok->kind = LEX_NUMBER;
    } else if (c == '"' || c == '\'') {
        q = lex_quoted(lx, p + 1, (char)c, &spliced);
        tok->kind = c == '"' ? LEX_STRING : LEX_CHAR;
    } else if ((c == '#' || (c == '%' && p + 1 < end && p[1] == ':' &&
                             !(p + 3 < end && p[2] == '%' && p[3] == ':'))) &&
               bol && !lx->in_pp) {
        q = p + (c == '#' ? 1 : 2);   /* # or its digraph %: */
        lx->digraphs += c == '%';
        tok->kind = LEX_PP_BEGIN;
        tok->punct = '#';
        lx->in_pp = 1;
    } else if (LEX_IS(c, LC_PUNCT)) {
        size_t n;

        tok->punct = lex_punct(lx, p, end, &n);
        tok->kind = LEX_PUNCT;
        q = p + n;
    } else {
        q = p + 1;
        tok->kind = LEX_OTHER;
        if (!lx->in_pp && !lx->other_bytes++)
            lx->other_line = lx->line;
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
