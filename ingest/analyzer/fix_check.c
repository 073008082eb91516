/*
 * fix_check.c: the check of fix.h.  Every candidate fix_find() offers is
 * applied to the bytes in memory and the file analysed again: the tokens
 * it replaces must be gone, every other legacy finding of every function
 * (and of file scope) must stay as it was (the same class, rule and text,
 * as many times), and no function's status may get worse.  All offers of
 * a file are tried together first; when that fails, the offers in the
 * functions that failed are tried one by one, and the ones that fail
 * alone are refused with the reason.
 */
#include <stdlib.h>
#include <string.h>

#include "fix_int.h"
#include "pd_buf.h"
#include "pd_error.h"

/* The legacy findings of a result, ordered by (function, class, rule,
 * text); `skip` marks findings left out (replaced by an offer). */
typedef struct {
    const an_result *res;
    size_t *idx;
    size_t n;
} fc_sig;

static _Thread_local const an_result *fc_sort_res;

static int fc_cmp(const void *a, const void *b)
{
    const an_finding *x = &fc_sort_res->findings[*(const size_t *)a];
    const an_finding *y = &fc_sort_res->findings[*(const size_t *)b];
    int c;

    if (x->function != y->function)
        return x->function < y->function ? -1 : 1;
    if (x->cls != y->cls)
        return x->cls < y->cls ? -1 : 1;
    if ((c = strcmp(x->rule, y->rule)) != 0)
        return c;
    return strcmp(x->text, y->text);
}

/* 1 when (line, column) is replaced by one of the offers in use[]. */
static int fc_removed(const fix_list *l, const unsigned char *use, uint32_t line, uint32_t col)
{
    size_t i;
    uint32_t k;

    for (i = 0; i < l->n; i++)
        if (use[i] && l->v[i].line <= line && l->v[i].end_line >= line)
            for (k = 0; k < l->v[i].nremoved; k++)
                if (l->v[i].removed[k][0] == line && l->v[i].removed[k][1] == col)
                    return 1;
    return 0;
}

/* The signature of res (fc_sig); qsort's comparator reads fc_sort_res,
 * one per thread. */
static int fc_sig_make(fc_sig *s, const an_result *res, const fix_list *l,
                       const unsigned char *use)
{
    size_t i;

    s->res = res;
    s->n = 0;
    if (!(s->idx = malloc((res->nfindings + 1) * sizeof(*s->idx))))
        return PD_ENOMEM;
    for (i = 0; i < res->nfindings; i++) {
        const an_finding *f = &res->findings[i];

        if (f->cls == AN_CLASS_HPY || (l && fc_removed(l, use, f->line, f->column)))
            continue;
        s->idx[s->n++] = i;
    }
    fc_sort_res = res;
    qsort(s->idx, s->n, sizeof(*s->idx), fc_cmp);
    return 0;
}

static int fc_rank(an_status s)
{
    return s == AN_STATUS_LEGACY ? 2 : s == AN_STATUS_BRIDGED ? 1 : 0;
}

/*
 * Compare the expected signature (before minus the replaced) with after;
 * bad[k] (function k) and bad[nfunctions] (file scope) set where they
 * differ, with the reason.  Returns the worst reason, FIX_OK when equal.
 */
static fix_reason fc_compare(const an_result *before, const fc_sig *exp, const an_result *after,
                             const fc_sig *got, fix_reason *bad)
{
    size_t i = 0, j = 0, k;
    fix_reason worst = FIX_OK;

    while (i < exp->n || j < got->n) {
        const an_finding *x = i < exp->n ? &before->findings[exp->idx[i]] : NULL;
        const an_finding *y = j < got->n ? &after->findings[got->idx[j]] : NULL;
        int c;

        if (x && y) {
            fc_sort_res = before;
            c = x->function != y->function ? (x->function < y->function ? -1 : 1)
              : x->cls != y->cls ? (x->cls < y->cls ? -1 : 1)
              : strcmp(x->rule, y->rule) ? strcmp(x->rule, y->rule) : strcmp(x->text, y->text);
        } else
            c = x ? -1 : 1;
        if (c == 0) {
            i++, j++;
            continue;
        }
        /* an extra finding after: the token left (its text is a replaced
         * one) or a new one; a missing one: something else went */
        k = c < 0 ? (size_t)(x->function < 0 ? (int32_t)before->nfunctions : x->function)
                  : (size_t)(y->function < 0 ? (int32_t)before->nfunctions : y->function);
        if (k <= before->nfunctions && bad[k] == FIX_OK)
            bad[k] = c > 0 && fix_table_find(y->text, strlen(y->text)) ? FIX_R_TOKEN_LEFT
                                                                        : FIX_R_NEW_FINDING;
        worst = FIX_R_NEW_FINDING;
        c < 0 ? i++ : j++;
    }
    for (k = 0; k < before->nfunctions; k++)
        if (fc_rank(after->functions[k].status) > fc_rank(before->functions[k].status)) {
            if (bad[k] == FIX_OK)
                bad[k] = FIX_R_STATUS_WORSE;
            worst = FIX_R_NEW_FINDING;
        }
    return worst;
}

/* Apply the offers in use[], analyse, compare; bad[] as fc_compare
 * (every entry set to the reason when the functions themselves differ).
 * 0 or PD_ENOMEM. */
