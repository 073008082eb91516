/*
 * sarif_parse.c: check a SARIF 2.1.0 log (OASIS sarif-v2.1.0-os) and reduce
 * it to the runs and results portdash stores, checking every property it
 * reads against the schema (sarif-schema-2.1.0.json) on the way; the log's
 * top level, each run's own parts and each result come here one at a time
 * from the streaming read (sarif_read.c, sarif_log.h).  Like GitHub code
 * scanning and the SARIF SDK, a problem costs only the part it is in: a bad
 * run is skipped, a bad result is skipped, a bad optional property is
 * ignored, and each becomes a warning {pointer (RFC 6901), problem, action}
 * in log->warnings.  Only a log that cannot be read at all (not JSON, not
 * an object, no "version": "2.1.0", no "runs" array) ends the parse with
 * PD_EINVAL and a message "POINTER: problem".
 *
 * Spec rules applied here (section numbers of sarif-v2.1.0-os):
 *   3.17.3  category = automationDetails.id up to its last '/', "" when
 *           the id has a single component or is absent;
 *   3.27.9  kind defaults to "fail";
 *   3.27.10 level defaults to "none" when kind is not "fail", else to the
 *           rule's defaultConfiguration.level, else "warning";
 *   3.27.5-6 ruleId, or ruleIndex into tool.driver.rules (that rule's id);
 *   3.11.5  message placeholders {N} filled from message.arguments;
 *   3.4.4-5 artifactLocation.uriBaseId resolved through
 *           run.originalUriBaseIds, which may chain (at most SP_MAX_CHAIN
 *           deep); artifactLocation.index into run.artifacts.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "sarif_import.h"
#include "sarif_log.h"

#define SP_PTR 512        /* room for one JSON pointer */
#define SP_MAX_CHAIN 8    /* uriBaseId / index indirections followed */

/* Pointer and problem of the last sp_fail, for the warning made from it by
 * the caller that recovers (thread-local: the server parses in parallel). */
static _Thread_local char sp_last_ptr[SP_PTR], sp_last_what[256];

typedef sarif_run_ctx sp_ctx;

static const char *const sp_levels[] = {"none", "note", "warning", "error", NULL};
static const char *const sp_kinds[] = {"notApplicable", "pass", "fail", "review",
                                       "open", "informational", NULL};

/* printf into a pointer buffer; a pointer too long is cut (it is only
 * ever shown in a message). */
static void sp_ptr(char *buf, size_t n, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void sp_ptr(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, n, fmt, ap);
    va_end(ap);
}

/* at + "/" + key with '~' and '/' escaped (RFC 6901 section 3) into buf. */
static void sp_child(char *buf, size_t n, const char *at, const char *key)
{
    size_t k = (size_t)snprintf(buf, n, "%s/", at);

    if (k >= n)
        k = n - 1;
    for (; *key && k + 3 < n; key++) {
        if (*key == '~' || *key == '/') {
            buf[k++] = '~';
            buf[k++] = *key == '~' ? '0' : '1';
        } else {
            buf[k++] = *key;
        }
    }
    buf[k] = '\0';
}

