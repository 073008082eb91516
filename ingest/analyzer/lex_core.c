/*
 * lex_core.c: the tolerant C/C++ lexer (see lex.h) but for its step: the
 * byte tables, lex_init, the rarer paths the inline step of lex_fast.h
 * calls (comments, literals, numbers, digraphs; see lex_int.h), a token's
 * text and the line count.  The step, lex_next, is lex_step.c.
 *
 * One forward pass over the bytes.  The common cases (blanks, identifiers,
 * punctuators) go through a byte-class table; continuations, comments and
 * literals take short slow paths.  Nothing here recurses or allocates, so
 * neither deep nesting nor huge inputs can hurt.
 */
#include <pthread.h>
#include <string.h>

#include "lex_int.h"

/* The byte tables of lex_int.h. */
unsigned char lex_cls[256];
unsigned char lex_kind_of[256];
uint16_t lex_sb[256], lex_two[256], lex_dg[256];
static pthread_once_t lex_cls_once = PTHREAD_ONCE_INIT;

/* Fill the class table; run once through pthread_once(). */
static void lex_cls_fill(void)
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

void lex_tables_init(void)
{
    pthread_once(&lex_cls_once, lex_cls_fill);
}

void lex_init(lex_state *lx, const char *buf, size_t len, unsigned flags)
{
    lex_tables_init();
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

    /* From star to star by memchr, the newlines between counted by memchr
     * too: a comment is mostly text (a byte loop was 3 % of the lexing of
     * plain C files, issue 26). */
    for (p += 2; p < end;) {
        const char *star = memchr(p, '*', (size_t)(end - p));
        const char *lim = star ? star : end, *nl;

        while ((nl = memchr(p, '\n', (size_t)(lim - p))) != NULL) {
            lex_newline(lx, nl);
            p = nl + 1;
        }
        if (!star)
            break;
        if (star + 1 < end && star[1] == '/')
            return star + 2;
        p = star + 1;
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
LEX_COLD const char *lex_quoted(lex_state *lx, const char *p, char quote,
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
LEX_COLD const char *lex_raw_string(lex_state *lx, const char *q)
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


/* Scan a preprocessing number starting at p; returns the byte after it. */
LEX_COLD const char *lex_number(lex_state *lx, const char *p, int *spliced)
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
LEX_COLD uint32_t lex_digraph(const lex_state *lx, const char *p,
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


/* A comment opened at p: skipped, or returned in *tok with
 * LEX_F_COMMENTS.  Returns the byte after it, or NULL when *tok holds it. */
LEX_COLD const char *lex_comment(lex_state *lx, const char *p,
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
    tok->tmpl_tok = 0;
    tok->start = s;
    tok->len = (size_t)(p - s);
    lx->p = p;
    return NULL;
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
