/*
 * test_rules.c: the rules file (ingest/analyzer/rules.c): syntax errors name their
 * file and line, every kind of bad directive is refused with its message,
 * and the hash that keys stored analyses is git's blob id of the text.
 * Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pd_error.h"
#include "analyzer/analyzer.h"

#define FIXTURES "tests/fixtures/analyze/"
#define NAMES "tests/fixtures/names/"

static void test_rules_syntax_error_names_line(void **state)
{
    rules *r = (rules *)1;

    (void)state;
    assert_int_equal(rules_load(&r, FIXTURES "bad.rules"), PD_EINVAL);
    assert_null(r);
    assert_string_equal(pd_error_last(), FIXTURES "bad.rules:4: 'exact' "
                        "takes NAME CLASS, got 3 arguments");
}

static void test_rules_errors(void **state)
{
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"# ok\nfrobnicate X hpy\n", "m.rules:2: unknown directive 'frobnicate'"},
        {"prefix Py\n", "m.rules:1: 'prefix' takes PREFIX CLASS, got 1 argument"},
        {"prefix Py cpython\n", "m.rules:1: unknown class 'cpython' "
                                "(expected hpy, capi, npy-legacy, bridge)"},
        {"exact A hpy\nexact A capi\n", "m.rules:2: duplicate exact rule for 'A'"},
        {"prefix Py capi\nprefix Py hpy\n", "m.rules:2: duplicate prefix rule"},
        {"itemcast capi PyObject\n", "m.rules:1: an itemcast type needs at "
                                     "least one '*'"},
        {"guard X ifmaybe\n", "m.rules:1: guard test must be ifndef or ifdef, "
                              "not 'ifmaybe'"},
        {"nullowner F x HPy_NULL\n", "m.rules:1: bad argument index 'x' "
                                     "(expected 0..64)"},
        {"marker a-b\n", "m.rules:1: 'a-b' is not an identifier"},
        {"objfunc start OBJECT_\n", "m.rules:1: objfunc match must be prefix, "
                                    "suffix or contains, not 'start'"},
        {"itemdata local char *\n", "m.rules:1: itemdata takes any or param, "
                                    "not 'local'"},
        {"itemdata any char\n", "m.rules:1: an itemdata type needs at least "
                                "one '*'"},
        {"itemdata any char *\nitemdata param char*\n",
         "m.rules:2: duplicate itemdata rule for 'char'"},
        {"itemcall legacy F\n", "m.rules:1: unknown class 'legacy' "
                                "(expected hpy, capi, npy-legacy, bridge)"},
        {"itemcall capi F\nitemcall hpy F\n",
         "m.rules:2: duplicate itemcall rule for 'F'"},
        {"itemsource a.b\n", "m.rules:1: 'a.b' is not an identifier"},
        {"itemsource prefix Py\n", "m.rules:1: itemsource takes NAME or suffix "
                                   "TEXT, not 'prefix'"},
        {"itemname\n", "m.rules:1: 'itemname' takes NAME, got 0 arguments"},
        {"itemview F -1\n", "m.rules:1: bad argument index '-1' (expected 0..64)"},
        {"itemview F 0\nitemview F 1\n", "m.rules:2: duplicate itemview rule for 'F'"},
        {"fieldarg F 0\nfieldarg F 2\n", "m.rules:2: duplicate fieldarg rule for 'F'"},
        {"itemview F\n", "m.rules:1: 'itemview' takes FUNCTION INDEX, got 1 argument"},
        {"names builtin:python capi\n", "m.rules:1: unknown built-in names set "
                                        "'builtin:python' (there is builtin:cpython)"},
        {"names builtin:cpython legacy\n", "m.rules:1: unknown class 'legacy' "
                                           "(expected hpy, capi, npy-legacy, bridge)"},
        {"names builtin:cpython\n", "m.rules:1: 'names' takes SET CLASS, got 1 argument"},
    };
    size_t i;
    rules *r;

    (void)state;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        assert_int_equal(rules_parse(&r, "m.rules", cases[i].text,
                                     strlen(cases[i].text)), PD_EINVAL);
        assert_string_equal(pd_error_last(), cases[i].msg);
    }
    assert_int_equal(rules_load(&r, FIXTURES "missing.rules"), PD_EIO);
    assert_string_equal(pd_error_last(), "cannot open rules file "
                        FIXTURES "missing.rules: No such file or directory");
}

static void test_rules_hash_is_git_blob_id(void **state)
{
    rules *r;

    (void)state;
    /* printf 'prefix HPy hpy\n' | git hash-object --stdin */
    assert_int_equal(rules_parse(&r, "h", "prefix HPy hpy\n", 15), 0);
    assert_string_equal(rules_hash(r), "ff8af41fd659d83adb5824b4966e4884bb8fd132");
    rules_free(r);
    assert_int_equal(rules_load_default(&r), 0);
    assert_int_equal(strlen(rules_hash(r)), 40);
    rules_free(r);
}

