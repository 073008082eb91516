/*
 * analyze.c: the porting analysis of one source file (analyze.h).
 *
 * an_analyze() lexes the file once (lex.h), hands every token to the scanner
 * (analyze_scan.c) and every directive to analyze_pp.c, then computes the
 * verdicts that need the whole file: exact-if reclassification, the status
 * of each function and of the file, object-dtype states and the notes.
 *
 * Memory: findings and functions grow in arrays handed to the result; every
 * finding text and function name is interned in one pool (the result's
 * text_pool), so the per-token hot path allocates nothing and a file with
 * 10,000 Py_DECREF holds one copy of the name.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "analyze_build.h"
#include "analyze_feed.h"
#include "analyze_flow.h"
#include "analyze_memo.h"
#include "analyze_types.h"
#include "mexp.h"
#include "tmpl_replay.h"
#include "pd_domain.h"
#include "pd_error.h"

int an_path_is_source(const char *path)
{
    return pd_path_is_source(path);
}

/* Grow *arr (of *cap elements of size sz) to hold n + 1; 0 or PD_ENOMEM
 * (sticky in st->rc). */
static an_status an_status_of(const uint32_t *c)
{
    return pd_status_rule(pd_classes_present32(c));
}

/* Object state of function fn from the item sites of its own body: the
 * domain core's rule (pd_objstate_rule), which the call-graph step applies
 * again with what the function reaches through its callees.  A marker
 * (NPY_OBJECT, PyDataType_REFCHK) or an OBJECT_ name explains item access
 * but is none: such a function keeps object_marker as a lesser fact. */
static an_objstate an_objstate_of(const an_facc *a)
{
    return pd_objstate_rule(a->item_legacy, a->item_field,
                            a->unguarded[AN_CLASS_BRIDGE] || a->unguarded[AN_CLASS_CAPI]);
}

/* exact-if rules: reclassify their findings when a trigger was seen. */
static void an_apply_cond(an_state *st)
{
    an_result *res = st->res;
    size_t i;

    for (i = 0; i < res->nfindings; i++) {
        an_finding *f = &res->findings[i];
        const rules_name *e = st->fmeta[i].cond;
        int old = f->cls, nc;

        if (!e || !(st->triggers_seen & e->cond_bit))
            continue;
        nc = e->cond.cls;
        f->cls = (an_class)nc;
        f->rule = e->cond.id;
        res->tokens[old]--;
        res->tokens[nc]++;
        if (!f->guarded) {
            st->file_unguarded[old]--;
            st->file_unguarded[nc]++;
        }
        if (f->function >= 0) {
            res->functions[f->function].tokens[old]--;
            res->functions[f->function].tokens[nc]++;
            if (!f->guarded) {
                st->facc[f->function].unguarded[old]--;
                st->facc[f->function].unguarded[nc]++;
            }
        }
    }
}

