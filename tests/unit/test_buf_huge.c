/*
 * test_buf_huge.c: a big buffer's room in huge pages (pd_buf_huge.h):
 * aligned whole huge pages from PD_BUF_HUGE_MIN on, an ordinary buffer
 * below it, the bound kept, growth past the room and pd_buf_take as for
 * any buffer (ASan checks the frees).
 */
#include <malloc.h>
#include <stdint.h>

#include "testutil.h"

#include "pd_buf_huge.h"

static void test_big_room(void **state)
{
    pd_buf b;
    size_t i, len;
    char *s;

    (void)state;
    pd_buf_init(&b, 0);
    assert_int_equal(pd_buf_reserve_huge(&b, PD_BUF_HUGE_MIN + 10), 0);
    assert_int_equal((uintptr_t)b.data % PD_BUF_HUGE_PAGE, 0);
    assert_int_equal(b.cap, PD_BUF_HUGE_PAGE);
    assert_true(malloc_usable_size(b.data) >= PD_BUF_HUGE_PAGE);
    assert_int_equal(b.len, 0);
    assert_string_equal(b.data, "");
    /* written past its room: grows as any buffer */
    for (i = 0; i < 3 * PD_BUF_HUGE_PAGE / 8; i++)
        assert_int_equal(pd_buf_put(&b, "01234567", 8), 0);
    assert_int_equal(b.len, 3 * PD_BUF_HUGE_PAGE);
    assert_memory_equal(b.data + b.len - 8, "01234567", 8);
    s = pd_buf_take(&b, &len);
    assert_int_equal(len, 3 * PD_BUF_HUGE_PAGE);
    free(s);
    /* exactly two huge pages' worth needs a third for the NUL */
    pd_buf_init(&b, 0);
    assert_int_equal(pd_buf_reserve_huge(&b, 2 * PD_BUF_HUGE_PAGE), 0);
    assert_int_equal(b.cap, 3 * PD_BUF_HUGE_PAGE);
    pd_buf_free(&b);
}

static void test_small_or_bound(void **state)
{
    pd_buf b;

    (void)state;
    /* below the threshold: pd_buf_reserve's room */
    pd_buf_init(&b, 0);
    assert_int_equal(pd_buf_reserve_huge(&b, 1000), 0);
    assert_true(b.cap >= 1001 && b.cap < PD_BUF_HUGE_MIN);
    pd_buf_free(&b);
    /* a buffer that holds something already: pd_buf_reserve */
    pd_buf_init(&b, 0);
    pd_buf_puts(&b, "x");
    assert_int_equal(pd_buf_reserve_huge(&b, PD_BUF_HUGE_MIN), 0);
    assert_true(b.cap >= PD_BUF_HUGE_MIN + 2);
    assert_string_equal(b.data, "x");
    pd_buf_free(&b);
    /* past the bound: the bound's error, no room */
    pd_buf_init(&b, PD_BUF_HUGE_MIN);
    assert_int_equal(pd_buf_reserve_huge(&b, PD_BUF_HUGE_MIN + 1), PD_EINVAL);
    assert_null(b.data);
    pd_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_big_room),
        cmocka_unit_test(test_small_or_bound),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
