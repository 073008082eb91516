/*
 * sarif_write.c: SARIF 2.1.0 output of analyses (sarif_write.h).
 *
 * Format: OASIS "Static Analysis Results Interchange Format Version 2.1.0"
 * (sarif-v2.1.0-os), checked in tests/node/sarif.test.mjs against the
 * published JSON schema sarif-schema-2.1.0.json.  One run; its rules are
 * the rule ids of the rules file that produced results, in order of first
 * use, so ruleIndex is the position in tool.driver.rules.  Grouping per
 * function and the cut to GitHub's limits are sarif_write_group.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <zlib.h>

#include "pd_error.h"
#include "pd_hash.h"
#include "report_fail.h"
#include "sarif_write.h"
#include "sarif_write_int.h"

static uint64_t sw_fnv(uint64_t h, const char *s, size_t n)
{
    return pd_fnv1a64(h, s, n);
}

/* Hash of (rule, function name, text), the part of a fingerprint that
 * does not depend on order. */
static uint64_t sw_key(const an_result *res, const an_finding *f)
{
    const char *fn = f->function >= 0 ? res->functions[f->function].name : "";
    uint64_t h = PD_FNV64_BASIS;

    h = sw_fnv(h, f->rule, strlen(f->rule) + 1);
    h = sw_fnv(h, fn, strlen(fn) + 1);
    return sw_fnv(h, f->text, strlen(f->text) + 1);
}

typedef struct {
    uint64_t key;
    size_t idx;
} sarif_occ;

static int sw_occ_cmp(const void *a, const void *b)
{
    const sarif_occ *x = a, *y = b;

    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* fp[i]: the fingerprint of finding i of res (see sarif_write.h), made by
 * sorting the keys so each occurrence index costs O(log n).  Returns 0 or
 * PD_ENOMEM. */
static int sw_fingerprints(const an_result *res, uint64_t *fp)
{
    sarif_occ *o = malloc((res->nfindings + 1) * sizeof(*o));
    size_t i, occ = 0;

    if (!o)
        return pd_error_nomem("writing SARIF");
    for (i = 0; i < res->nfindings; i++) {
        o[i].key = sw_key(res, &res->findings[i]);
        o[i].idx = i;
    }
    qsort(o, res->nfindings, sizeof(*o), sw_occ_cmp);
    for (i = 0; i < res->nfindings; i++) {
        char n[24];
        int len;

        occ = i > 0 && o[i].key == o[i - 1].key ? occ + 1 : 0;
        len = snprintf(n, sizeof(n), "#%zu", occ);
        fp[o[i].idx] = sw_fnv(o[i].key, n, (size_t)len);
    }
    free(o);
    return 0;
}

/* `path` as a relative URI reference (RFC 3986): unreserved bytes and '/'
 * kept, everything else percent-encoded; a leading "./" dropped.  Returns
 * a new json string. */
static json_t *sw_result(const report_file *rf, const an_finding *f,
                            long rule_index, uint64_t fp,
                            const report_fail *fail)
{
    const an_result *res = rf->res;
    const char *fn = f->function >= 0 ? res->functions[f->function].name : NULL;
    const char *level = sw_level(fail, f);
    char msg[800], fph[17];
    const char *fix_rule = NULL;
    json_t *loc, *r, *fix;

    snprintf(msg, sizeof(msg), "%s `%.300s`%s%s%s: %s.",
             an_class_name(f->cls), f->text, fn ? " in " : "", fn ? fn : "",
             f->guarded ? " (in a CPython-only #if block)" : "",
             sw_class_short[f->cls]);
    snprintf(fph, sizeof(fph), "%016llx", (unsigned long long)fp);
    loc = json_pack("{s:{s:{s:o}, s:{s:i, s:i}}}", "physicalLocation",
                    "artifactLocation", "uri", sw_uri(rf->path),
                    "region", "startLine", (json_int_t)f->line,
                    "startColumn", (json_int_t)f->column);
    if (loc && fn)
        json_object_set_new(loc, "logicalLocations",
                            json_pack("[{s:s, s:s}]", "name", fn,
                                      "kind", "function"));
    fix = rf->fixes ? sw_fix(rf, f, &fix_rule) : NULL;
    if (fix)
        snprintf(msg + strlen(msg), sizeof(msg) - strlen(msg),
                 " A checked HPy rewrite exists (%s).", fix_rule);
    r = json_pack("{s:s, s:i, s:s, s:{s:s}, s:[o], s:{s:s}}",
                  "ruleId", f->rule, "ruleIndex", (json_int_t)rule_index,
                  "level", level, "message", "text", msg, "locations", loc,
                  "partialFingerprints", "portdash/v1", fph);
    if (r && fix)
        json_object_set_new(r, "fixes", json_pack("[o]", fix));
    else
        json_decref(fix);
    return r;
}

static int sw_file(const report_file *rf, sw_rules *sr, json_t *results,
                      const report_fail *fail, const sarif_write_opts *o)
{
    const an_result *res = rf->res;
    uint64_t *fp = malloc((res->nfindings + 1) * sizeof(*fp));
    size_t i;
    int rc = 0;

    if (!fp || sw_fingerprints(res, fp)) {
        free(fp);
        return pd_error_nomem("writing SARIF");
    }
    for (i = 0; i < res->nfindings && !rc; i++) {
        const an_finding *f = &res->findings[i];
        long ri;

        if (!sw_wanted(o, fail, rf, i))
            continue;
        if ((ri = sw_rule_index(sr, f->rule, f->cls)) < 0 ||
            json_array_append_new(results,
                                  sw_result(rf, f, ri, fp[i], fail)))
            rc = pd_error_nomem("writing SARIF");
    }
    free(fp);
    return rc;
}

/* Bytes of `s` (n) gzip-compressed at the default level, as `gzip` and the
 * upload-sarif action send it; 0 on a zlib failure. */
static size_t sw_gzip_size(const char *s, size_t n)
{
    unsigned char buf[1 << 15];
    z_stream zs;
    size_t total = 0;
    int zrc = Z_OK;

    memset(&zs, 0, sizeof(zs));
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8,
                     Z_DEFAULT_STRATEGY) != Z_OK)
        return 0;
    zs.next_in = (Bytef *)s;
    zs.avail_in = (uInt)n;
    while (zrc == Z_OK) {
        zs.next_out = buf;
        zs.avail_out = sizeof(buf);
        zrc = deflate(&zs, Z_FINISH);
        total += sizeof(buf) - zs.avail_out;
    }
    deflateEnd(&zs);
    return zrc == Z_STREAM_END ? total : 0;
}

