/*
 * tmpl.c: numpy template expansion with a byte map back to the template
 * (see tmpl.h for the semantics and limits).
 *
 * The expansion is written into one growing buffer; every piece of it is
 * recorded as a segment (copied from the template, or the value of a
 * substitution).  Loop bindings live on one stack, outermost first, so a
 * lookup that takes the first match gives numpy's "outer loop wins".
 * Nothing recurses deeper than the nesting limit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "tmpl.h"

#define TM_MAXLEVEL 8
_Static_assert(TM_MAXLEVEL < 10, "tm_level writes the level as one digit");
#define TM_NONE ((size_t)-1)

/* One name bound to a value for the current instance. */
typedef struct {
    const char *name, *val;
    size_t nlen, vlen;
} tm_bind;

typedef struct {
    const char *src;
    size_t srclen, limit, cap_text, cap_segs;
    tmpl_out *o;
    int rc;                 /* 0, PD_ENOMEM, or 1: too large */
    tm_bind *env;           /* outermost first */
    size_t nenv, capenv;
} tm_state;

/* One parsed loop header: names and, per name, its values, all pointing
 * into buf. */
typedef struct {
    char *buf;
    size_t len, cap;
    size_t nnames, ninst;
    struct tm_name { size_t off, len, first; } *names;
    struct tm_val { size_t off, len; } *vals;
    size_t nvals, capvals, capnames;
} tm_head;

/* Grow *p (elements of sz) to hold n; 0 or PD_ENOMEM. */
static int tm_grow(void **p, size_t *cap, size_t n, size_t sz)
{
    size_t c = *cap ? *cap : 16;
    void *q;

    if (n <= *cap)
        return 0;
    while (c < n)
        c *= 2;
    if (!(q = realloc(*p, c * sz)))
        return pd_error_nomem("expanding template");
    *p = q;
    *cap = c;
    return 0;
}

/* Offset of the first `pat` in src[from..end), or TM_NONE. */
static size_t tm_find(const char *src, size_t from, size_t end,
                      const char *pat)
{
    size_t m = strlen(pat);
    const char *hit;

    if (from > end || end - from < m)
        return TM_NONE;
    hit = memmem(src + from, end - from, pat, m);
    return hit ? (size_t)(hit - src) : TM_NONE;
}

/* Append text[0..n) mapped to src_off (subst) or copied from src_off. */
static void tm_emit(tm_state *st, const char *text, size_t n,
                    size_t src_off, int subst)
{
    tmpl_out *o = st->o;
    tmpl_seg *last = o->nsegs ? &o->segs[o->nsegs - 1] : NULL;

    if (st->rc || n == 0)
        return;
    if (o->len + n > st->limit) {
        st->rc = 1;
        return;
    }
    if ((st->rc = tm_grow((void **)&o->text, &st->cap_text, o->len + n, 1)))
        return;
    memcpy(o->text + o->len, text, n);
    if (last && !subst && !last->subst &&
        last->src_off + last->len == src_off &&
        last->exp_off + last->len == o->len) {
        last->len += (uint32_t)n;
    } else {
        if ((st->rc = tm_grow((void **)&o->segs, &st->cap_segs, o->nsegs + 1,
                              sizeof(*o->segs))))
            return;
        last = &o->segs[o->nsegs++];
        last->exp_off = (uint32_t)o->len;
        last->src_off = (uint32_t)src_off;
        last->len = (uint32_t)n;
        last->subst = (uint32_t)subst;
    }
    o->len += n;
}

static int tm_word(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c == '_';
}

/* Emit src[a..b) with every `@name@` replaced by its binding. */
static void tm_subst(tm_state *st, size_t a, size_t b)
{
    const char *s = st->src;
    size_t p = a, q, i;

    while (p < b && !st->rc) {
        const char *at = memchr(s + p, '@', b - p);
        size_t k, n;

        if (!at) {
            tm_emit(st, s + p, b - p, p, 0);
            return;
        }
        k = (size_t)(at - s);
        for (q = k + 1; q < b && tm_word((unsigned char)s[q]); q++)
            ;
        if (q == k + 1 || q >= b || s[q] != '@') {
            tm_emit(st, s + p, q - p, p, 0);   /* no match starting at k */
            p = q;
            continue;
        }
        tm_emit(st, s + p, k - p, p, 0);
        n = q - k - 1;
        for (i = 0; i < st->nenv; i++)
            if (st->env[i].nlen == n && memcmp(st->env[i].name, s + k + 1, n) == 0)
                break;
        if (i < st->nenv) {
            tm_emit(st, st->env[i].val, st->env[i].vlen, k, 1);
            p = q + 1;
        } else {
            st->o->unknown_names++;
            tm_emit(st, s + k, q - k, k, 0);   /* the closing '@' may open */
            p = q;
        }
    }
}

