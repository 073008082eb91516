/*
 * api_jw.h: JSON written straight into a buffer, byte for byte as
 * json_dumps(tree, JSON_COMPACT) would write the tree (issue 26.3): the
 * answers that are large or asked cold (the file page, a ref's history)
 * are written with these instead of being made into a jansson tree,
 * dumped and freed.  Key order, escaping (pd_buf_json_str) and number
 * forms are jansson's; each writer's test holds its bytes to a jansson
 * dump of the same values.
 */
#ifndef API_JW_H
#define API_JW_H

#include <stdint.h>

#include <jansson.h>

#include "pd_buf.h"

/* 1 when s is UTF-8 as jansson reads it (RFC 3629, as pd_utf8). */
int api_jw_utf8(const char *s);

/* Any JSON value (borrowed) as json_dumps writes it inside a compact
 * document; NULL, or a value jansson cannot write, as null. */
void api_jw_json(pd_buf *b, const json_t *v);

/* api_text(s) (api_common.h): null for NULL, the string, or when it is not UTF-8
 * its display form (each byte outside UTF-8 as \xHH). */
void api_jw_text(pd_buf *b, const char *s);

/* A JSON integer, as jansson writes a json_int_t. */
void api_jw_int(pd_buf *b, int64_t v);

/* A key inside an object: `"key":`, after a comma unless `first`.  The
 * key is written as a JSON string (escaped). */
void api_jw_key(pd_buf *b, const char *key, int first);

/* true or false. */
void api_jw_bool(pd_buf *b, int v);

#endif
