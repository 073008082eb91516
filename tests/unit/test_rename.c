/*
 * test_rename.c: the analysis reads a plain name only for equality.
 *
 * A name that the analysis may not read by its bytes (an_rn_kept,
 * rename_tu.h: no keyword, no name a rule knows, no member, no paste) is
 * renamed in the whole file, one to one, to another name of the same
 * length and shape (each letter a letter of the same case, each digit a
 * digit, '_' kept) that is itself free to rename; the result of
 * an_analyze() on the renamed file, with every new name in its strings
 * turned back, must equal the original's field by field.  Lines and
 * columns stay put because the lengths do.  A second pass renames to
 * names 2 bytes shorter to 2 longer: then the result's columns, turned
 * back, must be the same too (positions are read only for equality and
 * order).
 *
 * Why: a repeat body of a numpy template is analysed once per instance,
 * and most instances differ only in such names (npy_byte / npy_short,
 * BYTE_copy / SHORT_copy); an analysis that reads them only for equality
 * can be done once per set of instances that rename into each other
 * (doc/benchmarks.md, "Where the time goes").  The test is the list of
 * what the analysis reads of a name's bytes besides equality: a new
 * reading makes it fail on the case that shows it.  Templates:
 * test_rename_tmpl.c.
 *
 * Cases: every plain C/C++ source of tests/fixtures/analyze/cases (with
 * its NAME.rules when there is one), and, when PORTDASH_RENAME_LIST names
 * a file of paths (one a line), each plain file of those.
 * PORTDASH_RENAME_OUT=FILE keeps the renamed source of a failing case,
 * PORTDASH_RENAME_ONLY="NAME..." renames only those names.
 */
#include "rename_tu.h"

/* PORTDASH_RENAME_ONLY="a b c": rename only these names (to find which
 * one a failing case reads). */
static int an_rn_only(const lex_token *t)
{
    const char *only = getenv("PORTDASH_RENAME_ONLY"), *p;

    if (!only || !*only)
        return 1;
    for (p = only + strspn(only, " "); *p; ) {
        size_t n = strcspn(p, " ");

        if (n == t->len && !memcmp(p, t->start, n))
            return 1;
        p += n;
        p += strspn(p, " ");
    }
    return 0;
}

static void an_rn_rename(an_rn *x, const lex_token *t, void *arg)
{
    an_rn_job *j = arg;
    char *n;
    size_t nlen;

    if (t->kind != LEX_IDENT || t->spliced || !an_rn_only(t) ||
        pd_map_get(x->spliced, t->start, t->len) ||
        an_rn_kept(x, t->start, t->len) || memchr(t->start, '@', t->len))
        return;
    if (!(n = pd_map_get(x->old2new, t->start, t->len))) {
        if (!(n = an_rn_draw(x, t->start, t->len, j->avoid, j->stretch)))
            return;
        an_rn_own(x, n);
        assert_int_equal(pd_map_put(x->old2new, t->start, t->len, n), 0);
        assert_int_equal(pd_map_put(x->new2old, n, strlen(n),
                                    an_rn_dup(x, t->start, t->len)), 0);
    }
    nlen = strlen(n);
    pd_buf_put(&j->ob, j->src + j->last, (size_t)(t->start - j->src) - j->last);
    pd_buf_put(&j->ob, n, nlen);
    j->last = (size_t)(t->start - j->src) + t->len;
    if (t->line != j->dline) {
        j->dline = t->line;
        j->delta = 0;
    }
    if (x->nocc == x->capocc) {
        x->capocc = x->capocc ? 2 * x->capocc : 256;
        assert_non_null(x->occ = realloc(x->occ, x->capocc * sizeof(*x->occ)));
    }
    x->occ[x->nocc].line = t->line;
    x->occ[x->nocc].col = (uint32_t)((long)t->column + j->delta);
    x->occ[x->nocc].lenb = (uint32_t)nlen;
    x->occ[x->nocc++].lena = (uint32_t)t->len;
    j->delta += (long)nlen - (long)t->len;
}

/* Rename src (as path) and compare the analyses, the new names of the
 * same length (stretch 0) or of another (1: the result's columns turned
 * back); returns how many names were renamed. */
static size_t check_one(const rules *r, const char *path, const char *src, size_t len,
                        int stretch)
{
    an_rn x;
    an_rn_job j;
    an_result *a = NULL, *b = NULL;
    pd_buf da, db;
    size_t n;
    char why[2048];

    an_rn_init(&x, r);
    assert_int_equal(an_analyze(&a, r, path, src, len), 0);
    pd_buf_init(&da, 0);
    an_rn_dump(NULL, &da, a);
    memset(&j, 0, sizeof(j));
    assert_non_null(j.avoid = pd_map_new(0));
    an_rn_words_of(j.avoid, da.data);
    j.src = src;
    j.stretch = stretch;
    pd_buf_init(&j.ob, 0);
    an_rn_survey(&x, src, len, a->cpp);
    an_rn_each(src, len, a->cpp, an_rn_rename, &x, &j);
    pd_buf_put(&j.ob, src + j.last, len - j.last);
    assert_int_equal(j.ob.err, 0);
    assert_int_equal(an_analyze(&b, r, path, j.ob.data, j.ob.len), 0);
    pd_buf_init(&db, 0);
    an_rn_dump(&x, &db, b);
    assert_int_equal(da.err, 0);
    assert_int_equal(db.err, 0);
    if (strcmp(da.data, db.data)) {
        an_rn_keep(j.ob.data, j.ob.len);
        an_rn_first_diff(da.data, db.data, why, sizeof(why));
        fail_msg("%s: renaming plain names%s changes the analysis:%s", path,
                 stretch ? " to other lengths" : "", why);
    }
    n = pd_map_count(x.old2new);
    an_rn_free(&x);
    pd_map_free(j.avoid);
    pd_buf_free(&j.ob);
    pd_buf_free(&da);
    pd_buf_free(&db);
    an_result_free(a);
    an_result_free(b);
    return n;
}

/* Both renamings of src; returns how many names the first renamed. */
static size_t check(const rules *r, const char *path, const char *src, size_t len)
{
    size_t n = check_one(r, path, src, len, 0);

    check_one(r, path, src, len, 1);
    return n;
}

static void run_case(void **state)
{
    an_rn_case(state, check, 0);
}

/* The test renames something and would see a name read by its bytes: a
 * local renamed everywhere keeps its item finding; a rule's name kept. */
static void test_renames(void **state)
{
    static const char src[] =
        "#include <Python.h>\n"
        "static void OBJECT_copy(PyArrayObject *arr, npy_intp count)\n"
        "{\n"
        "    PyObject **items = (PyObject **)PyArray_DATA(arr);\n"
        "    Py_XDECREF(items[count - 1]);\n"
        "}\n";
    rules *r = NULL;

    (void)state;
    assert_int_equal(rules_load_default(&r), 0);
    assert_true(check(r, "copy.c", src, sizeof(src) - 1) >= 3);  /* arr, count, items */
    rules_free(r);
}
/* Every plain file of the list in PORTDASH_RENAME_LIST. */
static void test_list(void **state)
{
    (void)state;
    an_rn_list(check, 0);
}

int main(void)
{
    const struct CMUnitTest fixed[] = {
        cmocka_unit_test(test_renames),
        cmocka_unit_test(test_list),
    };

    return tc_run_cases("rename", CASES, ".expect", run_case, fixed,
                        sizeof(fixed) / sizeof(*fixed));
}