/* Append text to the header buffer; 0 or PD_ENOMEM. */
static int tm_put(tm_head *h, const char *s, size_t n)
{
    if (tm_grow((void **)&h->buf, &h->cap, h->len + n + 1, 1))
        return PD_ENOMEM;
    memcpy(h->buf + h->len, s, n);
    h->len += n;
    return 0;
}

/* Put s[0..n) repeated `times` times, ','-separated (numpy's paren_repl);
 * 1 when that would pass `limit` bytes, else 0 or PD_ENOMEM. */
static int tm_repeat(tm_head *h, const char *s, size_t n, size_t times,
                     size_t limit)
{
    size_t i;

    if (times > limit || (n + 1) * times > limit)
        return 1;
    for (i = 0; i < times; i++)
        if ((i && tm_put(h, ",", 1)) || tm_put(h, s, n))
            return PD_ENOMEM;
    return 0;
}

/* Read `*digits` at s[i..n): the count, and *after the index past it;
 * TM_NONE when there is none.  Counts saturate. */
static size_t tm_count(const char *s, size_t i, size_t n, size_t *after)
{
    size_t v = 0;

    if (i + 1 >= n || s[i] != '*' || s[i + 1] < '0' || s[i + 1] > '9')
        return TM_NONE;
    for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
        v = v > 100000000 ? v : v * 10 + (size_t)(s[i] - '0');
    *after = i;
    return v;
}

/* numpy's `\(([^)]*)\)\*(\d+)` substitution of s[0..n), into h. */
static int tm_parens(tm_head *h, const char *s, size_t n, size_t limit)
{
    size_t p = 0, i, j, times, after;
    int rc;

    for (i = 0; i < n; i++) {
        const char *cl;

        if (s[i] != '(' || !(cl = memchr(s + i + 1, ')', n - i - 1)))
            continue;
        j = (size_t)(cl - s);
        if ((times = tm_count(s, j + 1, n, &after)) == TM_NONE)
            continue;
        if (tm_put(h, s + p, i - p))
            return PD_ENOMEM;
        if ((rc = tm_repeat(h, s + i + 1, j - i - 1, times, limit)))
            return rc;
        p = after;
        i = after - 1;
    }
    return tm_put(h, s + p, n - p);
}

/* numpy's `([^*]+)\*(\d+)` substitution of one stripped item, into h. */
static int tm_plain(tm_head *h, const char *s, size_t n, size_t limit)
{
    size_t p = 0, q, times, after;
    int rc;

    while (p < n) {
        if (s[p] == '*') {
            if (tm_put(h, s + p, 1))
                return PD_ENOMEM;
            p++;
            continue;
        }
        for (q = p; q < n && s[q] != '*'; q++)
            ;
        if ((times = tm_count(s, q, n, &after)) == TM_NONE) {
            if (tm_put(h, s + p, q - p))
                return PD_ENOMEM;
            p = q;
            continue;
        }
        if ((rc = tm_repeat(h, s + p, q - p, times, limit)))
            return rc;
        p = after;
    }
    return 0;
}

static int tm_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
           c == '\v';
}

/* Parse the values text v[0..n) of one name into h->vals (numpy's
 * parse_values); returns 0, 1 (too large) or PD_ENOMEM. */
static int tm_values(tm_head *h, const char *v, size_t n, size_t limit)
{
    tm_head tmp = {0};
    size_t a, b, e, start, k;
    int rc;

    if ((rc = tm_parens(&tmp, v, n, limit)))
        goto done;
    start = h->len;
    for (a = 0, k = 0;; a = e + 1, k++) {      /* ','.join(strip, *N) */
        const char *c = a < tmp.len ? memchr(tmp.buf + a, ',', tmp.len - a)
                                    : NULL;

        e = c ? (size_t)(c - tmp.buf) : tmp.len;
        for (b = e; b > a && tm_blank(tmp.buf[b - 1]); b--)
            ;
        while (a < b && tm_blank(tmp.buf[a]))
            a++;
        if (k && (rc = tm_put(h, ",", 1)))
            goto done;
        if ((rc = tm_plain(h, tmp.buf + a, b - a, limit)))
            goto done;
        if (e >= tmp.len)
            break;
    }
    for (a = start; a <= h->len; a = e + 1) {  /* split, no strip */
        const char *c = a < h->len ? memchr(h->buf + a, ',', h->len - a)
                                   : NULL;

        e = c ? (size_t)(c - h->buf) : h->len;
        if ((rc = tm_grow((void **)&h->vals, &h->capvals, h->nvals + 1,
                          sizeof(*h->vals))))
            goto done;
        h->vals[h->nvals].off = a;
        h->vals[h->nvals++].len = e - a;
        if (e == h->len)
            break;
    }
done:
    free(tmp.buf);
    return rc;
}