/* Fail at pointer at + "/" + key (key NULL: at itself); returns PD_EINVAL. */
static int sp_fail(const char *at, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int sp_fail(const char *at, const char *key, const char *fmt, ...)
{
    char p[SP_PTR], what[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    if (key)
        sp_child(p, sizeof(p), at, key);
    else
        sp_ptr(p, sizeof(p), "%s", at);
    memcpy(sp_last_ptr, p, sizeof(p));
    memcpy(sp_last_what, what, sizeof(what));
    if (!p[0])
        return pd_error_set(PD_EINVAL, "the log %s", what);
    return pd_error_set(PD_EINVAL, "%s: %s", p, what);
}

/*
 * Record the problem of the last sp_fail as a warning of `log`, with what
 * was done about it (`action`, for example "run skipped").  Returns 0, so
 * a caller can `return sp_warn(...)` to go on; PD_ENOMEM.
 */
static int sp_warn(sarif_log *log, const char *action)
{
    if (json_array_size(log->warnings) + log->warnings_before >= SARIF_MAX_WARN) {
        log->warnings_omitted++;
        return 0;
    }
    if (json_array_append_new(log->warnings, json_pack("{s:s, s:s, s:s}",
            "pointer", sp_last_ptr, "problem", sp_last_what, "action", action)))
        return pd_error_nomem("reading SARIF");
    return 0;
}

/* rc of a step the parse can go on without: a PD_EINVAL becomes a warning
 * with `action`, anything else stays. */
static int sp_soft(int rc, sarif_log *log, const char *action)
{
    return rc == PD_EINVAL ? sp_warn(log, action) : rc;
}

static const char *sp_type_name(json_type t)
{
    switch (t) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    default: return "a value of another type";
    }
}

/*
 * Member `key` of object o (at pointer `at`) into *out: NULL when absent
 * (or null where an array is wanted: the schema allows null arrays).
 * PD_EINVAL when required and absent, or of another type.
 */
static int sp_get(json_t **out, json_t *o, const char *at, const char *key,
                  json_type type, int required)
{
    json_t *v = json_object_get(o, key);

    *out = NULL;
    if (!v || (json_is_null(v) && type == JSON_ARRAY)) {
        if (required && !v)
            return sp_fail(at, key, "required property missing");
        return 0;
    }
    if (json_typeof(v) != type)
        return sp_fail(at, key, "must be %s", sp_type_name(type));
    *out = v;
    return 0;
}

/* PD_EINVAL (at pointer at + key) when string v is longer than `max`. */
static int sp_max(json_t *v, const char *at, const char *key, size_t max)
{
    if (v && json_string_length(v) > max)
        return sp_fail(at, key, "is longer than %zu bytes", max);
    return 0;
}

/* String member `key` that must be one of `values`; *out the matching
 * static string, NULL when absent. */
static int sp_enum(const char **out, json_t *o, const char *at, const char *key,
                   const char *const *values)
{
    char list[200] = "";
    json_t *v;
    size_t i;
    int rc;

    *out = NULL;
    if ((rc = sp_get(&v, o, at, key, JSON_STRING, 0)) < 0 || !v)
        return rc;
    for (i = 0; values[i]; i++) {
        if (strcmp(values[i], json_string_value(v)) == 0) {
            *out = values[i];
            return 0;
        }
        snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s\"%s\"",
                 i ? ", " : "", values[i]);
    }
    return sp_fail(at, key, "must be one of %s", list);
}

/* Integer member `key`, at least `min`; `dflt` when absent. */
static int sp_int(long *out, json_t *o, const char *at, const char *key, long min,
                  long dflt)
{
    json_t *v;
    int rc;

    *out = dflt;
    if ((rc = sp_get(&v, o, at, key, JSON_INTEGER, 0)) < 0 || !v)
        return rc;
    if (json_integer_value(v) < min || json_integer_value(v) > 0x7fffffff)
        return sp_fail(at, key, "must be an integer from %ld", min);
    *out = (long)json_integer_value(v);
    return 0;
}

/* 1 if s starts with a URI scheme (RFC 3986 section 3.1) of 2+ letters, so
 * a Windows drive "C:" is not taken for one. */
static int sp_has_scheme(const char *s)
{
    size_t i = 0;

    if (!((s[0] | 32) >= 'a' && (s[0] | 32) <= 'z'))
        return 0;
    while (s[i] && (strchr("+.-", s[i]) || ((s[i] | 32) >= 'a' && (s[i] | 32) <= 'z') ||
                    (s[i] >= '0' && s[i] <= '9')))
        i++;
    return i >= 2 && s[i] == ':';
}

/* a + b, new string (NULL on ENOMEM); a '/' is put between when a lacks it. */
static char *sp_join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    int slash = na && a[na - 1] != '/';
    char *s = malloc(na + nb + 2);

    if (s)
        snprintf(s, na + nb + 2, "%s%s%s", a, slash ? "/" : "", b);
    return s;
}

