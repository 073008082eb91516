/*
 * api_calls.h: which of a commit's functions a call names (the frontier,
 * the plan: api_frontier.c, api_plan.c).
 *
 * The analyzer stores each function's name as it defines it (C++ names
 * qualified: `ns::g`, `kw::S::legacy_helper`) and each call's name as
 * written (`g`, `S::legacy_helper`).  A call of NAME from a function of
 * file F names:
 *   1. the definitions of NAME in F, if any, else those in every file
 *      (static functions of one name in several files all count);
 *   2. when no function is defined as NAME: the definitions whose
 *      qualified name ends with "::NAME", with the same preference for F,
 *      when that leaves one function.  A C function of C++ code
 *      (`extern "C"` inside a namespace: C calls it `g`) or a member
 *      called by its class (`S::legacy_helper` inside namespace `kw`);
 *      several would be a guess (`init` of many classes), so none.
 * Names defined nowhere (the C API, libc, macros) name nothing.
 */
#ifndef API_CALLS_H
#define API_CALLS_H

#include <stddef.h>
#include <stdint.h>

typedef struct api_calls api_calls;

/*
 * An index of n functions: names[i] (borrowed: they must outlive the
 * index) defined in file files[i] (any number naming a file).  *out is
 * freed with api_calls_free.  0 or PD_ENOMEM.
 */
int api_calls_new(api_calls **out, const char *const *names, const uint32_t *files, size_t n);

/*
 * Call fn(arg, i) for each function i the call name[0..len) names from a
 * function of file `file` (the rules above), in index order of the
 * definitions found; returns how many.
 */
size_t api_calls_resolve(const api_calls *c, const char *name, size_t len, uint32_t file,
                         void (*fn)(void *arg, uint32_t i), void *arg);

void api_calls_free(api_calls *c);

#endif
