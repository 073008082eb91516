/*
 * gate_policy.c: the gate's policy and the summary measures it can bound
 * (see gate.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "pd_error.h"

static const struct {
    const char *word;
    unsigned bit;
} gate_ratchets[] = {
    {"status", GATE_STATUS},
    {"object-legacy", GATE_OBJECT_LEGACY},
    {"universal-ready", GATE_UNIVERSAL},
    {"new-capi", GATE_NEW_CAPI},
    {"fixable", GATE_FIXABLE},
};

void gate_policy_default(gate_policy *p)
{
    memset(p, 0, sizeof(*p));
    p->ratchets = GATE_STATUS | GATE_OBJECT_LEGACY | GATE_UNIVERSAL | GATE_NEW_CAPI;
}

int64_t gate_measure(const pd_counts *c, const char *m)
{
    int i = pd_measure_find(m);

    return i < 0 ? -1 : pd_measure_value(c, i);
}

/* One directive line split into words (at most 4). */
static int gate_policy_line(gate_policy *p, const char *name, int ln, char **w, int n)
{
    pd_counts probe;
    size_t i;
    char *end;

    memset(&probe, 0, sizeof(probe));
    if (n == 2 && strcmp(w[0], "ratchet") == 0) {
        for (i = 0; i < sizeof(gate_ratchets) / sizeof(gate_ratchets[0]); i++) {
            if (strcmp(w[1], gate_ratchets[i].word) == 0) {
                p->ratchets |= gate_ratchets[i].bit;
                return 0;
            }
        }
        return pd_error_set(PD_EINVAL, "%s:%d: unknown ratchet '%s' (status, "
                            "object-legacy, universal-ready, new-capi, fixable)", name, ln, w[1]);
    }
    if (n == 3 && (strcmp(w[0], "max") == 0 || strcmp(w[0], "min") == 0)) {
        long long v = strtoll(w[2], &end, 10);

        if (gate_measure(&probe, w[1]) < 0)
            return pd_error_set(PD_EINVAL, "%s:%d: unknown measure '%s'", name, ln, w[1]);
        if (*end || end == w[2])
            return pd_error_set(PD_EINVAL, "%s:%d: '%s' is not a number", name, ln, w[2]);
        if (p->nbounds == GATE_MAX_BOUNDS)
            return pd_error_set(PD_EINVAL, "%s:%d: more than %d bounds", name, ln,
                                GATE_MAX_BOUNDS);
        snprintf(p->bounds[p->nbounds].measure, sizeof(p->bounds[0].measure), "%s", w[1]);
        p->bounds[p->nbounds].is_max = w[0][1] == 'a';
        p->bounds[p->nbounds++].limit = v;
        return 0;
    }
    return pd_error_set(PD_EINVAL, "%s:%d: expected 'ratchet NAME', 'max MEASURE N' "
                        "or 'min MEASURE N'", name, ln);
}

int gate_policy_parse(gate_policy *p, const char *name, const char *text)
{
    char line[512], *w[4], *save, *tok, *hash;
    const char *s = text;
    int ln = 0, n, rc;

    memset(p, 0, sizeof(*p));
    while (*s) {
        size_t len = strcspn(s, "\n");

        ln++;
        snprintf(line, sizeof(line), "%.*s", (int)len, s);
        s += len + (s[len] == '\n');
        if ((hash = strchr(line, '#')))
            *hash = '\0';
        n = 0;
        for (tok = strtok_r(line, " \t\r", &save); tok && n < 4;
             tok = strtok_r(NULL, " \t\r", &save))
            w[n++] = tok;
        if (n && (rc = gate_policy_line(p, name, ln, w, n)) < 0)
            return rc;
    }
    /* A file replaces the default ratchets: one with no directive (empty,
     * only comments, the wrong file) would pass every change, so a broken
     * setup would read as a port that never gets worse. */
    if (!p->ratchets && !p->nbounds)
        return pd_error_set(PD_EINVAL, "%s: no condition: a policy needs at least one "
                            "'ratchet NAME', 'max MEASURE N' or 'min MEASURE N' line "
                            "(an empty policy would pass every change)", name);
    return 0;
}