static int fc_try(const rules *r, an_memo *memo, const char *path, const char *buf, size_t len,
                  const an_result *res, const fix_list *l, const unsigned char *use,
                  fix_reason *bad)
{
    fc_sig exp = {0}, got = {0};
    an_result *after = NULL;
    char *text = NULL;
    size_t tlen, k;
    int rc;

    for (k = 0; k <= res->nfunctions; k++)
        bad[k] = FIX_OK;
    if ((rc = fix_apply(buf, len, l, NULL, (void *)use, &text, &tlen)) < 0 ||
        (rc = an_analyze_memo(&after, r, memo, path, text, tlen)) < 0)
        goto done;
    if (after->nfunctions != res->nfunctions) {
        for (k = 0; k <= res->nfunctions; k++)
            bad[k] = FIX_R_NEW_FINDING;
        goto done;
    }
    if ((rc = fc_sig_make(&exp, res, l, use)) < 0 ||
        (rc = fc_sig_make(&got, after, NULL, NULL)) < 0)
        goto done;
    fc_compare(res, &exp, after, &got, bad);
done:
    free(exp.idx);
    free(got.idx);
    an_result_free(after);
    free(text);
    return rc < 0 ? pd_error_nomem("checking fixes") : 0;
}

/* The functions an offer may change: those whose lines hold its bytes,
 * or that have a finding at a position it replaces (template instances). */
static int fc_touches(const an_result *res, const fix_offer *o, size_t k)
{
    const an_function *fn = &res->functions[k];

    return (int32_t)k == o->function ||
           (fn->start_line <= o->end_line && fn->end_line >= o->line);
}

static int fc_check(fix_list *l, const rules *r, const char *path, const char *buf, size_t len,
                    const an_result *res)
{
    unsigned char *use = calloc(l->n + 1, 1), *one = calloc(l->n + 1, 1);
    fix_reason *bad = malloc((res->nfunctions + 1) * sizeof(*bad));
    fix_reason *bad1 = malloc((res->nfunctions + 1) * sizeof(*bad1));
    an_memo *memo = NULL;
    size_t i, k;
    int rc = 0, any = 0;

    if (!use || !one || !bad || !bad1 || an_memo_new(&memo, r, (size_t)8 << 20) < 0) {
        rc = pd_error_nomem("checking fixes");
        goto done;
    }
    for (i = 0; i < l->n; i++)
        any |= use[i] = l->v[i].reason == FIX_OK;
    if (!any || (rc = fc_try(r, memo, path, buf, len, res, l, use, bad)) < 0)
        goto done;
    for (i = 0; i < l->n && !rc; i++) {
        fix_reason why = FIX_OK;

        if (!use[i])
            continue;
        for (k = 0; k <= res->nfunctions && why == FIX_OK; k++)
            if (bad[k] != FIX_OK && (k == res->nfunctions || fc_touches(res, &l->v[i], k)))
                why = bad[k];
        if (why == FIX_OK)
            continue;
        one[i] = 1;
        rc = fc_try(r, memo, path, buf, len, res, l, one, bad1);
        one[i] = 0;
        for (k = 0, why = FIX_OK; k <= res->nfunctions && why == FIX_OK; k++)
            why = bad1[k];
        if (why != FIX_OK) {
            l->v[i].reason = why;
            free(l->v[i].text);
            l->v[i].text = NULL;
        }
    }
done:
    an_memo_free(memo);
    free(use);
    free(one);
    free(bad);
    free(bad1);
    return rc;
}

int fix_file(fix_list *out, const rules *r, const char *path, const char *buf,
             size_t len, const an_result *res)
{
    size_t i, k;
    uint32_t m;
    int rc;

    memset(out, 0, sizeof(*out));
    if ((rc = fix_find(out, path, buf, len, res)) < 0 ||
        (rc = fc_check(out, r, path, buf, len, res)) < 0) {
        fix_list_free(out);
        return rc;
    }
    for (i = 0; i < out->n; i++) {
        const fix_offer *o = &out->v[i];

        out->refused[o->reason]++;
        if (o->reason != FIX_OK)
            continue;
        for (k = 0; k < res->nfindings; k++)
            for (m = 0; m < o->nremoved; m++)
                out->tokens_removed += res->findings[k].line == o->removed[m][0] &&
                                       res->findings[k].column == o->removed[m][1] &&
                                       res->findings[k].cls != AN_CLASS_HPY;
    }
    return 0;
}

int fix_apply(const char *buf, size_t len, const fix_list *l,
              int (*want)(const fix_offer *, void *), void *arg,
              char **out, size_t *out_len)
{
    const unsigned char *use = want ? NULL : arg;
    size_t i, at = 0;
    pd_buf b;

    pd_buf_init(&b, 0);
    pd_buf_reserve(&b, len + 64);
    for (i = 0; i < l->n; i++) {
        const fix_offer *o = &l->v[i];

        if (o->reason != FIX_OK || !o->text || o->off < at || (use && !use[i]) ||
            (want && !want(o, arg)))
            continue;
        pd_buf_put(&b, buf + at, o->off - at);
        pd_buf_puts(&b, o->text);
        at = o->off + o->len;
    }
    pd_buf_put(&b, buf + at, len - at);
    if (b.err || !b.data) {
        int empty = !b.err;

        pd_buf_free(&b);
        if (empty && (*out = calloc(1, 1))) {
            *out_len = 0;
            return 0;
        }
        return pd_error_nomem("applying fixes");
    }
    *out = pd_buf_take(&b, out_len);
    return 0;
}
