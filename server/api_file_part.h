/*
 * api_file_part.h: the parts of the file page that its two writers share
 * (api_file.c's jansson document and api_file_write.c's direct bytes), so
 * neither calls into the other.
 */
#ifndef API_FILE_PART_H
#define API_FILE_PART_H

#include <jansson.h>

#include "q_file.h"

/*
 * A function's why as the file page shows it: the stored why, with the
 * call chain that gives its object state as why.object, and why.mentions
 * void when the call graph gave the state.  A new reference (null when
 * none or not JSON).
 */
json_t *api_file_why(const q_function *f);

/* 1 when `f` is one page of a longer file page (or a page past the first). */
int api_file_paged(const q_file *f);

#endif