/* Append one printf-made sentence to res->notes ("; "-separated). */
static void an_note(an_state *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void an_note(an_state *st, const char *fmt, ...)
{
    char buf[256];
    size_t old = st->res->notes ? strlen(st->res->notes) : 0, n;
    char *p;
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(buf, sizeof(buf), fmt, ap);
    va_end(ap);
    n = strlen(buf);
    if (!(p = realloc(st->res->notes, old + n + 3))) {
        st->rc = pd_error_nomem("analysing");
        return;
    }
    if (old)
        memcpy(p + old, "; ", 2), old += 2;
    memcpy(p + old, buf, n + 1);
    st->res->notes = p;
}

/* Line `line` of the analysed text as a line of the file (templates are
 * analysed expanded). */
static unsigned an_line(const an_state *st, uint32_t line)
{
    uint32_t l = line, c;

    if (st->tmap)
        tmpl_map(st->tmap, line, 1, &l, &c);
    return (unsigned)l;
}

/* Describe what was not understood. */
static void an_notes(an_state *st)
{
    const lex_state *lx = &st->lx;

    if (lx->bad_comment_line)
        an_note(st, "unterminated comment from line %u",
                an_line(st, lx->bad_comment_line));
    if (lx->bad_literals)
        an_note(st, "%u unterminated string or char literal%s (first at "
                "line %u)", (unsigned)lx->bad_literals,
                lx->bad_literals == 1 ? "" : "s",
                an_line(st, lx->bad_literal_line));
    if (lx->bad_trigraphs)
        an_note(st, "%u trigraph%s (?\?< ?\?= ...) not read as the tokens they "
                "stand for, as compilers do without -trigraphs (first at "
                "line %u)", (unsigned)lx->bad_trigraphs,
                lx->bad_trigraphs == 1 ? "" : "s",
                an_line(st, lx->bad_trigraph_line));
    if (lx->other_bytes)
        an_note(st, "%u byte%s outside literals and comments not read as "
                "C (NUL, '$', '`', a stray '\\' or non-ASCII; first at line "
                "%u)", (unsigned)lx->other_bytes,
                lx->other_bytes == 1 ? "" : "s", an_line(st, lx->other_line));
    if (st->bad_closes)
        an_note(st, "%u unmatched '}' (first at line %u)",
                (unsigned)st->bad_closes, an_line(st, st->bad_close_line));
    if (st->bad_pps)
        an_note(st, "%u #else/#elif/#endif without #if (first at line %u)",
                (unsigned)st->bad_pps, an_line(st, st->bad_pp_line));
    if (st->nframes)
        an_note(st, "%zu #if block%s not closed at end of file",
                st->nframes, st->nframes == 1 ? "" : "s");
    if (st->cur >= 0)
        an_note(st, "unbalanced braces at end of file: function %s (line "
                "%u) not closed", st->pool + st->facc[st->cur].name_off,
                an_line(st, st->res->functions[st->cur].start_line));
    else if (st->depth > 0)
        an_note(st, "unbalanced braces at end of file (depth %ld)",
                st->depth);
}

/* Order of call records: by function, then first call (kept stable by
 * position, which the records carry implicitly through their index). */
static int an_callrec_cmp(const void *a, const void *b)
{
    const struct an_callrec *x = a, *y = b;

    if (x->fn != y->fn)
        return x->fn < y->fn ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * Fill functions[].calls from the call records: distinct names per
 * function, space-separated, in one pool (res->calls_pool).  Names are
 * ordered by their offset in the text pool, that is by first appearance
 * in the file.
 */
static void an_build_calls(an_state *st)
{
    an_result *res = st->res;
    size_t i, j, k, total = 1;
    char *p;

    /* Records come grouped by function, in function order (a function's
     * calls are made while it is the open one), so sorting each group by
     * name is sorting the whole: most groups are short.  Should that ever
     * not hold, one sort of everything. */
    for (i = 1; i < st->ncallrecs && st->callrecs[i - 1].fn <= st->callrecs[i].fn; i++)
        ;
    if (i < st->ncallrecs)
        qsort(st->callrecs, st->ncallrecs, sizeof(*st->callrecs), an_callrec_cmp);
    for (i = 0; i < st->ncallrecs; i = j) {
        for (j = i + 1; j < st->ncallrecs && st->callrecs[j].fn == st->callrecs[i].fn; j++)
            ;
        if (j - i > 16) {
            qsort(st->callrecs + i, j - i, sizeof(*st->callrecs), an_callrec_cmp);
            continue;
        }
        for (k = i + 1; k < j; k++) {     /* insertion sort */
            struct an_callrec c = st->callrecs[k];
            size_t m = k;

            for (; m > i && st->callrecs[m - 1].off > c.off; m--)
                st->callrecs[m] = st->callrecs[m - 1];
            st->callrecs[m] = c;
        }
    }
    for (i = 0; i < st->ncallrecs; i++)
        total += st->callrecs[i].len + 1;
    if (!(p = res->calls_pool = malloc(total))) {
        st->rc = pd_error_nomem("analysing");
        return;
    }
    *p++ = '\0';                   /* calls_pool[0]: "" for no calls */
    for (i = 0; i < res->nfunctions; i++)
        res->functions[i].calls = res->calls_pool;
    for (i = 0; i < st->ncallrecs; i = j) {
        int32_t fn = st->callrecs[i].fn;
        char *start = p;

        for (j = i; j < st->ncallrecs && st->callrecs[j].fn == fn; j++) {
            const char *name = st->pool + st->callrecs[j].off;
            size_t n = st->callrecs[j].len;

            if (j > i && st->callrecs[j].off == st->callrecs[j - 1].off)
                continue;
            if (p > start)
                *p++ = ' ';
            memcpy(p, name, n);
            p += n;
        }
        *p++ = '\0';
        if (fn >= 0 && (size_t)fn < res->nfunctions)
            res->functions[fn].calls = start;
    }
}

/* Whole-file verdicts once every token is read. */
static void an_finish(an_state *st)
{
    an_result *res = st->res;
    size_t i;

    if (st->cur >= 0)
        res->functions[st->cur].end_line = res->lines;
    an_apply_cond(st);
    for (i = 0; i < res->nfunctions; i++) {
        an_function *fn = &res->functions[i];

        fn->status = an_status_of(st->facc[i].unguarded);
        fn->object_state = an_objstate_of(&st->facc[i]);
        fn->mentions = st->facc[i].marker_line || st->facc[i].objname;
        fn->cpython = st->facc[i].unguarded[AN_CLASS_BRIDGE] ||
                      st->facc[i].unguarded[AN_CLASS_CAPI];
        fn->name = st->pool + st->facc[i].name_off;
        fn->name_from_macro = st->facc[i].macro_off == UINT32_MAX
                                  ? NULL : st->pool + st->facc[i].macro_off;
        if (st->facc[i].marker_line && fn->object_state == AN_OBJ_NONE) {
            fn->object_marker = st->pool + st->facc[i].marker_off;
            fn->object_marker_line = st->facc[i].marker_line;
        }
    }
    for (i = 0; i < res->nfindings; i++) {
        res->findings[i].text = st->pool + st->fmeta[i].text_off;
        res->findings[i].reason = st->fmeta[i].reason_off == UINT32_MAX
                                      ? NULL : st->pool + st->fmeta[i].reason_off;
    }
    an_build_calls(st);
    an_flow_build(st);
    res->status = an_status_of(st->file_unguarded);
    res->cpp = st->cpp;
    res->universal_ready = pd_universal_ready_rule(pd_classes_present32(st->file_unguarded));
    an_notes(st);
}

/* One finding's sort key for an_remap(). */
typedef struct {
    uint32_t line, column;
    size_t idx;
} an_key;

/* 1 if x sorts before y: by line, column, then first found (the keys'
 * indexes differ, so the order is total and the sort stable). */
static inline int an_key_lt(const an_key *x, const an_key *y)
{
    if (x->line != y->line)
        return x->line < y->line;
    if (x->column != y->column)
        return x->column < y->column;
    return x->idx < y->idx;
}

/* Sort a[0..n) by an_key_lt; tmp holds n / 2 keys.  A merge sort with the
 * comparison inline (qsort's with its callback took 9 M instructions of
 * numpy/core's templates, this 5 M); halves already in order are not
 * merged, which the findings of one instance after another mostly are. */
static void an_sort_keys(an_key *a, an_key *tmp, size_t n)
{
    size_t h = n / 2, i, j, k;

    if (n <= 16) {
        for (i = 1; i < n; i++) {
            an_key x = a[i];

            for (j = i; j > 0 && an_key_lt(&x, &a[j - 1]); j--)
                a[j] = a[j - 1];
            a[j] = x;
        }
        return;
    }
    an_sort_keys(a, tmp, h);
    an_sort_keys(a + h, tmp, n - h);
    if (!an_key_lt(&a[h], &a[h - 1]))
        return;
    memcpy(tmp, a, h * sizeof(*a));
    for (i = 0, j = h, k = 0; i < h; k++)   /* writes stay behind j */
        a[k] = j < n && an_key_lt(&a[j], &tmp[i]) ? a[j++] : tmp[i++];
}

/* Map every line and column of a finished template analysis back to the
 * template and re-sort the findings (stable), then note what the
 * expansion did not understand. */
static void an_remap(an_state *st, const char *buf, size_t len)
{
    an_result *res = st->res;
    const tmpl_out *t = st->tmap;
    an_finding *sorted = NULL;
    an_fmeta *meta;
    an_key *keys = NULL;
    tmpl_near nf = {0, 0}, nk = {0, 0};   /* both in the walk's order */
    size_t i;

    for (i = 0; i < res->nfunctions; i++) {
        an_function *fn = &res->functions[i];

        fn->start_line = tmpl_map_line(t, &nf, fn->start_line);
        fn->name_line = tmpl_map_line(t, &nf, fn->name_line);
        fn->end_line = tmpl_map_line(t, &nf, fn->end_line);
        /* A body that runs out of one instance into the text after the
         * loop can end above its start in the template (found by the
         * fuzzer): keep the lines ordered. */
        if (fn->name_line < fn->start_line)
            fn->name_line = fn->start_line;
        if (fn->end_line < fn->name_line)
            fn->end_line = fn->name_line;
    }
    if (res->nfindings &&
        (!(keys = malloc((res->nfindings + res->nfindings / 2) * sizeof(*keys))) ||
         !(sorted = malloc(res->nfindings * sizeof(*sorted))))) {
        st->rc = pd_error_nomem("analysing");
        goto done;
    }
    for (i = 0; i < res->nfindings; i++) {
        an_finding *f = &res->findings[i];

        tmpl_map_near(t, &nk, f->line, f->column, &f->line, &f->column);
        keys[i].line = f->line;
        keys[i].column = f->column;
        keys[i].idx = i;
    }
    if (res->nfindings)
        an_sort_keys(keys, keys + res->nfindings, res->nfindings);
    for (i = 0; i < res->nfindings; i++)
        sorted[i] = res->findings[keys[i].idx];
    if (res->nfindings)
        memcpy(res->findings, sorted, res->nfindings * sizeof(*sorted));
    if (res->nfindings && (meta = malloc(res->nfindings * sizeof(*meta)))) {
        for (i = 0; i < res->nfindings; i++)      /* an_explain reads it */
            meta[i] = st->fmeta[keys[i].idx];
        memcpy(st->fmeta, meta, res->nfindings * sizeof(*meta));
        free(meta);
    } else if (res->nfindings) {
        st->rc = pd_error_nomem("analysing");
    }
    res->lines = lex_count_lines(buf, len);
    if (t->unknown_names)
        an_note(st, "template: %zu @name@ without a value kept as written",
                t->unknown_names);
    if (t->bad_headers)
        an_note(st, "template: %zu repeat header%s without names or with "
                "lists of different lengths", t->bad_headers,
                t->bad_headers == 1 ? "" : "s");
    if (t->unterminated_line)
        an_note(st, "template: repeat block at line %u has no end; the rest "
                "is analysed as written", (unsigned)t->unterminated_line);
done:
    free(keys);
    free(sorted);
}

/* Fill functions[].status_finding / object_finding / object_also from
 * the findings in their final order (see analyze.h), and map the marker
 * lines of templates back. */
static void an_explain(an_state *st)
{
    an_result *res = st->res;
    int32_t (*first)[AN_CLASS_COUNT + 3];   /* + legacy item, field item, null owner */
    size_t i;
    uint32_t c;

    if (!res->nfunctions)
        return;
    if (!(first = malloc(res->nfunctions * sizeof(*first)))) {
        st->rc = pd_error_nomem("analysing");
        return;
    }
    memset(first, 0xff, res->nfunctions * sizeof(*first));   /* all -1 */
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];
        int k = f->cls;

        if (f->function < 0 || f->guarded)
            continue;
        if (st->fmeta[i].kind == AN_FK_ITEM)  /* AN_CLASS_COUNT: legacy, +1 field */
            k = f->cls == AN_CLASS_CAPI || f->cls == AN_CLASS_NPY_LEGACY
                    ? AN_CLASS_COUNT : AN_CLASS_COUNT + 1;
        else if (st->fmeta[i].kind == AN_FK_NULLOWNER &&
                 first[f->function][AN_CLASS_COUNT + 2] < 0)
            first[f->function][AN_CLASS_COUNT + 2] = (int32_t)i;   /* also a bridge */
        if (first[f->function][k] < 0)
            first[f->function][k] = (int32_t)i;
    }
    for (i = 0; i < res->nfunctions; i++) {
        an_function *fn = &res->functions[i];
        const int32_t *a = first[i];

        fn->status_finding = fn->status == AN_STATUS_PORTED ? a[AN_CLASS_HPY]
            : fn->status == AN_STATUS_BRIDGED
                ? (a[AN_CLASS_BRIDGE] >= 0 ? a[AN_CLASS_BRIDGE] : a[AN_CLASS_CAPI])
            : fn->status == AN_STATUS_LEGACY
                ? (a[AN_CLASS_CAPI] >= 0 ? a[AN_CLASS_CAPI] : a[AN_CLASS_NPY_LEGACY])
            : -1;
        fn->object_finding = fn->object_state == AN_OBJ_LEGACY ? a[AN_CLASS_COUNT]
            : fn->object_state == AN_OBJ_NONE ? -1 : a[AN_CLASS_COUNT + 1];
        /* An HPy_NULL owner keeps a field use on CPython by itself: it is
         * the reason, not a bridge call before it (npy_get_context), which
         * the function could lose and still not be universal. */
        fn->object_also = fn->object_state != AN_OBJ_CPYTHON_ONLY ? -1
            : a[AN_CLASS_COUNT + 2] >= 0 ? a[AN_CLASS_COUNT + 2]
            : a[AN_CLASS_BRIDGE] >= 0 ? a[AN_CLASS_BRIDGE] : a[AN_CLASS_CAPI];
        if (fn->object_marker && st->tmap)
            tmpl_map(st->tmap, fn->object_marker_line, 1, &fn->object_marker_line, &c);
    }
    free(first);
}

