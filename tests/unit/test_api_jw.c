/*
 * test_api_jw.c: JSON written without a tree is jansson's compact dump of
 * the same values (api_jw.h, issue 26.3).
 *
 * - each writer piece against json_dumps of the value jansson would hold
 *   (strings that are not UTF-8, controls, quotes; the int64 extremes);
 * - srv_page_range cuts a list as srv_paginate cuts the JSON array, Link
 *   header included, for every page of short lists;
 * - a ref's history answer, written straight into a buffer, is byte for
 *   byte what jansson writes for the document it parses to (jansson keeps
 *   the keys in their order), over the forms of the answer: every point,
 *   sampled, paged, the port window, committer dates, a stacked ref.
 */
#include "testutil.h"

#include "api.h"
#include "api_jw.h"
#include "srv_page.h"

/* The writer's bytes in b against jansson's dump of v (stolen). */
static void same_as_jansson(pd_buf *b, json_t *v)
{
    char *want = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);

    assert_non_null(want);
    assert_int_equal(b->err, 0);
    assert_string_equal(b->data, want);
    free(want);
    json_decref(v);
    pd_buf_reset(b);
}

static void test_pieces_are_janssons(void **state)
{
    static const char *texts[] = {
        "hpy", "", "a\"b\\c", "tab\there\nnl\r\x01\x1f", "caf\xc3\xa9 \xe2\x82\xac",
        "bad \xff byte", "\xc3(", "over\xf4\x90\x80\x80long", "</script>",
    };
    static const int64_t ints[] = {0, -1, 1, 141, INT64_MAX, INT64_MIN, 4294967296LL};
    pd_buf b;
    size_t i;

    (void)state;
    pd_buf_init(&b, 0);
    for (i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
        api_jw_text(&b, texts[i]);
        same_as_jansson(&b, api_text(texts[i]));
    }
    api_jw_text(&b, NULL);
    same_as_jansson(&b, json_null());
    for (i = 0; i < sizeof(ints) / sizeof(*ints); i++) {
        api_jw_int(&b, ints[i]);
        same_as_jansson(&b, json_integer(ints[i]));
    }
    /* an object made of keys and values: {"a\"":true,"b":false} */
    pd_buf_put(&b, "{", 1);
    api_jw_key(&b, "a\"", 1);
    api_jw_bool(&b, 1);
    api_jw_key(&b, "b", 0);
    api_jw_bool(&b, 0);
    pd_buf_put(&b, "}", 1);
    same_as_jansson(&b, json_pack("{s:b, s:b}", "a\"", 1, "b", 0));
    api_jw_json(&b, NULL);
    same_as_jansson(&b, json_null());
    pd_buf_free(&b);
}

/* An internal request (no connection) with query string `args`. */
static void req_init(srv_req *r, const char *args)
{
    memset(r, 0, sizeof(*r));
    r->url = "/api/v1/x";
    r->args = args;
}

static void test_page_range_cuts_as_paginate(void **state)
{
    size_t total, page, per, from, to, i;
    char args[64];

    (void)state;
    for (total = 0; total <= 7; total++)
        for (per = 1; per <= 3; per++)
            for (page = 1; page <= 5; page++) {
                json_t *arr = json_array(), *cut;
                srv_req a, b;

                for (i = 0; i < total; i++)
                    json_array_append_new(arr, json_integer((json_int_t)i));
                snprintf(args, sizeof(args), "page=%zu&per_page=%zu", page, per);
                req_init(&a, args);
                req_init(&b, args);
                assert_int_equal(srv_page_range(&a, total, 100, &from, &to), 0);
                cut = srv_paginate(&b, arr, 100);
                assert_non_null(cut);
                assert_true(from <= to && to <= total);
                assert_int_equal(to - from, json_array_size(cut));
                for (i = from; i < to; i++)
                    assert_int_equal(json_integer_value(json_array_get(cut, i - from)), i);
                assert_string_equal(a.link, b.link);
                json_decref(cut);
            }
    /* no arguments and a list that fits: all of it, no Link */
    {
        srv_req r;

        req_init(&r, NULL);
        assert_int_equal(srv_page_range(&r, 5, 100, &from, &to), 0);
        assert_int_equal(from, 0);
        assert_int_equal(to, 5);
        assert_string_equal(r.link, "");
        req_init(&r, "per_page=x");
        assert_int_equal(srv_page_range(&r, 5, 100, &from, &to), PD_EINVAL);
    }
}

static tu_site g_site;

static int setup(void **state)
{
    (void)state;
    tu_site_init(&g_site, "jw.db");
    if (tu_site_ingest(&g_site, "forked", "fk", "hpy") < 0 ||
        tu_site_ingest(&g_site, "toyport", "demo", "hpy hpy-convert-object-dtype") < 0)
        return -1;
    return tu_site_serve(&g_site, NULL) < 0 ? -1 : 0;
}

static int teardown(void **state)
{
    (void)state;
    tu_site_free(&g_site);
    return 0;
}

static void test_history_is_janssons_dump(void **state)
{
    static const char *paths[] = {
        "/api/v1/repos/fk/refs/hpy/history",
        "/api/v1/repos/fk/refs/hpy/history?measure=functions.ported&date=committer",
        "/api/v1/repos/fk/refs/hpy/history?measure=functions.ported&window=port",
        "/api/v1/repos/fk/refs/hpy/history?measure=functions.ported&points=3",
        "/api/v1/repos/fk/refs/hpy/history?per_page=1&page=2",
        "/api/v1/repos/fk/refs/hpy/history?per_page=1&page=99",
        "/api/v1/repos/demo/refs/hpy-convert-object-dtype/history?window=port",
        "/api/v1/repos/demo/refs/hpy-convert-object-dtype/history?points=4",
    };
    char url[512];
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(paths) / sizeof(*paths); i++) {
        tu_http h;
        json_t *doc;
        char *again;

        snprintf(url, sizeof(url), "%s%s", g_site.base, paths[i]);
        h = tu_request("GET", url);
        assert_int_equal(h.status, 200);
        doc = json_loads(h.body, 0, NULL);
        assert_non_null(doc);
        assert_true(json_is_array(json_object_get(doc, "points")));
        again = json_dumps(doc, JSON_COMPACT);
        if (strcmp(again, h.body) != 0)
            fail_msg("%s: not jansson's bytes:\n  sent %s\njansson %s", paths[i], h.body,
                     again);
        if (strstr(paths[i], "page=2"))
            assert_non_null(strstr(tu_header(&h, "Link"), "rel=\"prev\""));
        free(again);
        json_decref(doc);
        tu_http_free(&h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pieces_are_janssons),
        cmocka_unit_test(test_page_range_cuts_as_paginate),
        cmocka_unit_test_setup_teardown(test_history_is_janssons_dump, setup, teardown),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
