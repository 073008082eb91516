/*
 * test_malloc_huge.c: pd_malloc_analyze() (a process of its own, so that
 * no other test's heap is there first): after a prefault of 2 MiB, 24 MiB
 * allocated beyond it, inside the heap's top pad, are written with one
 * page fault per huge page where the kernel gives transparent huge pages
 * on request, not one per 4 KiB page (6,144).  Skipped where it does not
 * (THP mode "never") and under AddressSanitizer, whose allocator replaces
 * glibc's.
 */
#include "testutil.h"

#include <sys/resource.h>

#include "pd_malloc.h"

/* 1 when the kernel gives transparent huge pages to a region that asks. */
static int thp_on_request(void)
{
    char buf[128] = "";
    FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");

    if (!f)
        return 0;
    if (!fgets(buf, sizeof(buf), f))
        buf[0] = '\0';
    fclose(f);
    return strstr(buf, "[always]") || strstr(buf, "[madvise]");
}

static long minor_faults(void)
{
    struct rusage ru;

    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_minflt;
}

/* Where the buffer escapes, so that the compiler keeps its writes. */
static char *volatile escaped;

static void test_analyze_heap_takes_huge_pages(void **state)
{
    size_t n = (size_t)24 << 20;
    long before, faults;
    char *p;

    (void)state;
#ifdef __SANITIZE_ADDRESS__
    skip();
#endif
    if (!thp_on_request())
        skip();
    pd_malloc_analyze();
    pd_malloc_prefault((size_t)2 << 20);
    before = minor_faults();
    assert_non_null(p = malloc(n));
    memset(p, 1, n);
    escaped = p;
    faults = minor_faults() - before;
    free(p);
    assert_true(faults < 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_analyze_heap_takes_huge_pages),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