/*
 * The URI of artifactLocation `al` (at pointer `at`), following `index`
 * into run.artifacts when it has no uri, and `uriBaseId` through
 * run.originalUriBaseIds.  A base id the run does not define, or one
 * without a uri, stands for the repository root (as %SRCROOT% usually
 * does).  *out is a new string, or NULL when the location has no uri.
 */
static int sp_resolve(char **out, json_t *al, const char *at, const sp_ctx *c, int depth)
{
    json_t *uri, *base_id, *base, *art;
    char p[SP_PTR], *b = NULL;
    long index;
    int rc;

    *out = NULL;
    if (depth > SP_MAX_CHAIN)
        return sp_fail(at, NULL, "more than %d uriBaseId or index steps (a loop?)",
                       SP_MAX_CHAIN);
    if ((rc = sp_get(&uri, al, at, "uri", JSON_STRING, 0)) < 0 ||
        (rc = sp_get(&base_id, al, at, "uriBaseId", JSON_STRING, 0)) < 0 ||
        (rc = sp_int(&index, al, at, "index", -1, -1)) < 0)
        return rc;
    if (!uri && index >= 0) {
        if (!c->artifacts || (size_t)index >= json_array_size(c->artifacts))
            return sp_fail(at, "index", "%ld is not an index of %s/artifacts", index,
                           c->at);
        sp_ptr(p, sizeof(p), "%s/artifacts/%ld", c->at, index);
        if (!json_is_object(art = json_array_get(c->artifacts, (size_t)index)))
            return sp_fail(p, NULL, "must be an object");
        if ((rc = sp_get(&al, art, p, "location", JSON_OBJECT, 0)) < 0 || !al)
            return rc;
        sp_child(p + strlen(p), sizeof(p) - strlen(p), "", "location");
        return sp_resolve(out, al, p, c, depth + 1);
    }
    if (!uri)
        return 0;
    base = base_id && c->bases ? json_object_get(c->bases, json_string_value(base_id))
                               : NULL;
    if (base && !sp_has_scheme(json_string_value(uri))) {
        sp_child(p, sizeof(p), c->at, "originalUriBaseIds");
        sp_child(p + strlen(p), sizeof(p) - strlen(p), "", json_string_value(base_id));
        if (!json_is_object(base))
            return sp_fail(p, NULL, "must be an object");
        if ((rc = sp_resolve(&b, base, p, c, depth + 1)) < 0)
            return rc;
    }
    *out = b ? sp_join(b, json_string_value(uri)) : strdup(json_string_value(uri));
    free(b);
    return *out ? 0 : pd_error_nomem("reading SARIF");
}

/* s with {N} replaced by args[N] and {{ }} undoubled (3.11.5); new string.
 * *too_long: the text would pass SARIF_MAX_MESSAGE (then NULL). */
static char *sp_format(const char *s, json_t *args, int *too_long)
{
    size_t cap = strlen(s) + 1, n = 0;
    char *out = malloc(cap);

    *too_long = 0;
    while (out && *s) {
        const char *piece = s, *end;
        size_t len = 1;
        long k;

        if (s[0] == '{' && (k = strtol(s + 1, (char **)&end, 10)) >= 0 && end > s + 1 &&
            *end == '}' && json_is_string(json_array_get(args, (size_t)k))) {
            piece = json_string_value(json_array_get(args, (size_t)k));
            len = strlen(piece);
            s = end + 1;
        } else {
            s += (s[0] == '{' || s[0] == '}') && s[1] == s[0] ? 2 : 1;
        }
        /* Placeholders repeat arguments: a few KB of log could make GBs. */
        if (n + len > SARIF_MAX_MESSAGE) {
            *too_long = 1;
            free(out);
            return NULL;
        }
        if (n + len + 1 > cap) {
            char *p = realloc(out, cap = (n + len + 1) * 2);

            if (!p) {
                free(out);
                return NULL;
            }
            out = p;
        }
        memcpy(out + n, piece, len);
        n += len;
    }
    if (out)
        out[n] = '\0';
    return out;
}

