/*
 * sarif.c: SARIF 2.1.0 output of analyses (report.h, report_sarif).
 *
 * Format: OASIS "Static Analysis Results Interchange Format Version 2.1.0"
 * (sarif-v2.1.0-os), checked in tests/node/sarif.test.mjs against the
 * published JSON schema sarif-schema-2.1.0.json.  One run; its rules are
 * the rule ids of the rules file that produced results, in order of first
 * use, so ruleIndex is the position in tool.driver.rules.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pd_error.h"
#include "report.h"

/* What each class means for someone reading a code-scanning alert. */
static const char *const sarif_class_short[AN_CLASS_COUNT] = {
    "HPy API use",
    "CPython C API use: blocks HPy universal mode",
    "numpy's own PyObject*-based API (legacy, counted apart from the C API)",
    "Bridge between HPy and the CPython C API: works on CPython only",
};
static const char *const sarif_class_help[AN_CLASS_COUNT] = {
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
static uint64_t sarif_fnv(uint64_t h, const char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
    return h;
}

/* Hash of (rule, function name, text), the part of a fingerprint that
 * does not depend on order. */
static uint64_t sarif_key(const an_result *res, const an_finding *f)
{
    const char *fn = f->function >= 0 ? res->functions[f->function].name : "";
    uint64_t h = 0xcbf29ce484222325ULL;

    h = sarif_fnv(h, f->rule, strlen(f->rule) + 1);
    h = sarif_fnv(h, fn, strlen(fn) + 1);
    return sarif_fnv(h, f->text, strlen(f->text) + 1);
}

typedef struct {
    uint64_t key;
    size_t idx;
} sarif_occ;

static int sarif_occ_cmp(const void *a, const void *b)
{
    const sarif_occ *x = a, *y = b;

    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* fp[i]: the fingerprint of finding i of res (see report.h), made by
 * sorting the keys so each occurrence index costs O(log n).  Returns 0 or
 * PD_ENOMEM. */
static int sarif_fingerprints(const an_result *res, uint64_t *fp)
{
    sarif_occ *o = malloc((res->nfindings + 1) * sizeof(*o));
    size_t i, occ = 0;

    if (!o)
        return pd_error_set(PD_ENOMEM, "out of memory writing SARIF");
    for (i = 0; i < res->nfindings; i++) {
        o[i].key = sarif_key(res, &res->findings[i]);
        o[i].idx = i;
    }
    qsort(o, res->nfindings, sizeof(*o), sarif_occ_cmp);
    for (i = 0; i < res->nfindings; i++) {
        char n[24];
        int len;

        occ = i > 0 && o[i].key == o[i - 1].key ? occ + 1 : 0;
        len = snprintf(n, sizeof(n), "#%zu", occ);
        fp[o[i].idx] = sarif_fnv(o[i].key, n, (size_t)len);
    }
    free(o);
    return 0;
}

/* `path` as a relative URI reference (RFC 3986): unreserved bytes and '/'
 * kept, everything else percent-encoded; a leading "./" dropped.  Returns
 * a new json string. */
static json_t *sarif_uri(const char *path)
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
static json_t *sarif_rule(const char *id, an_class cls)
{
    char full[512];

    snprintf(full, sizeof(full), "Rule '%s' of the portdash rules file "
             "classified this identifier as %s: %s.", id, an_class_name(cls),
             sarif_class_short[cls]);
    return json_pack("{s:s, s:s, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}, s:{s:s}}",
                     "id", id, "name", id,
                     "shortDescription", "text", sarif_class_short[cls],
                     "fullDescription", "text", full,
                     "help", "text", sarif_class_help[cls],
                     "defaultConfiguration", "level",
                     cls == AN_CLASS_NPY_LEGACY ? "note" : "warning",
                     "properties", "category", an_class_name(cls));
}

/* Rule ids with results so far (pointers owned by the rules object). */
typedef struct {
    const char **ids;
    size_t n, cap;
    json_t *rules;          /* tool.driver.rules */
} sarif_rules;

/* Index of rule `id` in tool.driver.rules, adding it; -1 on ENOMEM. */
static long sarif_rule_index(sarif_rules *sr, const char *id, an_class cls)
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
    if (json_array_append_new(sr->rules, sarif_rule(id, cls)))
        return -1;
    sr->ids[sr->n] = id;
    return (long)sr->n++;
}

/* One result (SARIF 3.27) for finding f of file rf. */
static json_t *sarif_result(const report_file *rf, const an_finding *f,
                            long rule_index, uint64_t fp,
                            const report_fail *fail)
{
    const an_result *res = rf->res;
    const char *fn = f->function >= 0 ? res->functions[f->function].name : NULL;
    const char *level = report_fail_finding(fail, f) ? "error"
                      : f->guarded || f->cls == AN_CLASS_NPY_LEGACY ? "note"
                      : "warning";
    char msg[600], fph[17];
    json_t *loc, *r;

    snprintf(msg, sizeof(msg), "%s `%.300s`%s%s%s: %s.",
             an_class_name(f->cls), f->text, fn ? " in " : "", fn ? fn : "",
             f->guarded ? " (in a CPython-only #if block)" : "",
             sarif_class_short[f->cls]);
    snprintf(fph, sizeof(fph), "%016llx", (unsigned long long)fp);
    loc = json_pack("{s:{s:{s:o}, s:{s:i, s:i}}}", "physicalLocation",
                    "artifactLocation", "uri", sarif_uri(rf->path),
                    "region", "startLine", (json_int_t)f->line,
                    "startColumn", (json_int_t)f->column);
    if (loc && fn)
        json_object_set_new(loc, "logicalLocations",
                            json_pack("[{s:s, s:s}]", "name", fn,
                                      "kind", "function"));
    r = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:{s:s}}",
                  "ruleId", f->rule, "ruleIndex", (json_int_t)rule_index,
                  "level", level, "message", "text", msg, "locations", loc,
                  "partialFingerprints", "portdash/v1", fph);
    return r;
}

