/*
 * pathfilter_value.c: a path filter as a value: equality, its stored JSON
 * and reading it back (see pathfilter_value.h).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pathfilter_value.h"
#include "pd_error.h"

/* 1 if every glob of a[0..na) is among b[0..nb).  Filters hold a few
 * globs: the quadratic walk is the simple one. */
static int pathfilter_subset(const char *const *a, size_t na, const char *const *b, size_t nb)
{
    size_t i, k;

    for (i = 0; i < na; i++) {
        for (k = 0; k < nb && strcmp(a[i], b[k]) != 0; k++)
            ;
        if (k == nb)
            return 0;
    }
    return 1;
}

/* 1 if the two lists hold the same set of globs. */
static int pathfilter_same_set(const char **a, size_t na, const char **b, size_t nb)
{
    return pathfilter_subset(a, na, b, nb) && pathfilter_subset(b, nb, a, na);
}

int pathfilter_equal(const pathfilter *a, const pathfilter *b)
{
    static const pathfilter none = {NULL, 0, NULL, 0};

    if (!a)
        a = &none;
    if (!b)
        b = &none;
    return pathfilter_same_set(a->include, a->ninclude, b->include, b->ninclude) &&
           pathfilter_same_set(a->exclude, a->nexclude, b->exclude, b->nexclude);
}

char *pathfilter_to_json(const pathfilter *pf)
{
    json_t *o = json_object(), *inc = json_array(), *exc = json_array();
    char *text = NULL;
    size_t i;

    if (!o || !inc || !exc)
        goto done;
    for (i = 0; pf && i < pf->ninclude; i++)
        json_array_append_new(inc, json_string(pf->include[i]));
    for (i = 0; pf && i < pf->nexclude; i++)
        json_array_append_new(exc, json_string(pf->exclude[i]));
    json_object_set(o, "include", inc);
    json_object_set(o, "exclude", exc);
    text = json_dumps(o, JSON_COMPACT);
done:
    json_decref(inc);
    json_decref(exc);
    json_decref(o);
    return text;
}

void pathfilter_owned_free(pathfilter_owned *o)
{
    size_t i;

    for (i = 0; o->globs && i < o->f.ninclude + o->f.nexclude; i++)
        free(o->globs[i]);
    free(o->globs);
    memset(o, 0, sizeof(*o));
}

/* Room for ni + ne globs in *out, the counts set, every slot NULL. */
static int pathfilter_alloc(pathfilter_owned *out, size_t ni, size_t ne)
{
    memset(out, 0, sizeof(*out));
    if (!(out->globs = calloc(ni + ne + 1, sizeof(char *))))
        return pd_error_nomem("keeping a path filter");
    out->f.include = (const char **)out->globs;
    out->f.ninclude = ni;
    out->f.exclude = (const char **)out->globs + ni;
    out->f.nexclude = ne;
    return 0;
}

int pathfilter_copy(pathfilter_owned *out, const pathfilter *pf)
{
    size_t i, ni = pf ? pf->ninclude : 0, ne = pf ? pf->nexclude : 0;
    int rc = pathfilter_alloc(out, ni, ne);

    for (i = 0; rc == 0 && i < ni + ne; i++)
        if (!(out->globs[i] = strdup(i < ni ? pf->include[i] : pf->exclude[i - ni])))
            rc = pd_error_nomem("keeping a path filter");
    return rc;
}

int pathfilter_from_json(pathfilter_owned *out, const char *text)
{
    json_t *o = text ? json_loads(text, 0, NULL) : NULL;
    json_t *inc = json_object_get(o, "include"), *exc = json_object_get(o, "exclude");
    size_t i, ni = json_array_size(inc), ne = json_array_size(exc);
    int rc;

    memset(out, 0, sizeof(*out));
    if (!json_is_array(inc) || !json_is_array(exc)) {
        json_decref(o);
        return PD_EINVAL;
    }
    rc = pathfilter_alloc(out, ni, ne);
    for (i = 0; rc == 0 && i < ni + ne; i++) {
        const char *g = json_string_value(json_array_get(i < ni ? inc : exc,
                                                         i < ni ? i : i - ni));

        if (!g)
            rc = PD_EINVAL;
        else if (!(out->globs[i] = strdup(g)))
            rc = pd_error_nomem("reading a path filter");
    }
    json_decref(o);
    return rc;
}
