/*
 * report_since.c: which findings are new since an earlier revision
 * (report.h, report_new_since), for `analyze --sarif-since REV`: a pull
 * request's SARIF then holds only what it adds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "pd_hash.h"
#include "report_since.h"

/* FNV-1a 64 over s and its NUL, continuing from h. */
static uint64_t rs_fnv(uint64_t h, const char *s)
{
    return pd_fnv1a64(h, s, strlen(s) + 1);
}

/* key[k]: the hash of finding k's path, rule, function, text and its
 * occurrence among the earlier findings with those four.  0 or PD_ENOMEM. */
static int rs_keys(const report_file *rf, uint64_t *key)
{
    const an_result *res = rf->res;
    uint64_t *base = malloc((res->nfindings + 1) * sizeof(*base));
    size_t k, j, occ;

    if (!base)
        return pd_error_nomem(NULL);
    for (k = 0; k < res->nfindings; k++) {
        const an_finding *f = &res->findings[k];
        const char *fn = f->function >= 0 ? res->functions[f->function].name : "";
        uint64_t h = rs_fnv(PD_FNV64_BASIS, rf->path);

        h = rs_fnv(rs_fnv(rs_fnv(h, f->rule), fn), f->text);
        base[k] = h;
        for (j = 0, occ = 0; j < k; j++)
            occ += base[j] == h;
        key[k] = h ^ (occ * 0x9e3779b97f4a7c15ULL + 1);
    }
    free(base);
    return 0;
}

static int rs_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

int report_new_since(report_file *head, size_t nh, const report_file *base, size_t nb,
                     size_t *nnew)
{
    uint64_t *old = NULL, *key;
    size_t n = 0, i, k, total = 0;
    int rc = 0;

    *nnew = 0;
    for (i = 0; i < nb; i++)
        total += base[i].res->nfindings;
    if (!(old = malloc((total + 1) * sizeof(*old))))
        return pd_error_nomem(NULL);
    for (i = 0; i < nb && !rc; i++) {
        rc = rs_keys(&base[i], old + n);
        n += base[i].res->nfindings;
    }
    qsort(old, n, sizeof(*old), rs_cmp);
    for (i = 0; i < nh && !rc; i++) {
        size_t nf = head[i].res->nfindings;
        unsigned char *keep = calloc(nf + 1, 1);

        if (!keep || !(key = malloc((nf + 1) * sizeof(*key)))) {
            free(keep);
            rc = pd_error_nomem(NULL);
            break;
        }
        if ((rc = rs_keys(&head[i], key)) == 0)
            for (k = 0; k < nf; k++) {
                keep[k] = !bsearch(&key[k], old, n, sizeof(*old), rs_cmp);
                *nnew += keep[k];
            }
        free(key);
        head[i].keep = keep;
    }
    free(old);
    return rc;
}