/* result.message: its text, or the rule's messageStrings[id].text, or the
 * id itself; arguments filled in when given. */
static int sp_message(char **out, json_t *res, const char *at, json_t *rule)
{
    json_t *m, *text, *id, *args, *ms;
    char p[SP_PTR];
    const char *s;
    int rc, too_long = 0;

    *out = NULL;
    if ((rc = sp_get(&m, res, at, "message", JSON_OBJECT, 1)) < 0)
        return rc;
    sp_child(p, sizeof(p), at, "message");
    if ((rc = sp_get(&text, m, p, "text", JSON_STRING, 0)) < 0 ||
        (rc = sp_get(&id, m, p, "id", JSON_STRING, 0)) < 0 ||
        (rc = sp_get(&args, m, p, "arguments", JSON_ARRAY, 0)) < 0)
        return rc;
    if (!text && !id)
        return sp_fail(p, NULL, "needs property \"text\" or \"id\"");
    s = json_string_value(text);
    if (!s && (ms = json_object_get(json_object_get(rule, "messageStrings"),
                                    json_string_value(id))))
        s = json_string_value(json_object_get(ms, "text"));
    if (!s)
        s = json_string_value(id);
    *out = args ? sp_format(s, args, &too_long) : strdup(s);
    if (too_long)
        return sp_fail(p, NULL, "is longer than %d bytes with its arguments filled in",
                       SARIF_MAX_MESSAGE);
    return *out ? 0 : pd_error_nomem("reading SARIF");
}

/* The rule a result names (ruleIndex first, then ruleId); *rule NULL when
 * the run does not describe it. */
static int sp_rule(json_t **rule, sarif_result *r, json_t *res, const char *at,
                   const sp_ctx *c)
{
    json_t *id;
    long ix;
    int rc;

    *rule = NULL;
    if ((rc = sp_soft(sp_get(&id, res, at, "ruleId", JSON_STRING, 0), c->log,
                      "ruleId ignored")) < 0)
        return rc;
    if ((rc = sp_int(&ix, res, at, "ruleIndex", -1, -1)) < 0 ||
        (ix >= 0 && (!c->rules || (size_t)ix >= json_array_size(c->rules)) &&
         (rc = sp_fail(at, "ruleIndex", "%ld is not an index of %s/tool/driver/rules",
                       ix, c->at)) < 0)) {
        ix = -1;
        if ((rc = sp_soft(rc, c->log, id ? "ruleIndex ignored; the rule is the "
                          "result's ruleId" : "ruleIndex ignored; result kept "
                          "without a rule")) < 0)
            return rc;
    }
    r->rule_id = json_string_value(id);
    if (ix >= 0) {
        *rule = json_array_get(c->rules, (size_t)ix);
        if (!r->rule_id)
            r->rule_id = json_string_value(json_object_get(*rule, "id"));
    } else if (r->rule_id) {
        *rule = json_object_get(c->rule_by_id, r->rule_id);
    }
    if (r->rule_id && strlen(r->rule_id) > SARIF_MAX_NAME) {
        r->rule_id = NULL;
        *rule = NULL;
        return sp_soft(sp_fail(at, id ? "ruleId" : "ruleIndex", "names a rule id longer "
                               "than %d bytes", SARIF_MAX_NAME), c->log,
                       "result kept without a rule");
    }
    return 0;
}

