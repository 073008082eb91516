/*
 * sarif_write_rules.c: the pieces of the SARIF writer every result uses
 * (sarif_write_int.h): the rules of tool.driver and their names, a path as a
 * URI, a finding's level and whether it is written.  A leaf of the
 * writer: sarif_write.c, sarif_write_group.c and sarif_write_fix.c call it.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pd_error.h"
#include "report_fail.h"
#include "sarif_write_int.h"

const char *const sw_class_short[AN_CLASS_COUNT] = {
    "HPy API use",
    "CPython C API use: blocks HPy universal mode",
    "numpy's own PyObject*-based API (legacy, counted apart from the C API)",
    "Bridge between HPy and the CPython C API: works on CPython only",
};
static const char *const sw_class_help[AN_CLASS_COUNT] = {
    "This identifier belongs to the HPy API; it needs no change.",
    "This identifier belongs to the CPython C API. Code that calls it cannot "
    "be built in HPy universal mode. Port it to the HPy equivalent (for "
    "example Py_INCREF -> HPy_Dup, PyErr_SetString -> HPyErr_SetString), or "
    "guard it with #ifndef HPY_UNIVERSAL_ABI when it is CPython-only on "
    "purpose.",
    "This identifier is part of numpy's legacy PyObject*-based API. Port the "
    "caller to the HPy-side API (HPyArray_*), or keep it behind a bridge.",
    "This is a crossing between HPy and the CPython C API (HPy_AsPyObject, "
    "HPy_FromPyObject, legacy slots, npy_get_context(), an HPyField load or "
    "store with owner HPy_NULL). It works on CPython only; remove it once the "
    "code on the other side is ported.",
};

/* FNV-1a 64 over s, continuing from h. */

void sw_rule_name(const char *id, char *buf, size_t cap)
{
    size_t k = 0;
    int up = 1;

    for (; *id && k + 1 < cap; id++) {
        unsigned char c = (unsigned char)*id;

        if (!isalnum(c)) {
            up = 1;
            continue;
        }
        buf[k++] = (char)(up ? toupper(c) : c);
        up = 0;
    }
    buf[k] = '\0';
}

json_t *sw_uri(const char *path)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(path), i, k = 0;
    char *buf;
    json_t *s;

    while (path[0] == '.' && path[1] == '/')
        path += 2, n -= 2;
    while (path[0] == '/')
        path++, n--;                  /* relative to the base, never root */
    if (!(buf = malloc(3 * n + 1)))
        return NULL;
    for (i = 0; i < n; i++) {
        unsigned char c = (unsigned char)path[i];

        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
            (c >= '0' && c <= '9') || strchr("-._~/", c)) {
            buf[k++] = (char)c;
        } else {
            buf[k++] = '%';
            buf[k++] = hex[c >> 4];
            buf[k++] = hex[c & 15];
        }
    }
    buf[k] = '\0';
    s = json_string(buf);
    free(buf);
    return s;
}

/* The reporting descriptor of rule `id` of class cls (SARIF 3.49). */
static json_t *sw_rule(const char *id, an_class cls)
{
    char full[512], name[128];

    if (strncmp(id, "class/", 6) == 0)     /* a result per function (sarif_write_group.c) */
        snprintf(full, sizeof(full), "The identifiers of class %s one function uses, "
                 "counted in one result: %s.", an_class_name(cls), sw_class_short[cls]);
    else
        snprintf(full, sizeof(full), "Rule '%s' of the portdash rules file "
                 "classified this identifier as %s: %s.", id, an_class_name(cls),
                 sw_class_short[cls]);
    sw_rule_name(id, name, sizeof(name));
    return json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}",
                     "id", id, "name", name,
                     "shortDescription", "text", sw_class_short[cls],
                     "fullDescription", "text", full,
                     "help", "text", sw_class_help[cls],
                     "defaultConfiguration", "level",
                     cls == AN_CLASS_NPY_LEGACY ? "note" : "warning",
                     "properties", "category", an_class_name(cls));
}

long sw_rule_index(sw_rules *sr, const char *id, an_class cls)
{
    size_t i;

    for (i = 0; i < sr->n; i++)
        if (sr->ids[i] == id || strcmp(sr->ids[i], id) == 0)
            return (long)i;
    if (sr->n == sr->cap) {
        size_t cap = sr->cap ? sr->cap * 2 : 32;
        const char **p = realloc(sr->ids, cap * sizeof(*p));

        if (!p)
            return -1;
        sr->ids = p;
        sr->cap = cap;
    }
    if (json_array_append_new(sr->rules, sw_rule(id, cls)))
        return -1;
    sr->ids[sr->n] = id;
    return (long)sr->n++;
}

/* One result (SARIF 3.27) for finding f of file rf. */

const char *sw_level(const report_fail *fail, const an_finding *f)
{
    if (report_fail_finding(fail, f))
        return "error";
    return f->guarded || f->cls == AN_CLASS_NPY_LEGACY ? "note" : "warning";
}

int sw_level_rank(const char *level)
{
    static const char *const names[] = {"none", "note", "warning", "error"};
    int i;

    for (i = 3; i > 0 && strcmp(level, names[i]) != 0; i--)
        ;
    return i;
}

int sw_wanted(const sarif_write_opts *o, const report_fail *fail,
                 const report_file *rf, size_t k)
{
    unsigned classes = o->classes ? o->classes : ~(1u << AN_CLASS_HPY);
    const an_finding *f = &rf->res->findings[k];

    return f->cls != AN_CLASS_HPY && (classes >> f->cls & 1) && (!rf->keep || rf->keep[k]) &&
           sw_level_rank(sw_level(fail, f)) >= (o->min_level ? o->min_level : 1);
}

/* Add the results of one file to `results`; 0 or PD_ENOMEM. */
