/*
 * q_dismissed.c: which findings of a list are dismissed
 * (q_dismissed.h): their fingerprints, then the marks the triage store
 * holds.  A leaf: the file page, the object-items list and the summary use
 * it; it uses only db/.
 */
#include <stdio.h>
#include <string.h>

#include "q_dismissed.h"
#include "db_triage.h"
#include "pd_error.h"

int q_dismissed_fingerprints_seen(json_t *findings, const char *path, q_fp_seen *seen)
{
    json_t *f;
    size_t i;
    int rc;

    json_array_foreach(findings, i, f) {
        const char *parts[4] = {
            json_string_value(json_object_get(f, "path")),
            json_string_value(json_object_get(f, "rule")),
            json_string_value(json_object_get(f, "function")),
            json_string_value(json_object_get(f, "text"))};
        char hex[33];

        if (json_object_get(f, "fingerprint"))
            continue;
        if (!parts[0])
            parts[0] = path;
        if ((rc = q_fp_one(seen, parts, hex)) < 0)
            return rc;
        json_object_set_new(f, "fingerprint", json_string(hex));
    }
    return 0;
}

int q_dismissed_fingerprints(json_t *findings, const char *path)
{
    q_fp_seen *seen = q_fp_seen_new();
    int rc = seen ? q_dismissed_fingerprints_seen(findings, path, seen) : PD_ENOMEM;

    q_fp_seen_free(seen);
    return rc;
}

int q_dismissed_apply(sqlite3 *db, int64_t repo_id, json_t *o, const char *key,
                        const char *path)
{
    json_t *list = json_object_get(o, key);
    size_t n = 0;
    int rc;

    if ((rc = q_dismissed_fingerprints(list, path)) < 0 ||
        (rc = db_triage_mark(db, repo_id, list, &n)) < 0)
        return rc;
    json_object_set_new(o, "dismissed_count", json_integer((json_int_t)n));
    return 0;
}
