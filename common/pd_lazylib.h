/*
 * pd_lazylib.h: shared libraries loaded on the first call of one of their
 * functions (common/lazylib.sh writes the calls' trampolines; the
 * Makefile's LAZY_LIBS names the libraries).  A start of `portdash` then
 * maps only what every command needs: libgit2 and its dependencies cost
 * about 12 ms of CPU per process on the development VM (issue 26).
 */
#ifndef PD_LAZYLIB_H
#define PD_LAZYLIB_H

#include <stddef.h>

/* One lazily loaded library, as common/lazylib.sh lays it out in data
 * (the field order is the generated assembly's). */
typedef struct pd_lazylib {
    const char *soname;             /* dlopen's argument, e.g. libgit2.so.1.5 */
    const char *const *names;       /* the n functions the program calls */
    void **ptrs;                    /* where each trampoline jumps: its
                                     * resolving stub, then the function */
    size_t n;
    size_t loaded;                  /* 1 once ptrs hold the functions */
} pd_lazylib;

/*
 * Load lib and point every entry of lib->ptrs at its function; called by
 * the trampolines' stubs on a first call, from any thread (serialised by a
 * mutex; a repeated call returns at once).  A library that cannot be
 * loaded, or lacks one of the names, ends the process at once (_exit:
 * no exit handler may call into it again) with status 127 and a message
 * naming the library and dlerror()'s reason: a program without its
 * libraries cannot go on, as when the dynamic linker fails at start.
 */
void pd_lazylib_resolve(pd_lazylib *lib);

#endif
