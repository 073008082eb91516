/*
 * pd_flow_read.c: what a resolved call graph says (states, chains, the
 * figures it changes) and the stored form of the flow facts (pd_flow.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_buf.h"
#include "pd_dec.h"
#include "pd_error.h"
#include "pd_flow_int.h"
#include "pd_xxh.h"

/* ---- results ----------------------------------------------------------- */

static const fl_fn *fl_at(const pd_flow *g, int64_t file, size_t idx)
{
    const fl_file *f = fl_file_get(g, file);

    return f && idx < f->nfn ? &g->fn[f->fn0 + idx] : NULL;
}

pd_objstate pd_flow_state(const pd_flow *g, int64_t file, size_t idx)
{
    const fl_fn *x = fl_at(g, file, idx);

    return x ? fl_state(x) : PD_OBJ_NONE;
}

int pd_flow_known(const pd_flow *g, int64_t file, size_t idx)
{
    return fl_at(g, file, idx) != NULL;
}

int pd_flow_file_moved(const pd_flow *a, const pd_flow *b, int64_t file)
{
    size_t i;

    for (i = 0; pd_flow_known(a, file, i) || pd_flow_known(b, file, i); i++)
        if (pd_flow_state(a, file, i) != pd_flow_state(b, file, i))
            return 1;
    return 0;
}

pd_objstate pd_flow_local_state(const pd_flow *g, int64_t file, size_t idx)
{
    const fl_fn *x = fl_at(g, file, idx);

    return x ? fl_local_state(x) : PD_OBJ_NONE;
}

/* Append a JSON string to buf at n (bytes; stops at cap). */
static size_t fl_json_str(char *buf, size_t cap, size_t n, const char *s)
{
    if (n < cap)
        buf[n] = '"';
    n++;
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        char esc[8];
        int k = ch == '"' || ch == '\\' ? snprintf(esc, sizeof(esc), "\\%c", ch)
                : ch < 0x20 ? snprintf(esc, sizeof(esc), "\\u%04x", ch)
                : (esc[0] = (char)ch, 1);

        if (n + (size_t)k < cap)
            memcpy(buf + n, esc, (size_t)k);
        n += (size_t)k;
    }
    if (n < cap)
        buf[n] = '"';
    return n + 1;
}

/* 1 when the why of x's kind k (0 legacy, 1 field) is a call: x reached
 * the kind through a callee only, or (cpy: the chain explains a
 * CPython-only state) its own HPyField items are universal and a callee
 * that is CPython-only makes x so (PD_FLOW_CPYCHAIN, via[1] names it):
 * its own item site then says nothing of why it needs CPython
 * (array_items_visit visits HPyField items itself, and its items through
 * visit_item, which needs PyObject). */
static int fl_why_calls(const fl_fn *x, int k, int cpy)
{
    if (x->via[k] < 0)
        return 0;
    if (!(x->local & (k ? PD_FLOW_FIELD : PD_FLOW_LEGACY)))
        return 1;
    return k == 1 && cpy && (x->kinds & PD_FLOW_CPYCHAIN) &&
           !(x->local & PD_FLOW_CPYTHON) && !(x->kinds & PD_FLOW_NULLOWNER);
}

size_t pd_flow_chain_json(const pd_flow *g, int64_t file, size_t idx, char *buf,
                          size_t cap)
{
    const fl_fn *x = fl_at(g, file, idx);
    pd_objstate s;
    int k, cpy, hops = 0;
    size_t n = 0, mark;
    uint32_t seen[8];

    if (!cap)
        return 0;
    buf[0] = '\0';
    if (!x || (s = fl_state(x)) == PD_OBJ_NONE)
        return 0;
    k = s == PD_OBJ_LEGACY ? 0 : 1;
    cpy = s == PD_OBJ_CPYTHON_ONLY;
    if (!fl_why_calls(x, k, cpy))
        return 0;
    n = 1;
    buf[0] = '[';
    while (x->via[k] >= 0 && hops < 8) {
        const fl_fn *d = &g->fn[x->via[k]];
        char line[64];
        int i, loop = 0;

        for (i = 0; i < hops; i++)
            loop |= seen[i] == (uint32_t)x->via[k];
        if (loop)
            break;
        seen[hops] = (uint32_t)x->via[k];
        mark = n;
        if (hops++)
            n += (n < cap ? (buf[n] = ',', 1) : 1);
        n += (size_t)snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0,
                              "{\"function\":");
        n = fl_json_str(buf, cap, n, g->name[d->name].s);
        n += (size_t)snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0,
                              ",\"path\":");
        n = fl_json_str(buf, cap, n, g->file[d->file].path);
        snprintf(line, sizeof(line), ",\"line\":%u}", (unsigned)x->via_line[k]);
        n += (size_t)snprintf(n < cap ? buf + n : NULL, n < cap ? cap - n : 0, "%s", line);
        if (n + 2 >= cap) {
            n = mark;
            break;
        }
        if (!fl_why_calls(d, k, cpy))
            break;
        x = d;
    }
    if (n + 2 > cap)
        n = cap - 2;
    buf[n++] = ']';
    buf[n] = '\0';
    return n;
}

