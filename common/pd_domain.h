/*
 * pd_domain.h: the vocabulary of the porting domain, defined once: token
 * classes, function/file statuses and object-dtype states with their
 * names, the counts summed over files, the table of summary measures
 * (pd_measures.def) and the rules that turn unguarded findings into a
 * status and into universal-readiness (DOMAIN.md "Function status",
 * "Universal-ready files").
 *
 * No dependency beyond the C library: the analyzer, the database layer,
 * the gate and the server all include it.
 */
#ifndef PD_DOMAIN_H
#define PD_DOMAIN_H

#include <stddef.h>
#include <stdint.h>

/* Token classes (DOMAIN.md).  Order is used as array index. */
typedef enum {
    PD_CLASS_HPY = 0,
    PD_CLASS_CAPI,
    PD_CLASS_NPY_LEGACY,
    PD_CLASS_BRIDGE,
    PD_CLASS_COUNT
} pd_class;

/* Function and file status. */
typedef enum {
    PD_STATUS_PORTED = 0,
    PD_STATUS_BRIDGED,
    PD_STATUS_LEGACY,
    PD_STATUS_NEUTRAL,
    PD_STATUS_COUNT
} pd_status;

/* Object-dtype state of a function; PD_OBJ_NONE when not on an object path. */
typedef enum {
    PD_OBJ_LEGACY = 0,
    PD_OBJ_CPYTHON_ONLY,
    PD_OBJ_UNIVERSAL,
    PD_OBJ_COUNT,
    PD_OBJ_NONE = -1
} pd_objstate;

/* What a path's suffix makes of a file. */
typedef enum {
    PD_SRC_NONE = 0,   /* not a source the analysis covers */
    PD_SRC_C,          /* .c .h .inc */
    PD_SRC_CPP,        /* .cpp .hpp .cc .cxx .hh .hxx: read as C++ */
    PD_SRC_TEMPLATE    /* numpy's .c.src .h.src .inc.src: expanded, then C */
} pd_srckind;

/* pd_path_kind's suffixes, for messages that name them. */
#define PD_SRC_SUFFIXES ".c .h .inc .c.src .h.src .inc.src .cpp .hpp .cc .cxx .hh .hxx"

/*
 * The kind of file `path` names, by its suffix (case-sensitive; a name
 * that is only the suffix, ".c", is none): Universal Ctags' C and C++
 * suffixes and numpy's templates (pd_domain.c lists them).  PD_SRC_NONE
 * for NULL.  A header is C until its content says C++ (the analyzer's
 * rule, not this one).
 */
pd_srckind pd_path_kind(const char *path);

/*
 * The generation of the source kinds: 1 until the analyzer's version 10
 * (.c .h .c.src .h.src .cpp .hpp .cc), 2 since (.inc .inc.src .cxx .hh
 * .hxx added).  Raise it with every suffix added, giving the new ones the
 * new value: a repository stored under an older one gets their files
 * added by its next ingest (ingest_kinds.h).
 */
#define PD_SRC_KINDS 2

/* The generation that added the suffix of `path` (1 .. PD_SRC_KINDS), 0
 * when pd_path_kind(path) is PD_SRC_NONE. */
int pd_path_kind_since(const char *path);

/* 1 when pd_path_kind(path) is a source kind, 0 otherwise and for NULL. */
int pd_path_is_source(const char *path);

/* API names ("capi", "legacy", "object-universal"); NULL when out of range.
 * Static strings. */
const char *pd_class_name(int c);
const char *pd_status_name(int s);
const char *pd_objstate_name(int s);

/* Inverse of the above: the index of `name`, -1 when unknown or NULL. */
int pd_class_parse(const char *name);
int pd_status_parse(const char *name);
int pd_objstate_parse(const char *name);

/*
 * The classes present among unguarded findings, as a bit set (bit 1 << c
 * for class c with a non-zero count).  `n` has PD_CLASS_COUNT counts.
 */
unsigned pd_classes_present(const int64_t *n);

/* The same from 32-bit counts (the analyzer's). */
unsigned pd_classes_present32(const uint32_t *n);

/*
 * The status rule (DOMAIN.md "Function status") from the classes present
 * among a function's or file's unguarded findings: ported (hpy, no capi,
 * no bridge), bridged (hpy or bridge, together with capi or bridge),
 * legacy (capi or npy-legacy), else neutral.
 */
pd_status pd_status_rule(unsigned present);

/*
 * The universal-ready rule: 1 when no unguarded capi or bridge finding is
 * present (npy-legacy is the project's own API and compiles in universal
 * mode).  Applied to a whole file it gives universal_ready; applied to
 * what lies outside object-dtype paths it gives the no-object-dtype
 * scope's readiness and the gate's universal ratchet.
 */
int pd_universal_ready_rule(unsigned present);

/*
 * The object-state rule (DOMAIN.md "Object-dtype paths", doc/analyzer.md
 * "Object-dtype states"), the one place that decides a state from
 * evidence: `legacy` when the function reads or writes items as
 * PyObject * (itself or through a function it calls for that purpose),
 * `field` when it does so as HPyField, `cpython` when it still needs
 * CPython (an unguarded C API use or bridge, or an HPyField owner that
 * is HPy_NULL, directly or passed to a helper's owner parameter).
 * PyObject * items win: object-legacy; HPyField items only:
 * object-cpython-only with `cpython`, else object-universal; no items:
 * PD_OBJ_NONE, whatever the function mentions.
 */
pd_objstate pd_objstate_rule(int legacy, int field, int cpython);

