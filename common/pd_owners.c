/*
 * pd_owners.c: porters and recent changers of functions (see pd_owners.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pd_error.h"
#include "pd_hash.h"
#include "pd_map.h"
#include "pd_owners.h"

/* One function followed through the versions. */
typedef struct {
    pd_own_person *porters;
    size_t nporters;
    pd_own_person *changes;    /* every change, oldest first */
    size_t nchanges;
} ow_track;

uint64_t pd_owners_print(const int64_t *tok, size_t ntok, const char *status, int64_t lines)
{
    uint64_t h = pd_fnv1a64(PD_FNV64_BASIS, tok, ntok * sizeof(*tok));

    h = pd_fnv1a64(h, status ? status : "", status ? strlen(status) : 0);
    return pd_fnv1a64(h, &lines, sizeof(lines));
}

const char *pd_owners_handle(const char *email, char *buf, size_t cap)
{
    static const char dom[] = "@users.noreply.github.com";
    const char *at, *plus, *start;
    size_t len, i;

    if (!email || !(at = strchr(email, '@')) || strcasecmp(at, dom) != 0)
        return NULL;
    plus = memchr(email, '+', (size_t)(at - email));
    start = plus ? plus + 1 : email;
    len = (size_t)(at - start);
    if (!len || len + 2 > cap)
        return NULL;
    for (i = 0; i < len; i++)      /* GitHub logins: letters, digits, '-' */
        if (!((start[i] >= 'a' && start[i] <= 'z') || (start[i] >= 'A' && start[i] <= 'Z') ||
              (start[i] >= '0' && start[i] <= '9') || start[i] == '-'))
            return NULL;
    buf[0] = '@';
    memcpy(buf + 1, start, len);
    buf[len + 1] = '\0';
    return buf;
}

/* The same person: same e-mail when both have one, else same name. */
static int ow_same(const pd_own_person *a, const pd_own_ver *v)
{
    if (a->email && a->email[0] && v->email && v->email[0])
        return strcasecmp(a->email, v->email) == 0;
    return strcmp(a->who, v->who) == 0;
}

static int ow_push(pd_own_person **arr, size_t *n, const pd_own_ver *v)
{
    pd_own_person *p = realloc(*arr, (*n + 1) * sizeof(*p));

    if (!p)
        return pd_error_nomem(NULL);
    *arr = p;
    p[*n].who = v->who;
    p[*n].email = v->email;
    p[*n].oid = v->oid;
    p[*n].time = v->time;
    p[*n].commits = 1;
    (*n)++;
    return 0;
}

/* A porting commit of track t by v's author. */
static int ow_ported(ow_track *t, const pd_own_ver *v)
{
    size_t i;

    for (i = 0; i < t->nporters; i++)
        if (ow_same(&t->porters[i], v)) {
            t->porters[i].commits++;
            if (v->time >= t->porters[i].time) {
                t->porters[i].time = v->time;
                t->porters[i].oid = v->oid;
            }
            return 0;
        }
    return ow_push(&t->porters, &t->nporters, v);
}

/* Most commits first, then the newest, then by name. */
static int ow_porter_cmp(const void *x, const void *y)
{
    const pd_own_person *a = x, *b = y;

    if (a->commits != b->commits)
        return a->commits > b->commits ? -1 : 1;
    if (a->time != b->time)
        return a->time > b->time ? -1 : 1;
    return strcmp(a->who, b->who);
}

/* The track's results: porters sorted and cut, changers newest first,
 * one per person, cut. */
static int ow_result(ow_track *t, size_t max, pd_own_result *r)
{
    size_t i, k;

    if (t->nporters)
        qsort(t->porters, t->nporters, sizeof(*t->porters), ow_porter_cmp);
    r->porters = t->porters;
    r->nporters = t->nporters < max ? t->nporters : max;
    t->porters = NULL;
    if (!(r->changers = calloc(max + 1, sizeof(*r->changers))))
        return pd_error_nomem(NULL);
    for (i = t->nchanges; i-- > 0 && r->nchangers < max;) {
        pd_own_ver v = {t->changes[i].who, t->changes[i].email, NULL, 0, NULL, 0};

        for (k = 0; k < r->nchangers; k++)
            if (ow_same(&r->changers[k], &v)) {
                r->changers[k].commits++;
                break;
            }
        if (k == r->nchangers)
            r->changers[r->nchangers++] = t->changes[i];
    }
    return 0;
}

/* Index of version w's functions by name: name -> first index + 1,
 * chained through next[] (in index order). */
