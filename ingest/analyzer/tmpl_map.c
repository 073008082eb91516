/*
 * tmpl_map.c: the line tables of an expansion and the map from its
 * positions back to the file (tmpl.h), shared by numpy's templates
 * (tmpl.c) and the functions a macro of the file makes (mexp.c).
 */
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "pd_error.h"
#include "pd_malloc.h"
#include "tmpl.h"

/* Grow *p (elements of sz) to hold n; 0 or PD_ENOMEM. */
static int tml_grow(void **p, size_t *cap, size_t n, size_t sz)
{
    return pd_grow(p, cap, n, sz, 16, "expanding");
}

/* Each newline gives the offset after it, a last one too.  The newlines
 * of 16 bytes at a time by one compare (SSE2, x86-64's baseline): numpy's
 * expansions have a line every 25 bytes, and memchr's call per line was
 * 23 M instructions of numpy/core's 13 MB of templates (issue 26).
 * tests/unit/test_tmpl_lines.c holds it to a byte-wise scan. */
int tmpl_lines(uint32_t **out, size_t *nout, const char *s, size_t n)
{
    size_t cap = 0, cnt = 1, i = 0;
    uint32_t *o;

    *out = NULL;
    if (tml_grow((void **)out, &cap, 64, sizeof(**out)))
        return PD_ENOMEM;
    o = *out;
    o[0] = 0;
#ifdef __SSE2__
    {
        const __m128i nl = _mm_set1_epi8('\n');

        for (; i + 16 <= n; i += 16) {
            unsigned m = (unsigned)_mm_movemask_epi8(
                _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(const void *)(s + i)), nl));

            if (!m)
                continue;
            if (cnt + 16 > cap) {
                if (tml_grow((void **)out, &cap, cnt + 16, sizeof(**out)))
                    return PD_ENOMEM;
                o = *out;
            }
            do {
                o[cnt++] = (uint32_t)(i + (size_t)__builtin_ctz(m) + 1);
                m &= m - 1;
            } while (m);
        }
    }
#endif
    for (; i < n; i++) {
        if (s[i] != '\n')
            continue;
        if (cnt == cap) {
            if (tml_grow((void **)out, &cap, cnt + 1, sizeof(**out)))
                return PD_ENOMEM;
            o = *out;
        }
        o[cnt++] = (uint32_t)(i + 1);
    }
    *nout = cnt;
    return 0;
}

/* 0-based index of the last line start <= off in lines[0..n). */
size_t tmpl_line_of(const uint32_t *lines, size_t n, size_t off)
{
    size_t lo = 0, hi = n;

    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;

        if (lines[mid] <= off)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* The last index i of n ascending uint32 keys, the first at base and one
 * every `stride` bytes, whose key is <= x (the first key is <= x),
 * searched from *hint outward, doubling the step, then by halves; *hint
 * gets i.  Positions mapped one after another lie near each other: a
 * binary search over a numpy expansion's 166,000 segments for each of
 * its findings was 12 M instructions of numpy/core's templates. */
static size_t tm_near(const void *base, size_t stride, size_t n, size_t x,
                      size_t *hint)
{
#define TM_KEY(i) (*(const uint32_t *)(const void *)((const char *)base + (i) * stride))
    size_t h = *hint < n ? *hint : n - 1, lo = h, hi = h + 1, step;

    if (TM_KEY(h) <= x) {
        for (step = 1; hi < n && TM_KEY(hi) <= x; step *= 2) {
            lo = hi;
            hi = lo + step;
        }
        if (hi > n)
            hi = n;
    } else {
        for (step = 1; lo > 0; step *= 2) {
            hi = lo;
            lo = lo > step ? lo - step : 0;
            if (TM_KEY(lo) <= x)
                break;
        }
    }
    while (hi - lo > 1) {                  /* key(lo) <= x < key(hi) */
        size_t mid = lo + (hi - lo) / 2;

        if (TM_KEY(mid) <= x)
            lo = mid;
        else
            hi = mid;
    }
#undef TM_KEY
    *hint = lo;
    return lo;
}

void tmpl_map(const tmpl_out *t, uint32_t line, uint32_t column,
              uint32_t *out_line, uint32_t *out_column)
{
    tmpl_near near = {0, 0};

    tmpl_map_near(t, &near, line, column, out_line, out_column);
}

void tmpl_map_near(const tmpl_out *t, tmpl_near *near, uint32_t line,
                   uint32_t column, uint32_t *out_line, uint32_t *out_column)
{
    size_t off, src, l;
    const tmpl_seg *g;

    l = line > 0 ? line - 1 : 0;
    if (l >= t->nexp_lines)
        l = t->nexp_lines - 1;
    off = (size_t)t->exp_lines[l] + (column > 0 ? column - 1 : 0);
    if (t->nsegs == 0 || t->nsrc_lines == 0) {
        *out_line = line;
        *out_column = column;
        return;
    }
    /* the last segment starting <= off (the first starts at 0) */
    g = &t->segs[tm_near(&t->segs[0].exp_off, sizeof(*t->segs), t->nsegs, off,
                         &near->seg)];
    src = g->src_off;
    if (!g->subst)
        src += off - g->exp_off < g->len ? off - g->exp_off
                                         : (g->len ? g->len - 1 : 0);
    l = tm_near(t->src_lines, sizeof(*t->src_lines), t->nsrc_lines, src, &near->line);
    *out_line = (uint32_t)l + 1;
    *out_column = (uint32_t)(src - t->src_lines[l]) + 1;
}

uint32_t tmpl_map_line(const tmpl_out *t, tmpl_near *near, uint32_t line)
{
    size_t l = line > 0 ? line - 1 : 0, a, p, e;
    uint32_t out, column;

    if (l >= t->nexp_lines)
        l = t->nexp_lines - 1;
    a = t->exp_lines[l];
    e = l + 1 < t->nexp_lines ? t->exp_lines[l + 1] : t->len;
    for (p = a; p < e && (t->text[p] == ' ' || t->text[p] == '\t'); p++)
        ;
    if (p == e || t->text[p] == '\n' || t->text[p] == '\r')
        p = a;                        /* all blank: its start */
    tmpl_map_near(t, near, line, (uint32_t)(p - a) + 1, &out, &column);
    return out;
}

void tmpl_free(tmpl_out *t)
{
    if (!t)
        return;
    free(t->text);
    free(t->segs);
    free(t->exp_lines);
    free(t->src_lines);
    free(t->bodies);
    free(t);
}
