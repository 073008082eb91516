/*
 * test_fix.c: the rewrites of fix.h, kept as data.
 *
 * Every tests/fixtures/fix/NAME.expect belongs to the source NAME beside
 * it (x.c, x.c.src).  The source is analysed with the default rules (or
 * NAME.rules when that file exists) and
 * its rewrites found and checked (fix_file); then, whatever the .expect
 * says, the rewritten file is analysed again here and must have lost
 * exactly the legacy findings the offers replace (their count), with no
 * function's status worse and the same number of lines.  Lines of .expect:
 *     # ...                    a comment (blank lines are skipped)
 *     offer L:C RULE NAME      an offer at line L, column C of that rule,
 *                              replacing the C API name NAME
 *     refuse L:C REASON        a refusal there with that reason
 *                              (fix_reason_name)
 *     has TEXT                 the rewritten file holds TEXT (\n a newline)
 *     ! TEXT                   ... does not
 *     count offered N          N offers in all
 *     count removed N          the offers replace N legacy findings
 *                              (every template instance counted)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/analyzer.h"
#include "pd_error.h"
#include "testcases.h"

#define CASES "tests/fixtures/fix/"

static void dump(const char *name, const fix_list *l, const char *patched)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        fprintf(stderr, "%s: %u:%u %s %s %s%s%s\n", name, l->v[i].line, l->v[i].column,
                fix_reason_name(l->v[i].reason), l->v[i].rule, l->v[i].from,
                l->v[i].text ? " -> " : "", l->v[i].text ? l->v[i].text : "");
    fprintf(stderr, "%s\n", patched);
}

static size_t legacy_count(const an_result *res)
{
    size_t i, n = 0;

    for (i = 0; i < res->nfindings; i++)
        n += res->findings[i].cls != AN_CLASS_HPY;
    return n;
}

static int rank(an_status s)
{
    return s == AN_STATUS_LEGACY ? 2 : s == AN_STATUS_BRIDGED ? 1 : 0;
}

/* The invariants of every case: the rewritten file loses what the offers
 * say and nothing else gets worse. */
static void check_reanalysis(const char *name, const rules *r, const an_result *res,
                             const fix_list *l, const char *patched, size_t plen)
{
    an_result *after = NULL;
    size_t i, k;

    assert_int_equal(an_analyze(&after, r, name, patched, plen), 0);
    assert_int_equal(after->lines, res->lines);
    assert_int_equal(after->nfunctions, res->nfunctions);
    if (legacy_count(after) != legacy_count(res) - l->tokens_removed)
        fail_msg("%s: %zu legacy findings after, want %zu - %zu", name, legacy_count(after),
                 legacy_count(res), l->tokens_removed);
    for (i = 0; i < res->nfunctions; i++)
        if (rank(after->functions[i].status) > rank(res->functions[i].status))
            fail_msg("%s: %s got worse", name, res->functions[i].name);
    for (i = 0; i < l->n; i++)
        for (k = 0; l->v[i].reason == FIX_OK && k < after->nfindings; k++)
            if (after->findings[k].line == l->v[i].line &&
                after->findings[k].column == l->v[i].column &&
                strcmp(after->findings[k].text, l->v[i].from) == 0)
                fail_msg("%s: %s still at %u:%u", name, l->v[i].from, l->v[i].line,
                         l->v[i].column);
    an_result_free(after);
}

/* The entry at line:column, or NULL. */
static const fix_offer *at(const fix_list *l, unsigned line, unsigned col)
{
    size_t i;

    for (i = 0; i < l->n; i++)
        if (l->v[i].line == line && l->v[i].column == col)
            return &l->v[i];
    return NULL;
}

/* TEXT with "\n" written as two characters made a newline, in place. */
static char *unescape(char *s)
{
    char *p = s, *q = s;

    for (; *p; p++)
        if (p[0] == '\\' && p[1] == 'n') {
            *q++ = '\n';
            p++;
        } else {
            *q++ = *p;
        }
    *q = '\0';
    return s;
}

