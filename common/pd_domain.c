/*
 * pd_domain.c: names, rules and the measures table of pd_domain.h.
 */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "pd_domain.h"

static const char *const pd_class_names[PD_CLASS_COUNT] = {
    "hpy", "capi", "npy-legacy", "bridge"};
static const char *const pd_status_names[PD_STATUS_COUNT] = {
    "ported", "bridged", "legacy", "neutral"};
static const char *const pd_objstate_names[PD_OBJ_COUNT] = {
    "object-legacy", "object-cpython-only", "object-universal"};

const char *pd_class_name(int c)
{
    return c >= 0 && c < PD_CLASS_COUNT ? pd_class_names[c] : NULL;
}

const char *pd_status_name(int s)
{
    return s >= 0 && s < PD_STATUS_COUNT ? pd_status_names[s] : NULL;
}

const char *pd_objstate_name(int s)
{
    return s >= 0 && s < PD_OBJ_COUNT ? pd_objstate_names[s] : NULL;
}

/* The suffixes of the source kinds, as Universal Ctags maps them for C and
 * C++ (`ctags --list-maps`), without its one-letter and upper-case ones,
 * plus numpy's templates: numpy's build (numpy/distutils/conv_template.py)
 * expands every `.src`, so funcs.inc.src, the object dtype's npy_ObjectMax
 * and npy_ObjectPower, is a template like arraytypes.c.src.  `since` is
 * the PD_SRC_KINDS that added the suffix: a repository stored before it
 * lacks those files (ingest_kinds.h adds them). */
static const struct {
    const char *suffix;
    pd_srckind kind;
    int since;
} pd_suffixes[] = {
    {".c", PD_SRC_C, 1},     {".h", PD_SRC_C, 1},     {".c.src", PD_SRC_TEMPLATE, 1},
    {".h.src", PD_SRC_TEMPLATE, 1},
    {".cpp", PD_SRC_CPP, 1}, {".hpp", PD_SRC_CPP, 1}, {".cc", PD_SRC_CPP, 1},
    {".inc", PD_SRC_C, 2},   {".inc.src", PD_SRC_TEMPLATE, 2},
    {".cxx", PD_SRC_CPP, 2}, {".hh", PD_SRC_CPP, 2},  {".hxx", PD_SRC_CPP, 2},
};

/* Index of path's suffix in pd_suffixes, -1 when none. */
static int pd_suffix_of(const char *path)
{
    size_t i, n = path ? strlen(path) : 0;

    for (i = 0; path && i < sizeof(pd_suffixes) / sizeof(pd_suffixes[0]); i++) {
        size_t m = strlen(pd_suffixes[i].suffix);

        if (n > m && strcmp(path + n - m, pd_suffixes[i].suffix) == 0)
            return (int)i;
    }
    return -1;
}

pd_srckind pd_path_kind(const char *path)
{
    int i = pd_suffix_of(path);

    return i < 0 ? PD_SRC_NONE : pd_suffixes[i].kind;
}

int pd_path_kind_since(const char *path)
{
    int i = pd_suffix_of(path);

    return i < 0 ? 0 : pd_suffixes[i].since;
}

int pd_path_is_source(const char *path)
{
    return pd_path_kind(path) != PD_SRC_NONE;
}

/* Index of name in names[n], -1 when absent. */
static int pd_parse(const char *const *names, int n, const char *name)
{
    int i;

    for (i = 0; name && i < n; i++)
        if (strcmp(names[i], name) == 0)
            return i;
    return -1;
}

int pd_class_parse(const char *name)
{
    return pd_parse(pd_class_names, PD_CLASS_COUNT, name);
}

int pd_status_parse(const char *name)
{
    return pd_parse(pd_status_names, PD_STATUS_COUNT, name);
}

int pd_objstate_parse(const char *name)
{
    return pd_parse(pd_objstate_names, PD_OBJ_COUNT, name);
}

