/*
 * sarif_write_group.c: SARIF that fits GitHub code scanning
 * (sarif_write_int.h).  A whole code base can have more findings than the 25,000 results GitHub
 * takes in a run (numpy/core: about 41,000), so the writer can give one
 * result per function and class instead, carrying the count and the
 * identifiers used; and whatever the grouping, it keeps at most the
 * allowed number of results, the worst levels first, counting the rest.
 */
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_hash.h"
#include "pd_map.h"
#include "sarif_write_int.h"

#define SG_TOP 5          /* identifiers named in a message */
#define SG_IDENTS 50      /* identifiers listed in properties */

/* Rule id of a grouped result, per class. */
static const char *const sg_rule[AN_CLASS_COUNT] = {
    "class/hpy", "class/capi", "class/npy-legacy", "class/bridge"};

/* One (function, class) of a file. */
typedef struct {
    size_t count, guarded;
    size_t first;         /* index of its first finding */
    int rank;             /* worst level */
    size_t head, tail;    /* all its findings, wanted or not, in order:
                           * the chain through sg_file.next (SIZE_MAX) */
} sg_group;

/* What the results of one file read besides its analysis: the chains of
 * its groups' findings, and each function's occurrence among those of
 * its name (#0, #1 ...: the fingerprint's), so that a result costs its
 * own findings, not the file's (a template of 64,000 functions took 16 s
 * with a pass over every finding and every function per result). */
typedef struct {
    size_t *next;         /* per finding */
    uint32_t *occ;        /* per function */
} sg_file;

typedef struct {
    const char *text;
    size_t n;
} sg_ident;

static int sg_ident_cmp(const void *a, const void *b)
{
    const sg_ident *x = a, *y = b;

    if (x->n != y->n)
        return x->n < y->n ? 1 : -1;
    return strcmp(x->text, y->text);
}

/* The identifiers of group (fn, cls) of res with their counts, most used
 * first, at most cap of them; *n how many. */
static sg_ident *sg_idents(const report_file *rf, const sg_group *g, const sg_file *sf,
                           const report_fail *fail, const sarif_write_opts *o,
                           size_t cap, size_t *n)
{
    const an_result *res = rf->res;
    sg_ident *v = malloc(cap * sizeof(*v));
    size_t k, j;

    *n = 0;
    for (k = g->head; v && k != SIZE_MAX; k = sf->next[k]) {
        const an_finding *f = &res->findings[k];

        if (!sw_wanted(o, fail, rf, k))
            continue;
        for (j = 0; j < *n && strcmp(v[j].text, f->text) != 0; j++)
            ;
        if (j < *n)
            v[j].n++;
        else if (*n < cap)
            v[(*n)++] = (sg_ident){f->text, 1};
    }
    if (v)
        qsort(v, *n, sizeof(*v), sg_ident_cmp);
    return v;
}

/* FNV-1a 64 of the parts, each with its NUL. */
static uint64_t sg_fnv(const char *const *parts, size_t n)
{
    uint64_t h = PD_FNV64_BASIS;

    for (size_t i = 0; i < n; i++)
        h = pd_fnv1a64(h, parts[i], strlen(parts[i]) + 1);
    return h;
}

/* The message of a group: "N capi findings in FN (A x3, B x2, C and 4
 * more identifiers): what the class means." */
static void sg_message(char *msg, size_t cap, const sg_group *g, an_class cls,
                       const char *fn, const sg_ident *v, size_t nv)
{
    size_t k = 0, i;

    k += (size_t)snprintf(msg, cap, "%zu %s finding%s %s%s (", g->count, an_class_name(cls),
                          g->count == 1 ? "" : "s", fn ? "in " : "at file scope",
                          fn ? fn : "");
    for (i = 0; i < nv && i < SG_TOP && k < cap; i++) {
        k += (size_t)snprintf(msg + k, cap - k, "%s%.80s", i ? ", " : "", v[i].text);
        if (v[i].n > 1 && k < cap)
            k += (size_t)snprintf(msg + k, cap - k, " x%zu", v[i].n);
    }
    if (k < cap && nv > SG_TOP)
        k += (size_t)snprintf(msg + k, cap - k, " and %zu more identifiers", nv - SG_TOP);
    if (k < cap)
        snprintf(msg + k, cap - k, ")%s: %s.", g->guarded == g->count ?
                 " in CPython-only #if blocks" : "", sw_class_short[cls]);
}

