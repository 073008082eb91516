/*
 * rules_names.c: the `names SET CLASS` directive of the rules file: every
 * name listed in a names set gets CLASS, as an `exact` rule would give it.
 * The default rules use it for the C API: the names CPython's own headers
 * declare (ingest/rules/cpython.names, written by tools/gen_capi_names.py
 * and embedded as the set builtin:cpython), so that a project's own
 * Py-prefixed helper is not mistaken for C API (issue 21).  A name whose
 * second column is `type` is marked RULES_F_TYPE: a variable may take
 * its name (analyze_shadow.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_file.h"
#include "rules.h"
#include "rules_int.h"

#define RULES_BUILTIN "builtin:"

/* Keep a copy of a set's text for the rules hash (rules_parse). */
static int rules_names_keep(rules *r, const char *set, const char *text, size_t len)
{
    size_t add = strlen(set) + len + 16;
    char *p = realloc(r->sets, r->sets_len + add);

    if (!p)
        return pd_error_nomem("loading rules");
    r->sets = p;
    r->sets_len += (size_t)snprintf(p + r->sets_len, add, "\nnames %s\n", set);
    memcpy(p + r->sets_len, text, len);
    r->sets_len += len;
    return 0;
}

/* The text of a set: a built-in one, or a file named relative to the
 * directory of the rules file.  *owned is what the caller frees. */
static int rules_names_text(const rules_ctx *c, const char *set, const char **text,
                            size_t *len, char **owned)
{
    const char *slash = strrchr(c->file, '/');
    char path[4096];
    int rc;

    *owned = NULL;
    if (strncmp(set, RULES_BUILTIN, strlen(RULES_BUILTIN)) == 0) {
        if (strcmp(set + strlen(RULES_BUILTIN), "cpython") != 0)
            return rules_err(c, "unknown built-in names set '%s' (there is "
                             "builtin:cpython)", set);
        *text = rules_cpython_names_text;
        *len = (size_t)rules_cpython_names_text_len;
        return 0;
    }
    if (set[0] == '/' || !slash)
        snprintf(path, sizeof(path), "%s", set);
    else
        snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - c->file), c->file, set);
    if ((rc = pd_file_read(path, 0, "names file", owned, len)) < 0)
        return rules_err(c, "cannot read names set '%s' (%s)", set, pd_error_last());
    *text = *owned;
    return 0;
}

/* 1 if the line's second column, from p to the line's end nl, is the
 * kind `type` (a typedef name or a tag: tools/gen_capi_names.py). */
static int rules_names_is_type(const char *p, const char *nl)
{
    while (p < nl && (*p == '\t' || *p == ' '))
        p++;
    return nl - p >= 4 && memcmp(p, "type", 4) == 0 &&
           (nl - p == 4 || p[4] == '\t' || p[4] == ' ' || p[4] == '\r');
}

/* Give class v to every name of the set's text; an `exact` rule of the
 * same name keeps its own class, whichever line comes first. */
static int rules_names_apply(rules *r, const rules_ctx *c, const char *set,
                             const char *text, size_t len, rules_verdict v)
{
    const char *p = text, *end = text + len, *nl;
    unsigned line = 1;
    char name[RULES_MAXLINE];
    rules_name *e;
    size_t lines = 0;
    int rc;

    /* Room at once for the set's names that are not entries yet and for
     * what the rest of the rules file can add (two a line): the default
     * rules' entries after their set used to double the entries (740 KB
     * when an entry held its item rules), copied into fresh pages, a
     * third of a start-up's CPU on the development VM (issue 26).  Room
     * not written costs nothing. */
    for (; p < end; p = nl + 1) {
        size_t n = 0;

        if (!(nl = memchr(p, '\n', (size_t)(end - p))))
            nl = end;
        while (p + n < nl && p[n] != '\t' && p[n] != ' ' && p[n] != '\r')
            n++;
        lines += n && *p != '#' && *p != '@' && !rules_lookup(r, p, n);
    }
    p = text;
    if ((rc = rules_reserve(r, lines + 1 + 2 * r->text_lines)) != 0)
        return rc;
    for (; p < end; p = nl + 1, line++) {
        size_t n = 0;

        if (!(nl = memchr(p, '\n', (size_t)(end - p))))
            nl = end;
        if (p == nl || *p == '#' || *p == '@' || *p == '\r')
            continue;
        while (p + n < nl && p[n] != '\t' && p[n] != ' ' && p[n] != '\r')
            n++;
        if (n >= sizeof(name))
            return rules_err(c, "names set %s:%u: name too long", set, line);
        memcpy(name, p, n);
        name[n] = '\0';
        if (!rules_is_ident(name))
            return rules_err(c, "names set %s:%u: '%s' is not an identifier", set, line,
                             name);
        if ((rc = rules_entry(r, name, &e)) != 0)
            return rc;
        if (e->exact.cls == RULES_CLS_UNSET) {
            e->exact = v;
            e->exact_from_set = 1;
        }
        if (rules_names_is_type(p + n, nl))
            e->flags |= RULES_F_TYPE;
    }
    return 0;
}

int rules_d_names(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg)
{
    const char *text, *base;
    char *owned, setname[128];
    size_t len;
    rules_verdict v;
    int rc;

    if ((rc = rules_class(c, av[2], 0, &v.cls)) != 0)
        return rc;
    /* default id CLASS-names-SET: the set's base name without extension */
    if (strncmp(av[1], RULES_BUILTIN, strlen(RULES_BUILTIN)) == 0)
        base = av[1] + strlen(RULES_BUILTIN) - 1;
    else
        base = strrchr(av[1], '/');
    snprintf(setname, sizeof(setname), "%s", base ? base + 1 : av[1]);
    setname[strcspn(setname, ".")] = '\0';
    if (!(v.id = rules_id(r, c, "%s-names-%s", av[2], setname)))
        return pd_error_nomem("loading rules");
    if ((rc = rules_names_text(c, av[1], &text, &len, &owned)) != 0)
        return rc;
    if ((rc = rules_names_apply(r, c, av[1], text, len, v)) == 0)
        rc = rules_names_keep(r, av[1], text, len);
    free(owned);
    return rc;
}