/* Parse the loop header src[a..b) into h (numpy's parse_loop_header):
 * continuation lines lose "\n", blanks and one '*', then every
 * `#name = values#` is read.  Returns 0, 1 (too large) or PD_ENOMEM. */
static int tm_header(tm_state *st, size_t a, size_t b, tm_head *h)
{
    const char *s = st->src;
    size_t i, j, n, cl, cnt;
    int rc = 0;

    for (i = a; i < b; i++) {
        if (s[i] != '\n') {
            if (tm_put(h, s + i, 1))
                return PD_ENOMEM;
            continue;
        }
        while (i + 1 < b && tm_blank(s[i + 1]))
            i++;
        if (i + 1 < b && s[i + 1] == '*')
            i++;
    }
    cl = h->len;
    for (i = 0; i < cl && !rc; i++) {
        size_t name, nlen, first = h->nvals;
        const char *hash;

        if (h->buf[i] != '#')
            continue;
        for (j = i + 1; j < cl && tm_blank(h->buf[j]); j++)
            ;
        for (name = j; j < cl && tm_word((unsigned char)h->buf[j]); j++)
            ;
        nlen = j - name;
        while (j < cl && tm_blank(h->buf[j]))
            j++;
        if (j >= cl || h->buf[j] != '=' ||
            !(hash = memchr(h->buf + j + 1, '#', cl - j - 1)))
            continue;
        n = (size_t)(hash - h->buf);
        if ((rc = tm_values(h, h->buf + j + 1, n - j - 1, st->limit)) ||
            (rc = tm_grow((void **)&h->names, &h->capnames, h->nnames + 1,
                          sizeof(*h->names))))
            break;
        cnt = h->nvals - first;
        h->names[h->nnames].off = name;
        h->names[h->nnames].len = nlen;
        h->names[h->nnames++].first = first;
        if (h->nnames == 1 || cnt < h->ninst) {
            if (h->nnames > 1)
                st->o->bad_headers++;
            h->ninst = cnt;
        } else if (cnt > h->ninst) {
            st->o->bad_headers++;
        }
        i = n;
    }
    return rc;
}

static void tm_level(tm_state *st, size_t a, size_t b, int level);

/* Expand the loop whose header is src[hs..he) and body src[he..be), once
 * per instance; each instance ends with a newline mapped to be. */
static void tm_loop(tm_state *st, size_t hs, size_t he, size_t be, int level)
{
    tm_head h = {0};
    size_t i, k, base = st->nenv;
    int rc = tm_header(st, hs, he, &h);

    st->o->loops++;
    if (rc) {
        st->rc = rc;
        goto done;
    }
    if (h.nnames == 0) {
        st->o->bad_headers++;
        h.ninst = 1;
    }
    if ((st->rc = tm_grow((void **)&st->env, &st->capenv, base + h.nnames,
                          sizeof(*st->env))))
        goto done;
    for (i = 0; i < h.ninst && !st->rc; i++) {
        for (k = 0; k < h.nnames; k++) {
            tm_bind *e = &st->env[base + k];
            struct tm_val *v = &h.vals[h.names[k].first + i];

            e->name = h.buf + h.names[k].off;
            e->nlen = h.names[k].len;
            e->val = h.buf + v->off;
            e->vlen = v->len;
        }
        st->nenv = base + h.nnames;
        st->o->instances++;
        tm_level(st, he, be, level + 1);
        tm_emit(st, "\n", 1, be, 1);
        st->nenv = base;
    }
done:
    st->nenv = base;
    free(h.buf);
    free(h.names);
    free(h.vals);
}

/* Expand src[a..b) at nesting `level` (numpy's parse_string). */
static void tm_level(tm_state *st, size_t a, size_t b, int level)
{
    char beg[32], end[32];
    size_t ind = a, start, s2, hend, fini, stop;

    if (level > TM_MAXLEVEL) {
        tm_subst(st, a, b);
        return;
    }
    /* The begin and end markers, with the level's digit (1 to 8) after
     * "repeat" from level 1 on; built by hand, as snprintf here was 1.5 %
     * of a numpy/core run (issue 26). */
    memcpy(beg, "/**begin repeat", 16);
    memcpy(end, "/**end repeat", 13);
    if (level > 0) {
        beg[15] = (char)('0' + level);
        beg[16] = '\0';
        end[13] = (char)('0' + level);
        memcpy(end + 14, "**/", 4);
    } else {
        memcpy(end + 13, "**/", 4);
    }
    while (!st->rc && (start = tm_find(st->src, ind, b, beg)) != TM_NONE) {
        if ((s2 = tm_find(st->src, start, b, "*/")) == TM_NONE ||
            (hend = tm_find(st->src, s2, b, "\n")) == TM_NONE ||
            (fini = tm_find(st->src, hend, b, end)) == TM_NONE) {
            if (!st->o->unterminated_line)
                st->o->unterminated_line = (uint32_t)start + 1;  /* offset+1 */
            break;
        }
        stop = tm_find(st->src, fini, b, "\n");
        stop = stop == TM_NONE ? b : stop + 1;
        tm_subst(st, ind, start);
        tm_loop(st, start, hend + 1, fini, level);
        ind = stop;
    }
    tm_subst(st, ind, b);
}