/* locations[0].physicalLocation: its URI (resolved) and region start. */
static int sp_location(sarif_result *r, json_t *res, const char *at, const sp_ctx *c)
{
    json_t *locs, *loc, *phys, *al, *region;
    char p[SP_PTR], q[SP_PTR];
    int rc;

    sp_ptr(p, sizeof(p), "%s/locations/0", at);
    if ((rc = sp_get(&locs, res, at, "locations", JSON_ARRAY, 0)) < 0 ||
        !json_array_size(locs))
        return sp_soft(rc, c->log, "locations ignored; result kept without one");
    if (!json_is_object(loc = json_array_get(locs, 0)))
        return sp_soft(sp_fail(p, NULL, "must be an object"), c->log,
                       "location ignored; result kept without one");
    if ((rc = sp_get(&phys, loc, p, "physicalLocation", JSON_OBJECT, 0)) < 0 || !phys)
        return sp_soft(rc, c->log, "location ignored; result kept without one");
    sp_ptr(p + strlen(p), sizeof(p) - strlen(p), "/physicalLocation");
    if ((rc = sp_soft(sp_get(&al, phys, p, "artifactLocation", JSON_OBJECT, 0), c->log,
                      "artifactLocation ignored; result kept, not at a file")) < 0 ||
        (rc = sp_soft(sp_get(&region, phys, p, "region", JSON_OBJECT, 0), c->log,
                      "region ignored; result kept without a line")) < 0)
        return rc;
    if (region) {
        sp_child(q, sizeof(q), p, "region");
        if ((rc = sp_int(&r->line, region, q, "startLine", 1, 0)) < 0 ||
            (rc = sp_int(&r->column, region, q, "startColumn", 1, 0)) < 0) {
            r->line = r->column = 0;
            if ((rc = sp_soft(rc, c->log, "region ignored; result kept without a "
                              "line")) < 0)
                return rc;
        }
    }
    if (!al)
        return 0;
    sp_child(q, sizeof(q), p, "artifactLocation");
    if ((rc = sp_resolve(&r->uri, al, q, c, 0)) == 0 && strlen(r->uri ? r->uri : "") >
        SARIF_MAX_URI)
        rc = sp_fail(q, NULL, "resolves to a URI longer than %d bytes", SARIF_MAX_URI);
    if (rc == PD_EINVAL) {
        free(r->uri);
        r->uri = NULL;
        return sp_warn(c->log, "artifactLocation ignored; result kept, not at a file");
    }
    return rc;
}

/*
 * The level a result of kind `kind` (not "fail") is shown at, `level` being
 * the one it gives (NULL: none given).  3.27.10 makes the default "none";
 * but "open" and "review" ask a person to look (3.27.9), so they show as
 * warnings unless the log gives a level, and "informational" as a note.
 */
static const char *sp_kind_level(const char *kind, const char *level)
{
    int asks = strcmp(kind, "open") == 0 || strcmp(kind, "review") == 0;

    if (level && strcmp(level, "none") != 0)
        return level;
    if (asks)
        return "warning";
    return strcmp(kind, "informational") == 0 ? "note" : "none";
}

/* One result (3.27) at pointer `at`. */
static int sp_result(sarif_result *r, json_t *res, const char *at, const sp_ctx *c)
{
    json_t *rule, *fps, *v;
    const char *key, *dflt;
    int rc;

    if (!json_is_object(res))
        return sp_fail(at, NULL, "must be an object");
    if ((rc = sp_rule(&rule, r, res, at, c)) < 0 ||
        (rc = sp_message(&r->message, res, at, rule)) < 0 ||
        (rc = sp_enum(&r->kind, res, at, "kind", sp_kinds)) < 0 ||
        (rc = sp_soft(sp_enum(&r->level, res, at, "level", sp_levels), c->log,
                      "level ignored; the default level applies")) < 0 ||
        (rc = sp_soft(sp_get(&fps, res, at, "partialFingerprints", JSON_OBJECT, 0),
                      c->log, "partialFingerprints ignored")) < 0)
        return rc;
    if (json_object_size(fps) > SARIF_MAX_FINGERPRINTS) {
        if ((rc = sp_soft(sp_fail(at, "partialFingerprints", "has more than %d members",
                                  SARIF_MAX_FINGERPRINTS), c->log,
                          "partialFingerprints ignored")) < 0)
            return rc;
        fps = NULL;
    }
    json_object_foreach(fps, key, v) {
        char p[SP_PTR];

        sp_child(p, sizeof(p), at, "partialFingerprints");
        rc = !json_is_string(v) ? sp_fail(p, key, "must be a string")
             : strlen(key) > SARIF_MAX_NAME ? sp_fail(p, NULL, "has a member name longer "
                                                      "than %d bytes", SARIF_MAX_NAME)
             : sp_max(v, p, key, SARIF_MAX_NAME);
        if (rc < 0) {
            if ((rc = sp_soft(rc, c->log, "partialFingerprints ignored")) < 0)
                return rc;
            fps = NULL;
            break;
        }
    }
    r->fingerprints = fps;
    if (!r->kind)
        r->kind = "fail";
    dflt = json_string_value(json_object_get(json_object_get(rule, "defaultConfiguration"),
                                             "level"));
    if (strcmp(r->kind, "fail") != 0)
        r->level = sp_kind_level(r->kind, r->level);
    for (size_t i = 0; !r->level && dflt && sp_levels[i]; i++)
        if (strcmp(dflt, sp_levels[i]) == 0)
            r->level = sp_levels[i];
    if (!r->level)
        r->level = "warning";
    if ((rc = sp_location(r, res, at, c)) < 0)
        return rc;
    /* What the log makes beyond its own bytes, for all results together
     * (the rest of what is stored is counted by sarif_store.c). */
    *c->made += strlen(r->message) + (r->uri ? strlen(r->uri) : 0);
    if (*c->made > SARIF_MAX_MADE)
        return sp_fail(at, NULL, "the log's messages and locations, arguments and base "
                       "URIs filled in, pass %zu MiB here", SARIF_MAX_MADE >> 20);
    return 0;
}

