/*
 * db_scope.c: named scopes: parsing the scopes file and matching a path
 * (see db_scope.h).  The figures under a scope are db_scope_file.c's.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db_measures.h"
#include "db_scope.h"
#include "pd_error.h"
#include "pd_file.h"
#include "pd_hash.h"
#include "pathfilter.h"

extern const char scopes_default_text[];

/* ---------- the scopes file ---------- */

/* Append a copy of `s` to a string array; 0 or PD_ENOMEM. */
static int db_scope_push(char ***arr, size_t *n, const char *s)
{
    char **grown = realloc(*arr, (*n + 1) * sizeof(char *));

    if (!grown)
        return pd_error_nomem("reading scopes");
    *arr = grown;
    if (!(grown[*n] = strdup(s)))
        return pd_error_nomem("reading scopes");
    (*n)++;
    return 0;
}

/* 1 when `s` is a valid scope name: [A-Za-z0-9._-]+, at most 64 bytes. */
static int db_scope_name_ok(const char *s)
{
    size_t i, n = strlen(s);

    if (n == 0 || n > 64)
        return 0;
    for (i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("._-", s[i]))
            return 0;
    return 1;
}

/* Free the strings of one scope. */
static void db_scope_clear(db_scope *sc)
{
    size_t i;

    free(sc->name);
    free(sc->title);
    for (i = 0; i < sc->ninclude; i++)
        free(sc->include[i]);
    for (i = 0; i < sc->nexclude; i++)
        free(sc->exclude[i]);
    free(sc->include);
    free(sc->exclude);
}

void db_scopes_free(db_scopes *s)
{
    size_t i;

    if (!s)
        return;
    for (i = 0; i < s->n; i++)
        db_scope_clear(&s->v[i]);
    free(s->v);
    free(s);
}

/* Apply one line (trimmed, not blank, not a comment) to the scopes. */
static int db_scopes_line(db_scopes *s, char *line, const char *origin, int lineno)
{
    char *arg = line + strcspn(line, " \t");
    db_scope *sc = s->n ? &s->v[s->n - 1] : NULL, *grown;

    if (*arg)
        *arg++ = '\0';
    arg += strspn(arg, " \t");
    if (strcmp(line, "scope") == 0) {
        if (!db_scope_name_ok(arg))
            return pd_error_set(PD_EINVAL, "%s:%d: bad scope name '%s' (letters, digits, "
                                "'.', '_', '-')", origin, lineno, arg);
        if (db_scopes_find(s, arg))
            return pd_error_set(PD_EINVAL, "%s:%d: scope '%s' defined twice", origin,
                                lineno, arg);
        if (!(grown = realloc(s->v, (s->n + 1) * sizeof(*grown))))
            return pd_error_nomem("reading scopes");
        s->v = grown;
        sc = &s->v[s->n++];
        memset(sc, 0, sizeof(*sc));
        if (!(sc->name = strdup(arg)) || !(sc->title = strdup("")))
            return pd_error_nomem("reading scopes");
        return 0;
    }
    if (!sc)
        return pd_error_set(PD_EINVAL, "%s:%d: '%s' before any 'scope NAME' line",
                            origin, lineno, line);
    if (strcmp(line, "title") == 0) {
        free(sc->title);
        return (sc->title = strdup(arg)) ? 0
               : pd_error_nomem("reading scopes");
    }
    if ((strcmp(line, "include") == 0 || strcmp(line, "exclude") == 0) && !*arg)
        return pd_error_set(PD_EINVAL, "%s:%d: %s needs a glob", origin, lineno, line);
    if (strcmp(line, "include") == 0)
        return db_scope_push(&sc->include, &sc->ninclude, arg);
    if (strcmp(line, "exclude") == 0)
        return db_scope_push(&sc->exclude, &sc->nexclude, arg);
    if (strcmp(line, "exclude-object-paths") == 0 && !*arg) {
        sc->exclude_object_paths = 1;
        return 0;
    }
    return pd_error_set(PD_EINVAL, "%s:%d: unknown directive '%s' (scope, title, "
                        "include, exclude, exclude-object-paths)", origin, lineno, line);
}

int db_scopes_parse(db_scopes **out, const char *text, const char *origin)
{
    db_scopes *s = calloc(1, sizeof(*s));
    char *copy = strdup(text), *line, *next;
    uint64_t h = 1469598103934665603ULL;
    int lineno = 0, rc = 0;

    *out = NULL;
    if (!s || !copy) {
        rc = pd_error_nomem("reading scopes");
        goto done;
    }
    /* FNV-1a 64 from an offset basis of its own (kept: the hash names the
     * scopes file in answer cache keys). */
    h = pd_fnv1a64(h, text, strlen(text));
    snprintf(s->hash, sizeof(s->hash), "%016llx", (unsigned long long)h);
    for (line = copy; line && rc == 0; line = next) {
        size_t n;

        lineno++;
        if ((next = strchr(line, '\n')))
            *next++ = '\0';
        line += strspn(line, " \t");
        n = strlen(line);
        while (n && strchr(" \t\r", line[n - 1]))
            line[--n] = '\0';
        if (n && line[0] != '#')
            rc = db_scopes_line(s, line, origin, lineno);
    }
done:
    free(copy);
    if (rc < 0)
        db_scopes_free(s);
    else
        *out = s;
    return rc;
}

int db_scopes_load(db_scopes **out, const char *path)
{
    char *buf = NULL;
    int rc;

    if (!path)
        return db_scopes_parse(out, scopes_default_text, "built-in scopes");
    if ((rc = pd_file_read(path, 0, NULL, &buf, NULL)) < 0) {
        if (rc == PD_EIO)
            rc = pd_error_set(PD_EIO, "cannot read scopes file %s", path);
        return rc;
    }
    rc = db_scopes_parse(out, buf, path);
    free(buf);
    return rc;
}

const db_scope *db_scopes_find(const db_scopes *s, const char *name)
{
    size_t i;

    for (i = 0; s && i < s->n; i++)
        if (strcmp(s->v[i].name, name) == 0)
            return &s->v[i];
    return NULL;
}

void db_scopes_names(const db_scopes *s, char *buf, size_t size)
{
    size_t i, off = 0;

    if (!size)
        return;
    buf[0] = '\0';
    for (i = 0; s && i < s->n && off < size; i++)
        off += (size_t)snprintf(buf + off, size - off, "%s%s", i ? ", " : "", s->v[i].name);
    if (!buf[0])
        snprintf(buf, size, "none");
}

int db_scope_has_path(const db_scope *sc, const char *path)
{
    /* The same globs as an ingest's path filter: one matcher (pathfilter.h). */
    const pathfilter globs = {(const char **)sc->include, sc->ninclude,
                         (const char **)sc->exclude, sc->nexclude};

    return pathfilter_globs_contain(&globs, path);
}

int db_scope_status_index(const char *status)
{
    return pd_status_parse(status);
}
