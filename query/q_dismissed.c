/*
 * q_dismissed.c: which findings of a list are dismissed
 * (q_dismissed.h): their fingerprints, then the marks the triage store
 * holds.  A leaf: the file page, the object-items list and the summary use
 * it; it uses only db/.
 */
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "q_dismissed.h"
#include "db_triage.h"

void q_dismissed_fingerprint(json_t *seen, const char *const parts[4], char hex[33])
{
    const char *all[5] = {parts[0], parts[1], parts[2], parts[3], NULL};
    unsigned char hash[crypto_hash_sha256_BYTES];
    char key[2048], occ[24];
    crypto_hash_sha256_state st;
    json_int_t n;
    int k;

    snprintf(key, sizeof(key), "%s\n%s\n%s\n%s", all[0] ? all[0] : "",
             all[1] ? all[1] : "", all[2] ? all[2] : "", all[3] ? all[3] : "");
    n = json_integer_value(json_object_get(seen, key));
    json_object_set_new(seen, key, json_integer(n + 1));
    snprintf(occ, sizeof(occ), "#%lld", (long long)n);
    all[4] = occ;
    crypto_hash_sha256_init(&st);
    crypto_hash_sha256_update(&st, (const unsigned char *)"portdash-finding", 17);
    for (k = 0; k < 5; k++)
        crypto_hash_sha256_update(&st, (const unsigned char *)(all[k] ? all[k] : ""),
                                  strlen(all[k] ? all[k] : "") + 1);
    crypto_hash_sha256_final(&st, hash);
    sodium_bin2hex(hex, 33, hash, 16);
}

void q_dismissed_fingerprints_seen(json_t *findings, const char *path, json_t *seen)
{
    json_t *f;
    size_t i;

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
        q_dismissed_fingerprint(seen, parts, hex);
        json_object_set_new(f, "fingerprint", json_string(hex));
    }
}

void q_dismissed_fingerprints(json_t *findings, const char *path)
{
    json_t *seen = json_object();

    q_dismissed_fingerprints_seen(findings, path, seen);
    json_decref(seen);
}

int q_dismissed_apply(sqlite3 *db, int64_t repo_id, json_t *o, const char *key,
                        const char *path)
{
    json_t *list = json_object_get(o, key);
    size_t n = 0;
    int rc;

    q_dismissed_fingerprints(list, path);
    if ((rc = db_triage_mark(db, repo_id, list, &n)) < 0)
        return rc;
    json_object_set_new(o, "dismissed_count", json_integer((json_int_t)n));
    return 0;
}
