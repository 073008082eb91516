/*
 * test_flowpack.c: a call graph packed (pd_flow_pack) and read back
 * (pd_flow_unpack) resolves to the results of the graph packed, takes a
 * file set again like it, and a damaged or foreign block is refused, never
 * read as a graph.  The ingest's use of packed graphs is in test_flowset.c.
 */
#include "testutil.h"
#include "tu_flow.h"

#include <xxhash.h>

#include "pd_buf.h"
#include "pd_error.h"
#include "pd_flow.h"

static const char *const fp_paths[] = {"a.c", "b.c", "c.c", "d.c"};
#define FP_NPATHS (sizeof(fp_paths) / sizeof(fp_paths[0]))

/* Every answer of a and b, and their stored results: the same. */
static void same_graphs(const pd_flow *a, const pd_flow *b)
{
    tu_same_flow(a, b, fp_paths, FP_NPATHS);
    assert_true(tu_same_results(a, b) > 0);
}

/* Helpers that reach items through a parameter, as a callback and through
 * an HPyField owner given HPy_NULL; a file replaced (its old functions
 * dead in the arrays) and a file emptied. */
static const pd_flow_fn fp_a[] = {
    {"release", 5, PD_FLOW_LEGACY, "L0"},
    {"load", 12, PD_FLOW_FIELD, "F1 o0"},
    {"visit", 20, PD_FLOW_LEGACY, "L0"},
    {"each", 30, 0, "c2:puts:-"},       /* defined: its visitors count */
};
static const pd_flow_fn fp_b1[] = {
    {"user", 10, 0, "c3:release:p0"},
    {"walker", 20, 0, "c2:each:p0,ivisit"},
    {"nulls", 30, 0, "c1:load:N,p1"},
};
static const pd_flow_fn fp_b2[] = {
    {"user", 14, 0, "c3:release:p0"},
    {"walker", 24, PD_FLOW_CPYTHON, "c2:each:p0,ivisit"},
    {"caller", 30, 0, "c4:user:p0"},
    {"nulls", 34, 0, "c1:load:N,p1"},
    {"wrap", 40, 0, "c1:walker:p0"},
};
static const pd_flow_fn fp_c[] = {
    {"more", 3, 0, "c1:user:p1 c2:nulls:-,p0"},
};
static const pd_flow_fn fp_d[] = {
    {"gone", 1, PD_FLOW_LEGACY, "L0"},
};

static pd_flow *fp_graph(void)
{
    pd_flow *g = NULL;

    assert_int_equal(pd_flow_new(&g), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("a.c"), "a.c", fp_a, 4), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("b.c"), "b.c", fp_b1, 3), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("d.c"), "d.c", fp_d, 1), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("c.c"), "c.c", fp_c, 1), 0);
    assert_int_equal(pd_flow_resolve(g), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("b.c"), "b.c", fp_b2, 5), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("d.c"), "d.c", NULL, 0), 0);
    return g;
}

/* Packed and unpacked, the graph answers like the one packed; packed
 * again, it gives the same bytes; a file set again on both (the unpacked
 * functions have no facts to be matched by, the packed ones do) keeps
 * them alike. */
static void test_unpacked_graph_answers_like_the_packed(void **state)
{
    pd_flow *g = fp_graph(), *u = NULL;
    pd_buf b, b2;

    (void)state;
    pd_buf_init(&b, 0);
    pd_buf_init(&b2, 0);
    assert_int_equal(pd_flow_pack(g, &b), 0);
    assert_int_equal(pd_flow_unpack(&u, b.data, b.len), 0);
    assert_true(pd_flow_dirty(u));
    assert_int_equal(pd_flow_resolve(g), 0);
    assert_int_equal(pd_flow_resolve(u), 0);
    same_graphs(g, u);
    assert_int_equal(pd_flow_pack(u, &b2), 0);
    assert_int_equal(b.len, b2.len);
    assert_memory_equal(b.data, b2.data, b.len);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("b.c"), "b.c", fp_b1, 3), 0);
    assert_int_equal(pd_flow_set_file(u, pd_flow_path_key("b.c"), "b.c", fp_b1, 3), 0);
    assert_int_equal(pd_flow_set_file(g, pd_flow_path_key("d.c"), "d.c", fp_d, 1), 0);
    assert_int_equal(pd_flow_set_file(u, pd_flow_path_key("d.c"), "d.c", fp_d, 1), 0);
    assert_int_equal(pd_flow_resolve(g), 0);
    assert_int_equal(pd_flow_resolve(u), 0);
    same_graphs(g, u);
    /* the emptied file was left out of the block; set again, it is in */
    {
        pd_flow *u1 = NULL, *u2 = NULL;

        pd_buf_reset(&b2);
        assert_int_equal(pd_flow_pack(u, &b2), 0);
        assert_int_equal(pd_flow_unpack(&u1, b.data, b.len), 0);
        assert_int_equal(pd_flow_unpack(&u2, b2.data, b2.len), 0);
        assert_int_equal(pd_flow_resolve(u1), 0);
        assert_int_equal(pd_flow_resolve(u2), 0);
        assert_false(pd_flow_known(u1, pd_flow_path_key("d.c"), 0));
        assert_true(pd_flow_known(u2, pd_flow_path_key("d.c"), 0));
        same_graphs(g, u2);
        pd_flow_free(u1);
        pd_flow_free(u2);
    }
    pd_buf_free(&b);
    pd_buf_free(&b2);
    pd_flow_free(g);
    pd_flow_free(u);
}

