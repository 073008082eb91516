/*
 * rules_int.h: what the files of the rules parser share (not an API).
 *
 *   rules.c        the lookup tables, the line parser, the class directives
 *   rules_items.c  the object-dtype directives (itemcast, itemlocal,
 *                  itemdata, itemsource, itemcall, nullowner, fieldarg)
 */
#ifndef RULES_INT_H
#define RULES_INT_H

#include <stdint.h>
#include <string.h>

#include "rules.h"

#define RULES_MAXARGS 8
#define RULES_MAXLINE 1024
#define RULES_TRIE_SYMS 64

/* A block of the string arena; blocks never move once allocated. */
typedef struct rules_block {
    struct rules_block *next;
    size_t used, cap;
    char data[];
} rules_block;

/* A trie node: children by symbol (0 = none) and the prefix ending here. */
typedef struct {
    uint16_t child[RULES_TRIE_SYMS];
    rules_verdict v;
} rules_node;

typedef struct {
    const char *s;
    size_t len;
    rules_verdict v;
} rules_suffix;

/* objfunc kinds */
enum { OBJF_PREFIX, OBJF_SUFFIX, OBJF_CONTAINS };

typedef struct {
    int kind;
    const char *s;
} rules_objf;

struct rules {
    rules_name *names;          /* exact entries */
    size_t nnames, capnames;
    /* name -> entry: open addressing, at most half full; a slot is the
     * name's rules_ix_hash << 32 | its names index + 1, 0 when empty
     * (rules_build.c: one word hash and mostly one slot per look-up, where
     * pd_map's byte-wise hash and long probes of misses cost 145
     * instructions a name, issue 26). */
    uint64_t *ix;
    size_t ixmask;              /* slots - 1 */
    /* Filter of exact names by their first two bytes (the second is 0 for
     * one-byte names): most identifiers are rejected without hashing. */
    uint8_t first2[65536 / 8];
    /* Filter of exact names by bits 16-31 of their rules_ix_hash, for
     * names that pass first2: a miss is decided in this 8 KB, which stays
     * in the L1 cache, instead of by a probe of the index, which does not
     * (the probe's load was half of rules_classify's CPU time, issue 26). */
    uint8_t hbits[65536 / 8];
    rules_node *nodes;          /* nodes[0] is the root */
    size_t nnodes, capnodes;
    rules_suffix *suffixes;
    size_t nsuffixes;
    unsigned char suffix_last[256];
    rules_objf *objf;
    size_t nobjf;
    const char **srcsuf;        /* `itemsource suffix TEXT` */
    size_t nsrcsuf;
    int ncond;
    rules_block *arena;
    char *sets;                 /* the text of every `names` set read, for
                                 * the hash (rules_names.c) */
    size_t sets_len;
    char *text;                 /* the canonical text, for the hash (rules.h) */
    size_t text_len;
    char *raw;                  /* the text as read, for rules_hash_raw */
    size_t raw_len;
    size_t text_lines;          /* its lines: a line makes at most two
                                 * entries (rules_names.c reserves room) */
    /* The git blob id (hex, pd_sha1.h) of text and sets, computed by the
     * first rules_hash(): hashing the 140 KB was 6 M instructions of every
     * start, a third of it, and `analyze FILE...` never asks (issue 26).
     * hash_done is set (release) once hash is written. */
    int hash_done;
    char hash[41];
    /* `profile` lines (rules_profile.c): what the port has, for the views. */
    int prof_object_dtype;      /* 1 yes, 0 no, -1 auto (not given) */
    const char *prof_scopes;    /* space-separated names, or NULL: all */
    const char *prof_measure;   /* default trend measure, or NULL */
    const char *prof_hpy;       /* HPy version, or NULL */
};

/* The index's hash of a name: 8 bytes at a time (the last 8 read again
 * when the length is not a multiple: same name, same hash), a multiply
 * and a fold per word. */