/* Selected and filtered-out findings of the n files under o. */
static void sw_count(const report_file *files, size_t n, const report_fail *fail,
                        const sarif_write_opts *o, size_t *wanted, size_t *filtered)
{
    size_t i, k;

    *wanted = *filtered = 0;
    for (i = 0; i < n; i++)
        for (k = 0; k < files[i].res->nfindings; k++) {
            const an_finding *x = &files[i].res->findings[k];

            if (sw_wanted(o, fail, &files[i], k))
                (*wanted)++;
            else if (x->cls != AN_CLASS_HPY)
                (*filtered)++;
        }
}

/* What was done, for run.properties["portdash/sarif"]. */
static json_t *sw_props(size_t wanted, size_t filtered, int grouped, size_t results,
                           const size_t omitted[4], size_t max)
{
    return json_pack("{s:I, s:I, s:s, s:I, s:I, s:{s:I, s:I, s:I}, s:I}",
                     "findings", (json_int_t)wanted, "filtered", (json_int_t)filtered,
                     "grouping", grouped ? "function" : "finding",
                     "results", (json_int_t)results,
                     "omitted", (json_int_t)(omitted[1] + omitted[2] + omitted[3]),
                     "omittedByLevel", "note", (json_int_t)omitted[1],
                     "warning", (json_int_t)omitted[2], "error", (json_int_t)omitted[3],
                     "maxResults", (json_int_t)max);
}

/* The statement on o->note: what was grouped or left out, and the sizes
 * against GitHub's limits. */
static void sw_state(FILE *note, json_t *props, size_t bytes, size_t gz)
{
    json_int_t w = json_integer_value(json_object_get(props, "findings"));
    json_int_t res = json_integer_value(json_object_get(props, "results"));
    json_int_t om = json_integer_value(json_object_get(props, "omitted"));
    json_int_t fl = json_integer_value(json_object_get(props, "filtered"));
    int grouped = strcmp(json_string_value(json_object_get(props, "grouping")), "function") == 0;

    if (!note)
        return;
    fprintf(note, "portdash analyze: SARIF: %lld findings -> %lld results%s; %zu bytes, "
            "%zu gzip (GitHub: at most %d results per run, 10 MB gzip)\n", (long long)w,
            (long long)res, grouped ? ", one per function and class (--sarif-group "
            "finding for one per finding)" : "", bytes, gz, SARIF_WRITE_MAX_RESULTS);
    if (fl)
        fprintf(note, "portdash analyze: SARIF: %lld findings left out by --sarif-classes, "
                "--sarif-level or --sarif-since\n", (long long)fl);
    if (om)
        fprintf(note, "portdash analyze: SARIF: %lld results left out over the limit of "
                "%lld (lowest levels first; see run.properties[\"portdash/sarif\"])\n",
                (long long)om, json_integer_value(json_object_get(props, "maxResults")));
    if (res > SARIF_WRITE_SHOWN_RESULTS)
        fprintf(note, "portdash analyze: SARIF: note: GitHub shows the top %d results of "
                "a run by severity\n", SARIF_WRITE_SHOWN_RESULTS);
    if (gz > SARIF_WRITE_MAX_GZIP)
        fprintf(note, "portdash analyze: SARIF: warning: over GitHub's 10 MB gzip limit; "
                "try --sarif-group function or --sarif-level warning\n");
}

