/*
 * pathfilter.c: the path filter and glob matching (see pathfilter.h for the
 * glob rules).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_domain.h"
#include "pathfilter.h"

/* Match one bracket expression at *pp against c; advances *pp past `]`. */
static int pathfilter_class_match(const char **pp, char c)
{
    const char *p = *pp + 1;
    int neg = 0, hit = 0;

    if (*p == '!' || *p == '^') {
        neg = 1;
        p++;
    }
    do {
        if (p[0] && p[1] == '-' && p[2] && p[2] != ']') {
            if (c >= p[0] && c <= p[2])
                hit = 1;
            p += 3;
        } else if (*p) {
            if (c == *p)
                hit = 1;
            p++;
        }
    } while (*p && *p != ']');
    if (!*p)
        return -1;          /* unterminated: treat '[' literally */
    *pp = p + 1;
    return hit != neg;
}

/*
 * A glob compiled to tokens, matched as a set of positions (a Thompson NFA)
 * moved one path character at a time: O(glob x path) whatever the pattern.
 * The backtracking matcher this replaces took exponential time on
 * "a*a*a*...b" (issue 27: 9.8 s for one --include).  Each token has two
 * states: 2i "at token i", and for `**` followed by '/' also 2i+1 "inside a
 * directory name it skips" (it may only stop after a '/').
 */
enum { SG_LIT, SG_ANY, SG_CLASS, SG_STAR, SG_DIRS, SG_ALL };

typedef struct {
    unsigned char kind;
    char c;                 /* SG_LIT */
    const char *cls;        /* SG_CLASS: its '[' in the glob */
} sg_tok;

/* Tokens of g into t (room for strlen(g) + 1); returns how many. */
static size_t sg_compile(const char *g, sg_tok *t)
{
    size_t n = 0;

    while (*g) {
        const char *p = g;

        if (g[0] == '*' && g[1] == '*' && (g[2] == '/' || g[2] == '\0')) {
            /* "**" or "**\/" at the end: anything, '/' included */
            t[n++] = (sg_tok){g[2] && g[3] ? SG_DIRS : SG_ALL, 0, NULL};
            g += g[2] ? 3 : 2;
        } else if (*g == '*') {
            t[n++] = (sg_tok){SG_STAR, 0, NULL};
            g++;
        } else if (*g == '?') {
            t[n++] = (sg_tok){SG_ANY, 0, NULL};
            g++;
        } else if (*g == '[' && pathfilter_class_match(&p, 'a') >= 0) {
            t[n++] = (sg_tok){SG_CLASS, 0, g};
            g = p;
        } else {
            t[n++] = (sg_tok){SG_LIT, *g, NULL};    /* an unterminated '[' too */
            g++;
        }
    }
    return n;
}

/* Follow the moves that read nothing: past `*`, `**`, `**` + '/'.  They
 * only go forward, so one pass in order finds them all. */
static void sg_close(const sg_tok *t, size_t n, unsigned char *st)
{
    size_t i;

    for (i = 0; i < n; i++)
        if (st[2 * i] && t[i].kind >= SG_STAR)
            st[2 * (i + 1)] = 1;
}

/* The states after reading c from `cur` into `next`; 0 when none is left. */
static int sg_step(const sg_tok *t, size_t n, const unsigned char *cur,
                   unsigned char *next, char c)
{
    int any = 0;
    size_t i;

    memset(next, 0, 2 * (n + 1));
    for (i = 0; i < n; i++) {
        const char *p = t[i].cls;
        size_t to = (size_t)-1;

        if (cur[2 * i + 1])                         /* inside a skipped name */
            next[2 * i + (c == '/' ? 0 : 1)] = 1, any = 1;
        if (!cur[2 * i])
            continue;
        switch (t[i].kind) {
        case SG_LIT: to = c == t[i].c ? 2 * (i + 1) : to; break;
        case SG_ANY: to = c != '/' ? 2 * (i + 1) : to; break;
        case SG_CLASS:
            to = c != '/' && pathfilter_class_match(&p, c) == 1 ? 2 * (i + 1) : to;
            break;
        case SG_STAR: to = c != '/' ? 2 * i : to; break;
        case SG_DIRS: to = 2 * i + (c == '/' ? 0 : 1); break;
        default: to = 2 * i; break;                 /* SG_ALL */
        }
        if (to != (size_t)-1)
            next[to] = 1, any = 1;
    }
    sg_close(t, n, next);
    return any;
}

int pathfilter_glob_match(const char *g, const char *s)
{
    size_t cap = strlen(g) + 1, n;
    sg_tok tok_local[128], *t = cap <= 128 ? tok_local : malloc(cap * sizeof(*t));
    unsigned char st_local[2 * 2 * 129], *st;
    int ok = 0;

    st = cap <= 128 ? st_local : malloc(2 * 2 * (cap + 1));
    if (!t || !st)
        goto done;          /* out of memory: the path is taken as not matching */
    n = sg_compile(g, t);
    memset(st, 0, 2 * (n + 1));
    st[0] = 1;
    sg_close(t, n, st);
    for (ok = 1; *s && ok; s++) {
        ok = sg_step(t, n, st, st + 2 * (n + 1), *s);
        memcpy(st, st + 2 * (n + 1), 2 * (n + 1));
    }
    ok = ok && st[2 * n];
done:
    if (t != tok_local)
        free(t);
    if (st != st_local)
        free(st);
    return ok;
}

int pathfilter_globs_contain(const pathfilter *pf, const char *path)
{
    size_t i;
    int in = pf->ninclude == 0;

    for (i = 0; i < pf->ninclude && !in; i++)
        in = pathfilter_glob_match(pf->include[i], path);
    for (i = 0; i < pf->nexclude && in; i++)
        in = !pathfilter_glob_match(pf->exclude[i], path);
    return in;
}

int pathfilter_contains(const pathfilter *pf, const char *path)
{
    if (!pd_path_is_source(path))
        return 0;
    return !pf || pathfilter_globs_contain(pf, path);
}

int pathfilter_hint(const pathfilter *s, char *buf, size_t cap)
{
    size_t i;

    if (cap)
        buf[0] = '\0';
    for (i = 0; s && i < s->ninclude; i++) {
        const char *g = s->include[i], *r = g;
        size_t n;
        int lead, one;

        while (r[0] == '/' || (r[0] == '.' && r[1] == '/'))
            r += r[0] == '/' ? 1 : 2;
        if (strcmp(r, ".") == 0)     /* the root: every path */
            r = g + strlen(g);
        lead = r != g;
        n = strlen(r);
        /* a name without wildcards that is no C source: a directory */
        one = !strpbrk(r, "*?[") && !pd_path_is_source(r);
        if (!lead && (!one || n == 0))
            continue;
        if (n == 0)
            snprintf(buf, cap, " (did you mean '**'? paths are relative to the "
                     "repository's root)");
        else
            snprintf(buf, cap, " (did you mean '%.*s%s'? %s%s%s)",
                     (int)(n - (one && r[n - 1] == '/')), r, one ? "/**" : "",
                     lead ? "paths are relative to the repository's root, without "
                            "'./' or '/'" : "", lead && one ? ", and " : "",
                     one ? "a glob without wildcards names one file" : "");
        return 1;
    }
    return 0;
}
