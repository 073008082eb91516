/*
 * test_report_json.c: `analyze --format json` (report_write, "json") is
 * written file by file, yet must be the bytes jansson writes for the whole
 * array (JSON_INDENT(1) | JSON_ENSURE_ASCII) and a newline: the output
 * read back and dumped again by jansson gives the same bytes, for no file,
 * one file and many (C, C++, templates, strings outside ASCII).
 */
#include "testutil.h"

#include "analyzer/analyzer.h"
#include "pd_file.h"
#include "report.h"

static const char *const paths[] = {
    "tests/fixtures/analyze/hpydef.c",
    "tests/fixtures/analyze/decls.c",
    "tests/fixtures/analyze/template.c.src",
    "tests/fixtures/analyze/strings.c",
    "tests/fixtures/analyze/wrappers.cpp",
    "tests/fixtures/analyze/object_paths.c",
};
#define NPATHS (sizeof(paths) / sizeof(paths[0]))

/* report_write(json) of files[0..n) against jansson's dump of what it
 * wrote, read back. */
static void check_json(const report_file *files, size_t n)
{
    char *out = NULL, *again;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    json_error_t err;
    json_t *doc;

    assert_non_null(f);
    assert_int_equal(report_write(f, "json", files, n, NULL), 0);
    assert_int_equal(fclose(f), 0);
    doc = json_loadb(out, len, JSON_DECODE_ANY, &err);
    assert_non_null(doc);
    assert_true(json_is_array(doc));
    assert_int_equal(json_array_size(doc), n);
    again = json_dumps(doc, JSON_INDENT(1) | JSON_ENSURE_ASCII);
    assert_non_null(again);
    assert_int_equal(len, strlen(again) + 1);
    assert_memory_equal(out, again, len - 1);
    assert_int_equal(out[len - 1], '\n');
    free(again);
    json_decref(doc);
    free(out);
}

static void test_json_is_janssons_dump_of_the_array(void **state)
{
    report_file files[NPATHS];
    rules *r = NULL;
    size_t i;

    (void)state;
    memset(files, 0, sizeof(files));
    assert_int_equal(rules_load_default(&r), 0);
    for (i = 0; i < NPATHS; i++) {
        char *buf = NULL;
        size_t len = 0;
        an_result *res = NULL;

        assert_int_equal(pd_file_read(paths[i], 0, NULL, &buf, &len), 0);
        assert_int_equal(an_analyze(&res, r, paths[i], buf, len), 0);
        files[i].path = paths[i];
        files[i].res = res;
        free(buf);
    }
    check_json(files, 0);
    check_json(files, 1);
    check_json(files + 2, 1);       /* a template alone */
    check_json(files, NPATHS);
    for (i = 0; i < NPATHS; i++)
        an_result_free((an_result *)files[i].res);
    rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_is_janssons_dump_of_the_array),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
