/*
 * report_fail.c: what a run forbids, --fail-on (report_fail.h): the words,
 * and which findings and functions they forbid.
 */
#include <stdio.h>
#include <string.h>

#include "pd_error.h"
#include "report_fail.h"

int report_fail_parse(report_fail *f, const char *words)
{
    const char *p = words;

    while (*p) {
        size_t n = strcspn(p, ","), i;
        int hit = 0;

        for (i = 0; i < AN_CLASS_COUNT && !hit; i++)
            if (strlen(an_class_name((an_class)i)) == n &&
                memcmp(an_class_name((an_class)i), p, n) == 0)
                f->classes |= 1u << i, hit = 1;
        for (i = 0; i < AN_OBJ_COUNT && !hit; i++)
            if (strlen(an_objstate_name((an_objstate)i)) == n &&
                memcmp(an_objstate_name((an_objstate)i), p, n) == 0)
                f->objstates |= 1u << i, hit = 1;
        if (!hit && n)
            return pd_error_set(PD_EINVAL, "unknown --fail-on class '%.*s' "
                                "(hpy, capi, npy-legacy, bridge, object-legacy, "
                                "object-cpython-only, object-universal)",
                                (int)n, p);
        p += n + (p[n] == ',');
    }
    return 0;
}

int report_fail_finding(const report_fail *f, const an_finding *x)
{
    return f && !x->guarded && (f->classes >> x->cls & 1u);
}

void report_fail_count(const report_fail *f, const report_file *files, size_t n,
                       size_t *findings, size_t *functions)
{
    size_t i, k;

    *findings = *functions = 0;
    for (i = 0; f && i < n; i++) {
        const an_result *res = files[i].res;

        for (k = 0; k < res->nfindings; k++)
            *findings += (size_t)report_fail_finding(f, &res->findings[k]);
        for (k = 0; k < res->nfunctions; k++) {
            an_objstate s = res->functions[k].object_state;

            *functions += s != AN_OBJ_NONE && (f->objstates >> s & 1u);
        }
    }
}