unsigned pd_classes_present(const int64_t *n)
{
    unsigned m = 0;
    int c;

    for (c = 0; c < PD_CLASS_COUNT; c++)
        if (n[c])
            m |= 1u << c;
    return m;
}

unsigned pd_classes_present32(const uint32_t *n)
{
    unsigned m = 0;
    int c;

    for (c = 0; c < PD_CLASS_COUNT; c++)
        if (n[c])
            m |= 1u << c;
    return m;
}

#define PD_HAS(m, c) (((m) >> (c)) & 1u)

pd_status pd_status_rule(unsigned m)
{
    if (PD_HAS(m, PD_CLASS_HPY) && !PD_HAS(m, PD_CLASS_CAPI) && !PD_HAS(m, PD_CLASS_BRIDGE))
        return PD_STATUS_PORTED;
    if ((PD_HAS(m, PD_CLASS_HPY) || PD_HAS(m, PD_CLASS_BRIDGE)) &&
        (PD_HAS(m, PD_CLASS_CAPI) || PD_HAS(m, PD_CLASS_BRIDGE)))
        return PD_STATUS_BRIDGED;
    if (PD_HAS(m, PD_CLASS_CAPI) || PD_HAS(m, PD_CLASS_NPY_LEGACY))
        return PD_STATUS_LEGACY;
    return PD_STATUS_NEUTRAL;
}

int pd_universal_ready_rule(unsigned m)
{
    return !PD_HAS(m, PD_CLASS_CAPI) && !PD_HAS(m, PD_CLASS_BRIDGE);
}

