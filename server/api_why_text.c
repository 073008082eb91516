/*
 * api_why_text.c: a function's why written from its stored text (see
 * api_why_text.h).  The check is strict on purpose: whatever it accepts,
 * a round trip through jansson gives back unchanged
 * (tests/unit/test_why_text.c holds the two to each other), and whatever
 * it refuses goes through jansson as before.
 */
#include <string.h>

#include "api_why_text.h"
#include "pd_utf8.h"

#define AWT_DEPTH 64          /* deeper: jansson's way */
#define AWT_KEYS 32           /* keys of an object checked for repeats */

typedef struct {
    const char *s, *end;
} awt_in;

static int awt_value(awt_in *in, int depth);

/* A string as json_dumps writes it; its raw bytes into *key and *klen. */
static int awt_string(awt_in *in, const char **key, size_t *klen)
{
    const char *p = in->s, *run;

    if (p >= in->end || *p != '"')
        return 0;
    run = ++p;
    for (;;) {
        unsigned char c;

        if (p >= in->end)
            return 0;
        c = (unsigned char)*p;
        if (c == '"')
            break;
        if (c < 0x20)
            return 0;
        if (c != '\\') {
            p++;
            continue;
        }
        if (p + 1 >= in->end)
            return 0;
        switch (p[1]) {
        case '"': case '\\': case 'b': case 'f': case 'n': case 'r': case 't':
            p += 2;
            continue;
        case 'u':
            break;
        default:
            return 0;             /* \/ is written as / */
        }
        /* \u00XX, upper-case hex, a control that has no short form */
        if (in->end - p < 6 || p[2] != '0' || p[3] != '0' || (p[4] != '0' && p[4] != '1'))
            return 0;
        c = (unsigned char)p[5];
        if (c >= '0' && c <= '9')
            c = (unsigned char)(c - '0');
        else if (c >= 'A' && c <= 'F')
            c = (unsigned char)(c - 'A' + 10);
        else
            return 0;
        c = (unsigned char)(c + (p[4] == '1' ? 16 : 0));
        if (c == 0 || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t')
            return 0;
        p += 6;
    }
    if (!pd_utf8_valid(run, (size_t)(p - run)))
        return 0;
    if (key) {
        *key = run;
        *klen = (size_t)(p - run);
    }
    in->s = p + 1;
    return 1;
}

/* An integer as jansson writes a json_int_t (no real, no -0, no leading
 * zero, 18 digits at most so that it cannot overflow). */
static int awt_number(awt_in *in)
{
    const char *p = in->s, *d;

    if (p < in->end && *p == '-')
        p++;
    d = p;
    while (p < in->end && *p >= '0' && *p <= '9')
        p++;
    if (p == d || p - d > 18 || (*d == '0' && (p - d > 1 || d != in->s)))
        return 0;
    if (p < in->end && (*p == '.' || *p == 'e' || *p == 'E'))
        return 0;
    in->s = p;
    return 1;
}

static int awt_word(awt_in *in, const char *w, size_t n)
{
    if ((size_t)(in->end - in->s) < n || memcmp(in->s, w, n) != 0)
        return 0;
    in->s += n;
    return 1;
}

static int awt_object(awt_in *in, int depth)
{
    const char *key[AWT_KEYS];
    size_t klen[AWT_KEYS], nkeys = 0, i;

    in->s++;
    if (in->s < in->end && *in->s == '}') {
        in->s++;
        return 1;
    }
    for (;;) {
        const char *k;
        size_t kn;

        if (!awt_string(in, &k, &kn) || nkeys == AWT_KEYS)
            return 0;
        for (i = 0; i < nkeys; i++)
            if (klen[i] == kn && memcmp(key[i], k, kn) == 0)
                return 0;
        key[nkeys] = k;
        klen[nkeys++] = kn;
        if (in->s >= in->end || *in->s++ != ':' || !awt_value(in, depth + 1) ||
            in->s >= in->end)
            return 0;
        if (*in->s == '}') {
            in->s++;
            return 1;
        }
        if (*in->s++ != ',')
            return 0;
    }
}

static int awt_array(awt_in *in, int depth)
{
    in->s++;
    if (in->s < in->end && *in->s == ']') {
        in->s++;
        return 1;
    }
    for (;;) {
        if (!awt_value(in, depth + 1) || in->s >= in->end)
            return 0;
        if (*in->s == ']') {
            in->s++;
            return 1;
        }
        if (*in->s++ != ',')
            return 0;
    }
}

static int awt_value(awt_in *in, int depth)
{
    if (depth > AWT_DEPTH || in->s >= in->end)
        return 0;
    switch (*in->s) {
    case '{': return awt_object(in, depth);
    case '[': return awt_array(in, depth);
    case '"': return awt_string(in, NULL, NULL);
    case 't': return awt_word(in, "true", 4);
    case 'f': return awt_word(in, "false", 5);
    case 'n': return awt_word(in, "null", 4);
    default: return awt_number(in);
    }
}

int api_why_canonical(const char *s, size_t n)
{
    awt_in in = {s, s + n};

    if (!n || (s[0] != '{' && s[0] != '['))
        return 0;
    return awt_value(&in, 1) && in.s == in.end;
}

/* The top-level object `why` (canonical) with "object" set to
 * {"chain":chain} when chain is not NULL and "mentions" to null when
 * `void_mentions`: in place when the key is there, else at the end, as
 * json_object_set_new does. */
static void awt_edit(pd_buf *b, const char *why, size_t n, const char *chain,
                     int void_mentions)
{
    awt_in in = {why + 1, why + n};
    int first = 1, seen_object = 0, seen_mentions = 0;

    pd_buf_put(b, "{", 1);
    while (in.s < in.end && *in.s != '}') {
        const char *k, *v;
        size_t kn;

        awt_string(&in, &k, &kn);
        in.s++;                                   /* ':' */
        v = in.s;
        awt_value(&in, 1);
        if (!first)
            pd_buf_put(b, ",", 1);
        first = 0;
        pd_buf_put(b, k - 1, kn + 3);             /* "key": */
        if (chain && kn == 6 && memcmp(k, "object", 6) == 0) {
            seen_object = 1;
            pd_buf_puts(b, "{\"chain\":");
            pd_buf_puts(b, chain);
            pd_buf_put(b, "}", 1);
        } else if (void_mentions && kn == 8 && memcmp(k, "mentions", 8) == 0) {
            seen_mentions = 1;
            pd_buf_put(b, "null", 4);
        } else {
            pd_buf_put(b, v, (size_t)(in.s - v));
        }
        if (in.s < in.end && *in.s == ',')
            in.s++;
    }
    if (chain && !seen_object) {
        pd_buf_puts(b, first ? "\"object\":{\"chain\":" : ",\"object\":{\"chain\":");
        pd_buf_puts(b, chain);
        pd_buf_put(b, "}", 1);
        first = 0;
    }
    if (void_mentions && !seen_mentions)
        pd_buf_puts(b, first ? "\"mentions\":null" : ",\"mentions\":null");
    pd_buf_put(b, "}", 1);
}

int api_why_write(pd_buf *b, const q_function *fn)
{
    size_t n;

    if (!fn->why) {
        pd_buf_put(b, "null", 4);
        return 1;
    }
    n = strlen(fn->why);
    if (!api_why_canonical(fn->why, n) ||
        (fn->why[0] == '{' && fn->chain && !api_why_canonical(fn->chain, strlen(fn->chain))))
        return 0;
    if (fn->why[0] != '{' || (!fn->chain && !fn->state_from_graph))
        pd_buf_put(b, fn->why, n);
    else
        awt_edit(b, fn->why, n, fn->chain, fn->state_from_graph);
    return 1;
}
