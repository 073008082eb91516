/*
 * pd_flow_pack.c: a graph's input in one block (pd_flow.h), so that a
 * push whose facts change starts from its base commit's graph as the
 * ingest left it instead of reading, decompressing and parsing the flow
 * facts of every file of the base again (issue 26: 45 % of such a push's
 * instructions, the push over its 50 ms).
 *
 * The block holds what pd_flow_set_file keeps of the facts, not the
 * facts: bumping PD_FLOW_PACK_MAGIC is part of changing how they are read
 * (fl_read_facts), as the analyzer's version is part of changing them.
 *
 *   magic "PDG1"
 *   nname nfile nfn ncall narg
 *   names  nname x (len, bytes)             ids in this order
 *   files  nfile x (id: 8 bytes, little-endian; path len, bytes; nfn)
 *   fns    nfn x (name, line, local, eL, eF, own, ncall)   files' in turn
 *   calls  ncall x (callee, line - its function's line mod 2^32, nargs)
 *   args   narg x (type; 'p': param; 'i': name)
 *   XXH3-64 of all the bytes before: 8 bytes, little-endian
 *
 * Every number but the file ids and the checksum is unsigned LEB128.  The
 * checksum stands for the zstd frame's of the compressed columns: the
 * block is stored as it is (compressing it took as long as reading it).  Only live functions
 * and the names they use are written, in the graph's own order: the
 * results do not depend on that order (pd_flow_resolve works in path
 * order), so a graph read back resolves as the one written.
 */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "pd_error.h"
#include "pd_flow_int.h"

#define PD_FLOW_PACK_MAGIC "PDG1"

/* Written in place: a call to pd_buf_put for each of half a million
 * numbers was most of a push's packing. */
static inline void pk_uint(pd_buf *b, uint64_t v)
{
    unsigned char *p;

    if ((b->err || b->cap - b->len < 12) && pd_buf_reserve(b, 11) < 0)
        return;
    p = (unsigned char *)b->data + b->len;
    for (; v >= 0x80; v >>= 7)
        *p++ = (unsigned char)(v | 0x80);
    *p++ = (unsigned char)v;
    b->len = (size_t)(p - (unsigned char *)b->data);
    *p = '\0';
}

/* Names that live functions use, numbered in order of first use:
 * map[old id] = new id + 1 (0: unused).  *n their count.  0 or
 * PD_ENOMEM. */
static int pk_names(const pd_flow *g, uint32_t **map, uint32_t *n)
{
    size_t i, j, a;

    *n = 0;
    if (!(*map = calloc(g->nname ? g->nname : 1, sizeof(**map))))
        return pd_error_nomem("packing the call graph");
#define PK_USE(id) do { if (!(*map)[id]) (*map)[id] = ++*n; } while (0)
    for (i = 0; i < g->nfile; i++)
        for (j = g->file[i].fn0; j < g->file[i].fn0 + g->file[i].nfn; j++) {
            const fl_fn *x = &g->fn[j];

            PK_USE(x->name);
            for (a = x->call0; a < x->call0 + x->ncall; a++) {
                const fl_call *c = &g->call[a];
                size_t k;

                PK_USE(c->callee);
                for (k = c->arg0; k < c->arg0 + c->nargs; k++)
                    if (g->arg[k].type == 'i')
                        PK_USE(g->arg[k].name);
            }
        }
#undef PK_USE
    return 0;
}

static void pk_fn(pd_buf *b, const fl_fn *x, const uint32_t *map)
{
    pk_uint(b, map[x->name] - 1);
    pk_uint(b, x->line);
    pk_uint(b, x->local);
    pk_uint(b, x->eL);
    pk_uint(b, x->eF);
    pk_uint(b, x->own);
    pk_uint(b, x->ncall);
}

/* The calls, then the arguments, of every live function. */
static void pk_calls(pd_buf *b, const pd_flow *g, const uint32_t *map, int args)
{
    size_t i, j, c, k;

    for (i = 0; i < g->nfile; i++)
        for (j = g->file[i].fn0; j < g->file[i].fn0 + g->file[i].nfn; j++)
            for (c = g->fn[j].call0; c < g->fn[j].call0 + g->fn[j].ncall; c++) {
                const fl_call *x = &g->call[c];

                if (!args) {
                    pk_uint(b, map[x->callee] - 1);
                    pk_uint(b, (uint32_t)(x->line - g->fn[j].line));
                    pk_uint(b, x->nargs);
                    continue;
                }
                for (k = x->arg0; k < x->arg0 + x->nargs; k++) {
                    const fl_arg *a = &g->arg[k];

                    pd_buf_put(b, &a->type, 1);
                    if (a->type == 'p')
                        pk_uint(b, a->param);
                    else if (a->type == 'i')
                        pk_uint(b, map[a->name] - 1);
                }
            }
}

