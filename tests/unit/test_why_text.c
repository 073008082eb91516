/*
 * test_why_text.c: a function's why written from its stored text
 * (api_why_text.h, issue 26.3) is byte for byte what the page wrote by
 * jansson (api_file_why dumped compact): for the stored forms the ingest
 * writes, for the page's edits (chain, mentions; key there or not), and
 * for every text the check refuses (then nothing is written) or accepts,
 * over hand-made hostile texts and random mutations of them.
 */
#include "testutil.h"

#include "api_file_part.h"
#include "api_why_text.h"

/* The reference: api_file_why(fn) as api_file_write.c dumps it. */
static char *why_reference(const q_function *fn)
{
    json_t *j = api_file_why(fn);
    char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);

    json_decref(j);
    assert_non_null(s);
    return s;
}

/* Write fn's why both ways; 1 when the text way took it.  A text the way
 * takes must give the reference's bytes. */
static int why_same(const char *why, const char *chain, int from_graph)
{
    q_function fn = {0};
    char *want;
    pd_buf b;
    int took;

    fn.why = (char *)why;
    fn.chain = (char *)chain;
    fn.state_from_graph = from_graph;
    want = why_reference(&fn);
    pd_buf_init(&b, 0);
    took = api_why_write(&b, &fn);
    if (took && strcmp(want, b.data ? b.data : "") != 0)
        fail_msg("why %s chain %s graph %d:\nreference %s\n     text %s", why,
                 chain ? chain : "NULL", from_graph, want, b.data);
    if (!took)
        assert_int_equal(b.len, 0);
    free(want);
    pd_buf_free(&b);
    return took;
}

/* Every edit of one stored text. */
static int why_all(const char *why, const char *chain)
{
    int took = why_same(why, NULL, 0);

    why_same(why, NULL, 1);
    why_same(why, chain, 0);
    why_same(why, chain, 1);
    return took;
}

static const char *const canonical[] = {
    "{\"status\":null,\"object\":null,\"mentions\":null,\"object_also\":null}",
    "{\"status\":{\"rule\":\"capi-names-cpython\",\"text\":\"Py_TYPE\",\"line\":65,"
    "\"column\":5},\"object\":null,\"mentions\":null,\"object_also\":null}",
    "{\"status\":null,\"object\":{\"direct\":[{\"line\":12,\"text\":\"(PyObject **)d\"}]},"
    "\"mentions\":[\"NPY_OBJECT\",\"OBJECT_getitem\"],\"object_also\":[]}",
    "{}", "[]", "[1,-2,0,true,false,null,\"\"]", "{\"zeta\":1,\"alpha\":2,\"mid\":{}}",
    "{\"q\":\"a\\\"b\\\\c\\b\\f\\n\\r\\t\\u0001\\u001F\\u000B\","
    "\"u\":\"\xc3\xa9\xe2\x80\xa8\x7f/\"}",
    "{\"object\":1}", "{\"mentions\":2}", "{\"mentions\":2,\"object\":1,\"x\":[[[]]]}",
    "{\"n\":-123456789012345678}",
};

static const char *const refused[] = {
    "", "null", "1", "\"s\"", "{ }", "{\"a\": 1}", "{\"a\":1.0}", "{\"a\":1e3}",
    "{\"a\":-0}", "{\"a\":01}", "{\"a\":1234567890123456789}", "{\"a\":\"\\/\"}",
    "{\"a\":\"\\u00e9\"}", "{\"a\":\"\\u001f\"}", "{\"a\":\"\\u000A\"}", "{\"a\":\"\\u0000\"}",
    "{\"a\":\"\xff\"}", "{\"a\":\"\xc0\xaf\"}", "{\"a\":\"\x01\"}", "{\"a\":1,\"a\":2}",
    "{\"a\":1}x", "{\"a\":1", "[1,]", "{,}", "{\"a\"}", "[tru]", "{\"a\":1}\n",
    "{\"a\":\"\\x\"}", "{\"a\":\"\\u00", "[\"\\ud83d\\ude00\"]",
};

static void test_stored_forms(void **state)
{
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(canonical) / sizeof(*canonical); i++) {
        if (!api_why_canonical(canonical[i], strlen(canonical[i])))
            fail_msg("refused %s", canonical[i]);
        assert_true(why_all(canonical[i], "[{\"callee\":\"f\",\"line\":3}]"));
        assert_true(why_all(canonical[i], "{\"k\":\"\\n\"}"));
    }
    for (i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
        if (api_why_canonical(refused[i], strlen(refused[i])))
            fail_msg("took %s", refused[i]);
        assert_false(why_all(refused[i], "[1]"));
    }
    /* NULL why: null; a chain that is not canonical: jansson's way. */
    assert_true(why_same(NULL, "[1]", 1));
    assert_false(why_same(canonical[0], "[1.5]", 0));
    assert_false(why_same(canonical[0], "5", 0));
    assert_true(why_same(canonical[3], "[1.5]", 0) == 0);
    assert_true(why_same("[1]", "[1.5]", 1));      /* an array takes no chain */
    /* Nesting: 64 levels taken, 65 not. */
    {
        char deep[200];
        int d;

        for (d = 64; d <= 65; d++) {
            memset(deep, '[', (size_t)d);
            memset(deep + d, ']', (size_t)d);
            deep[2 * d] = '\0';
            assert_int_equal(why_all(deep, "[]"), d == 64);
        }
    }
}

/* Random one-byte edits of the forms: whatever the check takes must come
 * out as jansson writes it. */
static void test_mutations(void **state)
{
    static const char bytes[] = "{}[]\",:\\-0123456789.eEtrufalsnb/ \x01\x7f\xc3\xa9\xff";
    unsigned seed = 12345;
    size_t i, k, taken = 0;

    (void)state;
    for (i = 0; i < 20000; i++) {
        const char *src = canonical[i % (sizeof(canonical) / sizeof(*canonical))];
        char buf[512];
        size_t n = strlen(src), at;

        memcpy(buf, src, n + 1);
        for (k = 0; k < 1 + i % 3; k++) {
            seed = seed * 1103515245u + 12345u;
            at = (seed >> 8) % (n ? n : 1);
            seed = seed * 1103515245u + 12345u;
            buf[at] = bytes[(seed >> 8) % (sizeof(bytes) - 1)];
        }
        if (why_same(buf, "[\"c\"]", (int)(i & 1)))
            taken++;
    }
    /* some edits keep the text canonical, most do not */
    assert_true(taken > 100 && taken < 19000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stored_forms),
        cmocka_unit_test(test_mutations),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