/* 1 for a numpy template path (.c.src, .h.src, .inc.src). */
static int an_is_template(const char *path)
{
    return pd_path_kind(path) == PD_SRC_TEMPLATE;
}

/* an_feed for tmpl_replay_walk: the plain walk's step, stopping at an
 * error as it does. */
static inline int an_feed_replayed(void *ctx, const lex_token *t)
{
    an_state *st = ctx;

    if (st->rc)
        return 1;
    an_feed(st, t);
    return 0;
}

/* Lex buf[0..len) and feed every token to the scanner; a template's
 * expansion through its replay rp unless NULL (tmpl_replay.h). */
static void an_walk(an_state *st, const char *buf, size_t len, tmpl_replay *rp)
{
    lex_token t;

    lex_init(&st->lx, buf, len, st->cpp ? LEX_F_CPP : 0);
    if (rp) {
        st->rp = st->dv ? rp : NULL;  /* directives by their '#' token */
        tmpl_replay_walk(rp, &st->lx, an_feed_replayed, st);
        st->rp = NULL;
    } else
        for (;;) {
            lex_next_fast(&st->lx, &t);   /* inline: once per token */
            if (t.kind == LEX_EOF || st->rc)
                break;
            an_feed(st, &t);
        }
    /* newlines seen, plus a last line without one */
    st->res->lines = st->lx.line - 1 + (len > 0 && buf[len - 1] != '\n');
}

