/*
 * test_analyze_cases.c: analyzer expectations kept as data.
 *
 * Every tests/fixtures/analyze/cases/NAME.expect belongs to the source file
 * NAME beside it (NAME keeps its suffix: x.c, x.cpp, x.c.src, x.h).  The
 * source is analysed with the default rules, or with NAME.rules when that
 * file exists, and written in the text format of `portdash analyze` (see
 * report.h) with the path and the ':' after it cut from each line, after
 * the call-graph step over the file (an_flow_apply: a state a call gives
 * reads "..., object-legacy via helper -> visitor"):
 *
 *     neutral, universal-ready, 2 functions
 *     2: function pick (lines 2-13) neutral
 *     5:9: capi capi-names-cpython `PyObject` in pick
 *     note: unbalanced braces at end of file (depth 1)
 *
 * Lines of the .expect file:
 *     # ...       a comment (blank lines are skipped too)
 *     TEXT        an output line equal to TEXT must exist
 *     ! TEXT      no output line may contain TEXT
 *     json TEXT   the JSON format of the file (compact, keys in order)
 *                 must contain TEXT (for fields the text form lacks)
 *     ! json TEXT ... must not
 *     types TEXT  the HPy types of the file (an_result.hpy_types, compact
 *                 JSON, see analyze_types.c) must contain TEXT
 *     ! types TEXT  ... must not
 *     flow NAME TEXT  the calls and flow facts of function NAME (what the
 *                 call-graph step reads: "calls | flow", analyze_flow.c
 *                 says the format) must contain TEXT
 *     ! flow NAME TEXT  ... must not
 * Each .expect file is one test named after it.  Add a case by writing
 * the two files; nothing here changes.
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
#include "report.h"

#define CASES "tests/fixtures/analyze/cases/"

/* The analysis of `name` in `format`, every line stripped of "name:" and
 * one blank after it. */
static char *render(const char *name, const an_result *res, const char *format)
{
    report_file rf = { .path = name, .res = res };
    report_fail none = {0, 0};
    char *out = NULL, *stripped, *p, *q;
    size_t len = 0, nl = strlen(name);
    FILE *f = open_memstream(&out, &len);

    assert_non_null(f);
    assert_int_equal(report_write(f, format, &rf, 1, &none), 0);
    fclose(f);
    stripped = malloc(len + 1);
    assert_non_null(stripped);
    for (p = out, q = stripped; *p;) {
        char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);

        if (n > nl && memcmp(p, name, nl) == 0 && p[nl] == ':') {
            p += nl + 1;
            n -= nl + 1;
            if (*p == ' ')
                p++, n--;
        }
        memcpy(q, p, n);
        q += n;
        p += n;
    }
    *q = '\0';
    free(out);
    return stripped;
}

/* 1 if text holds line[0..n) as a whole line. */
static int has_line(const char *text, const char *line, size_t n)
{
    const char *p = text;

    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);

        if (len == n && memcmp(p, line, n) == 0)
            return 1;
        p += len + (eol != NULL);
    }
    return 0;
}

/* Drop blanks between JSON tokens outside strings (report_write indents). */
static void compact(char *s)
{
    char *q = s;
    int in_str = 0;

    for (; *s; s++) {
        if (in_str) {
            *q++ = *s;
            if (*s == '\\' && s[1])
                *q++ = *++s;
            else if (*s == '"')
                in_str = 0;
        } else if (*s == '"') {
            *q++ = *s;
            in_str = 1;
        } else if (*s != ' ' && *s != '\n') {
            *q++ = *s;
        }
    }
    *q = '\0';
}

/* `flow NAME TEXT` (neg: `! flow ...`): function NAME's "calls | flow"
 * holds TEXT, or not. */
static void check_flow(const char *expect_name, const an_result *res, const char *arg,
                       int neg)
{
    const char *sp = strchr(arg, ' ');
    char facts[8192];
    size_t i, n = sp ? (size_t)(sp - arg) : strlen(arg);

    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        if (!f->name || strlen(f->name) != n || memcmp(f->name, arg, n) != 0)
            continue;
        snprintf(facts, sizeof(facts), "%s | %s", f->calls ? f->calls : "",
                 f->flow ? f->flow : "");
        if (!sp || (strstr(facts, sp + 1) != NULL) == neg)
            fail_msg("%s: %.*s's facts \"%s\" %s \"%s\"", expect_name, (int)n, arg, facts,
                     neg ? "hold" : "lack", sp ? sp + 1 : "");
        return;
    }
    fail_msg("%s: no function %.*s", expect_name, (int)n, arg);
}

static void run_case(void **state)
{
    const char *expect_name = *state;
    char path[512], src_name[256];
    char *expect, *src, *text, *json, *line, *save = NULL;
    size_t elen, slen;
    rules *r = NULL;
    an_result *res = NULL;

    src = tc_analyzer_case(CASES, expect_name, src_name, sizeof(src_name), &r, &slen);
    snprintf(path, sizeof(path), CASES "%s", expect_name);
    expect = tc_slurp(path, &elen);
    assert_non_null(expect);
    assert_int_equal(an_analyze(&res, r, src_name, src, slen), 0);
    {
        const char *paths[1] = {src_name};   /* the call graph of the file */

        assert_int_equal(an_flow_apply(&res, paths, 1), 0);
    }
    text = render(src_name, res, "text");
    json = render(src_name, res, "json");
    compact(json);
    for (line = strtok_r(expect, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        size_t n = strlen(line);

        if (n && line[n - 1] == '\r')
            line[--n] = '\0';
        if (!n || line[0] == '#')
            continue;
        /* cmocka cuts long messages: the output goes to stderr first */
        if (strncmp(line, "types ", 6) == 0 || strncmp(line, "! types ", 8) == 0) {
            int neg = line[0] == '!';
            const char *want = line + (neg ? 8 : 6);
            const char *ty = res->hpy_types ? res->hpy_types : "";

            if ((strstr(ty, want) != NULL) == neg) {
                fprintf(stderr, "%s\n", ty);
                fail_msg("%s: types %s %s (above)", expect_name,
                         neg ? "hold" : "lack", want);
            }
        } else if (strncmp(line, "flow ", 5) == 0 || strncmp(line, "! flow ", 7) == 0) {
            check_flow(expect_name, res, line + (line[0] == '!' ? 7 : 5), line[0] == '!');
        } else if (strncmp(line, "! json ", 7) == 0) {
            if (strstr(json, line + 7)) {
                fprintf(stderr, "%s\n", json);
                fail_msg("%s: JSON holds %s (above)", expect_name, line + 7);
            }
        } else if (strncmp(line, "! ", 2) == 0) {
            if (strstr(text, line + 2)) {
                fprintf(stderr, "%s\n", text);
                fail_msg("%s: output holds \"%s\" (above)", expect_name, line + 2);
            }
        } else if (strncmp(line, "json ", 5) == 0) {
            if (!strstr(json, line + 5)) {
                fprintf(stderr, "%s\n", json);
                fail_msg("%s: JSON lacks %s (above)", expect_name, line + 5);
            }
        } else if (!has_line(text, line, n)) {
            fprintf(stderr, "%s\n", text);
            fail_msg("%s: no line \"%s\" (output above)", expect_name, line);
        }
    }
    free(text);
    free(json);
    free(src);
    free(expect);
    an_result_free(res);
    rules_free(r);
}

int main(void)
{
    return tc_run_cases("analyze cases", CASES, ".expect", run_case, NULL, 0);
}
