/*
 * pd_buf.h: the one growable byte buffer, with a size bound.
 *
 * Appends never fail loudly one by one: the first failure (out of memory,
 * or past the bound) is kept in `err`, with its message in pd_error, and
 * every later append does nothing, so a writer appends freely and checks
 * once at the end.  The contents are NUL-terminated after every append
 * (the NUL is not counted in len nor in the bound).
 */
#ifndef PD_BUF_H
#define PD_BUF_H

#include <stddef.h>
#include <string.h>

typedef struct {
    char *data;       /* NULL until the first append; then NUL-terminated */
    size_t len;       /* bytes held, without the NUL */
    size_t cap;       /* bytes allocated */
    size_t max;       /* bound on len; 0: none */
    int err;          /* 0, PD_ENOMEM or PD_EINVAL (past max); sticky */
} pd_buf;

/* An empty buffer that holds at most `max` bytes (0: no bound); nothing is
 * allocated yet.  The same as zeroing it and setting max. */
void pd_buf_init(pd_buf *b, size_t max);

/*
 * Make room for `n` more bytes (and the NUL) at data + len, for a writer
 * that fills them itself (fread) and then adds n to len... or fewer.
 * 0, or b->err: PD_EINVAL when len + n would pass max (message: "over the
 * limit of MAX bytes"), PD_ENOMEM.  Capacity doubles from 256 bytes.
 */
int pd_buf_reserve(pd_buf *b, size_t n);

/* pd_buf_put's way when the bytes may not fit, or the buffer failed. */
int pd_buf_put_grow(pd_buf *b, const void *p, size_t n);

/* Append `n` bytes at `p`.  0 or b->err (see pd_buf_reserve).  Inline
 * where they fit in the allocation and the bound: writers append a field
 * at a time, 15 million times in an ingest of numpy's multiarray, where
 * the call and the checks cost more than the copy (2.8 % of its
 * instructions, 2026-12-07). */
static inline int pd_buf_put(pd_buf *b, const void *p, size_t n)
{
    /* len + n cannot overflow once it is under cap; the bound is tested
     * as pd_buf_reserve tests it (a bound lowered under len still holds) */
    if (!b->err && n < b->cap - b->len && (!b->max || b->len + n <= b->max)) {
        if (n)
            memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
    }
    return pd_buf_put_grow(b, p, n);
}

/* Append the string `s` without its NUL.  0 or b->err. */
int pd_buf_puts(pd_buf *b, const char *s);

/* Append printf-formatted text.  0 or b->err (PD_EINVAL for a bad format
 * too). */
int pd_buf_printf(pd_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Append `s` as a JSON string (RFC 8259 section 7), escaped byte for byte
 * as jansson's json_dumps escapes it without flags (its dump.c): '"' and
 * '\' with a backslash, \b \f \n \r \t, other bytes below 0x20 as \u00XX
 * (upper-case hex), every other byte as it is.  So a writer that skips
 * jansson's tree still gives jansson's bytes.  `s` is NUL-terminated and
 * valid UTF-8 (the caller checks: jansson refuses other text); NULL is
 * written as "".  0 or b->err.
 */
int pd_buf_json_str(pd_buf *b, const char *s);

/* Empty the buffer, keeping its allocation, bound and err. */
void pd_buf_reset(pd_buf *b);

/*
 * Hand the contents over: a malloc'd NUL-terminated string (free()) of
 * *len bytes (len may be NULL), "" for an empty buffer, or NULL (nothing
 * handed over, the buffer freed) when the buffer had failed or "" cannot be
 * allocated.  The buffer is empty afterwards, its bound kept, err cleared.
 */
char *pd_buf_take(pd_buf *b, size_t *len);

/* Free the contents; the buffer is empty afterwards, its bound kept, err
 * cleared.  Accepts a zeroed buffer. */
void pd_buf_free(pd_buf *b);

#endif
