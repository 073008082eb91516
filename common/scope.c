/*
 * scope.c: path scope and glob matching (see scope.h for the glob rules).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pd_domain.h"
#include "scope.h"

/* Match one bracket expression at *pp against c; advances *pp past `]`. */
static int scope_class_match(const char **pp, char c)
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

int scope_glob_match(const char *g, const char *s)
{
    while (*g) {
        if (g[0] == '*' && g[1] == '*' && (g[2] == '/' || g[2] == '\0')) {
            const char *rest = g[2] ? g + 3 : g + 2;

            if (!*rest)
                return 1;
            /* Try the rest at the start and after every '/'. */
            for (;;) {
                if (scope_glob_match(rest, s))
                    return 1;
                s = strchr(s, '/');
                if (!s)
                    return 0;
                s++;
            }
        }
        if (*g == '*') {
            g++;
            for (;;) {
                if (scope_glob_match(g, s))
                    return 1;
                if (!*s || *s == '/')
                    return 0;
                s++;
            }
        }
        if (!*s)
            return 0;
        if (*g == '?') {
            if (*s == '/')
                return 0;
        } else if (*g == '[') {
            const char *p = g;
            int m = scope_class_match(&p, *s);

            if (m >= 0) {
                if (!m || *s == '/')
                    return 0;
                g = p;
                s++;
                continue;
            }
            if (*s != '[')
                return 0;
        } else if (*g != *s) {
            return 0;
        }
        g++;
        s++;
    }
    return *s == '\0';
}

int scope_contains(const scope *sc, const char *path)
{
    size_t i;
    int in = 0;

    if (!pd_path_is_source(path))
        return 0;
    if (!sc)
        return 1;
    if (sc->ninclude == 0)
        in = 1;
    for (i = 0; i < sc->ninclude && !in; i++)
        in = scope_glob_match(sc->include[i], path);
    for (i = 0; i < sc->nexclude && in; i++)
        in = !scope_glob_match(sc->exclude[i], path);
    return in;
}

char *scope_to_json(const scope *sc)
{
    json_t *o = json_object(), *inc = json_array(), *exc = json_array();
    char *text = NULL;
    size_t i;

    if (!o || !inc || !exc)
        goto done;
    for (i = 0; sc && i < sc->ninclude; i++)
        json_array_append_new(inc, json_string(sc->include[i]));
    for (i = 0; sc && i < sc->nexclude; i++)
        json_array_append_new(exc, json_string(sc->exclude[i]));
    json_object_set(o, "include", inc);
    json_object_set(o, "exclude", exc);
    text = json_dumps(o, JSON_COMPACT);
done:
    json_decref(inc);
    json_decref(exc);
    json_decref(o);
    return text;
}