static int ow_index(const pd_own_ver *w, pd_map **m, uint32_t **next)
{
    size_t i;

    *m = pd_map_new(PD_MAP_SEEDED);
    *next = calloc(w->nfns + 1, sizeof(**next));
    if (!*m || !*next)
        return pd_error_nomem(NULL);
    for (i = w->nfns; i-- > 0;) {
        const char *nm = w->fns[i].name;

        (*next)[i] = (uint32_t)(uintptr_t)pd_map_get(*m, nm, strlen(nm));
        if (pd_map_put(*m, nm, strlen(nm), (void *)(uintptr_t)(i + 1)) < 0)
            return pd_error_nomem(NULL);
    }
    return 0;
}

/* Match version cur to prev: pair[i] = the index in prev + 1, or 0. */
static int ow_match(const pd_own_ver *prev, const pd_own_ver *cur, uint32_t *pair)
{
    pd_map *m = NULL, *seen = NULL;
    uint32_t *next = NULL;
    size_t i;
    int rc;

    memset(pair, 0, cur->nfns * sizeof(*pair));
    if ((rc = ow_index(prev, &m, &next)) == 0 && !(seen = pd_map_new(PD_MAP_SEEDED)))
        rc = pd_error_nomem(NULL);
    for (i = 0; rc == 0 && i < cur->nfns; i++) {
        const char *nm = cur->fns[i].name;
        size_t len = strlen(nm);
        uintptr_t occ = (uintptr_t)pd_map_get(seen, nm, len);
        uint32_t k = (uint32_t)(uintptr_t)pd_map_get(m, nm, len);

        while (k && occ--)
            k = next[k - 1];
        pair[i] = k;
        if (pd_map_put(seen, nm, len, (void *)((uintptr_t)pd_map_get(seen, nm, len) + 1)) < 0)
            rc = pd_error_nomem(NULL);
    }
    pd_map_free(m);
    pd_map_free(seen);
    free(next);
    return rc;
}

static void ow_tracks_free(ow_track *t, size_t n)
{
    size_t i;

    for (i = 0; t && i < n; i++) {
        free(t[i].porters);
        free(t[i].changes);
    }
    free(t);
}

int pd_owners_compute(const pd_own_ver *v, size_t n, int baseline, size_t max,
                      pd_own_result **out)
{
    ow_track *tracks = NULL;
    size_t ntracks = 0, k, i;
    uint32_t *cur = NULL, *prevt = NULL, *pair = NULL;
    static const pd_own_ver empty = {"", "", "", 0, NULL, 0};
    int rc = 0;

    *out = NULL;
    if (!n)
        return 0;
    for (k = 0; rc == 0 && k < n; k++) {
        const pd_own_ver *w = &v[k], *pv = k ? &v[k - 1] : &empty;

        free(pair);
        pair = calloc(w->nfns + 1, sizeof(*pair));
        cur = calloc(w->nfns + 1, sizeof(*cur));
        if (!pair || !cur || (rc = ow_match(pv, w, pair)) < 0) {
            rc = rc ? rc : pd_error_nomem(NULL);
            break;
        }
        for (i = 0; rc == 0 && i < w->nfns; i++) {
            const pd_own_fn *f = &w->fns[i], *was = pair[i] ? &pv->fns[pair[i] - 1] : NULL;
            ow_track *t;

            if (was) {
                cur[i] = prevt[pair[i] - 1];
            } else {
                ow_track *nt = realloc(tracks, (ntracks + 1) * sizeof(*nt));

                if (!nt) {
                    rc = pd_error_nomem(NULL);
                    break;
                }
                tracks = nt;
                memset(&tracks[ntracks], 0, sizeof(*tracks));
                cur[i] = (uint32_t)ntracks++;
            }
            if (k == 0 && baseline)
                continue;           /* the walk started here: nobody's */
            t = &tracks[cur[i]];
            if (f->hpy > (was ? was->hpy : 0))
                rc = ow_ported(t, w);
            if (rc == 0 && (!was || (f->changed < 0 ? was->print != f->print : f->changed)))
                rc = ow_push(&t->changes, &t->nchanges, w);
        }
        free(prevt);
        prevt = cur;
        cur = NULL;
    }
    if (rc == 0 && !(*out = calloc(v[n - 1].nfns + 1, sizeof(**out))))
        rc = pd_error_nomem(NULL);
    for (i = 0; rc == 0 && i < v[n - 1].nfns; i++)
        rc = ow_result(&tracks[prevt[i]], max, &(*out)[i]);
    if (rc < 0 && *out) {
        pd_owners_free(*out, v[n - 1].nfns);
        *out = NULL;
    }
    free(cur);
    free(prevt);
    free(pair);
    ow_tracks_free(tracks, ntracks);
    return rc;
}

void pd_owners_free(pd_own_result *r, size_t n)
{
    size_t i;

    for (i = 0; r && i < n; i++) {
        free(r[i].porters);
        free(r[i].changers);
    }
    free(r);
}
