/*
 * pd_escape.c: repository text escaped per output kind (see pd_escape.h).
 */
#include <string.h>

#include "pd_escape.h"
#include "pd_utf8.h"

/* The code point of the n-byte UTF-8 character at s. */
static unsigned pe_cp(const unsigned char *s, size_t n)
{
    if (n == 1)
        return s[0];
    if (n == 2)
        return (unsigned)(s[0] & 0x1F) << 6 | (s[1] & 0x3F);
    if (n == 3)
        return (unsigned)(s[0] & 0x0F) << 12 | (unsigned)(s[1] & 0x3F) << 6 | (s[2] & 0x3F);
    return (unsigned)(s[0] & 0x07) << 18 | (unsigned)(s[1] & 0x3F) << 12 |
           (unsigned)(s[2] & 0x3F) << 6 | (s[3] & 0x3F);
}

/* 1 if code point c is shown as <U+XXXX> (pd_escape.h lists them). */
static int pe_hidden(unsigned c)
{
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x061C ||
           (c >= 0x200B && c <= 0x200F) || (c >= 0x2028 && c <= 0x202E) ||
           (c >= 0x2060 && c <= 0x2064) || (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

/*
 * Walk s a character at a time: a visible character goes to put(f, s, n,
 * arg) as its bytes, a hidden one or a byte that is not UTF-8 is written
 * as its visible form directly, the hidden one by printf format `hidden`
 * (of its code point).  "<U+XXXX>" and "\xHH" need no escape in Markdown or
 * CSV (no quote, no '|'; in Markdown "<U+" cannot open a tag, whose name is
 * letters, digits and '-' (CommonMark section 6.6), nor an autolink, which
 * needs a scheme and ':'); XML gives its own form of "<U+XXXX>".
 */
static void pe_walk_form(FILE *f, const char *s,
                         void (*put)(FILE *, const char *, size_t, int), int arg,
                         const char *hidden)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len = s ? strlen(s) : 0, i = 0, n;

    while (i < len) {
        if (!(n = pd_utf8_len(p + i, len - i))) {
            fprintf(f, "\\x%02X", p[i]);
            i++;
            continue;
        }
        if (pe_hidden(pe_cp(p + i, n))) {
            fprintf(f, hidden, pe_cp(p + i, n));
        } else {
            put(f, s + i, n, arg);
        }
        i += n;
    }
}

static void pe_walk(FILE *f, const char *s, void (*put)(FILE *, const char *, size_t, int),
                    int arg)
{
    pe_walk_form(f, s, put, arg, "<U+%04X>");
}

static void pe_put_plain(FILE *f, const char *s, size_t n, int arg)
{
    fwrite(s, 1, n, f);
}

void pd_esc_visible(FILE *f, const char *s)
{
    pe_walk(f, s, pe_put_plain, 0);
}

/* Markdown text: ASCII punctuation escaped. */
static void pe_put_md(FILE *f, const char *s, size_t n, int arg)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];

        if (c < 0x80 && strchr("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", c) && c)
            fputc('\\', f);
        fputc(c, f);
    }
}

void pd_esc_md_text(FILE *f, const char *s)
{
    pe_walk(f, s, pe_put_md, 0);
}

/* Code span content: as is, but '|' escaped in a table cell. */
static void pe_put_code(FILE *f, const char *s, size_t n, int in_table)
{
    for (size_t i = 0; i < n; i++) {
        if (in_table && s[i] == '|')
            fputc('\\', f);
        fputc(s[i], f);
    }
}

void pd_esc_md_code(FILE *f, const char *s, int in_table)
{
    size_t run = 0, longest = 0, len = s ? strlen(s) : 0, i;
    int pad;

    for (i = 0; i < len; i++) {
        run = s[i] == '`' ? run + 1 : 0;
        longest = run > longest ? run : longest;
    }
    /* An empty span is not a span ("``"): a space shows as nothing. */
    pad = !len || s[0] == '`' || s[len - 1] == '`' || s[0] == ' ' || s[len - 1] == ' ';
    for (i = 0; i <= longest; i++)
        fputc('`', f);
    if (pad)
        fputc(' ', f);
    pe_walk(f, s, pe_put_code, in_table);
    if (pad)
        fputc(' ', f);
    for (i = 0; i <= longest; i++)
        fputc('`', f);
}

/* CSV field content: quotes doubled. */
static void pe_put_csv(FILE *f, const char *s, size_t n, int arg)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"')
            fputc('"', f);
        fputc(s[i], f);
    }
}

void pd_esc_csv(FILE *f, const char *s)
{
    fputc('"', f);
    /* = + - @ start a formula; TAB and CR before them are skipped by some
     * spreadsheets, but they are shown as <U+0009> / <U+000D> here. */
    if (s && strchr("=+-@", *s) && *s)
        fputc('\'', f);
    pe_walk(f, s, pe_put_csv, 0);
    fputc('"', f);
}

/* XML character data and attribute values: the five markup characters as
 * entities. */
static void pe_put_xml(FILE *f, const char *s, size_t n, int arg)
{
    for (size_t i = 0; i < n; i++) {
        switch (s[i]) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&apos;", f); break;
        default: fputc(s[i], f);
        }
    }
}

void pd_esc_xml(FILE *f, const char *s)
{
    pe_walk_form(f, s, pe_put_xml, 0, "&lt;U+%04X&gt;");
}
