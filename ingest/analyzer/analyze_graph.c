/*
 * analyze_graph.c: the call-graph step over the results of several files
 * analysed together (`portdash analyze`, the gate, the ingest's writer):
 * each function's flow facts (analyze_flow.c) handed to the repository's
 * graph (common/pd_flow.h), and the object state it resolves put back on
 * the functions with the chain that gave it.
 */
#include <stdlib.h>
#include <string.h>

#include "analyze.h"
#include "pd_error.h"
#include "pd_flow.h"

int an_flow_fns(const an_result *res, pd_flow_fn **out)
{
    pd_flow_fn *v;
    size_t i;

    *out = NULL;
    if (!res->nfunctions)
        return 0;
    if (!(v = calloc(res->nfunctions, sizeof(*v))))
        return pd_error_nomem(NULL);
    for (i = 0; i < res->nfunctions; i++) {
        const an_function *f = &res->functions[i];

        v[i].name = f->name;
        v[i].line = f->start_line;
        v[i].flow = f->flow;
        v[i].local = (f->object_state == AN_OBJ_LEGACY ? PD_FLOW_LEGACY : 0) |
                     (f->object_state == AN_OBJ_CPYTHON_ONLY ||
                      f->object_state == AN_OBJ_UNIVERSAL ? PD_FLOW_FIELD : 0) |
                     (f->cpython ? PD_FLOW_CPYTHON : 0) |
                     (f->mentions ? PD_FLOW_MARKER : 0);
    }
    *out = v;
    return 0;
}

int an_flow_apply(an_result **res, const char *const *paths, size_t n)
{
    pd_flow *g = NULL;
    pd_flow_fn *v = NULL;
    char chain[2048];
    size_t i, j;
    int rc = pd_flow_new(&g);

    for (i = 0; rc == 0 && i < n; i++) {
        if ((rc = an_flow_fns(res[i], &v)) == 0)
            rc = pd_flow_set_file(g, (int64_t)i, paths[i], v, res[i]->nfunctions);
        free(v);
    }
    if (rc == 0)
        rc = pd_flow_resolve(g);
    for (i = 0; rc == 0 && i < n; i++)
        for (j = 0; j < res[i]->nfunctions; j++) {
            an_function *f = &res[i]->functions[j];

            f->object_state = pd_flow_state(g, (int64_t)i, j);
            free(f->object_chain);
            f->object_chain = NULL;
            if (pd_flow_chain_json(g, (int64_t)i, j, chain, sizeof(chain)) &&
                !(f->object_chain = strdup(chain)))
                rc = pd_error_nomem(NULL);
        }
    pd_flow_free(g);
    return rc;
}