static inline uint32_t rules_ix_hash(const char *s, size_t len)
{
    const uint64_t k = 0xff51afd7ed558ccdULL;
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ len, w = 0;
    size_t i;

    if (len >= 8) {
        for (i = 0; i + 8 <= len; i += 8) {
            memcpy(&w, s + i, 8);
            h = (h ^ w) * k;
            h ^= h >> 32;
        }
        if (i < len)
            memcpy(&w, s + len - 8, 8);
        else
            w = 0;
    } else {
        for (i = 0; i < len; i++)
            w = w << 8 | (unsigned char)s[i];
    }
    h = (h ^ w) * k;
    return (uint32_t)(h >> 32) ^ (uint32_t)h;
}

/* rules_lookup (rules.h), inline for rules_classify. */
static inline const rules_name *rules_find(const rules *r, const char *s,
                                           size_t len)
{
    unsigned k = (unsigned)(unsigned char)s[0] << 8 |
                 (len > 1 ? (unsigned char)s[1] : 0u);
    uint32_t h;
    size_t i;

    if (!r->ix || !(r->first2[k >> 3] & (1u << (k & 7))))
        return NULL;
    h = rules_ix_hash(s, len);
    if (!(r->hbits[(h >> 16) >> 3] & (1u << ((h >> 16) & 7))))
        return NULL;
    for (i = h & r->ixmask;; i = (i + 1) & r->ixmask) {
        uint64_t slot = r->ix[i];
        const rules_name *e;

        if (!slot)
            return NULL;
        if ((uint32_t)(slot >> 32) != h)
            continue;
        e = &r->names[(uint32_t)slot - 1];
        if (e->len == len && memcmp(e->name, s, len) == 0)
            return e;
    }
}

/* Where the parser is, for messages. */
typedef struct {
    const char *file;
    unsigned line;
    const char *id;             /* the line's id=ID, or NULL */
} rules_ctx;

/* Symbol of an identifier byte in the trie, or -1. */
static inline int rules_sym(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'A' && c <= 'Z')
        return 10 + c - 'A';
    if (c >= 'a' && c <= 'z')
        return 36 + c - 'a';
    if (c == '_')
        return 62;
    if (c == '@')
        return 63;
    return -1;
}

/* rules_build.c */
/* Record a syntax error at the current line; returns PD_EINVAL. */
int rules_err(const rules_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Copy s[0..len) into the arena, NUL-terminated; NULL when out of memory. */
char *rules_strndup(rules *r, const char *s, size_t len);

/* The rule id: the line's id=ID if given, else the printf-made default.
 * NULL when out of memory. */
const char *rules_id(rules *r, const rules_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* 1 if s is a C identifier (numpy's '@' included). */
int rules_is_ident(const char *s);

/* Parse class word s into *cls (allow_none: `none` is accepted). */
int rules_class(const rules_ctx *c, const char *s, int allow_none, int *cls);

/* The exact entry of `name`, created if missing. */
int rules_entry(rules *r, const char *name, rules_name **out);

/* rules_entry, and the entry's own item record in *item (made from
 * rules_item_none at its first item rule, in the arena).  0 or
 * PD_ENOMEM. */
int rules_item_entry(rules *r, const char *name, rules_name **out, rules_item **item);

/* Make room for `more` entries beyond r->nnames at once (a names set adds
 * thousands: one allocation instead of doublings).  0 or PD_ENOMEM. */
int rules_reserve(rules *r, size_t more);

/* rules_items.c: the object-dtype directives; av/ac as split by the
 * parser (av[0] is the directive). */
int rules_d_item(rules *r, const rules_ctx *c, char **av, int ac, unsigned cast);
int rules_d_itemdata(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);
int rules_d_itemcall(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);
int rules_d_itemsource(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);
int rules_d_nullowner(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);
int rules_d_fieldarg(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);

/* rules_profile.c: `profile KEY VALUE...` (av/ac as split by the parser). */
int rules_d_profile(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);

/* rules_names.c: `names SET CLASS` (av as split by the parser). */
int rules_d_names(rules *r, const rules_ctx *c, char **av, int ac, unsigned arg);

#endif
