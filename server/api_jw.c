/*
 * api_jw.c: JSON written as jansson's compact dump (see api_jw.h).
 */
#include <string.h>

#include "api.h"
#include "api_jw.h"
#include "pd_dec.h"
#include "pd_utf8.h"

int api_jw_utf8(const char *s)
{
    return pd_utf8_valid(s, strlen(s));
}

static int api_jw_put_cb(const char *p, size_t n, void *data)
{
    return pd_buf_put(data, p, n) == 0 ? 0 : -1;
}

void api_jw_json(pd_buf *b, const json_t *v)
{
    if (!v || json_dump_callback(v, api_jw_put_cb, b, JSON_COMPACT | JSON_ENCODE_ANY) < 0)
        pd_buf_put(b, "null", 4);
}

void api_jw_text(pd_buf *b, const char *s)
{
    json_t *j;

    if (!s) {
        pd_buf_put(b, "null", 4);
        return;
    }
    if (api_jw_utf8(s)) {
        pd_buf_json_str(b, s);
        return;
    }
    j = api_text(s);
    api_jw_json(b, j);
    json_decref(j);
}

void api_jw_int(pd_buf *b, int64_t v)
{
    char tmp[PD_DEC_MAX];

    pd_buf_put(b, tmp, pd_itoa(tmp, v));
}

void api_jw_key(pd_buf *b, const char *key, int first)
{
    if (!first)
        pd_buf_put(b, ",", 1);
    pd_buf_json_str(b, key);
    pd_buf_put(b, ":", 1);
}

void api_jw_bool(pd_buf *b, int v)
{
    pd_buf_put(b, v ? "true" : "false", v ? 4 : 5);
}
