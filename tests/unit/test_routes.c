/*
 * test_routes.c: the route table (server/srv_routes.c) and the OpenAPI
 * document (server/openapi.json, as embedded in the binary) say the same
 * thing: every route with an operationId is documented under its method
 * and path with that operationId, the security its token permission implies and
 * its success answer's schema; every documented operation is a route; and
 * each record's cache policy and body fit its pattern and method.  No
 * server is started: the table and the document are data.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <cmocka.h>
#include <jansson.h>

#include "srv_routes.h"

extern const char srv_openapi_json[];
extern const unsigned long srv_openapi_json_len;

static json_t *g_doc;

static int setup(void **state)
{
    json_error_t err;

    g_doc = json_loadb(srv_openapi_json, srv_openapi_json_len, 0, &err);
    if (!g_doc)
        fprintf(stderr, "openapi.json: line %d: %s\n", err.line, err.text);
    return g_doc ? 0 : -1;
}

static int teardown(void **state)
{
    json_decref(g_doc);
    return 0;
}

/* "/a/{x...}" -> "/a/{x}", the OpenAPI spelling of a route pattern. */
static void openapi_path(char *out, size_t n, const char *pattern)
{
    const char *dots = strstr(pattern, "...}");

    if (dots)
        snprintf(out, n, "%.*s}", (int)(dots - pattern), pattern);
    else
        snprintf(out, n, "%s", pattern);
}

static void lower(char *out, size_t n, const char *s)
{
    size_t k;

    for (k = 0; s[k] && k + 1 < n; k++)
        out[k] = (char)(s[k] | 0x20);
    out[k] = '\0';
}

/* The operation object of route `rt` in the document, or NULL. */
static json_t *route_operation(const srv_route *rt)
{
    char path[256], method[16];

    openapi_path(path, sizeof(path), rt->pattern);
    lower(method, sizeof(method), rt->method);
    return json_object_get(json_object_get(json_object_get(g_doc, "paths"), path), method);
}

/* The security a route's token permission means (srv_routes.h): a write
 * permission is that bearer scope (OpenAPI's word); SRV_PUBLIC none ([]); NULL anonymous or, under
 * serve --private, a token with "read". */
static json_t *expected_security(const srv_route *rt)
{
    if (!rt->perm)
        return json_pack("[{}, {s:[s]}]", "bearer", "read");
    if (!*rt->perm)
        return json_array();
    return json_pack("[{s:[s]}]", "bearer", rt->perm);
}

/* The one 2xx response of an operation (the table's "success answer"). */
static json_t *success_response(const srv_route *rt, json_t *op)
{
    json_t *resp, *found = NULL;
    const char *code;

    json_object_foreach(json_object_get(op, "responses"), code, resp) {
        if (code[0] != '2')
            continue;
        if (found)
            fail_msg("%s documents two success statuses", rt->operation);
        found = resp;
    }
    if (!found)
        fail_msg("%s documents no success status", rt->operation);
    return found;
}

