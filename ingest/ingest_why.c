/*
 * ingest_why.c: the stored text of a function's why (see ingest_why.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "ingest_why.h"
#include "pd_buf.h"

/* 1 when jansson would write `s` as it is but for '"', '\\' and the
 * control characters, whose escapes pd_buf_json_str writes as it does. */
static int ingest_why_plain(const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");

    for (; *p; p++)
        if (*p >= 0x80)
            return 0;
    return 1;
}

/* A site: {"rule":..,"text":..,"line":N,"column":N} or null. */
static void ingest_why_site(pd_buf *b, const pd_why_site *f)
{
    char num[48];
    int n;

    if (!f->rule) {
        pd_buf_put(b, "null", 4);
        return;
    }
    pd_buf_put(b, "{\"rule\":", 8);
    pd_buf_json_str(b, f->rule);
    pd_buf_put(b, ",\"text\":", 8);
    pd_buf_json_str(b, f->text);
    n = snprintf(num, sizeof(num), ",\"line\":%u,\"column\":%u}", (unsigned)f->line,
                 (unsigned)f->column);
    pd_buf_put(b, num, (size_t)n);
}

/* The jansson path, for what the plain writer leaves to it. */
static char *ingest_why_jansson(const pd_why *w, size_t *len)
{
    json_t *o = pd_why_obj(w);
    char *text;

    if (!o)
        return NULL;
    text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    if (text && len)
        *len = strlen(text);
    return text;
}

char *ingest_why_text(const pd_why *w, size_t *len)
{
    const pd_why_site *site[3] = {&w->status, &w->object, &w->object_also};
    char num[32];
    pd_buf b;
    int i, n;

    if (w->chain || !ingest_why_plain(w->mention))
        return ingest_why_jansson(w, len);
    for (i = 0; i < 3; i++)
        if (site[i]->rule && (!ingest_why_plain(site[i]->rule) ||
                              !ingest_why_plain(site[i]->text)))
            return ingest_why_jansson(w, len);
    pd_buf_init(&b, 0);
    pd_buf_put(&b, "{\"status\":", 10);
    ingest_why_site(&b, &w->status);
    pd_buf_put(&b, ",\"object\":", 10);
    ingest_why_site(&b, &w->object);
    pd_buf_put(&b, ",\"mentions\":", 12);
    if (w->mention) {
        pd_buf_put(&b, "{\"name\":", 8);
        pd_buf_json_str(&b, w->mention);
        n = snprintf(num, sizeof(num), ",\"line\":%u}", (unsigned)w->mention_line);
        pd_buf_put(&b, num, (size_t)n);
    } else {
        pd_buf_put(&b, "null", 4);
    }
    pd_buf_put(&b, ",\"object_also\":", 15);
    ingest_why_site(&b, &w->object_also);
    pd_buf_put(&b, "}", 1);
    return pd_buf_take(&b, len);
}
