/*
 * analyze_memo_tab.h: the chunk memo's entries and its table in shards
 * (analyze_memo_tab.c: lookup, bound, LRU order, counters), which the
 * memo's walk (analyze_memo.c, through analyze_memo.h) records into and
 * replays from.  Not an API; see analyze.h.
 */
#ifndef ANALYZE_MEMO_TAB_H
#define ANALYZE_MEMO_TAB_H

#include <pthread.h>

#include "analyze_int.h"

/* A finding of an entry: line relative to the chunk's first line,
 * function relative to its first function (-1: file scope), text and
 * reason as string indexes (reason UINT32_MAX: none). */
typedef struct {
    const char *rule;
    const rules_name *cond;
    uint32_t line, column;
    int32_t function;
    uint32_t text, reason;
    uint8_t cls, guarded, kind, define;
} an_mfind;

/* A function of an entry: lines relative; the an_facc offsets name_off,
 * macro_off, marker_off are string indexes, marker_line relative + 1. */
typedef struct {
    an_facc facc;
    uint32_t start_line, end_line, name_line;
    uint32_t tokens[AN_CLASS_COUNT];
} an_mfunc;

typedef struct {
    int32_t fn;
    uint32_t str, len;
} an_mcall;

/* A token of the ring at the chunk's end: offset from the chunk start. */
typedef struct {
    const rules_name *e;
    lex_kind kind;
    uint32_t punct, off, len, line, column;
} an_mtok;

/* Counters a chunk adds to; *_line are relative + 1 (0: not set). */
typedef struct {
    uint32_t tokens[AN_CLASS_COUNT], unguarded[AN_CLASS_COUNT];
    uint32_t triggers, types_seen;
    uint32_t bad_closes, bad_close_line, bad_pps, bad_pp_line;
    uint32_t bad_literals, bad_literal_line, bad_trigraphs, bad_trigraph_line;
    uint32_t other_bytes, other_line, digraphs;
} an_mcount;

typedef struct an_mentry {
    uint64_t k_lo, k_hi;
    struct an_mentry *hnext, *prev, *next;
    /* References: the table's (1 while the entry is in it) and one per
     * replay in progress, taken under the memo's lock, given back with an
     * atomic decrement without it; whoever gives back the last one frees
     * the entry, so a replay reads an entry dropped meanwhile safely. */
    uint32_t refs;
    size_t bytes;
    uint32_t len;               /* chunk bytes */
    uint32_t lines;             /* its last line - its first line */
    uint32_t qline_off;         /* start of its last line, from its start */
    uint32_t nstr, nfind, nfn, ncall, nflow, nring;
    uint64_t ntok;              /* tokens scanned */
    an_mcount c;
    /* state at the end */
    int cpp, skip, guard;
    long wrappers;
    uint32_t scope_len;
    size_t nframes;
    char *scope;
    uint32_t *scope_marks;
    an_frame *frames;
    an_mfind *find;
    an_mfunc *fn;
    an_mcall *call;
    an_mcall *flow;             /* flow facts (analyze_flow.c) */
    an_mtok *ring;
    uint32_t *stroff;           /* nstr + 1 offsets into strs */
    char *strs;
} an_mentry;

/* One shard of the table: its lock, its entries and their LRU list, its
 * part of the memo's bound and its counters.  The two analysis threads
 * look a chunk up in the memo every few hundred bytes; behind one lock,
 * a lookup met the other thread's in a tenth of the cases, and each
 * meeting cost a futex wait and wake: the memo's lock made half of an
 * ingest's 180,000 futex calls (issue 26).  A key's shard is its high
 * bits, so the threads meet in one lookup in eight times as many. */
typedef struct {
    pthread_mutex_t mu;
    an_mentry **tab;
    size_t mask, n;
    an_mentry *head, *tail;     /* most recently used first */
    size_t max;                 /* bytes */
    an_memo_stats s;
} __attribute__((aligned(64))) an_mshard;

/* Shards hold at least this much each; a smaller memo has fewer (one
 * below 2 MiB: the tests' memos of a few KiB keep one LRU order). */
#define AN_MEMO_SHARD_MIN ((size_t)1 << 20)
#define AN_MEMO_SHARDS 8

struct an_memo {
    const rules *r;
    unsigned nshards;           /* a power of two, 1 to AN_MEMO_SHARDS */
    an_mshard sh[AN_MEMO_SHARDS];
};

/* The shard of key (lo, hi). */
static inline an_mshard *an_memo_shard(an_memo *m, uint64_t hi)
{
    return &m->sh[(hi >> 32) & (m->nshards - 1)];
}

/* The table (callers hold the lock of the key's shard, an_memo_shard):
 * the entry of a key or NULL; insert (taking e, dropped when its key is
 * there or it cannot fit), dropping the shard's least recently used
 * entries for room; mark e most recently used.  an_memo_release ends a
 * replay of e (its reference taken under the lock) without the lock,
 * freeing e when it was dropped meanwhile. */
an_mentry *an_memo_find(an_memo *m, uint64_t lo, uint64_t hi);
void an_memo_insert(an_memo *m, an_mentry *e);
void an_memo_touch(an_memo *m, an_mentry *e);
void an_memo_release(an_memo *m, an_mentry *e);

#endif
