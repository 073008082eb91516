/*
 * test_tmpl_lines.c: the line tables of a template expansion (tmpl.h,
 * tmpl_out.src_lines, which tmpl_lines finds 16 bytes at a time, and
 * exp_lines, which tmpl.c writes from them while emitting) equal a
 * byte-by-byte scan: every newline gives the offset after
 * it (a last one too), and the first line starts at 0.  Lines of every
 * length around the 16-byte blocks, newlines in runs, at the end or not,
 * and pseudo-random templates.  The expansion's text is checked too, as
 * tmpl.c copies segments of up to 32 bytes by overlapping moves: every
 * copied segment equals its template bytes, every substituted one a value.
 * tmpl.c allocates the segments at once at the number its pieces give
 * (and asserts the expansion stays within it): empty values, which make
 * no segment, and nested loops are checked against that too.  The
 * expansion's line table is made from the template's while emitting
 * (tm_lines_put), so the templates numpy's script refuses are checked
 * as well: a loop without its end, a name without a value, a header
 * without names, loops nested past the limit, text around the loops.
 */
#include "testutil.h"

#include "analyzer/analyzer.h"

/* Assert lines[0..n) are the line starts of s[0..len). */
static void same_lines(const char *what, const uint32_t *lines, size_t n,
                       const char *s, size_t len)
{
    size_t i, k = 1;

    assert_true(n >= 1);
    assert_int_equal(lines[0], 0);
    for (i = 0; i < len; i++)
        if (s[i] == '\n') {
            if (k >= n || lines[k] != i + 1)
                fail_msg("%s: line %zu should start at %zu (have %zu lines)", what, k + 1,
                         i + 1, n);
            k++;
        }
    if (k != n)
        fail_msg("%s: %zu line starts, the scan finds %zu", what, n, k);
}

/* 1 when s[0..n) is one of the values (or the newline a loop adds). */
static int is_value(const char *s, size_t n, const char *const *values)
{
    if (n == 1 && *s == '\n')
        return 1;
    for (; *values; values++)
        if (strlen(*values) == n && memcmp(*values, s, n) == 0)
            return 1;
    return 0;
}

static void check(const char *src, size_t len, const char *const *values)
{
    tmpl_out *t = NULL;
    size_t i, covered = 0;

    assert_int_equal(tmpl_expand(&t, NULL, src, len), 0);
    assert_non_null(t);
    for (i = 0; i < t->nsegs; i++) {
        const tmpl_seg *g = &t->segs[i];

        assert_int_equal(g->exp_off, covered);
        covered += g->len;
        if (!g->subst ? memcmp(t->text + g->exp_off, src + g->src_off, g->len) != 0
                      : !is_value(t->text + g->exp_off, g->len, values))
            fail_msg("segment %zu (%u bytes at %u, %s) is not what it copies", i,
                     (unsigned)g->len, (unsigned)g->exp_off, g->subst ? "value" : "copy");
    }
    assert_int_equal(covered, t->len);
    same_lines("expansion", t->exp_lines, t->nexp_lines, t->text, t->len);
    same_lines("template", t->src_lines, t->nsrc_lines, src, len);
    tmpl_free(t);
}

/* A repeat block whose body has lines of `w` bytes; trailing newline or
 * not, runs of empty lines. */
static void test_widths(void **state)
{
    static const char *const values[] = {"a", "bb", "abcdefghij", "abcdefghijklmnopqrstu",
                                         "abcdefghijklmnopqrstuvwxyz0123456789", NULL};
    char src[4096];
    size_t w, n, j;

    for (w = 0; w < 40; w++) {
        n = (size_t)snprintf(src, sizeof(src), "/**begin repeat\n * #t = a, bb, abcdefghij, "
                             "abcdefghijklmnopqrstu, abcdefghijklmnopqrstuvwxyz0123456789#\n */\n");
        for (j = 0; j < 5; j++) {
            memset(src + n, 'x', w);
            n += w;
            memcpy(src + n, "@t@\n", 4);
            n += 4;
            if (j == 2)
                src[n++] = '\n';
        }
        n += (size_t)snprintf(src + n, sizeof(src) - n, "/**end repeat**/");
        check(src, n, values);
        src[n++] = '\n';
        check(src, n, values);
        src[n++] = '\n';
        check(src, n, values);
    }
}

/* What numpy's script refuses, which the expander keeps as written or
 * counts: the line table is still the expansion's (test_widths' check,
 * values unchecked: none of these substitute one but a, b, c). */