int pd_flow_pack(const pd_flow *g, pd_buf *b)
{
    uint32_t *map, nname, i;
    size_t nfile = 0, nfn = 0, ncall = 0, narg = 0, j, c, start = b->len;
    int rc;

    if (g->results)
        return pd_error_set(PD_EINVAL, "a call graph of stored results has no input to pack");
    if ((rc = pk_names(g, &map, &nname)) < 0)
        return rc;
    for (i = 0; i < g->nfile; i++)
        nfile += g->file[i].nfn > 0;     /* a file set empty: as if never set */
    for (i = 0; i < g->nfile; i++)
        for (j = g->file[i].fn0; j < g->file[i].fn0 + g->file[i].nfn; j++) {
            nfn++;
            ncall += g->fn[j].ncall;
            for (c = g->fn[j].call0; c < g->fn[j].call0 + g->fn[j].ncall; c++)
                narg += g->call[c].nargs;
        }
    pd_buf_put(b, PD_FLOW_PACK_MAGIC, 4);
    pk_uint(b, nname);
    pk_uint(b, nfile);
    pk_uint(b, nfn);
    pk_uint(b, ncall);
    pk_uint(b, narg);
    {
        uint32_t *inv = malloc((nname ? nname : 1) * sizeof(*inv));

        if (!inv) {
            free(map);
            return pd_error_nomem("packing the call graph");
        }
        for (i = 0; i < g->nname; i++)
            if (map[i])
                inv[map[i] - 1] = i;
        for (i = 0; i < nname; i++) {
            pk_uint(b, g->name[inv[i]].len);
            pd_buf_put(b, g->name[inv[i]].s, g->name[inv[i]].len);
        }
        free(inv);
    }
    for (i = 0; i < g->nfile; i++) {
        const fl_file *f = &g->file[i];
        unsigned char id[8];
        uint64_t v = (uint64_t)*f->id;
        size_t plen = strlen(f->path);

        if (!f->nfn)
            continue;
        for (j = 0; j < 8; j++)
            id[j] = (unsigned char)(v >> (8 * j));
        pd_buf_put(b, id, 8);
        pk_uint(b, plen);
        pd_buf_put(b, f->path, plen);
        pk_uint(b, f->nfn);
    }
    for (i = 0; i < g->nfile; i++)
        for (j = g->file[i].fn0; j < g->file[i].fn0 + g->file[i].nfn; j++)
            pk_fn(b, &g->fn[j], map);
    pk_calls(b, g, map, 0);
    pk_calls(b, g, map, 1);
    free(map);
    if (!b->err) {
        uint64_t h = XXH3_64bits(b->data + start, b->len - start);
        unsigned char t[8];

        for (j = 0; j < 8; j++)
            t[j] = (unsigned char)(h >> (8 * j));
        pd_buf_put(b, t, 8);
    }
    return b->err ? pd_error_nomem("packing the call graph") : 0;
}

/* ---- reading it back ----------------------------------------------------- */

typedef struct {
    const unsigned char *p, *end;
    int bad;
} pk_in;

static inline uint64_t pk_get(pk_in *in)
{
    uint64_t v = 0;
    unsigned s = 0;

    if (in->p < in->end && !(*in->p & 0x80))    /* most numbers: one byte */
        return *in->p++;
    while (in->p < in->end && s < 64) {
        unsigned char c = *in->p++;

        v |= (uint64_t)(c & 0x7f) << s;
        if (!(c & 0x80))
            return v;
        s += 7;
    }
    in->bad = 1;
    return 0;
}

/* A number below `limit` (else the block is damaged). */
static inline uint32_t pk_below(pk_in *in, uint64_t limit)
{
    uint64_t v = pk_get(in);

    if (v >= limit)
        in->bad = 1;
    return in->bad ? 0 : (uint32_t)v;
}

/* A count of items that take at least one byte each: no more than the
 * bytes left (a damaged count must not allocate gigabytes). */
static size_t pk_count(pk_in *in)
{
    return pk_below(in, (uint64_t)(in->end - in->p) + 1);
}

static int pk_read_names(pd_flow *g, pk_in *in, size_t nname)
{
    size_t i;

    if (fl_grow((void **)&g->name, &g->capname, nname ? nname : 1, sizeof(*g->name)) < 0)
        return PD_ENOMEM;
    for (i = 0; i < nname && !in->bad; i++) {
        size_t len = pk_count(in);

        if (in->bad || len > (size_t)(in->end - in->p))
            break;
        if (fl_name_id(g, (const char *)in->p, len) == UINT32_MAX)
            return pd_error_nomem("unpacking the call graph");
        if (g->nname != i + 1) {                 /* a name twice: damaged */
            in->bad = 1;
            break;
        }
        in->p += len;
    }
    return 0;
}

