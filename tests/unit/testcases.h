/*
 * testcases.h: the runner shared by the tests whose cases are data files
 * (tests/fixtures/analyze/cases, tests/fixtures/fix): every file of a
 * directory ending in a suffix becomes one cmocka test named after the
 * file, run in name order, beside a few fixed tests; an analyzer case's
 * source and rules (tc_analyzer_case).  Header-only so each
 * test binary stays one file.
 */
#ifndef TESTCASES_H
#define TESTCASES_H

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analyzer/analyzer.h"
#include "pd_file.h"

/* The whole file at path, NUL-terminated (free()), *len without the NUL;
 * NULL when it cannot be read (a case's optional part). */
static inline char *tc_slurp(const char *path, size_t *len)
{
    char *text = NULL;

    if (pd_file_read(path, 0, NULL, &text, len) < 0)
        return NULL;
    return text;
}

static inline int tc_by_name(const void *a, const void *b)
{
    return strcmp(((const struct CMUnitTest *)a)->name,
                  ((const struct CMUnitTest *)b)->name);
}

/*
 * Run group `group`: one test calling `fn` per file of `dir` whose name
 * ends in `suffix` (the test's state is the file name), and the `nfixed`
 * tests of `fixed`, all sorted by name.  cmocka's result: the number of
 * failed tests; 1 when the directory cannot be read, holds no case or
 * memory runs out.
 */
static inline int tc_run_cases(const char *group, const char *dir, const char *suffix,
                               CMUnitTestFunction fn, const struct CMUnitTest *fixed,
                               size_t nfixed)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    struct CMUnitTest *tests = NULL;
    size_t n = 0, cap = 0, i, slen = strlen(suffix);
    int rc = 1;

    if (!d) {
        fprintf(stderr, "cannot open %s (run from the repository root)\n", dir);
        return 1;
    }
    while ((e = readdir(d)) != NULL || nfixed) {
        const char *name = e ? e->d_name : fixed[--nfixed].name;
        size_t len = strlen(name);

        if (e && (len <= slen || strcmp(name + len - slen, suffix) != 0))
            continue;
        if (n == cap) {
            struct CMUnitTest *t = realloc(tests, (cap = cap ? cap * 2 : 32) * sizeof(*t));

            if (!t)
                goto done;
            tests = t;
        }
        tests[n] = e ? (struct CMUnitTest){ .test_func = fn } : fixed[nfixed];
        if (!(tests[n].name = strdup(name)))
            goto done;
        if (e)
            tests[n].initial_state = (void *)tests[n].name;
        n++;
    }
    if (n == 0) {          /* a case directory without cases is a mistake */
        fprintf(stderr, "no %s cases in %s\n", suffix, dir);
        goto done;
    }
    qsort(tests, n, sizeof(*tests), tc_by_name);
    rc = _cmocka_run_group_tests(group, tests, n, NULL, NULL);
done:
    closedir(d);
    for (i = 0; i < n; i++)
        free((void *)tests[i].name);
    free(tests);
    return rc;
}

/*
 * The analyzer case `expect_name` (NAME.expect) of directory dir (ending
 * in '/'): NAME into src_name (cap bytes), the case's rules into *r
 * (NAME.rules when there is one, else the built-in rules; the caller
 * frees them), and NAME's bytes returned (free()), *len without the NUL.
 * Fails the test when the source cannot be read.
 */
static inline char *tc_analyzer_case(const char *dir, const char *expect_name,
                                     char *src_name, size_t cap, rules **r, size_t *len)
{
    char path[768];
    char *src;

    snprintf(src_name, cap, "%.*s", (int)(strlen(expect_name) - strlen(".expect")),
             expect_name);
    snprintf(path, sizeof(path), "%s%s.rules", dir, src_name);
    *r = NULL;
    if (rules_load(r, path) != 0)
        assert_int_equal(rules_load_default(r), 0);
    snprintf(path, sizeof(path), "%s%s", dir, src_name);
    if (!(src = tc_slurp(path, len)))
        fail_msg("%s: no source file %s", expect_name, path);
    return src;
}

#endif