static void test_every_route_is_documented_as_its_record_says(void **state)
{
    size_t i, documented = 0;

    for (i = 0; i < srv_routes_count; i++) {
        const srv_route *rt = &srv_routes[i];
        json_t *op, *want, *ok, *json_schema;
        const char *id;

        if (!rt->operation)
            continue;
        if (!(op = route_operation(rt)))
            fail_msg("route %s %s (%s) is not in openapi.json", rt->method, rt->pattern,
                     rt->operation);
        id = json_string_value(json_object_get(op, "operationId"));
        if (!id || strcmp(id, rt->operation) != 0)
            fail_msg("%s %s: operationId %s in openapi.json, %s in the table", rt->method,
                     rt->pattern, id ? id : "(none)", rt->operation);
        want = expected_security(rt);
        if (!json_equal(json_object_get(op, "security"), want)) {
            char *got = json_dumps(json_object_get(op, "security"), JSON_COMPACT);
            char *exp = json_dumps(want, JSON_COMPACT);

            fail_msg("%s: security %s in openapi.json, the table's permission means %s",
                     rt->operation, got ? got : "(none)", exp);
        }
        json_decref(want);
        ok = success_response(rt, op);
        json_schema = json_object_get(json_object_get(json_object_get(ok, "content"),
                                                      "application/json"), "schema");
        if (rt->schema) {
            const char *got = json_string_value(json_object_get(json_schema, "$ref"));
            char ref[128];

            snprintf(ref, sizeof(ref), "#/components/schemas/%s", rt->schema);
            if (!got || strcmp(got, ref) != 0)
                fail_msg("%s: the success answer's schema is not %s", rt->operation, ref);
            if (!json_object_get(json_object_get(json_object_get(g_doc, "components"),
                                                 "schemas"), rt->schema))
                fail_msg("%s: components/schemas/%s is missing", rt->operation, rt->schema);
        } else if (json_schema) {
            fail_msg("%s answers JSON in openapi.json; its record names no schema",
                     rt->operation);
        }
        documented++;
    }
    assert_true(documented > 30);
}

static void test_every_documented_operation_is_a_route(void **state)
{
    json_t *item, *op;
    const char *p, *m;
    char path[256], method[16];
    size_t i;

    json_object_foreach(json_object_get(g_doc, "paths"), p, item) {
        json_object_foreach(item, m, op) {
            int found = 0;

            for (i = 0; i < srv_routes_count && !found; i++) {
                openapi_path(path, sizeof(path), srv_routes[i].pattern);
                lower(method, sizeof(method), srv_routes[i].method);
                found = srv_routes[i].operation && strcmp(path, p) == 0 &&
                        strcmp(method, m) == 0;
            }
            if (!found)
                fail_msg("openapi.json documents %s %s, which no route with an "
                         "operationId serves", m, p);
        }
    }
}

/* What the cache and the head check assume of a record: the commit
 * policies rewrite capture 1, which must be {rev}; the ref policy reads
 * {ref} there; a write is not cached and needs a write permission; only a write
 * takes a body; operation ids are unique; what has none is the dashboard. */
static void test_records_fit_their_patterns(void **state)
{
    size_t i, k;

    for (i = 0; i < srv_routes_count; i++) {
        const srv_route *rt = &srv_routes[i];
        int get = strcmp(rt->method, "GET") == 0;
        const char *first = strchr(rt->pattern, '}');
        const char *second = first ? strchr(first, '{') : NULL;

        if ((rt->cache == SRV_CACHE_COMMIT || rt->cache == SRV_CACHE_COMMIT_LIVE) &&
            (!second || strncmp(second, "{rev}", 5) != 0))
            fail_msg("%s: a commit cache policy needs {rev} as its second capture",
                     rt->pattern);
        if (rt->cache == SRV_CACHE_REF && (!second || strncmp(second, "{ref}", 5) != 0))
            fail_msg("%s: the ref cache policy needs {ref} as its second capture",
                     rt->pattern);
        if (!get && (rt->cache != SRV_CACHE_NO || !rt->perm || !*rt->perm))
            fail_msg("%s %s writes: no cache, and a write permission", rt->method, rt->pattern);
        if (get && rt->body != SRV_BODY_NONE)
            fail_msg("GET %s takes a body", rt->pattern);
        if (!rt->operation && (!get || strncmp(rt->pattern, "/api/", 5) == 0 ||
                               rt->cache != SRV_CACHE_NO || !rt->perm || *rt->perm))
            fail_msg("%s %s has no operationId but is not one of the dashboard's files",
                     rt->method, rt->pattern);
        for (k = 0; k < i && rt->operation; k++)
            if (srv_routes[k].operation && strcmp(srv_routes[k].operation, rt->operation) == 0)
                fail_msg("operationId %s is used twice", rt->operation);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_route_is_documented_as_its_record_says),
        cmocka_unit_test(test_every_documented_operation_is_a_route),
        cmocka_unit_test(test_records_fit_their_patterns),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