static int pk_read_files(pd_flow *g, pk_in *in, size_t nfile, size_t nfn)
{
    size_t i, sum = 0;

    for (i = 0; i < nfile && !in->bad; i++) {
        uint64_t v = 0;
        size_t len, k;
        char *path;
        fl_file *f;

        if (in->end - in->p < 8) {
            in->bad = 1;
            break;
        }
        for (k = 0; k < 8; k++)
            v |= (uint64_t)in->p[k] << (8 * k);
        in->p += 8;
        len = pk_count(in);
        if (in->bad || len > (size_t)(in->end - in->p) || fl_file_get(g, (int64_t)v)) {
            in->bad = 1;
            break;
        }
        if (!(path = malloc(len + 1)))
            return pd_error_nomem("unpacking the call graph");
        memcpy(path, in->p, len);
        path[len] = '\0';
        in->p += len;
        f = fl_file_add(g, (int64_t)v, path);
        free(path);
        if (!f)
            return PD_ENOMEM;
        f->fn0 = (uint32_t)sum;
        f->nfn = pk_below(in, nfn - sum + 1);
        sum += f->nfn;
    }
    if (!in->bad && sum != nfn)
        in->bad = 1;
    return 0;
}

/* The functions, their calls and arguments.  Each function's key is made
 * up (pd_flow_keep.c hashes the facts text, not at hand here), one per
 * function so that the old-function table of a file set again stays a
 * table; a key of real text meets one with a 128-bit hash's odds. */
static int pk_read_fns(pd_flow *g, pk_in *in, size_t nfn, size_t ncall, size_t narg)
{
    size_t i, j, k, nc = 0, na = 0;

    if (fl_grow((void **)&g->fn, &g->capfn, nfn ? nfn : 1, sizeof(*g->fn)) < 0 ||
        fl_grow((void **)&g->call, &g->capcall, ncall ? ncall : 1, sizeof(*g->call)) < 0 ||
        fl_grow((void **)&g->arg, &g->caparg, narg ? narg : 1, sizeof(*g->arg)) < 0)
        return PD_ENOMEM;
    for (i = 0; i < g->nfile; i++)
        for (j = g->file[i].fn0; j < g->file[i].fn0 + g->file[i].nfn && !in->bad; j++) {
            fl_fn *x = &g->fn[j];

            memset(x, 0, sizeof(*x));
            x->file = (uint32_t)i;
            x->name = pk_below(in, g->nname);
            x->line = pk_below(in, (uint64_t)UINT32_MAX + 1);
            x->local = pk_below(in, 1u << 16);
            x->eL = (uint16_t)pk_below(in, 1u << 16);
            x->eF = (uint16_t)pk_below(in, 1u << 16);
            x->own = (uint16_t)pk_below(in, 1u << 16);
            x->ncall = pk_below(in, ncall - nc + 1);
            x->call0 = (uint32_t)nc;
            x->alive = 1;
            x->key[0] = ~(uint64_t)j;
            x->key[1] = (uint64_t)j * 0x9e3779b97f4a7c15ULL;
            nc += x->ncall;
        }
    g->nfn = nfn;
    if (in->bad || nc != ncall) {
        in->bad = 1;
        return 0;
    }
    for (k = 0; k < ncall && !in->bad; k++) {
        fl_call *c = &g->call[k];

        c->callee = pk_below(in, g->nname);
        c->line = pk_below(in, (uint64_t)UINT32_MAX + 1);
        c->nargs = (uint16_t)pk_below(in, narg - na + 1 < 65 ? narg - na + 1 : 65);
        c->arg0 = (uint32_t)na;
        na += c->nargs;
    }
    if (!in->bad && na != narg)
        in->bad = 1;
    for (k = 0; k < narg && !in->bad; k++) {
        fl_arg *a = &g->arg[k];

        a->param = 0;
        a->name = 0;
        a->type = in->p < in->end ? *in->p++ : (in->bad = 1, 0);
        if (a->type == 'p')
            a->param = (uint8_t)pk_below(in, 16);
        else if (a->type == 'i')
            a->name = pk_below(in, g->nname);
        else if (a->type != 'N' && a->type != '-')
            in->bad = 1;
    }
    return 0;
}

/* Room for exactly n entries in the empty vector v (fl_grow starts at
 * 64).  0 or PD_ENOMEM. */
static int pk_exact(fl_vec *v, size_t n)
{
    if (!n)
        return 0;
    if (!(v->v = malloc(n * sizeof(*v->v))))
        return PD_ENOMEM;
    v->cap = n;
    return 0;
}

