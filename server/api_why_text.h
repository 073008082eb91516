/*
 * api_why_text.h: a function's why on the file page written from its
 * stored text (issue 26.3).  The ingest stores each why as jansson's
 * compact dump (ingest_why.c); the page parsed every one with json_loads
 * and dumped it again (a seventh of a cold page of arraytypes.c.src, 880
 * functions).  A stored text that is already in the form json_dumps gives
 * is written as it is, with the page's two edits (why.object.chain,
 * why.mentions) made on the text.
 */
#ifndef API_WHY_TEXT_H
#define API_WHY_TEXT_H

#include <stddef.h>

#include "pd_buf.h"
#include "q_file.h"

/*
 * 1 when the n bytes at s are JSON that json_loads(s, 0) reads and
 * json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY) writes back byte for byte:
 * an object or array at the top; no whitespace; integers of at most 18
 * digits, no "-0", no reals; strings of UTF-8 (as pd_utf8_valid) with the
 * escapes jansson writes (\" \\ \b \f \n \r \t, \u00XX with upper-case
 * hex for the other controls, never \u0000); no key twice in one object;
 * nesting at most 64 deep.  0 for anything else (valid JSON too: the
 * caller then takes jansson's way).
 */
int api_why_canonical(const char *s, size_t n);

/*
 * Append to b the JSON of api_file_why(fn) (api_file_part.h) as
 * json_dump_callback writes it compact, without jansson, when fn->why (and
 * fn->chain when it is used) is canonical (above) or NULL.  Returns 1 when
 * written, 0 when not canonical (nothing written: the caller uses
 * api_file_why).  b's errors stay in b->err.
 */
int api_why_write(pd_buf *b, const q_function *fn);

#endif
