/*
 * test_fingerprint.c: the file page's fast fingerprints (q_fingerprint.c,
 * issue 26.3) are q_dismissed_fingerprint's, finding by finding: repeated
 * findings (occurrences), missing parts, keys cut at 2,048 bytes (two
 * texts alike up to there count as one; a cut inside a UTF-8 character
 * leaves a key jansson does not store), text that is not UTF-8, and a
 * list continued by the JSON count after the fast one.
 */
#include "testutil.h"

#include "q_dismissed.h"
#include "q_fingerprint.h"

#define NF 9

static void test_fast_equals_reference(void **state)
{
    static char long_a[3000], long_b[3000], cut_utf8[3000];
    const char *list[NF][4] = {
        {"a.c", "capi", "f", "Py_INCREF(x)"},
        {"a.c", "capi", "f", "Py_INCREF(x)"},
        {"a.c", "capi", NULL, "Py_INCREF(x)"},
        {NULL, NULL, NULL, NULL},
        {"a.c", "capi", "f", long_a},
        {"a.c", "capi", "f", long_b},
        {"a.c", "capi", "f", cut_utf8},
        {"a.c", "capi", "f", cut_utf8},
        {"a.c", "capi", "f", "\xff\xfe not UTF-8"},
    };
    json_t *seen = json_object(), *seen2 = json_object();
    q_fp_seen *fast = q_fp_seen_new();
    char want[33], got[33];
    int round, i;

    memset(long_a, 'x', sizeof(long_a) - 1);
    memset(long_b, 'x', sizeof(long_b) - 1);
    long_b[2500] = 'y';          /* differs only past the cut */
    /* "a.c\ncapi\nf\n" is 11 bytes: the cut at 2,047 falls on byte 2,036 of
     * the text, the second byte of an "é" */
    memset(cut_utf8, 'x', sizeof(cut_utf8) - 1);
    memcpy(cut_utf8 + 2035, "\xc3\xa9", 2);
    assert_non_null(fast);
    /* twice through the list: every occurrence count goes on */
    for (round = 0; round < 2; round++)
        for (i = 0; i < NF; i++) {
            q_dismissed_fingerprint(seen, list[i], want);
            assert_int_equal(q_fp_one(fast, list[i], got), 0);
            assert_string_equal(got, want);
        }
    /* the JSON count takes over where the fast one stopped */
    assert_int_equal(q_fp_seen_json(fast, seen2), 0);
    for (i = 0; i < NF; i++) {
        q_dismissed_fingerprint(seen, list[i], want);
        q_dismissed_fingerprint(seen2, list[i], got);
        assert_string_equal(got, want);
    }
    assert_true(json_equal(seen, seen2));
    q_fp_seen_free(fast);
    json_decref(seen);
    json_decref(seen2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_equals_reference),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
