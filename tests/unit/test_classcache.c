/*
 * test_classcache.c: the analyzer's cache of classification verdicts
 * (ingest/analyzer/analyze_class.h, an_state.cc) answers what the rules
 * answer (rules_classify), name by name, cold and warm: names of every
 * length around the key's 8-byte words and past AN_CC_MAXLEN, names that
 * differ in one byte only (first, middle, last), two names that share a
 * slot and evict each other, and a short name at the very end of the
 * buffer (read byte by byte) against the same name elsewhere (one load).
 * Below the cache, the rules' look-up finds every exact name of the
 * default rules through its filters (first two bytes, hash bits).
 */
#include "testutil.h"

#include "analyzer/analyze_class.h"
#include "analyzer/rules_int.h"

static rules *g_rules;

static int cc_setup(void **state)
{
    return rules_load_default(&g_rules) < 0 ? -1 : 0;
}

static int cc_teardown(void **state)
{
    rules_free(g_rules);
    return 0;
}

/* A fresh state over buffer buf[0..len) (the names lie in it). */
static an_state *cc_state(const char *buf, size_t len)
{
    an_state *st = calloc(1, sizeof(*st));

    assert_non_null(st);
    st->r = g_rules;
    st->lx.p = buf;
    st->lx.end = buf + len;
    return st;
}

/* Assert the cache and the rules agree on s[0..len). */
static void cc_same(an_state *st, const char *s, size_t len)
{
    rules_verdict want, got;
    const rules_name *we = rules_classify(g_rules, s, len, &want);
    const rules_name *ge = an_cc_classify(st, s, len, &got);

    if (we != ge || want.cls != got.cls ||
        (want.cls >= 0 && strcmp(want.id, got.id) != 0))
        fail_msg("'%.*s': the cache says entry %p class %d, the rules %p %d",
                 (int)len, s, (const void *)ge, got.cls, (const void *)we,
                 want.cls);
}

/* Every word of buf (space-separated), twice over: cold, then warm. */
static void cc_all_words(an_state *st, const char *buf, size_t len)
{
    int round;

    for (round = 0; round < 2; round++) {
        const char *p = buf, *end = buf + len;

        while (p < end) {
            const char *q = p;

            while (q < end && *q != ' ')
                q++;
            if (q > p)
                cc_same(st, p, (size_t)(q - p));
            p = q + 1;
        }
    }
}

static void test_matches_rules(void **state)
{
    /* Known names (capi, HPy, npy-legacy by prefix and by suffix, exact
     * entries without a class) and unknown ones, of lengths 1 to 30, and
     * pairs that differ in byte 0, 7, 8, 15, 16 or the last. */
    static const char text[] =
        "a b Py x1 HPy int Py_None Py_INCREF PyObject PyObjecT "
        "HPy_Close HPyField HPyFielD PyArray_DESCR PyArray_DESCS "
        "PyArray_SIZE pyArray_SIZE PyErr_SetString PyErr_SetStrinG "
        "PyVoidScalarObject PyVoidScalarObjecT PyGenericArrType_Type "
        "PyGenericArrType_TypE PyArray_DescrFromType PyArray_DescrFromTypf "
        "NPY_ARRAY_C_CONTIGUOUS NPY_ARRAY_F_CONTIGUOUS "
        "PyArray_SimpleNewFromData PyArray_SimpleNewFromDatA "
        "PyArray_SimpleNewFromDescr_int abcdefgh abcdefgi abcdefghijklmnop "
        "abcdefghijklmnoq abcdefghijklmnopq abcdefghijklmnopr "
        "xbcdefghijklmnopq abcdefghijklmnopqrstuvwx abcdefghijklmnopqrstuvwy "
        "abcdefghijklmnopqrstuvwxy PyLong_AsLong PyLong_AsLonG";
    an_state *st = cc_state(text, sizeof(text) - 1);

    cc_all_words(st, text, sizeof(text) - 1);
    free(st);
}

