/*
 * rules_build.c: what every directive's parser uses (rules_int.h): errors
 * with the line, the arena, rule ids, class words, and the exact entry of
 * a name; and the lookups the analyzer calls (rules.h).  A leaf of the
 * rules: the directive table (rules.c) and the directive files
 * (rules_items.c, rules_names.c) call it, it calls none of them.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_domain.h"
#include "pd_error.h"
#include "rules.h"
#include "rules_int.h"

/* Record a syntax error at the current line; returns PD_EINVAL. */
int rules_err(const rules_ctx *c, const char *fmt, ...)
{
    char msg[512];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    return pd_error_set(PD_EINVAL, "%s:%u: %s", c->file, c->line, msg);
}

/* n bytes of the arena at a multiple of align (a power of two); NULL
 * when out of memory. */
static void *rules_alloc(rules *r, size_t n, size_t align)
{
    rules_block *b = r->arena;
    size_t at = b ? b->used + (size_t)(-(uintptr_t)(b->data + b->used) & (align - 1)) : 0;

    if (!b || at > b->cap || b->cap - at < n) {
        size_t cap = n + align > 4096 ? n + align : 4096;

        b = malloc(sizeof(*b) + cap);
        if (!b)
            return NULL;
        b->next = r->arena;
        b->used = 0;
        b->cap = cap;
        r->arena = b;
        at = (size_t)(-(uintptr_t)b->data & (align - 1));
    }
    b->used = at + n;
    return b->data + at;
}

/* Copy s[0..len) into the arena, NUL-terminated; NULL when out of memory. */
char *rules_strndup(rules *r, const char *s, size_t len)
{
    char *out = rules_alloc(r, len + 1, 1);

    if (!out)
        return NULL;
    memcpy(out, s, len);
    out[len] = '\0';
    return out;
}

/* The rule id: the line's id=ID if given, else the printf-made default.
 * NULL when out of memory. */
const char *rules_id(rules *r, const rules_ctx *c, const char *fmt,
                            ...)
{
    char buf[RULES_MAXLINE];
    va_list ap;

    if (c->id)
        return rules_strndup(r, c->id, strlen(c->id));
    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    return rules_strndup(r, buf, strlen(buf));
}


/* 1 if s is a non-empty identifier made of [A-Za-z0-9_@]. */
int rules_is_ident(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (rules_sym((unsigned char)*s) < 0)
            return 0;
    return 1;
}

/* Parse a class name into *cls (an_class or RULES_CLS_NONE if allow_none). */
int rules_class(const rules_ctx *c, const char *s, int allow_none, int *cls)
{
    int i;

    for (i = 0; i < PD_CLASS_COUNT; i++) {
        if (strcmp(s, pd_class_name((pd_class)i)) == 0) {
            *cls = i;
            return 0;
        }
    }
    if (allow_none && strcmp(s, "none") == 0) {
        *cls = RULES_CLS_NONE;
        return 0;
    }
    return rules_err(c, "unknown class '%s' (expected hpy, capi, npy-legacy, "
                     "bridge%s)", s, allow_none ? " or none" : "");
}

uint32_t rules_hash_name(const char *s, size_t len)
{
    return rules_ix_hash(s, len);
}

const rules_name *rules_lookup(const rules *r, const char *s, size_t len)
{
    return rules_find(r, s, len);
}

/* Put slot (hash << 32 | index + 1) into the first free slot of its run. */
static void rules_ix_put(uint64_t *ix, size_t mask, uint64_t slot)
{
    size_t i;

    for (i = (uint32_t)(slot >> 32) & mask; ix[i]; i = (i + 1) & mask)
        ;
    ix[i] = slot;
}

/* Room in the index for one more name (kept at most half full). */
static int rules_ix_room(rules *r)
{
    size_t n = r->ix ? (r->ixmask + 1) * 2 : 1024, i;
    uint64_t *ix;

    if (r->ix && (r->nnames + 1) * 2 <= r->ixmask + 1)
        return 0;
    if (!(ix = calloc(n, sizeof(*ix))))
        return pd_error_nomem("loading rules");
    for (i = 0; r->ix && i <= r->ixmask; i++)
        if (r->ix[i])
            rules_ix_put(ix, n - 1, r->ix[i]);
    free(r->ix);
    r->ix = ix;
    r->ixmask = n - 1;
    return 0;
}

int rules_reserve(rules *r, size_t more)
{
    rules_name *names;

    if (r->capnames - r->nnames >= more)
        return 0;
    if (!(names = realloc(r->names, (r->nnames + more) * sizeof(*names))))
        return pd_error_nomem("loading rules");
    r->names = names;
    r->capnames = r->nnames + more;
    return 0;
}

#define RULES_UNSET_V {RULES_CLS_UNSET, NULL}
#define RULES_UNSET_4 {RULES_UNSET_V, RULES_UNSET_V, RULES_UNSET_V, RULES_UNSET_V}
_Static_assert(RULES_MAXSTARS == 3, "RULES_UNSET_4 spells out RULES_MAXSTARS + 1 verdicts");

const rules_item rules_item_none = {
    .itemcast = RULES_UNSET_4,
    .itemlocal = RULES_UNSET_4,
    .nullowner = RULES_UNSET_V,
    .nullowner_arg = -1,
    .fieldarg_arg = -1,
    .itemview_arg = -1,
    .itemcall = RULES_UNSET_V,
};

/* Find or create the exact entry of `name`; *out gets it.  The pointer is
 * valid until the next call.  0 or PD_ENOMEM. */
int rules_entry(rules *r, const char *name, rules_name **out)
{
    size_t len = strlen(name), k;
    int rc;
    rules_name *e = (rules_name *)rules_lookup(r, name, len);

    if (e) {
        *out = e;
        return 0;
    }
    if ((rc = rules_ix_room(r)) < 0)
        return rc;
    if (r->nnames == r->capnames) {
        size_t cap = r->capnames ? r->capnames * 2 : 64;
        rules_name *names = realloc(r->names, cap * sizeof(*names));

        if (!names)
            return pd_error_nomem("loading rules");
        r->names = names;
        r->capnames = cap;
    }
    e = &r->names[r->nnames];
    memset(e, 0, sizeof(*e));
    if (!(e->name = rules_strndup(r, name, len)))
        return pd_error_nomem("loading rules");
    e->item = &rules_item_none;
    e->len = len;
    e->hash = rules_hash_name(name, len);
    e->exact.cls = e->member.cls = e->cond.cls = RULES_CLS_UNSET;
    rules_ix_put(r->ix, r->ixmask, (uint64_t)e->hash << 32 | (r->nnames + 1));
    r->nnames++;
    k = (size_t)(unsigned char)name[0] << 8 | (unsigned char)name[1];
    r->first2[k >> 3] |= (uint8_t)(1u << (k & 7));
    k = e->hash >> 16;
    r->hbits[k >> 3] |= (uint8_t)(1u << (k & 7));
    *out = e;
    return 0;
}

int rules_item_entry(rules *r, const char *name, rules_name **out, rules_item **item)
{
    rules_item *it;
    int rc;

    if ((rc = rules_entry(r, name, out)) != 0)
        return rc;
    if ((*out)->item != &rules_item_none) {
        *item = (rules_item *)(*out)->item;     /* its own, in the arena */
        return 0;
    }
    /* in the arena, freed with it */
    if (!(it = rules_alloc(r, sizeof(*it), _Alignof(rules_item))))
        return pd_error_nomem("loading rules");
    *it = rules_item_none;
    (*out)->item = *item = it;
    return 0;
}
