/*
 * gate_fn.c: function lists, ranks and matching shared by the gate, the
 * commit view and compare (see gate.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate.h"
#include "pd_error.h"

int gate_fnlist_push(gate_fnlist *l, const char *name, const char *status,
                     const char *objstate, int64_t start_line, int64_t capi)
{
    gate_fn *f;

    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 64;
        gate_fn *v = realloc(l->v, cap * sizeof(*v));

        if (!v)
            return pd_error_nomem(NULL);
        l->v = v;
        l->cap = cap;
    }
    f = &l->v[l->n];
    memset(f, 0, sizeof(*f));
    if (!(f->name = strdup(name)))
        return pd_error_nomem(NULL);
    snprintf(f->status, sizeof(f->status), "%s", status);
    snprintf(f->objstate, sizeof(f->objstate), "%s", objstate ? objstate : "");
    f->start_line = start_line;
    f->capi = capi;
    l->n++;
    return 0;
}

void gate_fnlist_free(gate_fnlist *l)
{
    size_t i;

    if (!l)
        return;
    for (i = 0; i < l->n; i++)
        free(l->v[i].name);
    free(l->v);
    memset(l, 0, sizeof(*l));
}

int gate_status_rank(const char *s)
{
    int st = pd_status_parse(s);

    return st == PD_STATUS_LEGACY ? 0 : st == PD_STATUS_BRIDGED ? 1 : 2;
}

int gate_obj_rank(const char *s)
{
    int o = pd_objstate_parse(s);

    return o == PD_OBJ_LEGACY ? 0 : o == PD_OBJ_CPYTHON_ONLY ? 1 : 2;
}

void gate_match(gate_fnlist *a, gate_fnlist *b,
                void (*fn)(void *arg, const gate_fn *a, const gate_fn *b), void *arg)
{
    size_t i, j;

    for (i = 0; i < a->n; i++)
        a->v[i].matched = 0;
    for (j = 0; j < b->n; j++) {
        gate_fn *match = NULL;

        for (i = 0; i < a->n && !match; i++)
            if (!a->v[i].matched && strcmp(a->v[i].name, b->v[j].name) == 0)
                match = &a->v[i];
        if (match)
            match->matched = 1;
        fn(arg, match, &b->v[j]);
    }
    for (i = 0; i < a->n; i++)
        if (!a->v[i].matched)
            fn(arg, &a->v[i], NULL);
}
