/*
 * test_fingerprint.c: the fingerprints of findings (q_fingerprint.h),
 * pinned: stored dismissals name them, so the values of the rule's first
 * implementation (libsodium's SHA-256, the occurrences counted in a JSON
 * object) are kept here and must never change.  Repeated findings
 * (occurrences), missing parts, keys cut at 2,048 bytes (two texts alike
 * up to there count as one; a cut inside a UTF-8 character leaves a key
 * that was never counted), text that is not UTF-8; and a JSON list
 * (q_dismissed_fingerprints) gets the same values as the typed path.
 */
#include "testutil.h"

#include "q_dismissed.h"
#include "q_fingerprint.h"

#define NF 9

static char long_a[3000], long_b[3000], cut_utf8[3000];
static const char *list[NF][4] = {
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

/* The list twice through, occurrences going on: the first implementation's
 * values. */
static const char *const want[2 * NF] = {
    "54592ff4c414cf7e6b82667cb74ef7c2",
    "396204554db4ee6bc2e3daec3de9001a",
    "a7ea22a873ea97d98bb5c62b41c54ffa",
    "fd65bc8ecc76e9997b335fe0ede78cc0",
    "fa150aac366227659d29ad806bacb6c4",
    "a87aa369512c499b6967020148fc2606",
    "e7cddce9e4c67163b71e10d2a8dafff9",
    "e7cddce9e4c67163b71e10d2a8dafff9",
    "1f2fe1bd106f4b0f90cd293ee60a2875",
    "3bbf48990f6269a898d694210ad43d98",
    "97eddc9ad9dd8362c60784261fab12be",
    "d28c5645e118d12da46ac7b07ec12f2b",
    "fceae55177f36a6ce71ab5dac32209c8",
    "49e69ef8b7b628c6dfd44265a393f2ef",
    "56487ce2bc577a37c7b18fd68fedaf44",
    "e7cddce9e4c67163b71e10d2a8dafff9",
    "e7cddce9e4c67163b71e10d2a8dafff9",
    "1f2fe1bd106f4b0f90cd293ee60a2875",
};

static void fill(void)
{
    memset(long_a, 'x', sizeof(long_a) - 1);
    memset(long_b, 'x', sizeof(long_b) - 1);
    long_b[2500] = 'y';          /* differs only past the cut */
    /* "a.c\ncapi\nf\n" is 11 bytes: the cut at 2,047 falls on byte 2,036 of
     * the text, the second byte of an "é" */
    memset(cut_utf8, 'x', sizeof(cut_utf8) - 1);
    memcpy(cut_utf8 + 2035, "\xc3\xa9", 2);
}

static void test_values_are_pinned(void **state)
{
    q_fp_seen *seen = q_fp_seen_new();
    char got[33];
    int i;

    (void)state;
    fill();
    assert_non_null(seen);
    for (i = 0; i < 2 * NF; i++) {
        assert_int_equal(q_fp_one(seen, list[i % NF], got), 0);
        assert_string_equal(got, want[i]);
    }
    q_fp_seen_free(seen);
}

/* A JSON list (the untyped page, object items) counts on from the typed
 * findings before it in the same count, and keeps a fingerprint it has. */
static void test_json_lists_continue_the_count(void **state)
{
    q_fp_seen *seen = q_fp_seen_new();
    json_t *l = json_array();
    char got[33];
    int i;

    (void)state;
    fill();
    for (i = 0; i < NF; i++)
        assert_int_equal(q_fp_one(seen, list[i], got), 0);
    for (i = 0; i < NF; i++)
        json_array_append_new(l, json_pack("{s:s?, s:s?, s:s?, s:s?}", "path", list[i][0],
                                           "rule", list[i][1], "function", list[i][2],
                                           "text", i == NF - 1 ? NULL : list[i][3]));
    json_object_set_new(json_array_get(l, 1), "fingerprint", json_string("kept"));
    assert_int_equal(q_dismissed_fingerprints_seen(l, "a.c", seen), 0);
    /* the second time through (want[NF + i]); not the one that kept its
     * own, nor 3 (no path: the list's path stands in) and 8 (no text) */
    for (i = 0; i < NF; i++) {
        const char *fp = json_string_value(json_object_get(json_array_get(l, i),
                                                           "fingerprint"));

        if (i == 1)
            assert_string_equal(fp, "kept");
        else if (i != 3 && i != NF - 1)
            assert_string_equal(fp, want[NF + i]);
        else
            assert_int_equal(strlen(fp), 32);
    }
    q_fp_seen_free(seen);
    json_decref(l);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_are_pinned),
        cmocka_unit_test(test_json_lists_continue_the_count),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
