/*
 * test_api_file_write.c: the file page written without a JSON tree
 * (api_file_write.h, issue 26.3) is byte for byte json_dumps of
 * api_file_json, the reference (its strings: pd_buf_json_str, checked in
 * test_pdutil.c): whole pages typed and untyped with
 * text that is not UTF-8, controls, quotes, dropped objects, SARIF
 * findings, dismissals and paging.
 */
#include "testutil.h"

#include "api_file.h"
#include "api_file_write.h"
#include "q_file.h"

/* The writer's page against the reference. */
static void page_same(const q_file *f)
{
    json_t *j = api_file_json(f, 1);
    char *want = json_dumps(j, JSON_COMPACT);
    pd_buf b;

    assert_non_null(want);
    pd_buf_init(&b, 0);
    assert_int_equal(api_file_write(f, &b), 0);
    if (strcmp(want, b.data) != 0) {
        size_t k = 0;

        while (want[k] && want[k] == b.data[k])
            k++;
        fail_msg("pages differ at byte %zu:\nreference %s\n   writer %s", k, want + k,
                 b.data + k);
    }
    free(want);
    pd_buf_free(&b);
    json_decref(j);
}

/* Function i of f. */
static void fn_set(q_file *f, size_t i, const char *name, const char *status,
                   const char *state, const char *why, const char *chain, int from_graph)
{
    q_function *o = &f->functions[i];

    memset(o, 0, sizeof(*o));
    o->name = name ? strdup(name) : NULL;
    o->status = status ? strdup(status) : NULL;
    o->object_state = state ? strdup(state) : NULL;
    o->why = why ? strdup(why) : NULL;
    o->chain = chain ? strdup(chain) : NULL;
    o->state_from_graph = from_graph;
    o->start_line = (int64_t)i * 10 + 1;
    o->end_line = (int64_t)i * 10 + 9;
    o->tok[0] = (int64_t)i;
    o->tok[1] = -3;
    o->tok[3] = 4294967296LL;
    if (i == 1)
        o->name_from_macro = strdup("MACRO\"\x01");
}

static q_file *hostile_page(int typed)
{
    static const q_finding builtin[] = {
        {12, 3, "capi", "capi-names-cpython", "Py\"X\\Y\n", "f\xc3\xa9", NULL, 0, "", NULL},
        {13, 1, "hpy", "r/2", "\x01\x1f\x7f", NULL, "reason \"r\"\t", 1, "", NULL},
        {-1, 0, "npy-legacy", "r3", "\xe2\x80\xae", "g", NULL, 0, "", NULL},
        {99, 9, "bridge", "r4", "", "", "", 1, "", NULL},
    };
    q_file *f = calloc(1, sizeof(*f));
    size_t i;

    assert_non_null(f);
    snprintf(f->commit, sizeof(f->commit), "%040d", 7);
    snprintf(f->blob, sizeof(f->blob), "%040d", 9);
    f->path = strdup("dir/\xff\"bad\x01name.c.src");
    f->missing = 1;
    snprintf(f->missing_since, sizeof(f->missing_since), "%040d", 5);
    f->analysed = 1;
    f->status = strdup("legacy");
    f->notes = strdup("notes \xfe with a bad byte\n");
    f->lines = 4823;
    f->size = 1234567;
    f->functions = calloc(5, sizeof(q_function));
    f->nfunctions = 5;
    fn_set(f, 0, "plain", "legacy", NULL, "{\"mentions\":[\"PyObject\"],\"b\":1.5}", NULL, 0);
    fn_set(f, 1, "bad\xc0\xafname", "bridged", "object-legacy",
           "{\"mentions\":[\"x\"],\"object\":{\"old\":true}}",
           "[{\"name\":\"callee\",\"line\":3}]", 1);
    fn_set(f, 2, "no_status", NULL, NULL, NULL, NULL, 0);           /* dropped */
    fn_set(f, 3, "bad_state", "ported", "st\xff", NULL, NULL, 0);     /* dropped */
    fn_set(f, 4, "why_not_json", "neutral", NULL, "{not json", "[1]", 1);
    f->findings = json_array();
    for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
        q_finding b = builtin[i];

        snprintf(b.fingerprint, sizeof(b.fingerprint), "%032zu", i);
        if (i == 2)
            b.dismissed = json_pack("{s:i, s:s, s:s, s:s, s:s}", "id", 4, "reason",
                                    "won't fix", "comment", "\"c\"\n", "by", "ana", "at",
                                    "2026-12-02T00:00:00Z");
        if (typed) {
            f->builtin = realloc(f->builtin, (f->nbuiltin + 1) * sizeof(q_finding));
            f->builtin[f->nbuiltin++] = b;
        } else {
            json_array_append_new(f->findings, q_finding_json(&b));
            json_decref(b.dismissed);
        }
    }
    json_array_append_new(f->findings, json_pack(
        "{s:i, s:s, s:s, s:s, s:n, s:s, s:s, s:o}", "line", 5, "rule", "sarif/rule",
        "text", "msg \"q\" \x02", "tool", "clang-tidy", "function", "level", "error",
        "fingerprint", "abc", "dismissed", json_null()));
    f->dismissed_count = 1;
    f->functions_total = 6000;
    f->findings_total = 7000;
    f->page = 2;
    f->per = 5;
    f->typed = typed;
    return f;
}

static void test_pages_as_the_reference(void **state)
{
    q_file *f = hostile_page(1), *g = hostile_page(0);
    json_t *jf = api_file_json(f, 1), *jg = api_file_json(g, 1);

    /* Typed or not, the same page... */
    assert_true(json_equal(jf, jg));
    assert_int_equal(json_array_size(json_object_get(jf, "functions")), 3);
    assert_int_equal(json_array_size(json_object_get(jf, "findings")), 5);
    json_decref(jf);
    json_decref(jg);
    /* ... and the writer's bytes are the reference's. */
    page_same(f);
    page_same(g);
    /* Without paging, lists, analysis or the lacked blob. */
    f->page = 1;
    f->functions_total = f->findings_total = 3;
    f->missing = 0;
    page_same(f);
    f->analysed = 0;
    page_same(f);
    f->missing = 1;
    page_same(f);
    q_file_free(f);
    q_file_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pages_as_the_reference),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
