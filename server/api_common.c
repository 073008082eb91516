/*
 * api_common.c: what every API answer is built from (api_common.h): the
 * {repo}/{rev} pair resolved, measures as JSON objects, and repository text
 * as JSON strings.  A leaf of server/: it calls no handler.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api_common.h"
#include "db.h"
#include "db_commit.h"
#include "db_missing.h"
#include "pd_error.h"
#include "pd_time.h"
#include "pd_utf8.h"
#include "analyzer/analyzer.h"

int api_bridge_mechanism(const char *name)
{
    const rules *rl = rules_default();
    const rules_name *rn = rl ? rules_lookup(rl, name, strlen(name)) : NULL;

    return rn && rn->exact.cls == AN_CLASS_BRIDGE;
}

json_t *api_group_obj(const db_counts *c, const char *group)
{
    json_t *o = json_object();
    size_t n = strlen(group);
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        const char *key = pd_measures[i].key;

        if (strncmp(key, group, n) == 0 && key[n] == '.')
            json_object_set_new(o, key + n + 1, json_integer(c->v[i]));
    }
    return o;
}

json_t *api_tokens_obj(const int64_t tok[4])
{
    json_t *o = json_object();
    int i;

    for (i = 0; i < PD_CLASS_COUNT; i++)
        json_object_set_new(o, pd_class_name(i), json_integer(tok[i]));
    return o;
}

json_t *api_measures_obj(const db_counts *c)
{
    json_t *o = json_object();
    int i;

    for (i = 0; i < PD_NMEASURES; i++) {
        const char *key = pd_measures[i].key, *dot = strchr(key, '.');
        json_t *group;
        char name[64];

        if (!dot) {
            json_object_set_new(o, key, json_integer(c->v[i]));
            continue;
        }
        /* "functions.ported" is {"functions": {"ported": n}}. */
        snprintf(name, sizeof(name), "%.*s", (int)(dot - key), key);
        if (!(group = json_object_get(o, name)))
            json_object_set_new(o, name, group = json_object());
        json_object_set_new(group, dot + 1, json_integer(c->v[i]));
    }
    return o;
}

json_t *api_text(const char *s)
{
    json_t *j;
    char *fixed;
    size_t i = 0, o = 0, n, k;

    if (!s)
        return json_null();
    if ((j = json_string(s)))
        return j;
    /* Invalid UTF-8 (a file name is bytes in git): valid characters stay,
     * every other byte becomes "\\xHH", which api_text_bytes turns back, so
     * the name still opens its page. */
    n = strlen(s);
    if (!(fixed = malloc(n * 4 + 1)))
        return NULL;
    while (i < n) {
        if ((k = pd_utf8_len((const unsigned char *)s + i, n - i))) {
            memcpy(fixed + o, s + i, k);
            o += k;
            i += k;
        } else {
            o += (size_t)snprintf(fixed + o, 5, "\\x%02X", (unsigned char)s[i++]);
        }
    }
    fixed[o] = '\0';
    j = json_string(fixed);
    free(fixed);
    return j;
}

char *api_text_bytes(const char *s)
{
    char *out = malloc(strlen(s) + 1), *o = out;
    unsigned v;

    while (out && *s) {
        if (s[0] == '\\' && s[1] == 'x' && sscanf(s + 2, "%2X", &v) == 1 &&
            strspn(s + 2, "0123456789abcdefABCDEF") >= 2 && v >= 0x80) {
            *o++ = (char)v;
            s += 4;
        } else {
            *o++ = *s++;
        }
    }
    if (out)
        *o = '\0';
    return out;
}

int api_resolve_at(sqlite3 *db, const char *repo, const char *rev, api_at *at)
{
    return q_at_resolve(db, repo, rev, at);
}

int api_resolve(srv_req *r, api_at *at)
{
    int rc = api_resolve_at(r->db, r->param[0], r->param[1], at);

    /* A full commit id names content that never changes (under given rules),
     * unless the clone lacked objects that a later ingest may bring. */
    if (rc == 0 && strcmp(r->param[1], at->oid) == 0 && db_missing_any(r->db, at->repo_id) == 0)
        r->immutable = 1;
    return rc;
}

/* {"commit", "author_date", "committer_date"} of a commit. */
json_t *api_commit_point(const db_commit_when *w)
{
    char a[40], c[40];

    pd_iso8601(a, sizeof(a), w->author_time, w->author_offset);
    pd_iso8601(c, sizeof(c), w->committer_time, w->committer_offset);
    return json_pack("{s:s, s:s, s:s}", "commit", w->oid, "author_date", a,
                     "committer_date", c);
}
