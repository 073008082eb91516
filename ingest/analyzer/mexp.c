/*
 * mexp.c: the functions a macro of the file makes (mexp.h).
 *
 * Two passes over the file, each a search, not a read of every byte: the
 * directives `#define NAME(` (memchr of '#') give the function-making
 * macros; each one's name (memmem again) gives its uses, those that start
 * a line after its definition.  Then the text is written once: the file
 * as it is, each use replaced by the macro's body with its arguments in
 * place, and the segments that map it back (tmpl.h).
 */
#include <stdlib.h>
#include <string.h>

#include "mexp.h"
#include "pd_error.h"
#include "pd_malloc.h"

#define MX_MAXP 16          /* parameters of a macro we expand */
#define MX_MAXM 64          /* macros of one file we expand */

typedef struct {
    size_t name, nlen;              /* the macro's name in buf */
    size_t par[MX_MAXP], plen[MX_MAXP];
    int np;
    size_t body, bend;              /* its body: up to the newline that
                                     * ends the #define */
} mx_macro;

typedef struct {
    size_t start, end;              /* NAME ... ')' of the use */
    size_t arg[MX_MAXP], alen[MX_MAXP];
    int m;
} mx_use;

typedef struct {
    const char *buf;
    size_t len, limit;
    tmpl_out *o;
    size_t cap_text, cap_segs;
    int rc;
} mx_out;

static int mx_ident(unsigned char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c >= '0' && c <= '9') || c >= 0x80;
}

static int mx_blank(char c)
{
    return c == ' ' || c == '\t';
}

/* The end of the logical line that starts at or before p: the first
 * newline not after a backslash (or len). */
static size_t mx_line_end(const char *buf, size_t len, size_t p)
{
    const char *nl;

    while ((nl = memchr(buf + p, '\n', len - p)) != NULL) {
        size_t k = (size_t)(nl - buf);

        if (k > 0 && (buf[k - 1] == '\\' || (buf[k - 1] == '\r' && k > 1 && buf[k - 2] == '\\'))) {
            p = k + 1;
            continue;
        }
        return k;
    }
    return len;
}

/* 1 when body buf[b..e) defines a function: before its first '{', at
 * depth 0 of parentheses, a ')' closes a list that a name (or a `##`
 * paste) opens, and no ';' comes between. */
static int mx_makes_function(const char *buf, size_t b, size_t e)
{
    size_t i, open = 0;
    int depth = 0, closed = 0;

    for (i = b; i < e; i++) {
        char c = buf[i];

        if (c == '(') {
            if (depth++ == 0)
                open = i;
            closed = 0;
        } else if (c == ')') {
            if (--depth < 0)
                return 0;
            closed = depth == 0;
        } else if (c == ';' && depth == 0) {
            return 0;
        } else if (c == '{') {
            size_t k = open;

            if (depth != 0 || !closed)
                return 0;
            while (k > b && (mx_blank(buf[k - 1]) || buf[k - 1] == '\\' ||
                             buf[k - 1] == '\n' || buf[k - 1] == '\r'))
                k--;
            return k > b && (mx_ident((unsigned char)buf[k - 1]) || buf[k - 1] == '#');
        } else if (c == '"' || c == '\'' || c == '/') {
            return 0;               /* literals, comments: not numpy's kind */
        } else if (!mx_blank(c) && c != '\\' && c != '\n' && c != '\r') {
            closed = 0;
        }
    }
    return 0;
}

/* The directive `#define NAME(PARAMS) BODY` whose "define" is at d, into
 * *m: 1 when it is a function-like macro that makes a function, else 0. */