/* tool.driver: name, version, and the rules (each an object with a string
 * id and a valid defaultConfiguration.level), indexed by id into c. */
static int sp_driver(sarif_run *run, json_t *jr, sp_ctx *c)
{
    json_t *tool, *driver, *name, *ver, *rule;
    char p[SP_PTR], q[SP_PTR];
    const char *level;
    size_t i;
    int rc;

    if ((rc = sp_get(&tool, jr, c->at, "tool", JSON_OBJECT, 1)) < 0)
        return rc;
    sp_ptr(p, sizeof(p), "%s/tool", c->at);
    if ((rc = sp_get(&driver, tool, p, "driver", JSON_OBJECT, 1)) < 0)
        return rc;
    sp_ptr(p + strlen(p), sizeof(p) - strlen(p), "/driver");
    if ((rc = sp_get(&name, driver, p, "name", JSON_STRING, 1)) < 0 ||
        (rc = sp_soft(sp_get(&ver, driver, p, "semanticVersion", JSON_STRING, 0),
                      c->log, "semanticVersion ignored")) < 0 ||
        (!ver && (rc = sp_soft(sp_get(&ver, driver, p, "version", JSON_STRING, 0),
                               c->log, "version ignored")) < 0) ||
        (rc = sp_soft(sp_get(&c->rules, driver, p, "rules", JSON_ARRAY, 0), c->log,
                      "rules ignored")) < 0)
        return rc;
    if ((rc = sp_max(name, p, "name", SARIF_MAX_NAME)) < 0 ||
        (rc = sp_soft(sp_max(ver, p, json_object_get(driver, "semanticVersion") == ver ?
                             "semanticVersion" : "version", SARIF_MAX_NAME), c->log,
                      "version ignored")) < 0)
        return rc;
    if (ver && json_string_length(ver) > SARIF_MAX_NAME)
        ver = NULL;
    run->tool = json_string_value(name);
    run->version = json_string_value(ver);
    if (!run->tool[0]) {
        run->tool = SARIF_UNNAMED_TOOL;
        if ((rc = sp_soft(sp_fail(p, "name", "is empty"), c->log,
                          "run stored under tool \"" SARIF_UNNAMED_TOOL "\"")) < 0)
            return rc;
    }
    json_array_foreach(c->rules, i, rule) {
        json_t *id = NULL, *conf = NULL;

        sp_ptr(q, sizeof(q), "%s/rules/%zu", p, i);
        rc = json_is_object(rule) ? 0 : sp_fail(q, NULL, "must be an object");
        if (rc == 0 && (rc = sp_get(&id, rule, q, "id", JSON_STRING, 1)) == 0 &&
            (rc = sp_max(id, q, "id", SARIF_MAX_NAME)) == 0 &&
            (rc = sp_get(&conf, rule, q, "defaultConfiguration", JSON_OBJECT, 0)) == 0 &&
            conf) {
            sp_ptr(q + strlen(q), sizeof(q) - strlen(q), "/defaultConfiguration");
            rc = sp_enum(&level, conf, q, "level", sp_levels);
        }
        if (rc < 0) {
            if ((rc = sp_soft(rc, c->log, "rule ignored")) < 0)
                return rc;
            continue;
        }
        if (!json_object_get(c->rule_by_id, json_string_value(id)))
            json_object_set(c->rule_by_id, json_string_value(id), rule);
    }
    return 0;
}

