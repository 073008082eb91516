/*
 * pd_buf_huge.c: a buffer's room in huge pages (see pd_buf_huge.h).
 */
#include <stdlib.h>
#include <sys/mman.h>

#include "pd_buf_huge.h"

int pd_buf_reserve_huge(pd_buf *b, size_t n)
{
    size_t cap;
    void *p = NULL;

    if (b->err || b->data || n < PD_BUF_HUGE_MIN || n > ((size_t)1 << 40) ||
        (b->max && n > b->max))
        return pd_buf_reserve(b, n);
    cap = (n + 1 + PD_BUF_HUGE_PAGE - 1) / PD_BUF_HUGE_PAGE * PD_BUF_HUGE_PAGE;
    if (posix_memalign(&p, PD_BUF_HUGE_PAGE, cap) != 0)
        return pd_buf_reserve(b, n);
    /* advice only: without it (or without THP) the room still works */
    (void)madvise(p, cap, MADV_HUGEPAGE);
    b->data = p;
    b->cap = cap;
    b->len = 0;
    b->data[0] = '\0';
    return 0;
}
