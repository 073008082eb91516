/*
 * ingest_why.h: a function's why (pd_why.h) as the text stored in
 * functions.why, written without building it in jansson first.
 */
#ifndef INGEST_WHY_H
#define INGEST_WHY_H

#include "pd_why.h"

/*
 * `w` as compact JSON: the same bytes as json_dumps(pd_why_obj(w),
 * JSON_COMPACT), which the file page reads back.  An ingest stores a why
 * for each of about a million function rows of numpy's history; building
 * the jansson objects and dumping them was a quarter of the time spent
 * encoding analyses.  A why with a call chain, or with a string that is
 * not printable ASCII, goes through jansson itself (its escapes and its
 * UTF-8 check are the rule).  A new string (free()) of *len bytes (len
 * may be NULL), NULL when out of memory or when jansson refuses a string
 * (as json_dumps does).
 */
char *ingest_why_text(const pd_why *w, size_t *len);

#endif
