/*
 * sarif_map.c: from a SARIF location URI to a repository-relative path
 * (sarif_log.h, sarif_map_path).
 *
 * Analyzers write locations as relative references ("src/a.c", usually
 * under a base id such as %SRCROOT%), as absolute file: URIs
 * ("file:///home/ci/work/src/a.c", RFC 8089), or as bare absolute paths.
 * Absolute ones are made relative by cutting the checkout prefix the
 * uploader names; everything is percent-decoded (RFC 3986 section 2.1).
 * What cannot be placed inside the repository maps to NULL.
 *
 * Logs written on Windows name files as "C:\co\src\a.c", "C:/co/src/a.c",
 * "file:///C:/co/src/a.c" or "file:///c%3A/co/src/a.c" (RFC 8089 appendix
 * E.2).  A raw '\' cannot appear in a URI (RFC 3986 section 2), so it is
 * read as the Windows separator; an escaped one (%5C) stays a character of
 * the name.  A drive path is compared with the checkout the way Windows
 * compares paths: letters of either case are the same.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sarif_log.h"

static int sm_hex(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = (char)(c | 32);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Percent-decode s up to the first '?' or '#' into a new string, a raw
 * '\' read as '/'; NULL on ENOMEM or an escape that is malformed or
 * encodes NUL. */
static char *sm_decode(const char *s)
{
    size_t n = strcspn(s, "?#"), i, k = 0;
    char *out = malloc(n + 1);

    for (i = 0; out && i < n; i++) {
        int hi, lo;

        if (s[i] != '%') {
            out[k++] = s[i] == '\\' ? '/' : s[i];
            continue;
        }
        hi = i + 2 < n ? sm_hex(s[i + 1]) : -1;
        lo = hi >= 0 ? sm_hex(s[i + 2]) : -1;
        if (lo < 0 || (hi | lo) == 0) {
            free(out);
            return NULL;
        }
        out[k++] = (char)(hi * 16 + lo);
        i += 2;
    }
    if (out)
        out[k] = '\0';
    return out;
}

/* 1 if s starts with a Windows drive: a letter, ':' and a separator. */
static int sm_drive(const char *s)
{
    return ((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z') && s[1] == ':' &&
           (s[2] == '/' || s[2] == '\\');
}

/* The path part of a file: URI (file:///p, file://localhost/p, file:/p),
 * or s itself when it is not one; NULL for another scheme or host.  A
 * drive path ("C:/x", "C:\x") is a path, not a URI of scheme "C". */
static const char *sm_file_path(const char *s)
{
    if (sm_drive(s))
        return s;
    if (strncmp(s, "file:", 5) != 0) {
        size_t i = strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789+.-");
        return i >= 2 && s[i] == ':' ? NULL : s;
    }
    s += 5;
    if (strncmp(s, "//", 2) != 0)
        return s;
    s += 2;
    if (strncmp(s, "localhost/", 10) == 0)
        s += 9;
    return s[0] == '/' ? s : NULL;
}

/* A relative path made canonical in place: "./" and empty segments
 * dropped, "x/.." undone; 0, or -1 when a ".." would climb above the root
 * or nothing is left.  Writing never passes reading (out <= in). */
static int sm_clean(char *p)
{
    char *in = p, *out = p;

    while (*in) {
        size_t n = strcspn(in, "/");
        int more = in[n] == '/';

        if (n == 2 && in[0] == '.' && in[1] == '.') {
            if (out == p)
                return -1;
            while (out > p && out[-1] != '/')
                out--;
            if (out > p)
                out--;
        } else if (n > 0 && !(n == 1 && in[0] == '.')) {
            if (out != p)
                *out++ = '/';
            memmove(out, in, n);
            out += n;
        }
        in += n + more;
    }
    *out = '\0';
    return out == p ? -1 : 0;
}

/* A decoded absolute path in one form: "/C:/x" (from file:///C:/x) loses
 * its leading '/'; returns 1 for a drive path, 0 for a POSIX one, -1 for
 * a relative one. */
static int sm_abs_kind(char *p)
{
    if (p[0] == '/' && sm_drive(p + 1))
        memmove(p, p + 1, strlen(p));
    if (sm_drive(p))
        return 1;
    return p[0] == '/' ? 0 : -1;
}

char *sarif_map_path(const char *uri, const char *checkout)
{
    const char *path = sm_file_path(uri), *root = checkout ? sm_file_path(checkout) : NULL;
    char *p = path ? sm_decode(path) : NULL, *r = root ? sm_decode(root) : NULL;
    char *rel = NULL;
    int kind;
    size_t n;

    if (!p)
        goto done;
    if ((kind = sm_abs_kind(p)) < 0) {
        rel = p;
        p = NULL;
    } else if (r && sm_abs_kind(r) == kind) {
        n = strlen(r);
        while (n > 1 && r[n - 1] == '/')
            n--;
        if ((kind ? strncasecmp(p, r, n) : strncmp(p, r, n)) == 0 && p[n] == '/')
            rel = strdup(p + n + 1);
    }
    if (rel && sm_clean(rel) < 0) {
        free(rel);
        rel = NULL;
    }
done:
    free(p);
    free(r);
    return rel;
}
