/*
 * pd_lazylib.c: loading a library on the first call of one of its
 * functions (pd_lazylib.h; the trampolines are common/lazylib.sh's).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "pd_lazylib.h"

static pthread_mutex_t pd_lazylib_mu = PTHREAD_MUTEX_INITIALIZER;

void pd_lazylib_resolve(pd_lazylib *lib)
{
    void *h;
    size_t i;

    pthread_mutex_lock(&pd_lazylib_mu);
    if (__atomic_load_n(&lib->loaded, __ATOMIC_ACQUIRE)) {
        pthread_mutex_unlock(&pd_lazylib_mu);
        return;
    }
    /* RTLD_GLOBAL as if linked: a library loaded later may need its symbols. */
    h = dlopen(lib->soname, RTLD_NOW | RTLD_GLOBAL);
    for (i = 0; h && i < lib->n; i++) {
        void *f = dlsym(h, lib->names[i]);

        if (!f) {
            fprintf(stderr, "portdash: %s has no function %s\n", lib->soname,
                    lib->names[i]);
            _exit(127);
        }
        /* Other threads may jump through the pointer now: one store each. */
        __atomic_store_n(&lib->ptrs[i], f, __ATOMIC_RELEASE);
    }
    if (!h) {
        const char *why = dlerror();

        fprintf(stderr, "portdash: cannot load %s: %s\n", lib->soname, why ? why : "?");
        _exit(127);
    }
    __atomic_store_n(&lib->loaded, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&pd_lazylib_mu);
}