/* Every block cut short, and every block with one byte changed, is
 * refused (PD_EINVAL): the checksum, then the structure. */
static void test_damaged_blocks_are_refused(void **state)
{
    pd_flow *g = fp_graph(), *u = NULL;
    pd_buf b;
    size_t i;

    (void)state;
    pd_buf_init(&b, 0);
    assert_int_equal(pd_flow_pack(g, &b), 0);
    for (i = 0; i < b.len; i++) {
        assert_int_equal(pd_flow_unpack(&u, b.data, i), PD_EINVAL);
        assert_null(u);
    }
    for (i = 0; i < b.len; i++) {
        b.data[i] ^= 0x20;
        assert_int_equal(pd_flow_unpack(&u, b.data, b.len), PD_EINVAL);
        assert_null(u);
        b.data[i] ^= 0x20;
    }
    assert_int_equal(pd_flow_unpack(&u, b.data, b.len), 0);
    pd_flow_free(u);
    pd_buf_free(&b);
    pd_flow_free(g);
}

/* A block with its checksum right whose structure does not hold: bytes
 * made here, each refused without reading past its end. */
static void check_refused(const char *body, size_t len)
{
    unsigned char blk[256];
    uint64_t h;
    pd_flow *u = NULL;
    size_t k;

    assert_true(len + 8 <= sizeof(blk));
    memcpy(blk, body, len);
    h = XXH3_64bits(blk, len);
    for (k = 0; k < 8; k++)
        blk[len + k] = (unsigned char)(h >> (8 * k));
    assert_int_equal(pd_flow_unpack(&u, blk, len + 8), PD_EINVAL);
    assert_null(u);
}

static void test_blocks_that_do_not_hold_are_refused(void **state)
{
    /* counts: names, files, functions, calls, arguments */
    static const char ok[] = "PDG1\x01\x01\x01\x00\x00" "\x01" "f"
                             "\x01\x00\x00\x00\x00\x00\x00\x00" "\x03" "a.c" "\x01"
                             "\x00\x05\x00\x00\x00\x00\x00";
    static const char more_names[] = "PDG1\x7f\x01\x01\x00\x00" "\x01" "f";
    static const char name_twice[] = "PDG1\x02\x00\x00\x00\x00" "\x01" "f" "\x01" "f";
    static const char bad_name[] = "PDG1\x01\x01\x01\x00\x00" "\x01" "f"
                                   "\x01\x00\x00\x00\x00\x00\x00\x00" "\x03" "a.c" "\x01"
                                   "\x01\x05\x00\x00\x00\x00\x00";
    static const char fewer_fns[] = "PDG1\x01\x01\x02\x00\x00" "\x01" "f"
                                    "\x01\x00\x00\x00\x00\x00\x00\x00" "\x03" "a.c" "\x01"
                                    "\x00\x05\x00\x00\x00\x00\x00";
    static const char bad_arg[] = "PDG1\x01\x01\x01\x01\x01" "\x01" "f"
                                  "\x01\x00\x00\x00\x00\x00\x00\x00" "\x03" "a.c" "\x01"
                                  "\x00\x05\x00\x00\x00\x00\x01" "\x00\x01\x01" "x";
    static const char long_number[] = "PDG1\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff";
    pd_flow *u = NULL;
    unsigned char blk[64];
    uint64_t h;
    size_t k, n = sizeof(ok) - 1;

    (void)state;
    memcpy(blk, ok, n);                 /* the well-made one reads */
    h = XXH3_64bits(blk, n);
    for (k = 0; k < 8; k++)
        blk[n + k] = (unsigned char)(h >> (8 * k));
    assert_int_equal(pd_flow_unpack(&u, blk, n + 8), 0);
    assert_int_equal(pd_flow_resolve(u), 0);
    assert_true(pd_flow_known(u, 1, 0));
    pd_flow_free(u);
    check_refused(ok, n - 1);                                    /* cut */
    memcpy(blk, ok, n);
    blk[n] = 0;
    check_refused((const char *)blk, n + 1);                     /* a byte more */
    check_refused("PDG2", 4);                                    /* another format */
    check_refused(more_names, sizeof(more_names) - 1);
    check_refused(name_twice, sizeof(name_twice) - 1);
    check_refused(bad_name, sizeof(bad_name) - 1);
    check_refused(fewer_fns, sizeof(fewer_fns) - 1);
    check_refused(bad_arg, sizeof(bad_arg) - 1);
    check_refused(long_number, sizeof(long_number) - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unpacked_graph_answers_like_the_packed),
        cmocka_unit_test(test_damaged_blocks_are_refused),
        cmocka_unit_test(test_blocks_that_do_not_hold_are_refused),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