enum {
#define PD_MEASURE(id, key, label, short_, good, col, fcol, badge, pop, sf, how, expr) \
    PD_M_##id,
#include "pd_measures.def"
#undef PD_MEASURE
    PD_NMEASURES
};

/*
 * Figures summed over files: v[i] is measure i of pd_measures.def.  The
 * named members alias the first rows (pd_domain.c checks each offset), so
 * code that means one measure may say c->fn[PD_STATUS_LEGACY]; a measure
 * added since has only its index (c->v[PD_M_<id>]).  Indexes of the
 * arrays are pd_status (fn), pd_objstate (obj) and pd_class (tok).
 */
typedef union {
    int64_t v[PD_NMEASURES];
    struct {
        int64_t files;
        int64_t universal_ready_files;
        int64_t fn[PD_STATUS_COUNT];
        int64_t obj[PD_OBJ_COUNT];
        int64_t tok[PD_CLASS_COUNT];
    };
} pd_counts;

/*
 * What the measures are derived from (pd_measures.def "how"): the facts
 * of one analysed function, as ingest stores them in table functions.
 */
typedef struct {
    int status;                       /* pd_status, -1 unknown */
    int object;                       /* pd_objstate; PD_OBJ_NONE: none */
    int64_t tok[PD_CLASS_COUNT];      /* findings, guarded or not */
    int64_t ung[PD_CLASS_COUNT];      /* unguarded findings */
} pd_fn_facts;

/* ... and of the whole file (its functions and its file scope), as in
 * table analyses. */
typedef struct {
    int64_t tok[PD_CLASS_COUNT];
    int64_t ung[PD_CLASS_COUNT];
} pd_file_facts;

/*
 * The figures of one file (files = 1) from its facts and those of its
 * `n` functions `fn`, every measure by its row's rule.  A scope that
 * leaves functions out passes the facts without them (pd_file_facts
 * less theirs, and the other functions).
 */
void pd_counts_of_file(pd_counts *out, const pd_file_facts *file,
                       const pd_fn_facts *fn, size_t n);

/* Add (sign = 1) or subtract (sign = -1) `b` into `a`, every measure. */
void pd_counts_add(pd_counts *a, const pd_counts *b, int sign);

/* Which direction of a measure is progress. */
typedef enum { PD_GOOD_NONE = 0, PD_GOOD_UP, PD_GOOD_DOWN } pd_good;

/* What a badge's "P% done" is a share of. */
typedef enum {
    PD_POP_NONE = 0,        /* no population: 100 % at zero, else unknown */
    PD_POP_FILES,           /* files */
    PD_POP_FUNCTIONS,       /* ported + bridged + legacy functions */
    PD_POP_OBJECT_PATHS     /* functions on object-dtype paths */
} pd_population;

/* How a file's figure is derived (pd_measures.def "how"). */
typedef enum { PD_HOW_FILE = 0, PD_HOW_FN } pd_how;

/* One row of pd_measures.def; see there for the fields. */
typedef struct {
    const char *key;
    const char *label;
    const char *short_label;
    pd_good good;
    const char *column;
    const char *file_column;
    const char *badge;
    pd_population population;
    int snapfile;           /* 1: a column of snapshot_files too */
    pd_how how;
} pd_measure;


/* The table, PD_NMEASURES rows in pd_measures.def order. */
extern const pd_measure pd_measures[PD_NMEASURES];

/* Index of the measure with API key `key`, -1 when unknown or NULL. */
int pd_measure_find(const char *key);

/* Value of measure `i` (0 <= i < PD_NMEASURES) in `c`: c->v[i]. */
int64_t pd_measure_value(const pd_counts *c, int i);

/* Set measure `i` of `c` to `v`. */
void pd_measure_set(pd_counts *c, int i, int64_t v);

/* 1 when `file_column` of a row is a column of analyses, 0 when it is a
 * constant such as files' "1". */
int pd_measure_file_is_column(int i);

/* "up", "down" or NULL (neither). */
const char *pd_good_name(pd_good g);

/*
 * The share of measure `i`'s population that is done, 0..1, for badges.
 * One definition of done per population (issue 23.10), whichever measure
 * of it is shown, so that "functions ported" and "functions legacy" give
 * the same percentage: files universal-ready / files; functions ported /
 * (ported + bridged + legacy); object paths universal / object paths (1
 * when the population is empty).  Without a population: 1 at zero for a
 * measure that should fall, else -1 (unknown).  -1 for every measure when
 * no file is counted: an empty selection is not a finished port.
 */
double pd_measure_progress(const pd_counts *c, int i);

/*
 * A share `share` (0..1, as pd_measure_progress gives it) as the percentage
 * a reader sees: rounded to a whole percent, but "<1%" for a share above 0
 * that rounds to 0 and ">99%" for one below 1 that rounds to 100, so that
 * a port that started never reads "0%" and an unfinished one never "100%".
 * The rule of the dashboard's pct() (static/js/dom.mjs), so that a badge
 * and the overview say the same.  Writes at most `size` bytes, NUL
 * included, into `buf` (6 are enough) and returns buf.
 */
char *pd_percent_text(double share, char *buf, size_t size);

/*
 * What "done" means for measure `i`'s population, as a badge says it
 * after the percentage ("universal-ready", "ported", "universal"), and in
 * full (*definition, for GET /api/v1/measures and the badge's title); NULL
 * (and *definition NULL) without a population.
 */
const char *pd_measure_done(int i, const char **definition);

#endif
