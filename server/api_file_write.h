/*
 * api_file_write.h: the file page's JSON written straight into a buffer
 * (issue 26.3).  A page of arraytypes.c.src is 1.2 MB: 3,800 findings and
 * 900 functions made into a jansson tree, dumped and freed took most of a
 * cold answer.  The bytes are those of json_dumps(api_file_json(f, 1),
 * JSON_COMPACT), which stays the reference (tests/unit/test_api_file_write.c
 * holds the two to each other).
 */
#ifndef API_FILE_WRITE_H
#define API_FILE_WRITE_H

#include "pd_buf.h"
#include "q_file.h"

/*
 * Append the file page `f` (typed or not, with the totals and paging as
 * api_file_json(f, 1)) to `b`.  0, or b->err (PD_ENOMEM, or PD_EINVAL past
 * b's bound).
 */
int api_file_write(const q_file *f, pd_buf *b);

#endif