static int mx_define(const char *buf, size_t len, size_t d, mx_macro *m)
{
    size_t p = d, q;

    while (p > 0 && mx_blank(buf[p - 1]))
        p--;
    if (p == 0 || buf[p - 1] != '#')
        return 0;
    for (q = p - 1; q > 0 && mx_blank(buf[q - 1]); q--)
        ;
    if (q > 0 && buf[q - 1] != '\n')
        return 0;                   /* not a directive at a line's start */
    for (p = d + 6; p < len && mx_blank(buf[p]); p++)
        ;
    if (p == d + 6)
        return 0;
    m->name = p;
    while (p < len && mx_ident((unsigned char)buf[p]))
        p++;
    m->nlen = p - m->name;
    if (!m->nlen || p >= len || buf[p] != '(')
        return 0;                   /* object-like */
    m->np = 0;
    for (p++;;) {
        while (p < len && mx_blank(buf[p]))
            p++;
        if (p < len && buf[p] == ')' && m->np == 0)
            break;
        if (m->np == MX_MAXP || p >= len || !mx_ident((unsigned char)buf[p]))
            return 0;               /* variadic, or too many */
        m->par[m->np] = p;
        while (p < len && mx_ident((unsigned char)buf[p]))
            p++;
        m->plen[m->np] = p - m->par[m->np];
        m->np++;
        while (p < len && mx_blank(buf[p]))
            p++;
        if (p < len && buf[p] == ')')
            break;
        if (p >= len || buf[p] != ',')
            return 0;
        p++;
    }
    m->body = p + 1;
    m->bend = mx_line_end(buf, len, m->body);
    return mx_makes_function(buf, m->body, m->bend);
}

/* The use of m whose name is at n, if it is one: a line starts with the
 * name, then '(' and as many arguments as m has parameters. */
static int mx_use_at(const char *buf, size_t len, const mx_macro *m, size_t n, mx_use *u)
{
    size_t p = n + m->nlen, a;
    int depth = 0, k = 0;

    if ((n > 0 && buf[n - 1] != '\n') || (p < len && mx_ident((unsigned char)buf[p])))
        return 0;
    while (p < len && mx_blank(buf[p]))
        p++;
    if (p >= len || buf[p] != '(')
        return 0;
    u->start = n;
    for (a = ++p; p < len; p++) {
        char c = buf[p];

        if (c == '"' || c == '\'') {
            for (p++; p < len && buf[p] != c; p++)
                if (buf[p] == '\\')
                    p++;
        } else if (c == '(') {
            depth++;
        } else if ((c == ',' && depth == 0) || (c == ')' && depth-- == 0)) {
            if (k == MX_MAXP)
                return 0;
            u->arg[k] = a;
            u->alen[k++] = p - a;
            a = p + 1;
            if (c == ')')
                break;
        }
    }
    if (p >= len)
        return 0;
    u->end = p + 1;
    /* `M()` of a macro without parameters has one empty argument */
    if (m->np == 0 && k == 1 && u->alen[0] == 0)
        k = 0;
    for (a = 0; a < (size_t)k; a++) {          /* trim */
        while (u->alen[a] && (mx_blank(buf[u->arg[a]]) || buf[u->arg[a]] == '\n'))
            u->arg[a]++, u->alen[a]--;
        while (u->alen[a] && (mx_blank(buf[u->arg[a] + u->alen[a] - 1]) ||
                              buf[u->arg[a] + u->alen[a] - 1] == '\n'))
            u->alen[a]--;
    }
    return k == m->np;
}

/* ---- writing the expansion ------------------------------------------- */

static int mx_grow(void **p, size_t *cap, size_t n, size_t sz)
{
    return pd_grow(p, cap, n, sz, 256, "expanding macros");
}

/* Append text[0..n): copied from the file at src (subst 0), or a value
 * that stands at src (subst 1). */
static void mx_emit(mx_out *x, const char *text, size_t n, size_t src, int subst)
{
    tmpl_out *o = x->o;
    tmpl_seg *last = o->nsegs ? &o->segs[o->nsegs - 1] : NULL;

    if (x->rc || n == 0)
        return;
    if (o->len + n > x->limit) {
        x->rc = 1;
        return;
    }
    if ((x->rc = mx_grow((void **)&o->text, &x->cap_text, o->len + n, 1)))
        return;
    memcpy(o->text + o->len, text, n);
    if (last && !subst && !last->subst && last->src_off + last->len == src &&
        last->exp_off + last->len == o->len) {
        last->len += (uint32_t)n;
    } else {
        if ((x->rc = mx_grow((void **)&o->segs, &x->cap_segs, o->nsegs + 1, sizeof(*o->segs))))
            return;
        last = &o->segs[o->nsegs++];
        last->exp_off = (uint32_t)o->len;
        last->src_off = (uint32_t)src;
        last->len = (uint32_t)n;
        last->subst = (uint32_t)subst;
    }
    o->len += n;
}