/* `names SET CLASS` (issue 21): a set gives its class as an exact rule
 * would; an exact rule of the same name wins before or after it; a file
 * set is found next to the rules file; the hash covers the sets' text; a
 * name of kind `type` is marked so. */
static void test_rules_names(void **state)
{
    rules *r, *d;
    rules_verdict v;
    const char *hash;

    (void)state;
    assert_int_equal(rules_load(&r, NAMES "port.rules"), 0);
    rules_classify(r, "MyPort_Bridge", 13, &v);
    assert_int_equal(v.cls, AN_CLASS_BRIDGE);
    assert_string_equal(v.id, "bridge-names-port");
    rules_classify(r, "MyPort_Special", 14, &v);    /* exact rule first */
    assert_int_equal(v.cls, AN_CLASS_HPY);
    rules_classify(r, "PyTuple_New", 11, &v);        /* first set wins */
    assert_int_equal(v.cls, AN_CLASS_BRIDGE);
    rules_classify(r, "PyTuple_GET_ITEM", 16, &v);   /* the built-in set */
    assert_int_equal(v.cls, AN_CLASS_CAPI);
    assert_string_equal(v.id, "capi-names-cpython");
    rules_classify(r, "Py_INCREF", 9, &v);           /* exact none after */
    assert_int_equal(v.cls, RULES_CLS_UNSET);
    rules_classify(r, "PyLongToINT64", 13, &v);      /* no Py prefix rule */
    assert_int_equal(v.cls, RULES_CLS_UNSET);
    rules_classify(r, "@source", 7, &v);
    assert_int_equal(v.cls, RULES_CLS_UNSET);
    /* kind `type` in the second column: a variable may hide the name
     * (analyze_shadow.h); macros and functions cannot be */
    assert_true(rules_lookup(r, "MyPort_Handle", 13)->flags & RULES_F_TYPE);
    assert_false(rules_lookup(r, "MyPort_Bridge", 13)->flags & RULES_F_TYPE);
    assert_true(rules_lookup(r, "digit", 5)->flags & RULES_F_TYPE);
    assert_false(rules_lookup(r, "PyTuple_New", 11)->flags & RULES_F_TYPE);
    assert_false(rules_lookup(r, "METH_O", 6)->flags & RULES_F_TYPE);
    /* the hash covers the set: it is not the blob id of the text alone
     * (printf 'names port.names hpy\n' | git hash-object --stdin) */
    assert_int_equal(rules_parse(&d, NAMES "port.rules", "names port.names hpy\n",
                                 21), 0);
    hash = rules_hash(d);
    assert_string_not_equal(hash, "21379feb128b2ceb0e7ea27beec6243da9c186bc");
    assert_int_equal(strlen(hash), 40);
    rules_free(d);
    rules_free(r);
    /* a set that is missing or holds a bad name names the set and line */
    assert_int_equal(rules_parse(&r, NAMES "x.rules", "names gone.names capi\n",
                                 22), PD_EINVAL);
    assert_non_null(strstr(pd_error_last(), NAMES "x.rules:1: cannot read names "
                           "set 'gone.names'"));
    assert_int_equal(rules_parse(&r, NAMES "x.rules", "names bad.names capi\n",
                                 21), PD_EINVAL);
    assert_string_equal(pd_error_last(), NAMES "x.rules:1: names set bad.names:2: "
                        "'not-a-name' is not an identifier");
    /* the default rules: C API by CPython's headers, numpy by its prefixes */
    assert_int_equal(rules_load_default(&d), 0);
    rules_classify(d, "PyDescr_NewMethod", 17, &v);  /* CPython's, not numpy's */
    assert_int_equal(v.cls, AN_CLASS_CAPI);
    rules_classify(d, "PyDescr_ISOBJECT", 16, &v);
    assert_int_equal(v.cls, AN_CLASS_NPY_LEGACY);
    rules_classify(d, "PySequence_NoString_Check", 25, &v);
    assert_int_equal(v.cls, RULES_CLS_UNSET);
    rules_classify(d, "METH_FASTCALL", 13, &v);
    assert_int_equal(v.cls, AN_CLASS_CAPI);
    rules_free(d);
}