/* Each name's entry vectors at their exact size: grown from nothing a
 * push at a time, thirty thousand of them took 64 entries each (8 MB of
 * pages faulted in for 0.5 MB of entries).  0 or PD_ENOMEM. */
static int pk_size_index(pd_flow *g)
{
    uint32_t *n = calloc(g->nname ? 3 * g->nname : 1, sizeof(*n));
    size_t i, j, a;
    int rc = 0;

    if (!n)
        return pd_error_nomem("unpacking the call graph");
    for (i = 0; i < g->nfn; i++) {
        const fl_fn *x = &g->fn[i];

        n[3 * x->name]++;
        for (j = x->call0; j < x->call0 + x->ncall; j++) {
            const fl_call *c = &g->call[j];

            n[3 * c->callee + 1] += 2;
            for (a = c->arg0; a < c->arg0 + c->nargs; a++)
                if (g->arg[a].type == 'i')
                    n[3 * g->arg[a].name + 2] += 2;
        }
    }
    for (i = 0; i < g->nname && rc == 0; i++)
        if (pk_exact(&g->name[i].defs, n[3 * i]) < 0 ||
            pk_exact(&g->name[i].calls, n[3 * i + 1]) < 0 ||
            pk_exact(&g->name[i].cbs, n[3 * i + 2]) < 0)
            rc = pd_error_nomem("unpacking the call graph");
    free(n);
    return rc;
}

/* The names' entries, from the functions and their calls (after
 * pk_read_fns; fl_compact's order: definitions, then each call's
 * callbacks and callee), and the calls' lines made absolute. */
static int pk_index(pd_flow *g)
{
    size_t i, j, a;

    if (pk_size_index(g) < 0)
        return PD_ENOMEM;
    for (i = 0; i < g->nfn; i++) {
        const fl_fn *x = &g->fn[i];

        if (fl_push(&g->name[x->name].defs, (uint32_t)i) < 0)
            return PD_ENOMEM;
        for (j = x->call0; j < x->call0 + x->ncall; j++) {
            fl_call *c = &g->call[j];

            c->line = x->line + c->line;              /* modulo 2^32, as read */
            for (a = c->arg0; a < c->arg0 + c->nargs; a++)
                if (g->arg[a].type == 'i' &&
                    (fl_push(&g->name[g->arg[a].name].cbs, (uint32_t)i) < 0 ||
                     fl_push(&g->name[g->arg[a].name].cbs, (uint32_t)j) < 0))
                    return PD_ENOMEM;
            if (fl_push(&g->name[c->callee].calls, (uint32_t)i) < 0 ||
                fl_push(&g->name[c->callee].calls, (uint32_t)j) < 0)
                return PD_ENOMEM;
        }
    }
    return 0;
}

int pd_flow_unpack(pd_flow **out, const void *data, size_t len)
{
    pk_in in = {data, (const unsigned char *)data + len, 0};
    size_t nname, nfile, nfn, ncall, narg;
    pd_flow *g = NULL;
    int rc;

    *out = NULL;
    if (len < 12 || memcmp(data, PD_FLOW_PACK_MAGIC, 4) != 0)
        return pd_error_set(PD_EINVAL, "not a packed call graph");
    {
        uint64_t h = 0;
        size_t k;

        in.end -= 8;
        for (k = 0; k < 8; k++)
            h |= (uint64_t)in.end[k] << (8 * k);
        if (h != XXH3_64bits(data, len - 8))
            return pd_error_set(PD_EINVAL, "a damaged packed call graph (checksum)");
    }
    in.p += 4;
    nname = pk_count(&in);
    nfile = pk_count(&in);
    nfn = pk_count(&in);
    ncall = pk_count(&in);
    narg = pk_count(&in);
    if (in.bad)
        return pd_error_set(PD_EINVAL, "a damaged packed call graph");
    if ((rc = pd_flow_new(&g)) < 0 || (rc = pk_read_names(g, &in, nname)) < 0 ||
        (!in.bad && (rc = pk_read_files(g, &in, nfile, nfn)) < 0) ||
        (!in.bad && (rc = pk_read_fns(g, &in, nfn, ncall, narg)) < 0))
        goto fail;
    g->ncall = ncall;
    g->narg = narg;
    if (in.bad || in.p != in.end || g->nname != nname) {
        rc = pd_error_set(PD_EINVAL, "a damaged packed call graph");
        goto fail;
    }
    if ((rc = pk_index(g)) < 0)
        goto fail;
    g->dirty = 1;
    *out = g;
    return 0;
fail:
    pd_flow_free(g);
    return rc;
}
