/*
 * pd_utf8.c: UTF-8 checks and repair (see pd_utf8.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_utf8.h"

/* Eight bytes' high bits: a word of ASCII has none of them set. */
#define PD_UTF8_HIGH 0x8080808080808080ULL

size_t pd_utf8_len(const unsigned char *s, size_t avail)
{
    size_t n, i;

    if (!avail)
        return 0;
    n = s[0] < 0x80 ? 1 : s[0] >= 0xC2 && s[0] <= 0xDF ? 2
        : s[0] >= 0xE0 && s[0] <= 0xEF ? 3 : s[0] >= 0xF0 && s[0] <= 0xF4 ? 4 : 0;
    if (n > avail)
        return 0;
    for (i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* E0 80-9F and F0 80-8F are overlong; ED A0-BF are surrogates; F4 90-
     * passes U+10FFFF (RFC 3629 section 4). */
    if ((n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F))) ||
        (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))))
        return 0;
    return n;
}

int pd_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0, k;

    while (i < n) {
        uint64_t w;

        /* Most text read is ASCII (a cold file page checks 1.2 MB of it,
         * 4 % of its time byte by byte): eight bytes at a time. */
        if (i + 8 <= n && (memcpy(&w, p + i, 8), !(w & PD_UTF8_HIGH))) {
            i += 8;
            continue;
        }
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        if (!(k = pd_utf8_len(p + i, n - i)))
            return 0;
        i += k;
    }
    return 1;
}

char *pd_utf8_repair(const char *s, size_t n, size_t *bad)
{
    return pd_utf8_repair_nul(s, n, bad, NULL);
}

char *pd_utf8_repair_nul(const char *s, size_t n, size_t *bad, size_t *nul)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = n < ((size_t)-1 - 1) / 3 ? malloc(n * 3 + 1) : NULL;
    size_t i = 0, o = 0, k, nbad = 0, nnul = 0;

    if (bad)
        *bad = 0;
    if (nul)
        *nul = 0;
    if (!out)
        return NULL;
    while (i < n) {
        if (nul && p[i] == 0) {
            memcpy(out + o, PD_UTF8_REPLACEMENT, 3);
            o += 3;
            i++;
            nnul++;
        } else if ((k = pd_utf8_len(p + i, n - i))) {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            memcpy(out + o, PD_UTF8_REPLACEMENT, 3);
            o += 3;
            i++;
            nbad++;
        }
    }
    out[o] = '\0';
    if (bad)
        *bad = nbad;
    if (nul)
        *nul = nnul;
    return out;
}
