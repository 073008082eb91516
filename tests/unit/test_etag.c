/*
 * test_etag.c: the ETag of an answer is the git blob id of its bytes
 * (doc/api.md), whichever SHA-1 computes it (srv_reply.c uses OpenSSL's
 * for speed, issue 26.3): against libgit2's id for bodies around SHA-1's
 * block and padding edges, one of a cold file page's size, and bytes that
 * are not text.
 */
#include "testutil.h"

#include <git2.h>

#include "srv_reply.h"

/* The ETag libgit2 gives: the quoted blob id. */
static void git_etag(char *out, const void *buf, size_t len)
{
    git_oid oid;
    char hex[GIT_OID_HEXSZ + 1];

    assert_int_equal(git_odb_hash(&oid, buf, len, GIT_OBJECT_BLOB), 0);
    git_oid_tostr(hex, sizeof(hex), &oid);
    snprintf(out, SRV_ETAG_SIZE, "\"%s\"", hex);
}

static void test_the_etag_is_the_blob_id(void **state)
{
    static const size_t sizes[] = {0, 1, 2, 46, 47, 48, 55, 56, 63, 64, 65, 119, 120,
                                   128, 4096, 100000, 1200000};
    unsigned char *buf = malloc(1200000);
    char want[SRV_ETAG_SIZE], got[SRV_ETAG_SIZE];
    size_t i;

    assert_non_null(buf);
    for (i = 0; i < 1200000; i++)
        buf[i] = (unsigned char)(i * 7919u >> 3);
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        git_etag(want, buf, sizes[i]);
        memset(got, 'x', sizeof(got));
        srv_reply_etag(got, buf, sizes[i]);
        assert_string_equal(got, want);
    }
    /* git hash-object /dev/null */
    srv_reply_etag(got, "", 0);
    assert_string_equal(got, "\"e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\"");
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_etag_is_the_blob_id),
    };
    int rc;

    git_libgit2_init();
    rc = cmocka_run_group_tests(tests, NULL, NULL);
    git_libgit2_shutdown();
    return rc;
}
