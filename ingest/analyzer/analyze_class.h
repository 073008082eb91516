/*
 * analyze_class.h: classifying identifiers by the rules, through a cache
 * of verdicts by name (analyze_class.c; the cache is an_state.cc).
 */
#ifndef ANALYZE_CLASS_H
#define ANALYZE_CLASS_H

#include <stdint.h>
#include <string.h>

#include "analyze_int.h"

/*
 * The classification cache (an_state.cc): rules_classify costs about 110
 * instructions a name (the first-bytes filter, the hash and probe, the
 * prefix trie, the suffixes), a hit about 55, and a file names the same
 * few hundred identifiers again and again (numpy's templates repeat every
 * body: 9 names in 10 hit on numpy/core).  In CPU time the two are close
 * on this machine (issue 26: -50 M instructions, about -1 % CPU).
 * A slot holds the name itself, so a hit is exact; names longer than
 * AN_CC_MAXLEN, and spliced ones, go to the rules every time.
 */

/* The key of s[0..len), len >= 1, into w[0..2]: bytes 0-7, bytes 8-15
 * (the last 8 when len <= 16) and the last 8 (len > 16), little-endian
 * and zero-padded (a name under 8 bytes has one key however it is read).
 * Up to AN_CC_MAXLEN bytes these words and the length cover every byte,
 * so equal keys are equal names; longer texts (the condition cache's,
 * analyze_pp.c) share keys and are compared in full.  end: the end of
 * the buffer s lies in (a load never passes it). */
static inline __attribute__((always_inline)) void
an_cc_key(const char *s, size_t len, const char *end, uint64_t w[3])
{
    size_t i;

    w[1] = w[2] = 0;
    if (len >= 8) {
        memcpy(&w[0], s, 8);
        if (len > 16) {
            memcpy(&w[1], s + 8, 8);
            memcpy(&w[2], s + len - 8, 8);
        } else if (len > 8) {
            memcpy(&w[1], s + len - 8, 8);
        }
    } else if (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && end - s >= 8) {
        memcpy(&w[0], s, 8);          /* one load, the name's bytes kept */
        w[0] &= ~0ULL >> (64 - 8 * len);
    } else {                          /* the same value, byte by byte */
        for (w[0] = 0, i = 0; i < len; i++)
            w[0] |= (uint64_t)(unsigned char)s[i] << (8 * i);
    }
}

/* The slot (index into an_state.cc) of key w of a name of len bytes. */
static inline size_t an_cc_index(const uint64_t w[3], size_t len)
{
    uint64_t h = ((w[0] ^ len) * 0x9e3779b97f4a7c15ULL) ^ w[1] ^ (w[2] << 1);

    return (size_t)((h * 0xff51afd7ed558ccdULL) >> (64 - AN_CC_BITS));
}

/* rules_classify(st->r, s, len, v) through the cache; s[0..len) lies in
 * the lexer's buffer (st->lx). */
static inline __attribute__((always_inline)) const rules_name *
an_cc_classify(an_state *st, const char *s, size_t len, rules_verdict *v)
{
    uint64_t w[3];
    const rules_name *e;
    an_cc *c;

    if (len - 1 >= AN_CC_MAXLEN)     /* 0 too: no key */
        return rules_classify(st->r, s, len, v);
    an_cc_key(s, len, st->lx.end, w);
    c = &st->cc[an_cc_index(w, len)];
    if (c->w[0] == w[0] && c->len == len && c->w[1] == w[1] &&
        c->w[2] == w[2]) {
        v->cls = c->cls;
        v->id = c->id;
        return c->e;
    }
    e = rules_classify(st->r, s, len, v);
    memcpy(c->w, w, sizeof(c->w));
    c->len = (uint32_t)len;
    c->e = e;
    c->cls = v->cls;
    c->id = v->id;
    return e;
}

/* an_cc_classify of identifier t, a token a template's replay handed
 * out (t->tmpl_tok - 1 < st->ntv): the verdict kept for its template
 * token, without reading its bytes again.  The cache by name costs a
 * third of a name's classification in the replayed walk, most of it
 * loading the bytes of a fresh expansion (issue 26). */
static inline __attribute__((always_inline)) const rules_name *
an_tv_classify(an_state *st, const lex_token *t, rules_verdict *v)
{
    an_tv *s = &st->tv[t->tmpl_tok - 1];
    const rules_name *e;

    if (s->set) {
        v->cls = s->cls;
        v->id = s->id;
        return s->e;
    }
    e = an_cc_classify(st, t->start, t->len, v);
    s->e = e;
    s->id = v->id;
    s->cls = v->cls;
    s->set = 1;
    return e;
}

/* The rest of an_classify for a name s[0..len) whose exact entry is e
 * and verdict v (rules_classify): findings, exact-if triggers, markers.
 * Returns e, or NULL for a member. */
const rules_name *an_classified(an_state *st, const lex_token *t,
                                const char *s, size_t len, int member,
                                int define, const rules_name *e,
                                rules_verdict v);

/* an_classify of a spliced identifier (a backslash-newline inside it). */
const rules_name *an_classify_spliced(an_state *st, const lex_token *t,
                                      int member, int define);

/* an_classify, inline for the token walk: a name the rules know nothing
 * of (most are) ends at the cache. */
static inline __attribute__((always_inline)) const rules_name *
an_classify_fast(an_state *st, const lex_token *t, int member, int define)
{
    const rules_name *e;
    rules_verdict v;

    if (t->spliced)
        return an_classify_spliced(st, t, member, define);
    e = t->tmpl_tok - 1u < st->ntv ? an_tv_classify(st, t, &v)
                                   : an_cc_classify(st, t->start, t->len, &v);
    if (!e && v.cls < 0)
        return NULL;
    return an_classified(st, t, t->start, t->len, member, define, e, v);
}

/*
 * Classify identifier t, a token of st->lx: a member (member = 1 after
 * '.', 2 after '->') only by `member` rules, and only after '.': HPy's
 * members are designated initializers (`.legacy_slots = ...`, `.legacy =
 * true`), while a pointer access such as numpy's own `DType->legacy` flag
 * is not HPy's.  Anything else by exact, then prefix/suffix rules
 * (rules_classify).  A class makes a finding.  `define`: t is in a
 * #define body (file scope, no tracking).  Returns the exact entry (NULL
 * for members and unknown names).  Out of memory is left in st->rc.
 */
const rules_name *an_classify(an_state *st, const lex_token *t, int member,
                              int define);

#endif
