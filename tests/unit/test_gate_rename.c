/*
 * test_gate_rename.c: the gate follows a function renamed in place
 * (issue 23.9): array_dealloc becoming array_finalize_impl, followed by a
 * new array_traverse_impl, is the same object-legacy path, not a new one;
 * and every condition carries the figure it tests ("found"), not only the
 * totals of its measure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gate.h"

/* One side from "name:status:objstate:capi" strings. */
static void side(gate_fnlist *l, const char *const *fns, size_t n)
{
    size_t i;

    memset(l, 0, sizeof(*l));
    for (i = 0; i < n; i++) {
        char name[64], st[16], ob[24];
        long long capi;

        assert_int_equal(sscanf(fns[i], "%63[^:]:%15[^:]:%23[^:]:%lld", name, st, ob, &capi), 4);
        assert_int_equal(gate_fnlist_push(l, name, st, strcmp(ob, "-") ? ob : NULL,
                                          (int64_t)i * 10 + 1, capi), 0);
    }
}

typedef struct {
    char pairs[16][80];
    size_t n;
} seen;

static void record(void *arg, const gate_fn *a, const gate_fn *b)
{
    seen *s = arg;

    snprintf(s->pairs[s->n++], sizeof(s->pairs[0]), "%s>%s", a ? a->name : "", b ? b->name : "");
}

static const char *const BASE[] = {
    "WARN_IN_DEALLOC:neutral:-:0", "array_dealloc:legacy:object-legacy:4",
    "PyArray_DebugPrint:legacy:-:3",
};
static const char *const HEAD[] = {
    "WARN_IN_DEALLOC:neutral:-:0", "array_finalize_impl:bridged:object-legacy:3",
    "array_traverse_impl:ported:-:0", "PyArray_DebugPrint:legacy:-:3",
};

static void test_a_rename_in_place_is_paired_with_the_first_new_name(void **state)
{
    gate_fnlist a, b;
    seen s = {0};

    (void)state;
    side(&a, BASE, 3);
    side(&b, HEAD, 4);
    gate_match_renames(&a, &b, record, &s);
    assert_int_equal(s.n, 4);
    assert_string_equal(s.pairs[1], "array_dealloc>array_finalize_impl");
    assert_string_equal(s.pairs[2], ">array_traverse_impl");
    /* names alone: the old name removed, the new one new */
    s.n = 0;
    gate_match(&a, &b, record, &s);
    assert_int_equal(s.n, 5);
    assert_string_equal(s.pairs[1], ">array_finalize_impl");
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
}

static void test_no_pairing_across_moved_neighbours_or_two_lost_names(void **state)
{
    static const char *const base2[] = { "f:legacy:-:1", "old1:legacy:-:1", "old2:legacy:-:1",
                                         "g:legacy:-:1" };
    static const char *const head2[] = { "f:legacy:-:1", "new1:legacy:-:1", "g:legacy:-:1" };
    static const char *const base3[] = { "f:legacy:-:1", "old:legacy:-:1", "g:legacy:-:1" };
    static const char *const head3[] = { "g:legacy:-:1", "new:legacy:-:1", "f:legacy:-:1" };
    gate_fnlist a, b;
    seen s = {0};
    size_t i;

    (void)state;
    side(&a, base2, 4);         /* two names gone, one new: which one? none */
    side(&b, head2, 3);
    gate_match_renames(&a, &b, record, &s);
    for (i = 0; i < s.n; i++)
        assert_null(strstr(s.pairs[i], "old1>new1"));
    assert_string_equal(s.pairs[1], ">new1");
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
    s.n = 0;
    side(&a, base3, 3);         /* f and g swapped: the gap is not the same */
    side(&b, head3, 3);
    gate_match_renames(&a, &b, record, &s);
    assert_string_equal(s.pairs[1], ">new");
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
}

static void test_the_gate_counts_what_each_rule_tests(void **state)
{
    gate_policy pol;
    gate_fnlist a, b;
    pd_counts cb = {0}, ch = {0};
    json_t *res, *conds, *regs;
    gate *g;
    size_t i;

    (void)state;
    side(&a, BASE, 3);
    side(&b, HEAD, 4);
    gate_policy_default(&pol);
    g = gate_new(&pol);
    assert_int_equal(gate_add_file(g, "arrayobject.c", &a, &b, 0, 0), 0);
    cb.tok[PD_CLASS_CAPI] = 7000;       /* totals: context, not the test */
    ch.tok[PD_CLASS_CAPI] = 7200;
    res = gate_result(g, "b", "h", &cb, &ch);
    assert_string_equal(json_string_value(json_object_get(res, "result")), "pass");
    regs = json_object_get(res, "regressions");
    assert_int_equal(json_array_size(regs), 0);
    conds = json_object_get(res, "conditions");
    assert_int_equal(json_array_size(conds), 4);
    for (i = 0; i < 4; i++) {
        json_t *c = json_array_get(conds, i);

        assert_int_equal(json_integer_value(json_object_get(c, "found")), 0);
        assert_non_null(json_string_value(json_object_get(c, "tested")));
    }
    assert_int_equal(json_integer_value(json_object_get(json_array_get(conds, 3), "head")), 7200);
    json_decref(res);
    gate_free(g);
    gate_fnlist_free(&a);
    gate_fnlist_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_rename_in_place_is_paired_with_the_first_new_name),
        cmocka_unit_test(test_no_pairing_across_moved_neighbours_or_two_lost_names),
        cmocka_unit_test(test_the_gate_counts_what_each_rule_tests),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
