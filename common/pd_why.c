/*
 * pd_why.c: the JSON form of a function's why and its compact stored form
 * (pd_why.h).
 */
#include <stdio.h>
#include <string.h>

#include "pd_dec.h"
#include "pd_why.h"

static json_t *pd_why_str(const char *s)
{
    return json_stringn_nocheck(s ? s : "", s ? strlen(s) : 0);
}

static json_t *pd_why_site_obj(const pd_why_site *f)
{
    if (!f->rule)
        return json_null();
    return json_pack("{s:o, s:o, s:I, s:I}", "rule", pd_why_str(f->rule),
                     "text", pd_why_str(f->text), "line", (json_int_t)f->line,
                     "column", (json_int_t)f->column);
}

json_t *pd_why_obj(const pd_why *w)
{
    json_t *object, *chain;

    if (w->chain && (chain = json_loads(w->chain, 0, NULL)) != NULL) {
        object = json_is_array(chain) ? json_pack("{s:o}", "chain", chain)
                                      : (json_decref(chain), json_null());
    } else {
        object = pd_why_site_obj(&w->object);
    }
    return json_pack("{s:o, s:o, s:o, s:o}",
                     "status", pd_why_site_obj(&w->status),
                     "object", object,
                     "mentions", w->mention ? json_pack("{s:o, s:I}", "name",
                                                        pd_why_str(w->mention), "line",
                                                        (json_int_t)w->mention_line)
                                            : json_null(),
                     "object_also", pd_why_site_obj(&w->object_also));
}

/* 1 when s (NULL: "") is ASCII and, for the compact form (us), holds no
 * PD_WHY_US. */
static int pd_why_plain_str(const char *s, int us)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");

    for (; *p; p++)
        if (*p >= 0x80 || (us && *p == (unsigned char)PD_WHY_US))
            return 0;
    return 1;
}

/* 1 when w has no chain and every string passes pd_why_plain_str; for
 * the compact form also no empty rule or mention. */
static int pd_why_plain(const pd_why *w, int us)
{
    const pd_why_site *site[3] = {&w->status, &w->object, &w->object_also};
    int i;

    if (w->chain || !pd_why_plain_str(w->mention, us) || (us && w->mention && !*w->mention))
        return 0;
    for (i = 0; i < 3; i++)
        if (site[i]->rule && (!pd_why_plain_str(site[i]->rule, us) ||
                              !pd_why_plain_str(site[i]->text, us) ||
                              (us && !*site[i]->rule)))
            return 0;
    return 1;
}

/* A site: {"rule":..,"text":..,"line":N,"column":N} or null. */
static void pd_why_site_json(pd_buf *b, const pd_why_site *f)
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

int pd_why_json_plain(pd_buf *b, const pd_why *w)
{
    char num[32];
    int n;

    if (!pd_why_plain(w, 0))
        return 1;
    pd_buf_put(b, "{\"status\":", 10);
    pd_why_site_json(b, &w->status);
    pd_buf_put(b, ",\"object\":", 10);
    pd_why_site_json(b, &w->object);
    pd_buf_put(b, ",\"mentions\":", 12);
    if (w->mention) {
        pd_buf_put(b, "{\"name\":", 8);
        pd_buf_json_str(b, w->mention);
        n = snprintf(num, sizeof(num), ",\"line\":%u}", (unsigned)w->mention_line);
        pd_buf_put(b, num, (size_t)n);
    } else {
        pd_buf_put(b, "null", 4);
    }
    pd_buf_put(b, ",\"object_also\":", 15);
    pd_why_site_json(b, &w->object_also);
    pd_buf_put(b, "}", 1);
    return 0;
}

/* Append PD_WHY_US, then s unless NULL. */
static void pd_why_field(pd_buf *b, const char *s)
{
    pd_buf_put(b, "\x1f", 1);
    if (s)
        pd_buf_puts(b, s);
}

/* Append PD_WHY_US and the decimal of v. */
static void pd_why_num(pd_buf *b, uint32_t v)
{
    char d[1 + PD_DEC_MAX];

    d[0] = PD_WHY_US;
    pd_buf_put(b, d, 1 + pd_utoa(d + 1, v));
}

/* A site's four fields. */
static void pd_why_site_compact(pd_buf *b, const pd_why_site *f)
{
    if (!f->rule) {
        pd_buf_put(b, "\x1f\x1f\x1f\x1f", 4);
        return;
    }
    pd_why_field(b, f->rule);
    pd_why_field(b, f->text);
    pd_why_num(b, f->line);
    pd_why_num(b, f->column);
}

int pd_why_compact(pd_buf *b, const pd_why *w)
{
    if (!pd_why_plain(w, 1))
        return 1;
    pd_why_site_compact(b, &w->status);
    pd_why_site_compact(b, &w->object);
    if (w->mention) {
        pd_why_field(b, w->mention);
        pd_why_num(b, w->mention_line);
    } else {
        pd_buf_put(b, "\x1f\x1f", 2);
    }
    pd_why_site_compact(b, &w->object_also);
    return 0;
}

/* Field s as a uint32 decimal (no sign, no leading zero but "0"); 0 or -1. */
static int pd_why_parse_num(const char *s, uint32_t *v)
{
    uint64_t x = 0;

    if (!*s || (s[0] == '0' && s[1]))
        return -1;
    for (; *s; s++) {
        if (*s < '0' || *s > '9' || (x = x * 10 + (uint64_t)(*s - '0')) > UINT32_MAX)
            return -1;
    }
    *v = (uint32_t)x;
    return 0;
}

/* Site fields f[0..4) into *site; 0 or -1 (a null site has all empty). */
static int pd_why_parse_site(char *const *f, pd_why_site *site)
{
    memset(site, 0, sizeof(*site));
    if (!*f[0])
        return *f[1] || *f[2] || *f[3] ? -1 : 0;
    site->rule = f[0];
    site->text = f[1];
    return pd_why_parse_num(f[2], &site->line) < 0 ||
           pd_why_parse_num(f[3], &site->column) < 0 ? -1 : 0;
}

int pd_why_compact_parse(char *s, pd_why *w)
{
    char *f[14], *p;
    int n = 0;

    memset(w, 0, sizeof(*w));
    if (*s != PD_WHY_US)
        return -1;
    for (p = s; p; ) {                  /* p at a separator */
        if (n == 14)
            return -1;
        *p++ = '\0';
        f[n++] = p;
        p = strchr(p, PD_WHY_US);
    }
    if (n != 14 || pd_why_parse_site(f, &w->status) < 0 ||
        pd_why_parse_site(f + 4, &w->object) < 0 ||
        pd_why_parse_site(f + 10, &w->object_also) < 0)
        return -1;
    if (!*f[8])
        return *f[9] ? -1 : 0;
    w->mention = f[8];
    return pd_why_parse_num(f[9], &w->mention_line);
}