const pd_measure pd_measures[PD_NMEASURES] = {
#define PD_MEASURE(id, key, label, short_, good, col, fcol, badge, pop, sf, how, expr) \
    {key, label, short_, PD_GOOD_##good, col, fcol, badge, PD_POP_##pop, sf, PD_HOW_##how},
#include "pd_measures.def"
#undef PD_MEASURE
};

/* The named members of pd_counts alias the rows they name. */
#define PD_AT(member, id) \
    static_assert(offsetof(pd_counts, member) == PD_M_##id * sizeof(int64_t), \
                  #member " is not row " #id " of pd_measures.def")
PD_AT(files, FILES);
PD_AT(universal_ready_files, UNIVERSAL_READY_FILES);
PD_AT(fn[PD_STATUS_PORTED], FN_PORTED);
PD_AT(fn[PD_STATUS_NEUTRAL], FN_NEUTRAL);
PD_AT(obj[PD_OBJ_LEGACY], OBJ_LEGACY);
PD_AT(obj[PD_OBJ_UNIVERSAL], OBJ_UNIVERSAL);
PD_AT(tok[PD_CLASS_HPY], TOK_HPY);
PD_AT(tok[PD_CLASS_BRIDGE], TOK_BRIDGE);
static_assert(sizeof(pd_counts) == PD_NMEASURES * sizeof(int64_t),
              "pd_counts holds exactly the measures");

/* Each row's rule as a function of the file's and one function's facts:
 * FILE rows read F (f is NULL), FN rows f. */
#define PD_MEASURE(id, key, label, short_, good, col, fcol, badge, pop, sf, how, expr) \
    static int64_t pd_rule_##id(const pd_file_facts *F, const pd_fn_facts *f) \
    {                                                                      \
        (void)F;                                                           \
        (void)f;                                                           \
        return (int64_t)(expr);                                            \
    }
#include "pd_measures.def"
#undef PD_MEASURE

static int64_t (*const pd_rules[PD_NMEASURES])(const pd_file_facts *,
                                                const pd_fn_facts *) = {
#define PD_MEASURE(id, key, label, short_, good, col, fcol, badge, pop, sf, how, expr) \
    pd_rule_##id,
#include "pd_measures.def"
#undef PD_MEASURE
};

void pd_counts_of_file(pd_counts *out, const pd_file_facts *file,
                       const pd_fn_facts *fn, size_t n)
{
    size_t j;
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        if (pd_measures[i].how == PD_HOW_FILE) {
            out->v[i] = pd_rules[i](file, NULL);
            continue;
        }
        out->v[i] = 0;
        for (j = 0; j < n; j++)
            out->v[i] += pd_rules[i](file, &fn[j]) != 0;
    }
}

int pd_measure_file_is_column(int i)
{
    const char *c = pd_measures[i].file_column;

    return !(c[0] >= '0' && c[0] <= '9');
}

int pd_measure_find(const char *key)
{
    int i;

    for (i = 0; key && i < PD_NMEASURES; i++)
        if (strcmp(pd_measures[i].key, key) == 0)
            return i;
    return -1;
}

int64_t pd_measure_value(const pd_counts *c, int i)
{
    assert(i >= 0 && i < PD_NMEASURES);
    return c->v[i];
}

void pd_measure_set(pd_counts *c, int i, int64_t v)
{
    assert(i >= 0 && i < PD_NMEASURES);
    c->v[i] = v;
}

void pd_counts_add(pd_counts *a, const pd_counts *b, int sign)
{
    int i;

    for (i = 0; i < PD_NMEASURES; i++)
        pd_measure_set(a, i, pd_measure_value(a, i) + sign * pd_measure_value(b, i));
}

const char *pd_good_name(pd_good g)
{
    return g == PD_GOOD_UP ? "up" : g == PD_GOOD_DOWN ? "down" : NULL;
}

double pd_measure_progress(const pd_counts *c, int i)
{
    double done, pop;

    /* No file counted (a scope or filter that selects nothing): nothing is
     * known, not everything done. */
    if (c->files == 0)
        return -1;
    switch (pd_measures[i].population) {
    case PD_POP_FILES:
        done = (double)c->universal_ready_files;
        pop = (double)c->files;
        break;
    case PD_POP_FUNCTIONS:
        done = (double)c->fn[PD_STATUS_PORTED];
        pop = (double)(c->fn[PD_STATUS_PORTED] + c->fn[PD_STATUS_BRIDGED] +
                       c->fn[PD_STATUS_LEGACY]);
        break;
    case PD_POP_OBJECT_PATHS:
        done = (double)c->obj[PD_OBJ_UNIVERSAL];
        pop = (double)(c->obj[PD_OBJ_LEGACY] + c->obj[PD_OBJ_CPYTHON_ONLY] +
                       c->obj[PD_OBJ_UNIVERSAL]);
        break;
    default:
        return pd_measures[i].good == PD_GOOD_DOWN && pd_measure_value(c, i) == 0 ? 1 : -1;
    }
    return pop ? done / pop : 1;
}

char *pd_percent_text(double share, char *buf, size_t size)
{
    /* Math.round's half up, as pct() rounds (shares are not negative) */
    long r = (long)(share * 100 + 0.5);

    if (r == 0 && share > 0)
        snprintf(buf, size, "<1%%");
    else if (r >= 100 && share < 1)
        snprintf(buf, size, ">99%%");
    else
        snprintf(buf, size, "%ld%%", r);
    return buf;
}

const char *pd_measure_done(int i, const char **definition)
{
    switch (pd_measures[i].population) {
    case PD_POP_FILES:
        *definition = "done = universal-ready files / files";
        return "universal-ready";
    case PD_POP_FUNCTIONS:
        *definition = "done = ported functions / functions that are ported, bridged or legacy";
        return "ported";
    case PD_POP_OBJECT_PATHS:
        *definition = "done = universal object-dtype paths / object-dtype paths";
        return "universal";
    default:
        *definition = NULL;
        return NULL;
    }
}

pd_objstate pd_objstate_rule(int legacy, int field, int cpython)
{
    if (legacy)
        return PD_OBJ_LEGACY;
    if (field)
        return cpython ? PD_OBJ_CPYTHON_ONLY : PD_OBJ_UNIVERSAL;
    return PD_OBJ_NONE;
}