/* known (a capi name) and a name the rules do not know that differs from
 * it in its last two bytes only (so in one key word: the first for 7
 * bytes, the second for 9 and 16, the third for 18) and has its slot:
 * each evicts the other and neither takes the other's verdict. */
static void cc_collide(const char *known)
{
    static const char sym[] = "abcdefghijklmnopqrstuvwxyz0123456789_";
    char buf[64];
    size_t n = strlen(known), slot, i, j, k;
    uint64_t wk[3], w[3];
    an_state *st;
    rules_verdict v;
    const rules_name *e = NULL;

    memset(buf, ' ', sizeof(buf));
    memcpy(buf, known, n);
    memcpy(buf + 32, known, n);
    an_cc_key(buf, n, buf + sizeof(buf), wk);
    slot = an_cc_index(wk, n);
    for (i = 0; sym[i]; i++) {
        for (j = 0; sym[j]; j++) {
            buf[32 + n - 2] = sym[i];
            buf[32 + n - 1] = sym[j];
            an_cc_key(buf + 32, n, buf + sizeof(buf), w);
            if (an_cc_index(w, n) == slot && memcmp(w, wk, sizeof(w)) != 0 &&
                !(e = rules_classify(g_rules, buf + 32, n, &v)) && v.cls < 0)
                goto found;
        }
    }
    fail_msg("no name shares %s's slot", known);
found:
    st = cc_state(buf, sizeof(buf));
    for (k = 0; k < 3; k++) {
        assert_non_null(an_cc_classify(st, buf, n, &v));
        assert_int_equal(v.cls, AN_CLASS_CAPI);
        assert_null(an_cc_classify(st, buf + 32, n, &v));
        assert_true(v.cls < 0);
    }
    assert_memory_equal(st->cc[slot].w, w, sizeof(w));   /* the last one */
    free(st);
}

static void test_slot_collision(void **state)
{
    cc_collide("Py_None");
    cc_collide("Py_INCREF");
    cc_collide("PyObject_GetAttr");
    cc_collide("PyErr_SetFromErrno");
}

static void test_end_of_buffer(void **state)
{
    /* "Py_None" read by one load in the middle and byte by byte at the
     * end: one key, so the second is a hit on the first's slot. */
    static const char text[] = "Py_None Py_None";
    size_t len = sizeof(text) - 1;
    uint64_t w1[3], w2[3];
    an_state *st = cc_state(text, len);
    rules_verdict v;

    an_cc_key(text, 7, text + len, w1);
    an_cc_key(text + 8, 7, text + len, w2);
    assert_memory_equal(w1, w2, sizeof(w1));
    cc_same(st, text, 7);
    cc_same(st, text + 8, 7);
    assert_int_equal(st->cc[an_cc_index(w1, 7)].len, 7);
    an_cc_classify(st, text + 8, 7, &v);
    assert_int_equal(v.cls, AN_CLASS_CAPI);
    free(st);
}

static void test_rules_find_every_name(void **state)
{
    const rules *r = g_rules;
    size_t i, n = 0;
    char buf[256];

    for (i = 0; i < r->nnames; i++) {
        const rules_name *e = &r->names[i];

        assert_ptr_equal(rules_lookup(r, e->name, e->len), e);
        if (e->len + 1 < sizeof(buf)) {   /* one byte more: not a name */
            memcpy(buf, e->name, e->len);
            buf[e->len] = 'q';
            n += rules_lookup(r, buf, e->len + 1) == NULL;
        }
    }
    assert_true(r->nnames > 2000);    /* the CPython names set included */
    assert_true(n > r->nnames / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_rules),
        cmocka_unit_test(test_slot_collision),
        cmocka_unit_test(test_end_of_buffer),
        cmocka_unit_test(test_rules_find_every_name),
    };

    return cmocka_run_group_tests(tests, cc_setup, cc_teardown);
}
