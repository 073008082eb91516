/*
 * ingest_why.h: a function's why (pd_why.h) as the text stored in the
 * functions' text (db_fns.h), written without building it in jansson.
 */
#ifndef INGEST_WHY_H
#define INGEST_WHY_H

#include <stddef.h>

#include "pd_buf.h"
#include "pd_why.h"

/*
 * `w` as compact JSON: the same bytes as json_dumps(pd_why_obj(w),
 * JSON_COMPACT), which the file page serves.  An ingest makes a why for
 * each of about a million functions of numpy's history; building the
 * jansson objects and dumping them was a quarter of the time spent
 * encoding analyses.  A why with a call chain, or with a string that is
 * not ASCII, goes through jansson itself (its escapes and its UTF-8 check
 * are the rule); the others through pd_why_json_plain.  A new string
 * (free()) of *len bytes (len may be NULL), NULL when out of memory or
 * when jansson refuses a string (as json_dumps does).
 */
char *ingest_why_text(const pd_why *w, size_t *len);

/*
 * Append the stored form of `w` and a NUL to b: the compact form
 * (pd_why_compact) when w has one, else its JSON (ingest_why_text).
 * 0, or PD_ENOMEM (out of memory, or a string jansson refuses, as
 * before the compact form).
 */
int ingest_why_put(pd_buf *b, const pd_why *w);

#endif
