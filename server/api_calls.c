/*
 * api_calls.c: which of a commit's functions a call names (api_calls.h).
 */
#include <stdlib.h>
#include <string.h>

#include "api_calls.h"
#include "pd_error.h"
#include "pd_malloc.h"
#include "pd_map.h"

/* A chain link: function `fn`, then link `next` (0: none; links are 1-based). */
typedef struct {
    uint32_t fn, next;
} ac_link;

struct api_calls {
    const uint32_t *files;
    pd_map *exact, *tail;          /* name -> first link + 1 */
    ac_link *links;
    size_t nlinks, cap;
};

/* Prepend function i to the chain of key[0..len) in map m. */
static int ac_add(api_calls *c, pd_map *m, const char *key, size_t len, uint32_t i)
{
    uint32_t head = (uint32_t)(uintptr_t)pd_map_get(m, key, len);
    int rc;

    if ((rc = pd_grow((void **)&c->links, &c->cap, c->nlinks + 1, sizeof(*c->links), 256,
                      "indexing calls")) < 0)
        return rc;
    c->links[c->nlinks].fn = i;
    c->links[c->nlinks].next = head;
    c->nlinks++;
    return pd_map_put(m, key, len, (void *)(uintptr_t)c->nlinks) < 0 ? pd_error_nomem(NULL) : 0;
}

int api_calls_new(api_calls **out, const char *const *names, const uint32_t *files, size_t n)
{
    api_calls *c = calloc(1, sizeof(*c));
    size_t i;
    int rc = 0;

    *out = NULL;
    if (!c || !(c->exact = pd_map_new(PD_MAP_SEEDED)) || !(c->tail = pd_map_new(PD_MAP_SEEDED))) {
        api_calls_free(c);
        return pd_error_nomem(NULL);
    }
    c->files = files;
    for (i = 0; rc == 0 && i < n; i++) {
        const char *name = names[i], *p = name;

        rc = ac_add(c, c->exact, name, strlen(name), (uint32_t)i);
        /* every suffix after a "::": kw::S::f is also S::f and f */
        while (rc == 0 && (p = strstr(p, "::")) != NULL) {
            p += 2;
            if (*p)
                rc = ac_add(c, c->tail, p, strlen(p), (uint32_t)i);
        }
    }
    if (rc < 0) {
        api_calls_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* How many functions of chain `head` a caller in `file` names: those in
 * its file if any (*local 1), else all. */
static size_t ac_kept(const api_calls *c, uint32_t head, uint32_t file, int *local)
{
    size_t all = 0, here = 0;
    uint32_t k;

    for (k = head; k; k = c->links[k - 1].next) {
        all++;
        here += c->files[c->links[k - 1].fn] == file;
    }
    *local = here > 0;
    return here ? here : all;
}

size_t api_calls_resolve(const api_calls *c, const char *name, size_t len, uint32_t file,
                         void (*fn)(void *arg, uint32_t i), void *arg)
{
    uint32_t head = (uint32_t)(uintptr_t)pd_map_get(c->exact, name, len), k;
    int exact = head != 0, local;
    size_t n;

    /* no exact definition: the qualified ones by their tail */
    if (!exact && !(head = (uint32_t)(uintptr_t)pd_map_get(c->tail, name, len)))
        return 0;
    if ((n = ac_kept(c, head, file, &local)) != 1 && !exact)
        return 0;                   /* several by their tail would be a guess */
    for (k = head; k; k = c->links[k - 1].next)
        if (!local || c->files[c->links[k - 1].fn] == file)
            fn(arg, c->links[k - 1].fn);
    return n;
}

void api_calls_free(api_calls *c)
{
    if (!c)
        return;
    pd_map_free(c->exact);
    pd_map_free(c->tail);
    free(c->links);
    free(c);
}