/* The item rules of a name live in its own record (rules_def.h): every
 * directive lands in it, by number of '*' where it has one, beside the
 * names set's verdict of the same name; the flags the walk tests say what
 * it holds; a name no item rule names shares rules_item_none. */
static void test_rules_item_records(void **state)
{
    static const char text[] =
        "names builtin:cpython capi\n"
        "itemcast capi PyObject * *\n"
        "itemlocal capi PyObject *\n"
        "itemdata any char *\n"
        "itemcall hpy F\n"
        "nullowner G 2 HPy_NULL\n"
        "itemview H 1\n"
        "fieldarg F 3\n";
    const rules_name *e;
    rules *r;
    int i;

    (void)state;
    assert_int_equal(rules_parse(&r, "m.rules", text, sizeof(text) - 1), 0);
    e = rules_lookup(r, "PyObject", 8);
    assert_non_null(e);
    assert_int_equal(e->exact.cls, AN_CLASS_CAPI);          /* the set's */
    assert_int_equal(e->item->itemcast[2].cls, AN_CLASS_CAPI);
    assert_int_equal(e->item->itemlocal[1].cls, AN_CLASS_CAPI);
    assert_int_equal(e->item->itemcast[1].cls, RULES_CLS_UNSET);
    assert_int_equal(e->item->itemlocal[2].cls, RULES_CLS_UNSET);
    assert_int_equal(e->flags & (RULES_F_HAS_CAST | RULES_F_HAS_LOCAL | RULES_F_HAS_DATA),
                     RULES_F_HAS_CAST | RULES_F_HAS_LOCAL);
    assert_int_equal((uintptr_t)e->item % _Alignof(rules_item), 0);
    e = rules_lookup(r, "char", 4);
    assert_int_equal(e->item->itemdata[1], RULES_DATA_ANY);
    assert_int_equal(e->flags & RULES_F_HAS_DATA, RULES_F_HAS_DATA);
    e = rules_lookup(r, "F", 1);
    assert_int_equal(e->item->itemcall.cls, AN_CLASS_HPY);
    assert_int_equal(e->item->fieldarg_arg, 3);
    assert_int_equal(e->item->itemview_arg, -1);
    assert_true(e->flags & RULES_F_ITEMARG);
    e = rules_lookup(r, "G", 1);
    assert_int_equal(e->item->nullowner.cls, AN_CLASS_BRIDGE);
    assert_int_equal(e->item->nullowner_arg, 2);
    assert_string_equal(e->item->null_name, "HPy_NULL");
    assert_true(e->flags & RULES_F_ITEMARG);
    e = rules_lookup(r, "H", 1);                /* a view is no item argument */
    assert_int_equal(e->item->itemview_arg, 1);
    assert_false(e->flags & RULES_F_ITEMARG);
    e = rules_lookup(r, "PyTuple_New", 11);
    assert_ptr_equal(e->item, &rules_item_none);
    assert_int_equal(e->flags & (RULES_F_HAS_CAST | RULES_F_HAS_LOCAL | RULES_F_HAS_DATA |
                                 RULES_F_ITEMARG), 0);
    for (i = 0; i <= RULES_MAXSTARS; i++)
        assert_int_equal(rules_item_none.itemcast[i].cls, RULES_CLS_UNSET);
    assert_int_equal(rules_item_none.fieldarg_arg, -1);
    rules_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rules_syntax_error_names_line),
        cmocka_unit_test(test_rules_errors),
        cmocka_unit_test(test_rules_hash_is_git_blob_id),
        cmocka_unit_test(test_rules_names),
        cmocka_unit_test(test_rules_item_records),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
