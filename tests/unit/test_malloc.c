/*
 * test_malloc.c: pd_malloc_keep() makes buffers of a few MB come from the
 * heap and stay there when freed, instead of being mapped and unmapped one
 * by one (pd_malloc.h says why).
 */
#include "testutil.h"

#include <malloc.h>

#include "pd_malloc.h"

static void test_buffers_of_megabytes_come_from_the_heap(void **state)
{
    size_t sizes[] = { 1 << 20, 4 << 20, 12 << 20 };
    size_t i;

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's: nothing to see */
#endif
    pd_malloc_keep();
    for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t mapped = mallinfo2().hblks;    /* what others mapped before */
        char *p = malloc(sizes[i]);
        struct mallinfo2 mi;

        assert_non_null(p);
        memset(p, 1, sizes[i]);
        mi = mallinfo2();
        assert_int_equal(mi.hblks, mapped);   /* no mmap of its own */
        free(p);
        mi = mallinfo2();
        /* Freed, it is kept for the next buffer, not trimmed away. */
        assert_true(mi.fordblks >= sizes[i]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers_of_megabytes_come_from_the_heap),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
