/*
 * tmpl.c: numpy template expansion with a byte map back to the template
 * (see tmpl.h for the semantics and limits).
 *
 * The template is compiled once into pieces (template runs, placeholders
 * resolved to the loop that binds them, loops), which are then emitted
 * once per instance into one growing buffer; every piece of the expansion
 * is recorded as a segment (copied from the template, or the value of a
 * substitution).  Nothing recurses deeper than the nesting limit.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_malloc.h"
#include "tmpl.h"

#define TM_MAXLEVEL 8
_Static_assert(TM_MAXLEVEL < 10, "tm_level writes the level as one digit");
#define TM_NONE ((size_t)-1)

typedef struct {
    const char *src;
    size_t srclen, limit, cap_text, cap_segs, cap_bodies, cap_lines;
    tmpl_out *o;
    int rc;                 /* 0, PD_ENOMEM, or 1: too large */
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
    return pd_grow(p, cap, n, sz, 16, "expanding template");
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

/* Copy n bytes; up to 32 by two overlapping moves of 8 or 16 bytes (no
 * call: a numpy expansion's segments average 25 bytes). */
static inline void tm_copy(char *d, const char *s, size_t n)
{
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n >= 16) {
        memcpy(d, s, 16);
        memcpy(d + n - 16, s + n - 16, 16);
    } else if (n >= 8) {
        memcpy(d, s, 8);
        memcpy(d + n - 8, s + n - 8, 8);
    } else {
        while (n--)
            *d++ = *s++;
    }
}

/* Append text[0..n) mapped to src_off (subst) or copied from src_off.
 * Inline in the expansion's loop: 540,000 calls for numpy/core, whose
 * entry and exit were a quarter of the expansion's cost (issue 26). */