static int mx_param(const char *buf, const mx_macro *m, size_t i, size_t n)
{
    int k;

    for (k = 0; k < m->np; k++)
        if (m->plen[k] == n && memcmp(buf + m->par[k], buf + i, n) == 0)
            return k;
    return -1;
}

/* The body of m with the arguments of u in place: `a ## b` pasted, `#a`
 * made a string, literals and comments copied as they are. */
static void mx_body(mx_out *x, const mx_macro *m, const mx_use *u)
{
    const char *buf = x->buf;
    size_t i = m->body, e = m->bend, j;
    int k;

    while (i < e && !x->rc) {
        char c = buf[i];

        if (mx_ident((unsigned char)c) && !(c >= '0' && c <= '9')) {
            for (j = i; j < e && mx_ident((unsigned char)buf[j]); j++)
                ;
            if ((k = mx_param(buf, m, i, j - i)) >= 0)
                mx_emit(x, buf + u->arg[k], u->alen[k], i, 1);
            else
                mx_emit(x, buf + i, j - i, i, 0);
            i = j;
        } else if (c == '#' && i + 1 < e && buf[i + 1] == '#') {
            for (i += 2; i < e && mx_blank(buf[i]); i++)
                ;                   /* the paste, and the blanks after it */
        } else if (c == '#') {
            size_t a;

            for (a = i + 1; a < e && mx_blank(buf[a]); a++)
                ;
            for (j = a; j < e && mx_ident((unsigned char)buf[j]); j++)
                ;
            if ((k = mx_param(buf, m, a, j - a)) >= 0) {
                /* an argument with quotes or backslashes would need them
                 * escaped: its string is left empty, which no rule reads */
                int plain = !memchr(buf + u->arg[k], '"', u->alen[k]) &&
                            !memchr(buf + u->arg[k], '\\', u->alen[k]);

                mx_emit(x, "\"", 1, i, 1);
                if (plain)
                    mx_emit(x, buf + u->arg[k], u->alen[k], i, 1);
                mx_emit(x, "\"", 1, i, 1);
                i = j;
            } else {
                mx_emit(x, "#", 1, i, 0);
                i++;
            }
        } else if (c >= '0' && c <= '9') {
            for (j = i; j < e && (mx_ident((unsigned char)buf[j]) || buf[j] == '.'); j++)
                ;                   /* a number, 1e5 with it */
            mx_emit(x, buf + i, j - i, i, 0);
            i = j;
        } else if (mx_blank(c)) {
            for (j = i; j < e && mx_blank(buf[j]); j++)
                ;
            if (!(j + 1 < e && buf[j] == '#' && buf[j + 1] == '#'))
                mx_emit(x, buf + i, j - i, i, 0);     /* not before a paste */
            i = j;
        } else if (c == '"' || c == '\'') {
            for (j = i + 1; j < e && buf[j] != c; j++)
                if (buf[j] == '\\')
                    j++;
            j = j < e ? j + 1 : e;
            mx_emit(x, buf + i, j - i, i, 0);
            i = j;
        } else {
            mx_emit(x, buf + i, 1, i, 0);
            i++;
        }
    }
}

/* Copy buf[from..to) as it is, but for the bodies of the macros m[k]
 * with used[k], whose bytes become blanks (newlines and backslashes
 * kept, so every line and column stays where it was): their code is
 * analysed in the functions their uses make, and the #define would count
 * it a second time, outside any function.  Being in the text, the blanking
 * is what the chunk memo's keys see. */
static void mx_copy(mx_out *x, const mx_macro *m, const unsigned char *used, int nm,
                    size_t from, size_t to)
{
    static const char blanks[64] = "                                "
                                   "                                ";
    int k;

    for (k = 0; k < nm && from < to && !x->rc; k++) {
        size_t b = m[k].body, e = m[k].bend, i;

        if (!used[k] || e <= from || b >= to)
            continue;
        if (b < from)
            b = from;
        if (e > to)
            e = to;
        mx_emit(x, x->buf + from, b - from, from, 0);
        for (i = b; i < e;) {
            size_t j = i;

            if (x->buf[i] == '\\' || x->buf[i] == '\n' || x->buf[i] == '\r') {
                mx_emit(x, x->buf + i, 1, i, 0);
                i++;
                continue;
            }
            while (j < e && j - i < sizeof(blanks) && x->buf[j] != '\\' &&
                   x->buf[j] != '\n' && x->buf[j] != '\r')
                j++;
            mx_emit(x, blanks, j - i, i, 0);
            i = j;
        }
        from = e;
    }
    mx_emit(x, x->buf + from, to - from, from, 0);
}

