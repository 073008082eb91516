/*
 * test_nocerts.c: libgit2's start-up parses no CA certificates
 * (common/pd_nocerts.c): the dynamic linker binds mbedTLS's
 * mbedtls_x509_crt_parse_file to portdash's stand-in, and libgit2 still
 * initialises and reads a repository.
 */
#include "testutil.h"

#include <dlfcn.h>
#include <git2.h>

#include "pd_nocerts.h"

/* The name resolves to the executable's definition, not libmbedx509's:
 * without that (the symbol not exported, a link change) every start-up
 * parses the CA bundle again. */
static void test_the_stand_in_is_what_libgit2_calls(void **state)
{
    void *bound = dlsym(RTLD_DEFAULT, "mbedtls_x509_crt_parse_file");

    assert_non_null(bound);
    assert_ptr_equal(bound, (void *)mbedtls_x509_crt_parse_file);
}

/* libgit2 starts and opens a repository with nothing loaded. */
static void test_libgit2_still_reads_a_repository(void **state)
{
    git_repository *repo = NULL;

    assert_true(git_libgit2_init() > 0);
    assert_int_equal(git_repository_open_bare(&repo, tu_fixture("history")), 0);
    git_repository_free(repo);
    git_libgit2_shutdown();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_the_stand_in_is_what_libgit2_calls),
        cmocka_unit_test(test_libgit2_still_reads_a_repository),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
