/*
 * fix_diff.c: the unified diff of a rewritten file (fix.h, fix_diff), in
 * the form `git apply` reads (git's diff headers, hunks with three lines
 * of context, "\ No newline at end of file").  A rewrite replaces bytes
 * inside lines and keeps every newline, so line k of the old file is line
 * k of the new one and no alignment is needed: the changed lines are those
 * that differ, and hunks are runs of them with their context.
 */
#include <stdlib.h>
#include <string.h>

#include "fix.h"
#include "pd_error.h"

#define FIX_CONTEXT 3

typedef struct {
    const char **start;
    size_t *len;     /* with its '\n' */
    size_t n;
} fd_lines;

static int fd_split(fd_lines *l, const char *s, size_t n)
{
    size_t i, k = 0, lines = 1;

    for (i = 0; i < n; i++)
        lines += s[i] == '\n';
    l->start = malloc(lines * sizeof(*l->start));
    l->len = malloc(lines * sizeof(*l->len));
    l->n = 0;
    if (!l->start || !l->len)
        return PD_ENOMEM;
    for (i = 0; i < n; i++)
        if (s[i] == '\n') {
            l->start[l->n] = s + k;
            l->len[l->n++] = i + 1 - k;
            k = i + 1;
        }
    if (k < n) {
        l->start[l->n] = s + k;
        l->len[l->n++] = n - k;
    }
    return 0;
}

static int fd_same(const fd_lines *a, const fd_lines *b, size_t i)
{
    return a->len[i] == b->len[i] && memcmp(a->start[i], b->start[i], a->len[i]) == 0;
}

/* One line with its prefix; the marker when it has no newline. */
static void fd_line(FILE *out, char c, const fd_lines *l, size_t i)
{
    fputc(c, out);
    fwrite(l->start[i], 1, l->len[i], out);
    if (l->len[i] == 0 || l->start[i][l->len[i] - 1] != '\n')
        fputs("\n\\ No newline at end of file\n", out);
}

int fix_diff(FILE *out, const char *path, const char *a, size_t alen,
             const char *b, size_t blen)
{
    fd_lines la = {0}, lb = {0};
    size_t i, n, head = 0;
    int rc = 0, started = 0;

    if (alen == blen && memcmp(a, b, alen) == 0)
        return 0;
    if (fd_split(&la, a, alen) || fd_split(&lb, b, blen)) {
        rc = pd_error_nomem("writing a diff");
        goto done;
    }
    if (la.n != lb.n) {
        rc = pd_error_set(PD_EINVAL, "%s: a rewrite changed the number of lines", path);
        goto done;
    }
    n = la.n;
    for (i = 0; i < n;) {
        size_t lo, hi, j, last;

        if (fd_same(&la, &lb, i)) {
            i++;
            continue;
        }
        /* a hunk: from this change, on while the next change is near */
        lo = i > FIX_CONTEXT ? i - FIX_CONTEXT : 0;
        if (lo < head)
            lo = head;
        last = i;
        for (j = i + 1; j < n && j <= last + 2 * FIX_CONTEXT; j++)
            if (!fd_same(&la, &lb, j))
                last = j;
        hi = last + FIX_CONTEXT + 1 < n ? last + FIX_CONTEXT + 1 : n;
        if (!started++)
            fprintf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", path, path, path, path);
        fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", lo + 1, hi - lo, lo + 1, hi - lo);
        for (j = lo; j < hi; j++) {
            if (fd_same(&la, &lb, j)) {
                fd_line(out, ' ', &la, j);
                continue;
            }
            /* a run of changed lines: all old, then all new */
            for (last = j; last < hi && !fd_same(&la, &lb, last); last++)
                fd_line(out, '-', &la, last);
            for (; j < last; j++)
                fd_line(out, '+', &lb, j);
            j--;
        }
        head = i = hi;
    }
    if (ferror(out))
        rc = pd_error_set(PD_EIO, "cannot write the diff");
done:
    free(la.start);
    free(la.len);
    free(lb.start);
    free(lb.len);
    return rc;
}
