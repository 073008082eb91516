/*
 * tu_flow.h: two call graphs (pd_flow.h) that must answer alike, compared
 * the way every reader asks them: each file's delta, each function's
 * knowledge, states and chain, and the whole graph's delta.
 */
#ifndef TU_FLOW_H
#define TU_FLOW_H

#include "testutil.h"

#include "pd_buf.h"
#include "pd_flow.h"

/* Every answer of a and b about the first eight functions of each of the
 * files paths[0..n): the same. */
static inline void tu_same_flow(const pd_flow *a, const pd_flow *b, const char *const *paths,
                                size_t n)
{
    int64_t d1[PD_OBJ_COUNT], d2[PD_OBJ_COUNT];
    size_t k, i;

    for (k = 0; k < n; k++) {
        int64_t key = pd_flow_path_key(paths[k]);

        pd_flow_file_delta(a, key, d1);
        pd_flow_file_delta(b, key, d2);
        assert_memory_equal(d1, d2, sizeof(d1));
        for (i = 0; i < 8; i++) {
            char c1[1024], c2[1024];
            size_t n1, n2;

            assert_int_equal(pd_flow_known(a, key, i), pd_flow_known(b, key, i));
            assert_int_equal(pd_flow_state(a, key, i), pd_flow_state(b, key, i));
            assert_int_equal(pd_flow_local_state(a, key, i), pd_flow_local_state(b, key, i));
            n1 = pd_flow_chain_json(a, key, i, c1, sizeof(c1));
            n2 = pd_flow_chain_json(b, key, i, c2, sizeof(c2));
            assert_int_equal(n1, n2);
            if (n1)
                assert_string_equal(c1, c2);
        }
    }
    pd_flow_delta(a, d1);
    pd_flow_delta(b, d2);
    assert_memory_equal(d1, d2, sizeof(d1));
}

/* a's and b's stored results (pd_flow_results_encode, both resolved):
 * the same bytes.  Their length. */
static inline size_t tu_same_results(const pd_flow *a, const pd_flow *b)
{
    pd_buf ra, rb;
    size_t n;

    pd_buf_init(&ra, 0);
    pd_buf_init(&rb, 0);
    assert_int_equal(pd_flow_results_encode(a, &ra), 0);
    assert_int_equal(pd_flow_results_encode(b, &rb), 0);
    assert_int_equal(ra.len, rb.len);
    assert_memory_equal(ra.data ? ra.data : "", rb.data ? rb.data : "", ra.len);
    n = ra.len;
    pd_buf_free(&ra);
    pd_buf_free(&rb);
    return n;
}

#endif
