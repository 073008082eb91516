/*
 * test_malloc.c: pd_malloc_keep() makes buffers of a few MB come from the
 * heap and stay there when freed, instead of being mapped and unmapped one
 * by one (pd_malloc.h says why); pd_malloc_prefault() faults the heap in
 * at once, and pd_malloc_ahead() when it is on; pd_malloc_ingest() gives
 * an ingest's threads arenas of their own, trimmed down to a pad kept for
 * their next analysis.
 */
#include "testutil.h"

#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>

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

static void *thread_buffer(void *arg)
{
    size_t n = (size_t)16 << 20;       /* a template expansion's reserve */
    size_t mapped = mallinfo2().hblks;
    char *p = malloc(n);
    uintptr_t *where = arg;

    if (p) {
        memset(p, 1, n);
        where[0] = (uintptr_t)p;
        where[1] = mallinfo2().hblks == mapped;
    }
    free(p);
    return NULL;
}

/* pd_malloc_ingest(): an analysis thread's 16 MiB buffer comes from an
 * arena of the thread's own (outside the main heap, below the break), not
 * from a mapping of its own. */
static void test_ingest_threads_have_arenas(void **state)
{
    uintptr_t where[2] = {0, 0};
    pthread_t t;
    uintptr_t start = (uintptr_t)sbrk(0);

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's */
#endif
    pd_malloc_ingest(2);
    assert_int_equal(pthread_create(&t, NULL, thread_buffer, where), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(where[0] != 0);
    assert_true(where[1]);                         /* not mapped on its own */
    /* not the main heap: arenas of threads are mappings of their own,
     * far from the break (the main heap grows only up to it) */
    assert_true(where[0] >= (uintptr_t)sbrk(0) + ((uintptr_t)64 << 20) ||
                where[0] < start - ((uintptr_t)256 << 20));
}

/* pd_malloc_ingest(): of 24 MiB freed at the top of the heap, all but the
 * pad of 8 MiB go back to the system (more than its 4 MiB threshold lay
 * free) instead of being kept for reuse as pd_malloc_keep() alone keeps
 * them (its threshold is 128 MiB).  keepcost: what the main heap's top
 * holds, releasable. */
static void test_ingest_trims_the_heap_top(void **state)
{
    size_t n = (size_t)24 << 20;
    char *p;

#ifdef __SANITIZE_ADDRESS__
    skip();
#endif
    pd_malloc_ingest(2);
    assert_non_null(p = malloc(n));
    memset(p, 1, n);
    free(p);
    assert_true(mallinfo2().keepcost >= ((size_t)8 << 20));
    assert_true(mallinfo2().keepcost < ((size_t)9 << 20));
}

/* Page faults so far (minor: no disk) of `who`: RUSAGE_SELF, the
 * process; RUSAGE_THREAD, the calling thread. */
static long minor_faults(int who)
{
    struct rusage ru;

    getrusage(who, &ru);
    return ru.ru_minflt;
}

/* Where the buffers escape, so that the compiler keeps their writes. */
static char *volatile escaped;

/* Writes 6 MiB, frees them, then writes 6 MiB again: *arg gets the second
 * write's page faults. */
static void *thread_twice(void *arg)
{
    size_t n = (size_t)6 << 20;        /* an analysis of a large file */
    long *faults = arg, before;
    char *p = malloc(n);

    if (!p)
        return NULL;
    memset(p, 1, n);
    escaped = p;
    free(p);                           /* the arena's top is trimmed here */
    before = minor_faults(RUSAGE_THREAD);
    if ((p = malloc(n)) != NULL) {
        memset(p, 2, n);
        escaped = p;
        *faults = minor_faults(RUSAGE_THREAD) - before;
        free(p);
    }
    return NULL;
}

/* pd_malloc_ingest(): an analysis thread's arena, trimmed, keeps the pad
 * (8 MiB) at its top, so the next analysis of a few MB writes pages that
 * are still there: no page fault each (6 MiB page by page are 1,536, what
 * a trim down to glibc's own pad of 128 KiB cost every analysis). */
static void test_ingest_arena_keeps_its_pad(void **state)
{
    long faults = -1;
    pthread_t t;

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's */
#endif
    pd_malloc_ingest(2);
    assert_int_equal(pthread_create(&t, NULL, thread_twice, &faults), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(faults >= 0);
    assert_true(faults < 200);
}

/* After pd_malloc_prefault(), buffers written within what it faulted in
 * cost no page fault each: 24 MiB are 6,144 pages of 4 KiB. */
static void test_prefault_spares_the_page_faults(void **state)
{
    size_t sizes[] = { 8 << 20, 6 << 20, 6 << 20 };
    char *p[3];
    long before, faults;
    size_t i;

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's */
#endif
    pd_malloc_keep();
    pd_malloc_prefault((size_t)24 << 20);
    before = minor_faults(RUSAGE_SELF);
    for (i = 0; i < 3; i++) {
        assert_non_null(p[i] = malloc(sizes[i]));
        memset(p[i], 1, sizes[i]);
    }
    faults = minor_faults(RUSAGE_SELF) - before;
    for (i = 0; i < 3; i++)
        free(p[i]);
    /* 20 MiB written page by page would be 5,120 faults. */
    assert_true(faults < 500);
}

/* The share (per mille) of the pages inside p[0..n) that are resident
 * (mincore): a buffer not yet written is resident only if something
 * faulted it in beforehand. */
static long resident_permille(const char *p, size_t n)
{
    long pg = sysconf(_SC_PAGESIZE);
    uintptr_t a = ((uintptr_t)p + (uintptr_t)pg - 1) & ~((uintptr_t)pg - 1);
    uintptr_t b = ((uintptr_t)p + n) & ~((uintptr_t)pg - 1);
    size_t pages = (size_t)(b - a) / (size_t)pg, i, in = 0;
    unsigned char *v = malloc(pages ? pages : 1);

    assert_non_null(v);
    assert_int_equal(mincore((void *)a, b - a, v), 0);
    for (i = 0; i < pages; i++)
        in += v[i] & 1;
    free(v);
    return pages ? (long)(in * 1000 / pages) : 0;
}

/* pd_malloc_ahead(), once on, faults in the heap's next bytes as
 * pd_malloc_prefault() does: the 36 MiB allocated after it, past the 24
 * MiB the test before left in the heap, are resident before anything is
 * written to them, and writing them costs no page fault each (12 MiB more
 * page by page would be 3,072 faults). */
static void test_ahead_spares_the_page_faults(void **state)
{
    size_t n = (size_t)18 << 20;
    char *p, *q;
    long before, faults;

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's */
#endif
    pd_malloc_keep();
    pd_malloc_ahead_on();
    pd_malloc_ahead((size_t)40 << 20);
    before = minor_faults(RUSAGE_SELF);
    assert_non_null(p = malloc(n));
    assert_non_null(q = malloc(n));
    assert_true(resident_permille(p, n) > 990);
    assert_true(resident_permille(q, n) > 990);
    memset(p, 1, n);
    memset(q, 1, n);
    faults = minor_faults(RUSAGE_SELF) - before;
    free(q);
    free(p);
    assert_true(faults < 500);
}

/* A thread of `analyze --threads`: with *arg 1 it turns pd_malloc_ahead
 * on for itself, and its own arena is faulted in ahead, though the main
 * thread asked for more before (the high-water mark is the thread's, as
 * its arena is); with 0 nothing is faulted in for it.  Out in *arg: the
 * share (per mille) resident of what it allocates after. */
static void *thread_ahead(void *arg)
{
    size_t n = (size_t)8 << 20;
    char *p;

    if (*(long *)arg)
        pd_malloc_ahead_on();
    pd_malloc_ahead((size_t)12 << 20);
    p = malloc(n);
    *(long *)arg = p ? resident_permille(p, n) : -1;
    free(p);
    return NULL;
}

static void test_ahead_is_per_thread(void **state)
{
    pthread_t t;
    long in = 1, out = 0;

#ifdef __SANITIZE_ADDRESS__
    skip();    /* AddressSanitizer's allocator replaces glibc's */
#endif
    pd_malloc_keep();
    pd_malloc_ahead_on();
    pd_malloc_ahead((size_t)40 << 20);
    assert_int_equal(pthread_create(&t, NULL, thread_ahead, &out), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_int_equal(pthread_create(&t, NULL, thread_ahead, &in), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    assert_true(in > 990);
    assert_true(out >= 0);
    assert_true(out < 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buffers_of_megabytes_come_from_the_heap),
        cmocka_unit_test(test_prefault_spares_the_page_faults),
        cmocka_unit_test(test_ahead_spares_the_page_faults),
        cmocka_unit_test(test_ahead_is_per_thread),
        cmocka_unit_test(test_ingest_threads_have_arenas),
        cmocka_unit_test(test_ingest_trims_the_heap_top),
        cmocka_unit_test(test_ingest_arena_keeps_its_pad),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