static void check_line(const char *name, char *line, const fix_list *l, const char *patched)
{
    unsigned ln, col;
    char a[64], b[128];
    size_t n;
    const fix_offer *o;

    if (sscanf(line, "offer %u:%u %63s %127s", &ln, &col, a, b) == 4) {
        if (!(o = at(l, ln, col)) || o->reason != FIX_OK || strcmp(o->rule, a) ||
            strcmp(o->from, b))
            fail_msg("%s: no offer %s (got %s)", name, line,
                     o ? fix_reason_name(o->reason) : "nothing");
    } else if (sscanf(line, "refuse %u:%u %63s", &ln, &col, a) == 3) {
        if (!(o = at(l, ln, col)) || strcmp(fix_reason_name(o->reason), a))
            fail_msg("%s: not %s (got %s)", name, line, o ? fix_reason_name(o->reason) : "nothing");
    } else if (sscanf(line, "count offered %zu", &n) == 1) {
        assert_int_equal(l->refused[FIX_OK], n);
    } else if (sscanf(line, "count removed %zu", &n) == 1) {
        assert_int_equal(l->tokens_removed, n);
    } else if (strncmp(line, "has ", 4) == 0) {
        if (!strstr(patched, unescape(line + 4)))
            fail_msg("%s: rewritten file lacks \"%s\"", name, line + 4);
    } else if (strncmp(line, "! ", 2) == 0) {
        if (strstr(patched, unescape(line + 2)))
            fail_msg("%s: rewritten file holds \"%s\"", name, line + 2);
    } else {
        fail_msg("%s: cannot read \"%s\"", name, line);
    }
}

static void run_case(void **state)
{
    const char *expect_name = *state;
    char path[512], src_name[256], *expect, *src, *patched = NULL, *line, *save = NULL;
    size_t elen, slen, plen;
    rules *r = NULL;
    an_result *res = NULL;
    fix_list l;

    src = tc_analyzer_case(CASES, expect_name, src_name, sizeof(src_name), &r, &slen);
    snprintf(path, sizeof(path), CASES "%s", expect_name);
    assert_non_null(expect = tc_slurp(path, &elen));
    assert_int_equal(an_analyze(&res, r, src_name, src, slen), 0);
    assert_int_equal(fix_file(&l, r, src_name, src, slen, res), 0);
    assert_int_equal(fix_apply(src, slen, &l, NULL, NULL, &patched, &plen), 0);
    if (getenv("FIX_DUMP"))
        dump(src_name, &l, patched);
    check_reanalysis(src_name, r, res, &l, patched, plen);
    for (line = strtok_r(expect, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        size_t n = strlen(line);

        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (n && line[0] != '#')
            check_line(src_name, line, &l, patched);
    }
    fix_list_free(&l);
    free(patched);
    free(src);
    free(expect);
    an_result_free(res);
    rules_free(r);
}

/* The diff of a rewrite: git's headers, a hunk with context, the marker
 * for a last line without its newline, nothing for equal files. */
static void test_diff_form(void **state)
{
    const char *a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nPy_ssize_t";
    const char *b = "a\nb\nc\nd\ne\nf\ng\nh\ni\nHPy_ssize_t";
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);

    (void)state;
    assert_int_equal(fix_diff(f, "x/y.c", a, strlen(a), a, strlen(a)), 0);
    assert_int_equal(fix_diff(f, "x/y.c", a, strlen(a), b, strlen(b)), 0);
    fclose(f);
    assert_string_equal(out, "diff --git a/x/y.c b/x/y.c\n--- a/x/y.c\n+++ b/x/y.c\n"
                             "@@ -7,4 +7,4 @@\n g\n h\n i\n-Py_ssize_t\n"
                             "\\ No newline at end of file\n+HPy_ssize_t\n"
                             "\\ No newline at end of file\n");
    free(out);
    f = open_memstream(&out, &len);
    assert_int_equal(fix_diff(f, "y.c", "a\n", 2, "a\nb\n", 4), PD_EINVAL);
    fclose(f);
    free(out);
}

int main(void)
{
    static const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_diff_form),
    };

    return tc_run_cases("fix cases", CASES, ".expect", run_case, fixed, 1);
}
