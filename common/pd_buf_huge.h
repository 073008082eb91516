/*
 * pd_buf_huge.h: room for a big answer in memory backed by transparent
 * huge pages (issue 26.3).  On the virtual machines the server runs on,
 * the first touch of each fresh 4 KiB page costs 15 to 40 us (a shadow
 * page-table fault the guest does not see as one): writing the 1.2 MB page
 * of arraytypes.c.src into fresh memory was 300 such faults, a third of
 * its CPU time.  A 2 MiB huge page is one.
 */
#ifndef PD_BUF_HUGE_H
#define PD_BUF_HUGE_H

#include <stddef.h>

#include "pd_buf.h"

/* Sizes from which the room is taken in huge pages (below: pd_buf_reserve). */
#define PD_BUF_HUGE_MIN ((size_t)1 << 20)
#define PD_BUF_HUGE_PAGE ((size_t)2 << 20)

/*
 * Reserve room for n more bytes in the empty buffer b (as pd_buf_reserve).
 * When n >= PD_BUF_HUGE_MIN the room is n rounded up to whole huge pages,
 * aligned to one and advised MADV_HUGEPAGE (the kernel may still give
 * small pages: only the speed differs); the memory is plain malloc memory
 * (free(), realloc() and pd_buf_take work as for any buffer), but its
 * resident size is the rounded one.  0, or b->err (PD_ENOMEM, PD_EINVAL).
 */
int pd_buf_reserve_huge(pd_buf *b, size_t n);

#endif