void pd_flow_delta(const pd_flow *g, int64_t delta[PD_OBJ_COUNT])
{
    size_t i;

    memset(delta, 0, PD_OBJ_COUNT * sizeof(*delta));
    for (i = 0; i < g->nfn; i++)
        if (g->fn[i].alive)
            fl_add_delta(&g->fn[i], delta);
}

void pd_flow_file_delta(const pd_flow *g, int64_t file, int64_t delta[PD_OBJ_COUNT])
{
    const fl_file *f = fl_file_get(g, file);
    uint32_t i;

    memset(delta, 0, PD_OBJ_COUNT * sizeof(*delta));
    if (!f)
        return;
    for (i = f->fn0; i < f->fn0 + f->nfn; i++)
        fl_add_delta(&g->fn[i], delta);
}

/* ---- stored form -------------------------------------------------------- */

/* The BITS letters of local bits (the stored form's). */
static void fl_bits(unsigned local, char bits[8])
{
    size_t n = 0;

    if (local & PD_FLOW_LEGACY)
        bits[n++] = 'L';
    if (local & PD_FLOW_FIELD)
        bits[n++] = 'F';
    if (local & PD_FLOW_CPYTHON)
        bits[n++] = 'C';
    if (local & PD_FLOW_MARKER)
        bits[n++] = 'M';
    if (!n)
        bits[n++] = '-';
    bits[n] = '\0';
}

void pd_flow_encode(pd_buf *b, const pd_flow_fn *fn)
{
    char head[64], bits[8];

    fl_bits(fn->local, bits);
    pd_buf_puts(b, fn->name ? fn->name : "");
    snprintf(head, sizeof(head), "\t%u\t%s\t", (unsigned)fn->line, bits);
    pd_buf_puts(b, head);
    pd_buf_puts(b, fn->flow ? fn->flow : "");
    pd_buf_put(b, "\n", 1);
}

/* One stored line [p, e) into *fn; its strings are copied into the
 * NUL-terminated `tmp` of the same length. */
static void fl_decode(const char *p, const char *e, char *tmp, pd_flow_fn *fn)
{
    char *f[4] = {tmp, NULL, NULL, NULL}, *q;
    int k = 1;

    memcpy(tmp, p, (size_t)(e - p));
    tmp[e - p] = '\0';
    for (q = tmp; *q && k < 4; q++)
        if (*q == '\t') {
            *q = '\0';
            f[k++] = q + 1;
        }
    memset(fn, 0, sizeof(*fn));
    fn->name = f[0];
    if (k < 4)
        return;
    fn->line = (uint32_t)strtoul(f[1], NULL, 10);
    for (q = f[2]; *q; q++)
        fn->local |= *q == 'L' ? PD_FLOW_LEGACY : *q == 'F' ? PD_FLOW_FIELD
                     : *q == 'C' ? PD_FLOW_CPYTHON : *q == 'M' ? PD_FLOW_MARKER : 0;
    fn->flow = f[3];
}

/* The newlines of text[0..len) (text NULL: none).  By memchr: a byte
 * at a time this count was 1.3 % of an ingest's instructions (2026-12-07),
 * its lines being 100-200 bytes long. */
static size_t fl_count_lines(const char *text, size_t len)
{
    const char *p = text, *end;
    size_t n = 0;

    if (!text)
        return 0;
    end = text + len;
    while (p < end && (p = memchr(p, '\n', (size_t)(end - p))) != NULL) {
        n++;
        p++;
    }
    return n;
}