/* Offsets of line starts of s[0..n) into *out (*nout lines). */
static int tm_lines(uint32_t **out, size_t *nout, const char *s, size_t n)
{
    size_t cap = 0, cnt = 0, i = 0;
    const char *p;

    *out = NULL;
    for (;;) {
        if (tm_grow((void **)out, &cap, cnt + 1, sizeof(**out)))
            return PD_ENOMEM;
        (*out)[cnt++] = (uint32_t)i;
        if (i >= n || !(p = memchr(s + i, '\n', n - i)))
            break;
        i = (size_t)(p - s) + 1;
    }
    *nout = cnt;
    return 0;
}

/* 0-based index of the last line start <= off in lines[0..n). */
static size_t tm_line_of(const uint32_t *lines, size_t n, size_t off)
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

int tmpl_expand(tmpl_out **out, int *too_large, const char *buf, size_t len)
{
    tm_state st;
    int rc = 0;

    *out = NULL;
    if (too_large)
        *too_large = 0;
    if (!memmem(buf, len, "/**begin repeat", 15))
        return 0;
    if (len > ((size_t)1 << 28)) {
        if (too_large)
            *too_large = 1;
        return 0;
    }
    memset(&st, 0, sizeof(st));
    st.src = buf;
    st.srclen = len;
    st.limit = 128 * len + ((size_t)4 << 20);
    if (!(st.o = calloc(1, sizeof(*st.o))))
        return pd_error_nomem("expanding template");
    /* numpy's templates expand 5 to 100 times (12 in numpy/core), in
     * segments of a few bytes: sizing both buffers for that up front
     * spares the doublings' copies (realloc was 14 % of a numpy/core run,
     * issue 26); pages never written cost nothing.  At most 16 MiB each
     * ahead (tm_grow rounds up to a power of two): below pd_malloc_keep's
     * mmap threshold, so that the buffers stay in the heap. */
    if ((st.rc = tm_grow((void **)&st.o->text, &st.cap_text,
                         len < ((size_t)1 << 17) ? 128 * len : (size_t)16 << 20, 1)) ||
        (st.rc = tm_grow((void **)&st.o->segs, &st.cap_segs,
                         len < ((size_t)1 << 18) ? 4 * len : (size_t)1 << 20,
                         sizeof(*st.o->segs)))) {
        tmpl_free(st.o);
        return st.rc;
    }
    tm_level(&st, 0, len, 0);
    if (st.rc == 0 &&
        ((rc = tm_lines(&st.o->exp_lines, &st.o->nexp_lines, st.o->text,
                        st.o->len)) ||
         (rc = tm_lines(&st.o->src_lines, &st.o->nsrc_lines, buf, len))))
        st.rc = rc;
    if (st.rc == 0 && st.o->unterminated_line)
        st.o->unterminated_line = (uint32_t)tm_line_of(
            st.o->src_lines, st.o->nsrc_lines, st.o->unterminated_line - 1) + 1;
    free(st.env);
    if (st.rc == 1 && too_large)
        *too_large = 1;
    if (st.rc) {
        tmpl_free(st.o);
        return st.rc == 1 ? 0 : st.rc;
    }
    *out = st.o;
    return 0;
}

void tmpl_map(const tmpl_out *t, uint32_t line, uint32_t column,
              uint32_t *out_line, uint32_t *out_column)
{
    size_t off, lo = 0, hi = t->nsegs, src, l;
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
    while (hi - lo > 1) {                  /* last segment starting <= off */
        size_t mid = lo + (hi - lo) / 2;

        if (t->segs[mid].exp_off <= off)
            lo = mid;
        else
            hi = mid;
    }
    g = &t->segs[lo];
    src = g->src_off;
    if (!g->subst)
        src += off - g->exp_off < g->len ? off - g->exp_off
                                         : (g->len ? g->len - 1 : 0);
    l = tm_line_of(t->src_lines, t->nsrc_lines, src);
    *out_line = (uint32_t)l + 1;
    *out_column = (uint32_t)(src - t->src_lines[l]) + 1;
}

void tmpl_free(tmpl_out *t)
{
    if (!t)
        return;
    free(t->text);
    free(t->segs);
    free(t->exp_lines);
    free(t->src_lines);
    free(t);
}
