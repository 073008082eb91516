/*
 * ingest_why.c: the stored text of a function's why (see ingest_why.h).
 */
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ingest_why.h"
#include "pd_error.h"

char *ingest_why_text(const pd_why *w, size_t *len)
{
    json_t *o;
    char *text;
    pd_buf b;

    pd_buf_init(&b, 0);
    if (pd_why_json_plain(&b, w) == 0)
        return pd_buf_take(&b, len);
    pd_buf_free(&b);
    /* jansson itself, for what the plain writer leaves to it */
    if (!(o = pd_why_obj(w)))
        return NULL;
    text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (text && len)
        *len = strlen(text);
    return text;
}

int ingest_why_put(pd_buf *b, const pd_why *w)
{
    char *json;
    size_t n;

    if (pd_why_compact(b, w) != 0) {
        if (!(json = ingest_why_text(w, &n)))
            return PD_ENOMEM;
        pd_buf_put(b, json, n);
        free(json);
    }
    pd_buf_put(b, "", 1);
    return b->err ? PD_ENOMEM : 0;
}