/* Add the results of one file to `results`; 0 or PD_ENOMEM. */
static int sarif_file(const report_file *rf, sarif_rules *sr, json_t *results,
                      const report_fail *fail)
{
    const an_result *res = rf->res;
    uint64_t *fp = malloc((res->nfindings + 1) * sizeof(*fp));
    size_t i;
    int rc = 0;

    if (!fp || sarif_fingerprints(res, fp)) {
        free(fp);
        return pd_error_set(PD_ENOMEM, "out of memory writing SARIF");
    }
    for (i = 0; i < res->nfindings && !rc; i++) {
        const an_finding *f = &res->findings[i];
        long ri;

        if (f->cls == AN_CLASS_HPY)
            continue;
        if ((ri = sarif_rule_index(sr, f->rule, f->cls)) < 0 ||
            json_array_append_new(results,
                                  sarif_result(rf, f, ri, fp[i], fail)))
            rc = pd_error_set(PD_ENOMEM, "out of memory writing SARIF");
    }
    free(fp);
    return rc;
}

int report_sarif(FILE *out, const report_file *files, size_t n,
                 const rules *r, const report_fail *f)
{
    sarif_rules sr = {0};
    json_t *doc = NULL, *results = json_array();
    size_t i;
    int rc = 0;

    sr.rules = json_array();
    for (i = 0; i < n && !rc && sr.rules && results; i++)
        rc = sarif_file(&files[i], &sr, results, f);
    if (!rc && sr.rules && results)
        doc = json_pack(
            "{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:o, s:{s:s}}}, s:o}]}",
            "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
            "version", "2.1.0", "runs", "tool", "driver", "name", "portdash",
            "version", REPORT_TOOL_VERSION, "semanticVersion",
            REPORT_TOOL_VERSION, "rules", sr.rules, "properties",
            "rulesHash", r ? rules_hash(r) : "", "results", results);
    else {
        json_decref(sr.rules);
        json_decref(results);
    }
    if (!rc && !doc)
        rc = pd_error_set(PD_ENOMEM, "out of memory writing SARIF");
    if (!rc && json_dumpf(doc, out, JSON_INDENT(1) | JSON_ENSURE_ASCII))
        rc = pd_error_set(PD_EIO, "cannot write the SARIF report");
    if (!rc)
        fputc('\n', out);
    json_decref(doc);
    free(sr.ids);
    return rc;
}