/* One grouped result. */
static json_t *sg_result(const report_file *rf, const sg_group *g, const sg_file *sf,
                         an_class cls, long rule_index, const report_fail *fail,
                         const sarif_write_opts *o)
{
    static const char *const levels[] = {"none", "note", "warning", "error"};
    const an_result *res = rf->res;
    const an_finding *first = &res->findings[g->first];
    const char *fn = first->function >= 0 ? res->functions[first->function].name : NULL;
    char msg[1024], occ[24], fph[17];
    size_t nv, i;
    sg_ident *v = sg_idents(rf, g, sf, fail, o, 256, &nv);
    json_t *ids = json_object(), *loc, *r, *fixes = NULL;

    if (!v || !ids) {
        free(v);
        json_decref(ids);
        return NULL;
    }
    snprintf(occ, sizeof(occ), "#%u", fn ? (unsigned)sf->occ[first->function] : 0u);
    snprintf(fph, sizeof(fph), "%016llx", (unsigned long long)sg_fnv(
        (const char *[]){"function", an_class_name(cls), fn ? fn : "", occ}, 4));
    sg_message(msg, sizeof(msg), g, cls, fn, v, nv);
    if ((fixes = sw_fixes_of(rf, g->head, sf->next)) != NULL)
        snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg), " %zu checked HPy "
                 "rewrite%s exist%s.", json_array_size(fixes),
                 json_array_size(fixes) == 1 ? "" : "s", json_array_size(fixes) == 1 ? "s" : "");
    for (i = 0; i < nv && i < SG_IDENTS; i++)
        json_object_set_new(ids, v[i].text, json_integer((json_int_t)v[i].n));
    free(v);
    loc = json_pack("{s:{s:{s:o}, s:{s:i, s:i}}}", "physicalLocation",
                    "artifactLocation", "uri", sw_uri(rf->path), "region",
                    "startLine", (json_int_t)first->line,
                    "startColumn", (json_int_t)first->column);
    if (loc && fn)
        json_object_set_new(loc, "logicalLocations",
                            json_pack("[{s:s, s:s}]", "name", fn, "kind", "function"));
    r = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:{s:s}, s:{s:I, s:I, s:o}}",
                  "ruleId", sg_rule[cls], "ruleIndex", (json_int_t)rule_index,
                  "level", levels[g->rank], "message", "text", msg, "locations", loc,
                  "partialFingerprints", "portdash/v1", fph,
                  "properties", "count", (json_int_t)g->count,
                  "guarded", (json_int_t)g->guarded, "identifiers", ids);
    if (r && fixes)
        json_object_set_new(r, "fixes", fixes);
    else
        json_decref(fixes);
    return r;
}

static int sg_first_cmp(const void *a, const void *b)
{
    const sg_group *x = *(sg_group *const *)a, *y = *(sg_group *const *)b;

    return x->first < y->first ? -1 : x->first > y->first;
}

/* sf->occ: each function's number among the earlier ones of its name. */
static int sg_occurrences(const an_result *res, sg_file *sf)
{
    pd_map *seen = pd_map_new(PD_MAP_SEEDED);
    size_t i;

    if (!seen)
        return -1;
    for (i = 0; i < res->nfunctions; i++) {
        const char *name = res->functions[i].name;
        size_t len = strlen(name);
        uintptr_t n = (uintptr_t)pd_map_get(seen, name, len);   /* count + 1 */

        sf->occ[i] = n ? (uint32_t)(n - 1) : 0;
        if (pd_map_put(seen, name, len, (void *)(n ? n + 1 : 2)) < 0) {
            pd_map_free(seen);
            return -1;
        }
    }
    pd_map_free(seen);
    return 0;
}

int sw_group_file(const report_file *rf, sw_rules *sr, json_t *results,
                     const report_fail *fail, const sarif_write_opts *o)
{
    const an_result *res = rf->res;
    size_t slots = (res->nfunctions + 1) * AN_CLASS_COUNT, k, n = 0;
    sg_group *g = calloc(slots, sizeof(*g));
    sg_group **order = malloc((slots + 1) * sizeof(*order));
    sg_file sf = {malloc((res->nfindings + 1) * sizeof(size_t)),
                  malloc((res->nfunctions + 1) * sizeof(uint32_t))};
    int rc = 0;

    if (!g || !order || !sf.next || !sf.occ || sg_occurrences(res, &sf) < 0) {
        rc = pd_error_nomem("writing SARIF");
        goto done;
    }
    for (k = 0; k < slots; k++)
        g[k].head = g[k].tail = SIZE_MAX;
    for (k = 0; k < res->nfindings; k++) {
        const an_finding *f = &res->findings[k];
        sg_group *s = &g[(size_t)(f->function + 1) * AN_CLASS_COUNT + f->cls];
        int rank = sw_level_rank(sw_level(fail, f));

        sf.next[k] = SIZE_MAX;        /* every finding in its group's chain */
        if (s->tail == SIZE_MAX)
            s->head = k;
        else
            sf.next[s->tail] = k;
        s->tail = k;
        if (!sw_wanted(o, fail, rf, k))
            continue;
        if (!s->count++) {
            s->first = k;
            order[n++] = s;
        }
        s->guarded += f->guarded != 0;
        if (rank > s->rank)
            s->rank = rank;
    }
    qsort(order, n, sizeof(*order), sg_first_cmp);
    for (k = 0; k < n && !rc; k++) {
        an_class cls = (an_class)((size_t)(order[k] - g) % AN_CLASS_COUNT);
        long ri = sw_rule_index(sr, sg_rule[cls], cls);

        if (ri < 0 || json_array_append_new(results, sg_result(rf, order[k], &sf, cls, ri,
                                                               fail, o)))
            rc = pd_error_nomem("writing SARIF");
    }
done:
    free(g);
    free(order);
    free(sf.next);
    free(sf.occ);
    return rc;
}

int sw_cap(json_t *results, size_t max, size_t omitted[4])
{
    size_t per[4] = {0}, keep[4] = {0}, left = max, i;
    json_t *kept, *r;
    int rank;

    if (json_array_size(results) <= max)
        return 0;
    json_array_foreach(results, i, r)
        per[sw_level_rank(json_string_value(json_object_get(r, "level")))]++;
    for (rank = 3; rank >= 0; rank--) {
        keep[rank] = per[rank] < left ? per[rank] : left;
        left -= keep[rank];
    }
    if (!(kept = json_array()))
        return pd_error_nomem("writing SARIF");
    json_array_foreach(results, i, r) {
        rank = sw_level_rank(json_string_value(json_object_get(r, "level")));
        if (keep[rank]) {
            keep[rank]--;
            json_array_append(kept, r);
        } else {
            omitted[rank]++;
        }
    }
    json_array_clear(results);
    json_array_extend(results, kept);
    json_decref(kept);
    return 0;
}