static int an_analyze_st(an_result **out, const rules *r, an_memo *m,
                         const char *path, const char *buf, size_t len, int nograph);

int an_analyze(an_result **out, const rules *r, const char *path,
               const char *buf, size_t len)
{
    return an_analyze_st(out, r, NULL, path, buf, len, 0);
}

int an_analyze_nograph(an_result **out, const rules *r, const char *path,
                       const char *buf, size_t len)
{
    return an_analyze_st(out, r, NULL, path, buf, len, 1);
}

int an_analyze_memo(an_result **out, const rules *r, an_memo *m,
                    const char *path, const char *buf, size_t len)
{
    return an_analyze_st(out, r, m, path, buf, len, 0);
}

/* The memo (m) holds facts: it is never used without them. */
static int an_analyze_st(an_result **out, const rules *r, an_memo *m,
                         const char *path, const char *buf, size_t len, int nograph)
{
    an_state st;
    tmpl_out *tm = NULL;
    tmpl_replay rp, *rpp;
    int rc, big = 0;

    *out = NULL;
    /* all but the calls' argument codes, which each call starts afresh
     * (8 KiB a file, numpy/core's history has 8,787 of them) */
    memset(&st, 0, offsetof(an_state, fcodes));
    st.r = r;
    st.nograph = nograph && !m;
    st.cur = -1;
    st.cpp = pd_path_kind(path) == PD_SRC_CPP;
    if (!(st.res = calloc(1, sizeof(*st.res)))) {
        rc = pd_error_set(PD_ENOMEM, "out of memory analysing %s",
                          path ? path : "");
        goto done;
    }
    /* A template is analysed expanded; so is a file whose own macros make
     * functions (mexp.h), in the same form. */
    if ((rc = an_is_template(path) ? tmpl_expand(&tm, &big, buf, len)
                                   : mexp_expand(&tm, buf, len)))
        goto done;
    st.tmap = tm;
    /* Not with the ingest's memo: there most chunks are found, not
     * walked, and lexing each template version's bodies for the replay cost
     * CPU and 10 MB of peak RSS (issue 26).  A macro's expansion has no
     * loop bodies to replay. */
    memset(&rp, 0, sizeof(rp));
    rpp = m || !an_is_template(path) ? NULL
        : tmpl_replay_start(&rp, tm, buf, len, st.cpp ? LEX_F_CPP : 0, path);
    /* Its tokens' verdicts, kept by template token (an_tv); without the
     * room every name goes through the cache by name, as lexed ones do. */
    if (rpp && (st.tv = calloc(rpp->ntok, sizeof(*st.tv))) != NULL &&
        (st.dv = calloc(rpp->ntok, sizeof(*st.dv))) != NULL)
        st.ntv = rpp->ntok;
    if (m)
        an_walk_memo(&st, m, tm ? tm->text : buf, tm ? tm->len : len, rpp);
    else
        an_walk(&st, tm ? tm->text : buf, tm ? tm->len : len, rpp);
    tmpl_replay_free(&rp);
    if (!st.rc && st.tpend.valid)
        an_shadow_next(&st, NULL);    /* the input ended after it */
    if (!st.rc)
        an_finish(&st);
    if (!st.rc)
        an_types(&st, tm ? tm->text : buf, tm ? tm->len : len);
    if (!st.rc) {
        st.res->text_pool = st.pool;  /* names and texts point into it */
        st.pool = NULL;
    }
    if (!st.rc && tm)
        an_remap(&st, buf, len);
    if (!st.rc)
        an_explain(&st);
    if (!st.rc && big)
        an_note(&st, "template: expansion larger than 128 times the file plus 4 MB; "
                "analysed as written, without instances");
    if ((rc = st.rc) == 0) {
        *out = st.res;
        st.res = NULL;
    }
done:
    an_result_free(st.res);
    tmpl_free(tm);
    free(st.tv);
    free(st.dv);
    free(st.fmeta);
    free(st.facc);
    free(st.pool);
    free(st.itab);
    free(st.frames);
    free(st.locals);
    free(st.callrecs);
    free(st.flowrecs);
    return rc;
}
