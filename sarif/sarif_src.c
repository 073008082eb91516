/*
 * sarif_src.c: the bytes of a SARIF log, plain or gzip (RFC 1952, told by
 * its magic 1f 8b), read a chunk at a time and as often as the import
 * needs (sarif_log.h).  A gzip log is inflated as it is read, so memory
 * does not grow with the log; what it inflates to is counted against the
 * caller's bound on every pass.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "pd_error.h"
#include "sarif_log.h"

#define SS_IN 65536      /* bytes of a file read at a time */

struct sarif_src {
    const unsigned char *mem;  /* the log in memory, or NULL */
    size_t mem_len;
    FILE *f;                   /* or the log in a seekable file */
    long f_start;              /* where the log starts in f */
    size_t max;                /* bound on the (inflated) bytes */
    size_t out;                /* (inflated) bytes handed out this pass */
    int gzip, zinit, zend;     /* gzip: inflating; zend: stream ended */
    int too_big;
    z_stream zs;
    unsigned char in[SS_IN];   /* file bytes read ahead (gzip or not) */
    size_t in_len, in_pos;
    size_t mem_pos;
};

/* The first bytes of the log: gzip magic or not.  0 or PD_EIO. */
static int ss_sniff(sarif_src *s)
{
    unsigned char b[2] = {0, 0};
    size_t n;

    if (s->mem) {
        s->gzip = s->mem_len >= 2 && s->mem[0] == 0x1f && s->mem[1] == 0x8b;
        return 0;
    }
    n = fread(b, 1, 2, s->f);
    if (ferror(s->f))
        return pd_error_set(PD_EIO, "cannot read the SARIF log");
    s->gzip = n == 2 && b[0] == 0x1f && b[1] == 0x8b;
    return sarif_src_rewind(s);
}

static sarif_src *ss_new(size_t max)
{
    sarif_src *s = calloc(1, sizeof(*s));

    if (s)
        s->max = max;
    return s;
}

int sarif_src_mem(sarif_src **out, const void *buf, size_t len, size_t max)
{
    sarif_src *s = ss_new(max);

    *out = NULL;
    if (!s)
        return pd_error_nomem(NULL);
    s->mem = buf;
    s->mem_len = len;
    ss_sniff(s);
    *out = s;
    return 0;
}

int sarif_src_file(sarif_src **out, FILE *f, size_t max)
{
    sarif_src *s = ss_new(max);
    int rc;

    *out = NULL;
    if (!s)
        return pd_error_nomem(NULL);
    s->f = f;
    if ((s->f_start = ftell(f)) < 0) {
        free(s);
        return pd_error_set(PD_EIO, "the SARIF log is not a seekable file");
    }
    if ((rc = ss_sniff(s)) < 0) {
        free(s);
        return rc;
    }
    *out = s;
    return 0;
}

int sarif_src_rewind(sarif_src *s)
{
    if (s->zinit)
        inflateEnd(&s->zs);
    s->zinit = s->zend = 0;
    s->out = s->mem_pos = s->in_len = s->in_pos = 0;
    s->too_big = 0;
    if (s->f && fseek(s->f, s->f_start, SEEK_SET) != 0)
        return pd_error_set(PD_EIO, "cannot read the SARIF log again");
    return 0;
}

/* More input for inflate (or for plain reading of a file).  0 or PD_EIO. */
static int ss_fill(sarif_src *s)
{
    if (s->in_pos < s->in_len)
        return 0;
    s->in_pos = 0;
    s->in_len = fread(s->in, 1, sizeof(s->in), s->f);
    if (ferror(s->f))
        return pd_error_set(PD_EIO, "cannot read the SARIF log");
    return 0;
}

/* Inflate into buf; *got 0 at the end of the gzip stream. */
static int ss_inflate(sarif_src *s, char *buf, size_t cap, size_t *got)
{
    int zrc, rc;

    if (!s->zinit) {
        memset(&s->zs, 0, sizeof(s->zs));
        if (inflateInit2(&s->zs, 15 + 16) != Z_OK)   /* 16: the gzip wrapper */
            return pd_error_set(PD_ENOMEM, "zlib could not start inflating");
        s->zinit = 1;
    }
    s->zs.next_out = (Bytef *)buf;
    s->zs.avail_out = (uInt)cap;
    while (!s->zend && s->zs.avail_out == cap) {
        if (s->zs.avail_in == 0) {
            if (s->mem) {
                size_t n = s->mem_len - s->mem_pos;

                n = n > UINT_MAX / 2 ? UINT_MAX / 2 : n;
                s->zs.next_in = (Bytef *)s->mem + s->mem_pos;
                s->zs.avail_in = (uInt)n;
                s->mem_pos += n;
            } else {
                if ((rc = ss_fill(s)) < 0)
                    return rc;
                s->zs.next_in = s->in;
                s->zs.avail_in = (uInt)s->in_len;
                s->in_pos = s->in_len;
            }
        }
        zrc = inflate(&s->zs, Z_NO_FLUSH);
        if (zrc == Z_STREAM_END)
            s->zend = 1;
        else if (zrc != Z_OK && !(zrc == Z_BUF_ERROR && s->zs.avail_in))
            return pd_error_set(PD_EINVAL, "the gzip body is corrupt or truncated (%s)",
                                s->zs.msg ? s->zs.msg : "unexpected end");
    }
    *got = cap - s->zs.avail_out;
    return 0;
}

int sarif_src_read(sarif_src *s, char *buf, size_t cap, size_t *got)
{
    int rc = 0;

    *got = 0;
    if (cap > UINT_MAX)
        cap = UINT_MAX;
    if (s->gzip) {
        rc = ss_inflate(s, buf, cap, got);
    } else if (s->mem) {
        *got = s->mem_len - s->mem_pos < cap ? s->mem_len - s->mem_pos : cap;
        memcpy(buf, s->mem + s->mem_pos, *got);
        s->mem_pos += *got;
    } else if ((rc = ss_fill(s)) == 0) {
        *got = s->in_len - s->in_pos < cap ? s->in_len - s->in_pos : cap;
        memcpy(buf, s->in + s->in_pos, *got);
        s->in_pos += *got;
    }
    if (rc < 0)
        return rc;
    s->out += *got;
    if (s->out > s->max) {
        s->too_big = 1;
        return pd_error_set(PD_EINVAL, s->gzip ? "the gzip body inflates to more than "
                            "%zu bytes" : "the log is larger than %zu bytes", s->max);
    }
    return 0;
}

int sarif_src_too_big(const sarif_src *s)
{
    return s && s->too_big;
}

void sarif_src_free(sarif_src *s)
{
    if (!s)
        return;
    if (s->zinit)
        inflateEnd(&s->zs);
    free(s);
}