static inline __attribute__((always_inline)) void tm_emit(tm_state *st, const char *text,
                                                          size_t n, size_t src_off, int subst)
{
    tmpl_out *o = st->o;
    tmpl_seg *last = o->nsegs ? &o->segs[o->nsegs - 1] : NULL;

    if (st->rc || n == 0)
        return;
    if (o->len + n > st->limit) {
        st->rc = 1;
        return;
    }
    if (o->len + n > st->cap_text &&
        (st->rc = tm_grow((void **)&o->text, &st->cap_text, o->len + n, 1)))
        return;
    tm_copy(o->text + o->len, text, n);
    if (last && !subst && !last->subst &&
        last->src_off + last->len == src_off &&
        last->exp_off + last->len == o->len) {
        last->len += (uint32_t)n;
    } else {
        if (o->nsegs == st->cap_segs &&
            (st->rc = tm_grow((void **)&o->segs, &st->cap_segs, o->nsegs + 1,
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
        const char *nl = memchr(s + i, '\n', b - i);

        j = nl ? (size_t)(nl - s) : b;     /* the line's run, put at once */
        if (j > i && tm_put(h, s + i, j - i))
            return PD_ENOMEM;
        if ((i = j) == b)
            break;
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

/*
 * The expansion runs in two steps.  First the template is compiled once:
 * every region's text becomes a list of pieces (a run of template bytes,
 * a placeholder already resolved to the loop and name that bind it, or a
 * loop with its parsed header and its body's own pieces).  Then the pieces
 * are emitted, once per instance.  Where the loops are, what their headers
 * say and which loop binds each `@name@` depend only on the template's
 * bytes and the nesting, never on the values of an instance, so numpy's
 * search for markers, its header parsing and its scan for '@' were the
 * same work for every instance (issue 26: a third of the expansion's
 * instructions).  The emission calls tm_emit with the same pieces in the
 * same order as a direct expansion would, so the text, the segments and
 * the counters are the same (tests/unit/test_analyze_tmpl.c).
 */

enum { TM_LIT, TM_VAR, TM_LOOP };

/* A value where the emission reads it (tm_cloop.text). */
typedef struct {
    const char *s;
    size_t len;
} tm_text;

/* One piece of a region: TM_LIT src[off..off+len) with `aux` unknown
 * names in it, and the template's line starts src_lines[l0..l0+nl) that
 * its newlines make (tm_newlines); TM_VAR the '@' at off, bound by name
 * `len` of the loop at nesting level `aux`, whose values are vals[0..]
 * (the binding loop is known when compiling: one load per value emitted,
 * where the chain from the loop's number through its header was a third
 * of the emission's time, issue 26); TM_LOOP loop number `aux` of the
 * template. */
typedef struct {
    uint32_t kind, off, len, aux;
    union {
        struct { uint32_t l0, nl; } lit;
        const tm_text *vals;
    } u;
} tm_piece;

/* A list of pieces. */
typedef struct {
    tm_piece *v;
    size_t n, cap;
} tm_pieces;

/* One loop: its header, the offset its instances' newline maps to, the
 * bad-header count of one expansion of it, and its body. */
typedef struct {
    tm_head h;
    tm_text *text;          /* h's values as pointers, in h.vals' order */
    size_t be, bad;
    int level;
    tm_pieces body;
} tm_cloop;

/* The compiler's state: the loops (each allocated apart, as a body's
 * pieces grow while inner loops are added), and the static bindings (the
 * loops enclosing the region being compiled, outermost first). */
typedef struct {
    tm_state *st;
    tm_cloop **loops;
    size_t nloops, caploops;
    size_t open[TM_MAXLEVEL + 2];   /* loop numbers by level */
    int nopen;
    size_t cur[TM_MAXLEVEL + 2];    /* instance of each open loop (emitting) */
    size_t segs;                    /* tm_size: segments at most */
    size_t lines;                   /* tm_size: newlines */
} tm_comp;

/* Append a piece (adjacent template runs merge); 0 or PD_ENOMEM. */
static int tm_piece_add(tm_pieces *ps, uint32_t kind, size_t off, size_t len,
                        uint32_t aux)
{
    tm_piece *last = ps->n ? &ps->v[ps->n - 1] : NULL;

    if (kind == TM_LIT && len == 0 && aux == 0)
        return 0;
    if (kind == TM_LIT && last && last->kind == TM_LIT &&
        last->off + last->len == off) {
        last->len += (uint32_t)len;
        last->aux += aux;
        return 0;
    }
    if (tm_grow((void **)&ps->v, &ps->cap, ps->n + 1, sizeof(*ps->v)))
        return PD_ENOMEM;
    memset(&ps->v[ps->n], 0, sizeof(ps->v[ps->n]));
    ps->v[ps->n].kind = kind;
    ps->v[ps->n].off = (uint32_t)off;
    ps->v[ps->n].len = (uint32_t)len;
    ps->v[ps->n++].aux = aux;
    return 0;
}

/* Resolve @name@ (src[k+1..k+1+n)) against the open loops, outermost
 * first and each header's names in order (the first match wins, as
 * numpy's outer loop does): 1 and *level, *name when bound, else 0. */
static int tm_resolve(const tm_comp *c, size_t k, size_t n, uint32_t *level,
                      uint32_t *name)
{
    const char *s = c->st->src + k + 1;
    int d;
    size_t j;

    for (d = 0; d < c->nopen; d++) {
        const tm_head *h = &c->loops[c->open[d]]->h;

        for (j = 0; j < h->nnames; j++)
            if (h->names[j].len == n && memcmp(h->buf + h->names[j].off, s, n) == 0) {
                *level = (uint32_t)d;
                *name = (uint32_t)j;
                return 1;
            }
    }
    return 0;
}

/* Compile src[a..b) with every `@name@` resolved (numpy's substitution),
 * into ps; the scan is that of a direct expansion.  0 or PD_ENOMEM. */
static int tm_subst(tm_comp *c, tm_pieces *ps, size_t a, size_t b)
{
    const char *s = c->st->src;
    size_t p = a, q;
    uint32_t lv, nm;

    while (p < b) {
        const char *at = memchr(s + p, '@', b - p);
        size_t k;

        if (!at)
            return tm_piece_add(ps, TM_LIT, p, b - p, 0);
        k = (size_t)(at - s);
        for (q = k + 1; q < b && tm_word((unsigned char)s[q]); q++)
            ;
        if (q == k + 1 || q >= b || s[q] != '@') {
            if (tm_piece_add(ps, TM_LIT, p, q - p, 0))   /* no match at k */
                return PD_ENOMEM;
            p = q;
            continue;
        }
        if (tm_piece_add(ps, TM_LIT, p, k - p, 0))
            return PD_ENOMEM;
        if (tm_resolve(c, k, q - k - 1, &lv, &nm)) {
            const tm_cloop *L = c->loops[c->open[lv]];

            if (tm_piece_add(ps, TM_VAR, k, nm, lv))
                return PD_ENOMEM;
            ps->v[ps->n - 1].u.vals = &L->text[L->h.names[nm].first];
            p = q + 1;
        } else {                        /* kept; the closing '@' may open */
            if (tm_piece_add(ps, TM_LIT, k, q - k, 1))
                return PD_ENOMEM;
            p = q;
        }
    }
    return 0;
}

static int tm_level(tm_comp *c, tm_pieces *ps, size_t a, size_t b, int level);

/* Compile the loop whose header is src[hs..he) and body src[he..be) into
 * a TM_LOOP piece of ps.  0, 1 (too large) or PD_ENOMEM. */
static int tm_loop(tm_comp *c, tm_pieces *ps, size_t hs, size_t he,
                   size_t be, int level)
{
    tm_cloop *L;
    size_t id = c->nloops, v;
    int rc;

    size_t bad0 = c->st->o->bad_headers;

    if (tm_grow((void **)&c->loops, &c->caploops, id + 1, sizeof(*c->loops)) ||
        !(L = calloc(1, sizeof(*L))))
        return pd_error_nomem("expanding template");
    c->loops[c->nloops++] = L;
    L->be = be;
    L->level = level;
    /* tm_header counts bad headers into the result: here they are the
     * loop's, added each time it is expanded, as a direct expansion
     * parses the header each time. */
    rc = tm_header(c->st, hs, he, &L->h);
    L->bad = c->st->o->bad_headers - bad0;
    c->st->o->bad_headers = bad0;
    if (rc)
        return rc;
    if (L->h.nnames == 0) {
        L->bad++;
        L->h.ninst = 1;
    }
    if (L->h.nvals && !(L->text = malloc(L->h.nvals * sizeof(*L->text))))
        return pd_error_nomem("expanding template");
    for (v = 0; v < L->h.nvals; v++) {
        L->text[v].s = L->h.buf + L->h.vals[v].off;
        L->text[v].len = L->h.vals[v].len;
    }
    if ((rc = tm_piece_add(ps, TM_LOOP, he, 0, (uint32_t)id)))
        return rc;
    if (level == 0) {               /* tmpl_out.bodies */
        tmpl_out *o = c->st->o;

        if (tm_grow((void **)&o->bodies, &c->st->cap_bodies, 2 * o->nbodies + 2,
                    sizeof(*o->bodies)))
            return PD_ENOMEM;
        o->bodies[2 * o->nbodies] = (uint32_t)he;
        o->bodies[2 * o->nbodies++ + 1] = (uint32_t)be;
    }
    c->open[c->nopen++] = id;
    rc = tm_level(c, &L->body, he, be, level + 1);
    c->nopen--;
    return rc;
}

/* Compile src[a..b) at nesting `level` (numpy's parse_string) into ps.
 * 0, 1 (too large) or PD_ENOMEM. */
static int tm_level(tm_comp *c, tm_pieces *ps, size_t a, size_t b, int level)
{
    tm_state *st = c->st;
    char beg[32], end[32];
    size_t ind = a, start, s2, hend, fini, stop;
    int rc;

    if (level > TM_MAXLEVEL)
        return tm_subst(c, ps, a, b);
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
    while ((start = tm_find(st->src, ind, b, beg)) != TM_NONE) {
        if ((s2 = tm_find(st->src, start, b, "*/")) == TM_NONE ||
            (hend = tm_find(st->src, s2, b, "\n")) == TM_NONE ||
            (fini = tm_find(st->src, hend, b, end)) == TM_NONE) {
            if (!st->o->unterminated_line)
                st->o->unterminated_line = (uint32_t)start + 1;  /* offset+1 */
            break;
        }
        stop = tm_find(st->src, fini, b, "\n");
        stop = stop == TM_NONE ? b : stop + 1;
        if ((rc = tm_subst(c, ps, ind, start)) ||
            (rc = tm_loop(c, ps, start, hend + 1, fini, level)))
            return rc;
        ind = stop;
    }
    return tm_subst(c, ps, ind, b);
}

/* The line starts src_lines[0..n) of text just emitted at `delta` bytes
 * past the template offsets it came from, into the expansion's line
 * table.  Its newlines are the template's own, whose line starts are
 * known (tmpl_out.src_lines; values have none: tm_header drops the
 * header's), so the expansion is not scanned for them (tmpl_lines), which
 * was 2 % of numpy/core's analysis (issue 26). */
static inline __attribute__((always_inline)) void
tm_lines_put(tm_state *st, const uint32_t *src_lines, size_t n, size_t delta)
{
    tmpl_out *o = st->o;
    size_t k;

    if (st->rc)
        return;
    if (o->nexp_lines + n > st->cap_lines &&
        (st->rc = tm_grow((void **)&o->exp_lines, &st->cap_lines, o->nexp_lines + n,
                          sizeof(*o->exp_lines))))
        return;
    for (k = 0; k < n; k++)
        o->exp_lines[o->nexp_lines + k] = (uint32_t)(src_lines[k] + delta);
    o->nexp_lines += n;
}

/* The line start after an instance's newline: offset 1 past it. */
static const uint32_t tm_one = 1;

/* Emit the pieces ps[0..n) once (loops once per instance, each instance
 * ending with a newline mapped to the end of its body). */
static void tm_run(tm_comp *c, const tm_piece *ps, size_t n)
{
    tm_state *st = c->st;
    size_t i, k;

    for (i = 0; i < n && !st->rc; i++) {
        const tm_piece *p = &ps[i];

        if (p->kind == TM_LIT) {
            size_t at = st->o->len;

            st->o->unknown_names += p->aux;
            tm_emit(st, st->src + p->off, p->len, p->off, 0);
            if (p->u.lit.nl)
                tm_lines_put(st, st->o->src_lines + p->u.lit.l0, p->u.lit.nl, at - p->off);
        } else if (p->kind == TM_VAR) {
            const tm_text *v = &p->u.vals[c->cur[p->aux]];

            tm_emit(st, v->s, v->len, p->off, 1);
        } else {
            const tm_cloop *L = c->loops[p->aux];

            st->o->loops++;
            st->o->bad_headers += L->bad;
            c->open[L->level] = p->aux;
            for (k = 0; k < L->h.ninst && !st->rc; k++) {
                c->cur[L->level] = k;
                st->o->instances++;
                tm_run(c, L->body.v, L->body.n);
                tm_emit(st, "\n", 1, L->be, 1);
                tm_lines_put(st, &tm_one, 1, st->o->len - 1);
            }
        }
    }
}

/* The bytes tm_run(c, ps, n) emits when its enclosing loops' instances
 * number `times` in all, without emitting them: a run of the template
 * counts once per instance; a placeholder, the sum of its values' lengths
 * once per instance of the other loops around it; a loop, its body and
 * newline once per instance of its own.  SIZE_MAX past `limit`. */
static size_t tm_size(tm_comp *c, const tm_piece *ps, size_t n, size_t times,
                      size_t limit)
{
    size_t i, k, total = 0, add;

    for (i = 0; i < n && total <= limit; i++) {
        const tm_piece *p = &ps[i];

        if (p->kind == TM_LIT) {
            add = p->len;
            add = times > limit / (add ? add : 1) ? SIZE_MAX : add * times;
            c->segs += times;
            c->lines += p->u.lit.nl * times;
        } else if (p->kind == TM_VAR) {
            const tm_head *h = &c->loops[c->open[p->aux]]->h;
            size_t sum = 0;

            for (k = 0; k < h->ninst; k++)
                sum += h->vals[h->names[p->len].first + k].len;
            c->segs += times;
            add = h->ninst ? times / h->ninst : 0;  /* ninst divides times */
            add = add > limit / (sum ? sum : 1) ? SIZE_MAX : add * sum;
        } else {
            const tm_cloop *L = c->loops[p->aux];

            if (L->h.ninst == 0)
                continue;
            if (times > limit / L->h.ninst)
                return SIZE_MAX;
            c->open[L->level] = p->aux;
            add = tm_size(c, L->body.v, L->body.n, times * L->h.ninst, limit);
            if (add <= limit)
                add += times * L->h.ninst;          /* the newlines */
            c->segs += times * L->h.ninst;
            c->lines += times * L->h.ninst;
        }
        total = add > limit ? SIZE_MAX : total + add;
    }
    return total > limit ? SIZE_MAX : total;
}

/* Each template run of ps[0..n) gets the range of the template's line
 * starts its newlines make (tm_piece.l0, nl): those in (off, off+len]. */
static void tm_newlines(const tmpl_out *o, tm_pieces *ps)
{
    size_t i, a, b;

    for (i = 0; i < ps->n; i++) {
        tm_piece *p = &ps->v[i];

        if (p->kind != TM_LIT)
            continue;
        a = tmpl_line_of(o->src_lines, o->nsrc_lines, p->off);
        b = tmpl_line_of(o->src_lines, o->nsrc_lines, (size_t)p->off + p->len);
        p->u.lit.l0 = (uint32_t)a + 1;
        p->u.lit.nl = (uint32_t)(b - a);
    }
}

/* Compile and emit the whole template; the result is in st.  Its size
 * and its segments' number, known from the pieces, size the text and the
 * segments once, and the heap the analysis of the expansion will fill
 * (pd_malloc_ahead). */
static void tm_expand_all(tm_state *st)
{
    tm_comp c;
    tm_pieces top = {0};
    size_t i, size;
    int rc;

    memset(&c, 0, sizeof(c));
    c.st = st;
    if ((rc = tm_level(&c, &top, 0, st->srclen, 0))) {
        st->rc = rc;
        goto done;
    }
    tm_newlines(st->o, &top);
    for (i = 0; i < c.nloops; i++)
        tm_newlines(st->o, &c.loops[i]->body);
    if ((size = tm_size(&c, top.v, top.n, 1, st->limit)) > st->limit) {
        st->rc = 1;
    } else {
        /* The segments, allocated once at their number: at most c.segs
         * (tm_size), and at most one a byte (an empty value makes none);
         * tm_emit still grows them, so that a count too low is the
         * assert's find below rather than an overrun.  The line table
         * likewise, at its number (c.lines, plus the first line's start).
         * A guess of 4 a template byte grew by copies where it was short
         * and held pages where it was long: the full ingest's analysis
         * 8.0 -> 7.6 s of CPU (issue 26).  The text, the segments and
         * about a quarter of the text's bytes more (its line table, the
         * replay, the results) are the heap the analysis fills: 15 MB
         * for numpy's largest template, where 2.5 times the text and the
         * guess faulted in 22. */
        size_t segs = c.segs < size ? c.segs : size;
        size_t lines = (c.lines < size ? c.lines : size) + 1;

        if (segs == 0)
            segs = 1;

        pd_malloc_ahead(size + size / 4 + segs * sizeof(*st->o->segs));
        if (!(st->o->text = malloc(size + 1)))
            st->rc = pd_error_nomem("expanding template");
        else
            st->cap_text = size + 1;
        if (!st->rc && (!(st->o->segs = malloc(segs * sizeof(*st->o->segs))) ||
                        !(st->o->exp_lines = malloc(lines * sizeof(*st->o->exp_lines)))))
            st->rc = pd_error_nomem("expanding template");
        else if (!st->rc) {
            st->cap_segs = segs;
            st->cap_lines = lines;
            st->o->exp_lines[0] = 0;
            st->o->nexp_lines = 1;
            tm_run(&c, top.v, top.n);
        }
        assert(st->rc || (st->o->len == size && st->o->nsegs <= segs &&
                          st->o->nexp_lines <= lines));
    }
done:
    for (i = 0; i < c.nloops; i++) {
        free(c.loops[i]->h.buf);
        free(c.loops[i]->h.names);
        free(c.loops[i]->h.vals);
        free(c.loops[i]->text);
        free(c.loops[i]->body.v);
        free(c.loops[i]);
    }
    free(c.loops);
    free(top.v);
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
    /* The template's line starts first: the expansion's are made from
     * them (tm_lines_put). */
    if ((rc = tmpl_lines(&st.o->src_lines, &st.o->nsrc_lines, buf, len)))
        st.rc = rc;
    else
        tm_expand_all(&st);
    if (st.rc == 0 && st.o->unterminated_line)
        st.o->unterminated_line = (uint32_t)tmpl_line_of(
            st.o->src_lines, st.o->nsrc_lines, st.o->unterminated_line - 1) + 1;
    if (st.rc == 1 && too_large)
        *too_large = 1;
    if (st.rc) {
        tmpl_free(st.o);
        return st.rc == 1 ? 0 : st.rc;
    }
    *out = st.o;
    return 0;
}