static void test_refused_templates(void **state)
{
    static const char *const values[] = {"a", "b", "c", "x y", NULL};
    static const char *const srcs[] = {
        /* no end */
        "head\n/**begin repeat\n * #t = a, b#\n */\n@t@\nline\n\n",
        /* a name without a value, and one over a newline */
        "/**begin repeat\n * #t = a, b#\n */\n@u@ @t@\n@v\n@\n/**end repeat**/\ntail\n",
        /* a header without names: one literal instance */
        "/**begin repeat\n * nothing here\n */\n@t@\nx\n/**end repeat**/\n",
        /* a header over lines, a multi-word value */
        "/**begin repeat\n *\n * #t = a,\n *      x y#\n */\n\n@t@\n\n/**end repeat**/",
        /* text after the end marker on its line is dropped */
        "/**begin repeat\n * #t = a, b, c#\n */\n1\n2\n/**end repeat**/ gone\nafter\n",
        NULL};
    char src[8192];
    size_t n, d;
    int i;

    (void)state;
    for (i = 0; srcs[i]; i++)
        check(srcs[i], strlen(srcs[i]), values);
    /* nested 10 deep: levels past 8 are substituted, not expanded */
    n = 0;
    for (d = 0; d < 10; d++)
        n += d ? (size_t)snprintf(src + n, sizeof(src) - n,
                                  "/**begin repeat%zu\n * #t%zu = a, b#\n */\n@t%zu@\n", d, d, d)
               : (size_t)snprintf(src + n, sizeof(src) - n,
                                  "/**begin repeat\n * #t0 = a, b#\n */\n@t0@\n");
    for (d = 10; d-- > 0;)
        n += d ? (size_t)snprintf(src + n, sizeof(src) - n, "\n/**end repeat%zu**/\n", d)
               : (size_t)snprintf(src + n, sizeof(src) - n, "\n/**end repeat**/\n");
    check(src, n, values);
}

/* Pseudo-random bodies of letters, values and newlines. */
static void test_random(void **state)
{
    static const char *const values[] = {"int", "long", "double", NULL};
    static const char alpha[] = "ab\n\n;{}@t@ ";
    char src[8192];
    unsigned x = 12345;
    int round;

    for (round = 0; round < 300; round++) {
        size_t n = (size_t)snprintf(src, sizeof(src),
                                    "/**begin repeat\n * #t = int, long, double#\n */\n");
        size_t body = 1 + round * 7 % 3000, j;

        for (j = 0; j < body; j++) {
            x = x * 1103515245u + 12345u;
            src[n++] = alpha[(x >> 16) % (sizeof(alpha) - 1)];
        }
        n += (size_t)snprintf(src + n, sizeof(src) - n, "\n/**end repeat**/\n");
        check(src, n, values);
    }
}

/* Empty values (no segment, no byte) among others, an inner loop over
 * the outer's names, a body of placeholders only, and 500 empty values:
 * the expansion and its segments as numpy's script gives them. */
static void test_empty_values_and_nesting(void **state)
{
    static const char *const values[] = {"", "x", "int", "long", NULL};
    static const char nested[] =
        "/**begin repeat\n * #a = , x, int#\n */\n"
        "@a@@a@;\n"
        "/**begin repeat1\n * #b = long, , x#\n */\n"
        "@a@ @b@@b@\n"
        "/**end repeat1**/\n"
        "/**end repeat**/\n";
    char src[8192];
    size_t n, j;
    tmpl_out *t = NULL;

    (void)state;
    check(nested, sizeof(nested) - 1, values);
    assert_int_equal(tmpl_expand(&t, NULL, nested, sizeof(nested) - 1), 0);
    assert_non_null(t);
    assert_int_equal(t->instances, 3 + 3 * 3);
    /* each instance ends with its own newline, as numpy's script writes */
    assert_int_equal(t->len, 3 * 22 + 5 * strlen("x") + 5 * strlen("int"));
    assert_memory_equal(t->text, ";\n longlong\n\n \n\n xx\n\n\n", 22);
    tmpl_free(t);
    n = (size_t)snprintf(src, sizeof(src), "/**begin repeat\n * #a = ");
    for (j = 0; j < 499; j++)
        src[n++] = ',';
    n += (size_t)snprintf(src + n, sizeof(src) - n, "#\n */\n");
    for (j = 0; j < 1000; j++)
        n += (size_t)snprintf(src + n, sizeof(src) - n, "@a@");
    n += (size_t)snprintf(src + n, sizeof(src) - n, "\n/**end repeat**/\n");
    check(src, n, values);
    assert_int_equal(tmpl_expand(&t, NULL, src, n), 0);
    assert_non_null(t);
    assert_int_equal(t->instances, 500);
    assert_int_equal(t->len, 2 * 500);  /* the body's newline and the instance's */
    tmpl_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_refused_templates),
        cmocka_unit_test(test_empty_values_and_nesting),
    };

    return cmocka_run_group_tests_name("template line tables", tests, NULL, NULL);
}
