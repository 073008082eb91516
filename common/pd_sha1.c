/*
 * pd_sha1.c: SHA-1 as FIPS 180-4 section 6.1 describes it (see pd_sha1.h).
 */
#include <stdio.h>
#include <string.h>

#include "pd_sha1.h"

static uint32_t pd_rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

/* One 64-byte block into the state. */
static void pd_sha1_block(uint32_t h[5], const unsigned char *p)
{
    uint32_t w[80], a, b, c, d, e, f, k, t;
    int i;

    for (i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (i = 16; i < 80; i++)
        w[i] = pd_rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (i = 0; i < 80; i++) {
        if (i < 20)
            f = (b & c) | (~b & d), k = 0x5a827999u;
        else if (i < 40)
            f = b ^ c ^ d, k = 0x6ed9eba1u;
        else if (i < 60)
            f = (b & c) | (b & d) | (c & d), k = 0x8f1bbcdcu;
        else
            f = b ^ c ^ d, k = 0xca62c1d6u;
        t = pd_rol(a, 5) + f + e + k + w[i];
        e = d, d = c, c = pd_rol(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
}

void pd_sha1_init(pd_sha1 *s)
{
    static const uint32_t iv[5] = {0x67452301u, 0xefcdab89u, 0x98badcfeu,
                                   0x10325476u, 0xc3d2e1f0u};

    memcpy(s->h, iv, sizeof(iv));
    s->len = 0;
    s->nbuf = 0;
}

void pd_sha1_update(pd_sha1 *s, const void *p, size_t n)
{
    const unsigned char *q = p;

    s->len += n;
    if (s->nbuf) {
        size_t k = 64 - s->nbuf < n ? 64 - s->nbuf : n;

        memcpy(s->buf + s->nbuf, q, k);
        s->nbuf += k, q += k, n -= k;
        if (s->nbuf < 64)
            return;
        pd_sha1_block(s->h, s->buf);
        s->nbuf = 0;
    }
    for (; n >= 64; q += 64, n -= 64)
        pd_sha1_block(s->h, q);
    if (n)
        memcpy(s->buf, q, n);
    s->nbuf = n;
}

void pd_sha1_final(pd_sha1 *s, unsigned char out[20])
{
    uint64_t bits = s->len * 8;
    unsigned char pad[72] = {0x80};
    size_t npad = (s->nbuf < 56 ? 56 : 120) - s->nbuf;
    int i;

    for (i = 0; i < 8; i++)
        pad[npad + i] = (unsigned char)(bits >> (56 - 8 * i));
    pd_sha1_update(s, pad, npad + 8);
    for (i = 0; i < 20; i++)
        out[i] = (unsigned char)(s->h[i / 4] >> (24 - 8 * (i % 4)));
}

void pd_sha1_blob_hex(char hex[41], const void *a, size_t alen,
                      const void *b, size_t blen)
{
    static const char digits[] = "0123456789abcdef";
    char head[32];
    unsigned char d[20];
    pd_sha1 s;
    int n = snprintf(head, sizeof(head), "blob %zu", alen + blen), i;

    pd_sha1_init(&s);
    pd_sha1_update(&s, head, (size_t)n + 1);    /* with its NUL */
    pd_sha1_update(&s, a, alen);
    if (blen)
        pd_sha1_update(&s, b, blen);
    pd_sha1_final(&s, d);
    for (i = 0; i < 20; i++) {
        hex[2 * i] = digits[d[i] >> 4];
        hex[2 * i + 1] = digits[d[i] & 15];
    }
    hex[40] = '\0';
}