static int mx_use_cmp(const void *a, const void *b)
{
    const mx_use *x = a, *y = b;

    return x->start < y->start ? -1 : x->start > y->start;
}

/* The macros of buf that make functions, into m (at most MX_MAXM), in
 * file order.  mx_define takes only a "define" that follows a '#' and
 * blanks, so the search is for '#' (memchr, where memmem's search for
 * "define" was 5 % of `analyze` on numpy/core's 270 plain files, issue
 * 26): each '#' followed by blanks and "define" is every such "define",
 * once, in order. */
static int mx_macros(const char *buf, size_t len, mx_macro *m)
{
    const char *p = buf, *end = buf + len, *d;
    int n = 0;

    while (n < MX_MAXM && (p = memchr(p, '#', (size_t)(end - p))) != NULL) {
        for (d = ++p; d < end && mx_blank(*d); d++)
            ;
        if ((size_t)(end - d) >= 6 && memcmp(d, "define", 6) == 0 &&
            mx_define(buf, len, (size_t)(d - buf), &m[n]))
            n++;
    }
    return n;
}

/* The uses of macros m[0..nm) into *uses (*nu), in file order; 0 or
 * PD_ENOMEM. */
static int mx_uses(const char *buf, size_t len, const mx_macro *m, int nm,
                   mx_use **uses, size_t *nu)
{
    size_t cap = 0;
    int i;

    *uses = NULL;
    *nu = 0;
    for (i = 0; i < nm; i++) {
        const char *p = buf + m[i].bend, *end = buf + len;

        while (p < end && (p = memmem(p, (size_t)(end - p), buf + m[i].name, m[i].nlen))) {
            mx_use u;

            if (mx_use_at(buf, len, &m[i], (size_t)(p - buf), &u)) {
                if (mx_grow((void **)uses, &cap, *nu + 1, sizeof(**uses)))
                    return PD_ENOMEM;
                u.m = i;
                (*uses)[(*nu)++] = u;
                p = buf + u.end;
            } else {
                p += m[i].nlen;
            }
        }
    }
    if (*nu > 1)
        qsort(*uses, *nu, sizeof(**uses), mx_use_cmp);
    return 0;
}

int mexp_expand(tmpl_out **out, const char *buf, size_t len)
{
    mx_macro m[MX_MAXM];
    unsigned char used[MX_MAXM] = {0};
    mx_use *uses = NULL;
    mx_out x;
    size_t nu, i, at = 0;
    int nm, rc;

    *out = NULL;
    if (len > ((size_t)1 << 28) || (nm = mx_macros(buf, len, m)) == 0)
        return 0;
    if ((rc = mx_uses(buf, len, m, nm, &uses, &nu)) < 0 || nu == 0) {
        free(uses);
        return rc;
    }
    memset(&x, 0, sizeof(x));
    x.buf = buf;
    x.len = len;
    x.limit = 16 * len + ((size_t)1 << 20);
    if (!(x.o = calloc(1, sizeof(*x.o)))) {
        free(uses);
        return pd_error_nomem("expanding macros");
    }
    for (i = 0; i < nu; i++)
        used[uses[i].m] = 1;
    for (i = 0; i < nu && !x.rc; i++) {
        if (uses[i].start < at)
            continue;               /* inside the one before */
        mx_copy(&x, m, used, nm, at, uses[i].start);
        mx_body(&x, &m[uses[i].m], &uses[i]);
        at = uses[i].end;
    }
    mx_copy(&x, m, used, nm, at, len);
    free(uses);
    if (!x.rc && ((x.rc = tmpl_lines(&x.o->exp_lines, &x.o->nexp_lines, x.o->text, x.o->len)) ||
                  (x.rc = tmpl_lines(&x.o->src_lines, &x.o->nsrc_lines, buf, len))))
        x.rc = PD_ENOMEM;
    if (x.rc) {
        tmpl_free(x.o);
        return x.rc == 1 ? 0 : x.rc;
    }
    *out = x.o;
    return 0;
}