/* The run's category (3.17.3): automationDetails.id up to its last '/'. */
static int sp_category(sarif_run *run, json_t *jr, const char *at, sarif_log *log)
{
    json_t *ad, *id = NULL;
    char p[SP_PTR];
    const char *s, *slash;
    int rc;

    if ((rc = sp_soft(sp_get(&ad, jr, at, "automationDetails", JSON_OBJECT, 0), log,
                      "automationDetails ignored; category \"\"")) < 0)
        return rc;
    sp_child(p, sizeof(p), at, "automationDetails");
    if (ad && (rc = sp_soft(sp_get(&id, ad, p, "id", JSON_STRING, 0), log,
                            "automationDetails ignored; category \"\"")) < 0)
        return rc;
    if (id && (rc = sp_max(id, p, "id", SARIF_MAX_NAME)) < 0) {
        id = NULL;
        if ((rc = sp_soft(rc, log, "automationDetails ignored; category \"\"")) < 0)
            return rc;
    }
    s = id ? json_string_value(id) : "";
    slash = strrchr(s, '/');
    run->category = slash ? strndup(s, (size_t)(slash - s)) : strdup("");
    return run->category ? 0 : pd_error_nomem("reading SARIF");
}

int sarif_run_check(sarif_run *run, sarif_run_ctx *c)
{
    json_t *jr = c->meta, *results;
    int rc;

    if (!c->rule_by_id && !(c->rule_by_id = json_object()))
        return pd_error_nomem("reading SARIF");
    if (!json_is_object(jr))
        return sp_fail(c->at, NULL, "must be an object");
    if ((rc = sp_driver(run, jr, c)) < 0 || (rc = sp_category(run, jr, c->at, c->log)) < 0 ||
        (rc = sp_soft(sp_get(&c->artifacts, jr, c->at, "artifacts", JSON_ARRAY, 0), c->log,
                      "artifacts ignored")) < 0 ||
        (rc = sp_soft(sp_get(&c->bases, jr, c->at, "originalUriBaseIds", JSON_OBJECT, 0),
                      c->log, "originalUriBaseIds ignored")) < 0)
        return rc;
    return sp_get(&results, jr, c->at, "results", JSON_ARRAY, 0);
}

int sarif_result_check(sarif_result *r, json_t *res, const char *at,
                       const sarif_run_ctx *c)
{
    return sp_result(r, res, at, c);
}

int sarif_top_check(json_t *top)
{
    json_t *version, *runs;
    int rc;

    if (!top)
        return sp_fail("", NULL, "must be a JSON object");
    if ((rc = sp_get(&version, top, "", "version", JSON_STRING, 1)) < 0)
        return rc;
    if (strcmp(json_string_value(version), "2.1.0") != 0)
        return sp_fail("", "version", "must be \"2.1.0\"");
    return sp_get(&runs, top, "", "runs", JSON_ARRAY, 1);
}

int sarif_warn(sarif_log *log, const char *action)
{
    return sp_warn(log, action);
}

int sarif_fail(const char *at, const char *fmt, ...)
{
    char what[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(what, sizeof(what), fmt, ap);
    va_end(ap);
    return sp_fail(at, NULL, "%s", what);
}
