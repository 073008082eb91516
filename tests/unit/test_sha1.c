/*
 * test_sha1.c: pd_sha1 against FIPS 180 examples and git's blob ids, and
 * the blob id of two parts against that of their concatenation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pd_sha1.h"

static void hex_of(char out[41], const unsigned char d[20])
{
    int i;

    for (i = 0; i < 20; i++)
        snprintf(out + 2 * i, 3, "%02x", d[i]);
}

static void check(const char *msg, size_t n, size_t step, const char *want)
{
    unsigned char d[20];
    char hex[41];
    pd_sha1 s;
    size_t i;

    pd_sha1_init(&s);
    for (i = 0; i < n; i += step)        /* fed in pieces that straddle blocks */
        pd_sha1_update(&s, msg + i, n - i < step ? n - i : step);
    pd_sha1_final(&s, d);
    hex_of(hex, d);
    assert_string_equal(hex, want);
}

static void test_sha1_vectors(void **state)
{
    static const char two[] = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char *a = malloc(1000000);

    (void)state;
    check("", 0, 1, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    check("abc", 3, 1, "a9993e364706816aba3e25717850c26c9cd0d89d");
    check(two, strlen(two), 7, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    check(two, strlen(two), 64, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
    assert_non_null(a);
    memset(a, 'a', 1000000);
    check(a, 1000000, 1000, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    check(a, 1000000, 63, "34aa973cd4c4daa4f61eeb2bdbad27316534016f");
    free(a);
}

static void test_sha1_blob_ids_are_gits(void **state)
{
    char hex[41];

    (void)state;
    pd_sha1_blob_hex(hex, "", 0, NULL, 0);          /* git hash-object /dev/null */
    assert_string_equal(hex, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
    /* printf 'prefix HPy hpy\n' | git hash-object --stdin */
    pd_sha1_blob_hex(hex, "prefix HPy hpy\n", 15, NULL, 0);
    assert_string_equal(hex, "ff8af41fd659d83adb5824b4966e4884bb8fd132");
    pd_sha1_blob_hex(hex, "prefix HPy", 10, " hpy\n", 5);
    assert_string_equal(hex, "ff8af41fd659d83adb5824b4966e4884bb8fd132");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha1_vectors),
        cmocka_unit_test(test_sha1_blob_ids_are_gits),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