/* The results array of the n files under o; *grouped, omitted[] filled. */
static int sw_results(json_t *results, sw_rules *sr, const report_file *files,
                         size_t n, const report_fail *fail, const sarif_write_opts *o,
                         size_t wanted, int *grouped, size_t omitted[4])
{
    size_t i, max = o->max_results ? o->max_results : SARIF_WRITE_MAX_RESULTS;
    int rc = 0;

    *grouped = o->group == SARIF_WRITE_FUNCTION ||
               (o->group == SARIF_WRITE_AUTO && wanted > max);
    for (i = 0; i < n && !rc; i++)
        rc = *grouped ? sw_group_file(&files[i], sr, results, fail, o)
                      : sw_file(&files[i], sr, results, fail, o);
    return rc ? rc : sw_cap(results, max, omitted);
}

int sarif_write_ex(FILE *out, const report_file *files, size_t n, const rules *r,
                    const report_fail *f, const sarif_write_opts *o)
{
    static const sarif_write_opts dflt = {0};
    sw_rules sr = {0};
    json_t *doc = NULL, *results = json_array(), *props;
    size_t wanted, filtered, omitted[4] = {0}, len;
    char *text = NULL;
    int rc, grouped = 0;

    if (!o)
        o = &dflt;
    sr.rules = json_array();
    sw_count(files, n, f, o, &wanted, &filtered);
    rc = sr.rules && results ? sw_results(results, &sr, files, n, f, o, wanted,
                                             &grouped, omitted)
                             : pd_error_nomem("writing SARIF");
    props = sw_props(wanted, filtered, grouped, json_array_size(results), omitted,
                        o->max_results ? o->max_results : SARIF_WRITE_MAX_RESULTS);
    if (props && o->since)
        json_object_set_new(props, "since", json_string(o->since));
    if (!rc)
        doc = json_pack(
            "{s:s, s:s, s:[{s:{s:{s:s, s:s, s:s, s:s, s:o, s:{s:s}}}, s:o, s:{s:O}}]}",
            "$schema", "https://json.schemastore.org/sarif-2.1.0.json",
            "version", "2.1.0", "runs", "tool", "driver", "name", "portdash",
            "informationUri", REPORT_TOOL_URI,
            "version", REPORT_TOOL_VERSION, "semanticVersion",
            REPORT_TOOL_VERSION, "rules", sr.rules, "properties",
            "rulesHash", r ? rules_hash(r) : "", "results", results,
            "properties", "portdash/sarif", props);
    else {
        json_decref(sr.rules);
        json_decref(results);
    }
    if (!rc && (!doc || !(text = json_dumps(doc, JSON_INDENT(1) | JSON_ENSURE_ASCII))))
        rc = pd_error_nomem("writing SARIF");
    len = text ? strlen(text) : 0;
    if (!rc && (fwrite(text, 1, len, out) != len || fputc('\n', out) == EOF))
        rc = pd_error_set(PD_EIO, "cannot write the SARIF report");
    if (!rc)
        sw_state(o->note, props, len + 1, sw_gzip_size(text, len));
    free(text);
    json_decref(props);
    json_decref(doc);
    free(sr.ids);
    return rc;
}

int sarif_write(FILE *out, const report_file *files, size_t n,
                 const rules *r, const report_fail *f)
{
    return sarif_write_ex(out, files, n, r, f, NULL);
}

int sarif_write_classes(unsigned *out, const char *words)
{
    static const char *const names[] = {"capi", "npy-legacy", "bridge"};
    static const an_class cls[] = {AN_CLASS_CAPI, AN_CLASS_NPY_LEGACY, AN_CLASS_BRIDGE};
    const char *p = words;
    size_t i, k;

    *out = 0;
    while (*p) {
        k = strcspn(p, ",");
        for (i = 0; i < 3 && !(strlen(names[i]) == k && strncmp(p, names[i], k) == 0); i++)
            ;
        if (i == 3)
            return pd_error_set(PD_EINVAL, "--sarif-classes: unknown class '%.*s' "
                                "(capi, npy-legacy, bridge)", (int)(k > 40 ? 40 : k), p);
        *out |= 1u << cls[i];
        p += k + (p[k] == ',');
    }
    return *out ? 0 : pd_error_set(PD_EINVAL, "--sarif-classes: no class given");
}

int sarif_write_level(int *out, const char *word)
{
    *out = strcmp(word, "none") == 0 ? 0 : sw_level_rank(word);
    if (*out == 0)
        return pd_error_set(PD_EINVAL, "--sarif-level: '%.40s' is not note, warning "
                            "or error", word);
    return 0;
}