int pd_flow_set_file_text(pd_flow *g, int64_t file, const char *path, const char *text,
                          size_t len)
{
    pd_flow_fn *v = NULL;
    char *tmp = NULL;
    size_t n = 0, i, k;
    const char *p, *e;
    int rc;

    n = fl_count_lines(text, len);
    if (!n)
        return pd_flow_set_file(g, file, path, NULL, 0);
    if (!(v = calloc(n, sizeof(*v))) || !(tmp = malloc(len + n + 1))) {
        free(v);
        return pd_error_nomem("in the call graph");
    }
    for (p = text, k = 0, i = 0; i < n && (e = memchr(p, '\n', len - (size_t)(p - text)));
         i++) {
        fl_decode(p, e, tmp + k, &v[i]);
        k += (size_t)(e - p) + 1;
        p = e + 1;
    }
    rc = pd_flow_set_file(g, file, path, v, i);
    free(v);
    free(tmp);
    return rc;
}

int pd_flow_encode_file(const pd_flow_fn *fns, size_t n, pd_buf *text, pd_buf *lines,
                        uint64_t *hash)
{
    pd_xxh hb;                   /* four pieces a function: gathered */
    size_t i, start = text->len, lstart = lines->len;

    pd_xxh_start64(&hb);
    for (i = 0; i < n; i++) {
        const char *name = fns[i].name ? fns[i].name : "";
        const char *flow = fns[i].flow ? fns[i].flow : "";
        char head[24], bits[8];
        size_t k, at, nlen, flen;

        /* A tab or newline would move the fields the readers split on:
         * then the stored text is what they read back (never from the
         * analyzer: names are identifiers, facts hold neither). */
        nlen = strcspn(name, "\t\n");  /* its length, unless it holds one */
        flen = strcspn(flow, "\n");
        if (name[nlen] || flow[flen])
            goto reread;
        fl_bits(fns[i].local, bits);
        pd_buf_put(text, name, nlen);
        head[0] = '\t';
        k = 1 + pd_utoa(head + 1, fns[i].line);
        at = k;                         /* the hash skips the line */
        head[k++] = '\t';
        k += (size_t)(stpcpy(head + k, bits) - (head + k));
        head[k++] = '\t';
        pd_buf_put(text, head, k);
        pd_buf_put(text, flow, flen);
        pd_buf_put(text, "\n", 1);
        pd_xxh_put(&hb, name, nlen);
        pd_xxh_put(&hb, head + at, k - at);
        pd_xxh_put(&hb, flow, flen);
        pd_xxh_put(&hb, "\n", 1);
        k = pd_utoa(head, fns[i].line);
        k += (size_t)(stpcpy(head + k, bits) - (head + k));
        head[k++] = '\n';
        pd_buf_put(lines, head, k);
    }
    if (text->err || lines->err)
        return PD_ENOMEM;
    *hash = pd_xxh_digest64(&hb);
    return 0;
reread:
    for (; i < n; i++)
        pd_flow_encode(text, &fns[i]);
    if (text->err)
        return PD_ENOMEM;
    lines->len = lstart;
    pd_flow_fns_encode(text->data + start, text->len - start, lines);
    if (lines->err)
        return PD_ENOMEM;
    /* NUL-terminated by pd_buf; the text before start is not this file's */
    *hash = pd_flow_facts_hash(text->data + start);
    return 0;
}

void pd_flow_fns_encode(const char *text, size_t len, pd_buf *b)
{
    const char *p = text, *e;
    char *tmp = len ? malloc(len + 1) : NULL;
    size_t n = 0, i;

    n = fl_count_lines(text, len);
    if (!n)
        goto done;
    if (!tmp) {
        b->err = PD_ENOMEM;
        return;
    }
    for (i = 0; i < n && (e = memchr(p, '\n', len - (size_t)(p - text))); i++) {
        pd_flow_fn fn;
        char line[48], bits[8];

        fl_decode(p, e, tmp, &fn);   /* the very fields set_file_text takes */
        fl_bits(fn.local, bits);
        snprintf(line, sizeof(line), "%u%s\n", (unsigned)fn.line, bits);
        pd_buf_puts(b, line);
        p = e + 1;
    }
done:
    free(tmp);
}
