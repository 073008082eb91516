/*
 * srv_mhd.c: libmicrohttpd loaded at the server's first need (see
 * srv_mhd.h).  The table is filled once (pthread_once) and read without
 * a lock afterwards: dlsym's pointers do not change.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pd_error.h"
#include "srv_mhd.h"

typedef struct {
    struct MHD_Daemon *(*start_daemon_va)(unsigned int, uint16_t, MHD_AcceptPolicyCallback,
                                          void *, MHD_AccessHandlerCallback, void *,
                                          va_list);
    void (*stop_daemon)(struct MHD_Daemon *);
    const union MHD_DaemonInfo *(*get_daemon_info)(struct MHD_Daemon *,
                                                   enum MHD_DaemonInfoType, ...);
    const union MHD_ConnectionInfo *(*get_connection_info)(struct MHD_Connection *,
                                                           enum MHD_ConnectionInfoType, ...);
    int (*get_connection_values)(struct MHD_Connection *, enum MHD_ValueKind,
                                 MHD_KeyValueIterator, void *);
    const char *(*lookup_connection_value)(struct MHD_Connection *, enum MHD_ValueKind,
                                           const char *);
    struct MHD_Response *(*create_response_from_buffer)(size_t, void *,
                                                        enum MHD_ResponseMemoryMode);
    struct MHD_Response *(*create_response_from_buffer_with_free_callback_cls)(
        size_t, void *, MHD_ContentReaderFreeCallback, void *);
    enum MHD_Result (*add_response_header)(struct MHD_Response *, const char *,
                                           const char *);
    enum MHD_Result (*queue_response)(struct MHD_Connection *, unsigned int,
                                      struct MHD_Response *);
    void (*destroy_response)(struct MHD_Response *);
} srv_mhd_fns;

static srv_mhd_fns mhd;
static pthread_once_t mhd_once = PTHREAD_ONCE_INIT;
static int mhd_rc;
static char mhd_err[512];

/* Each entry of the table, by the library's name for it. */
static const struct {
    const char *name;
    size_t offset;
} mhd_syms[] = {
#define SRV_MHD_SYM(field, sym) {#sym, offsetof(srv_mhd_fns, field)}
    SRV_MHD_SYM(start_daemon_va, MHD_start_daemon_va),
    SRV_MHD_SYM(stop_daemon, MHD_stop_daemon),
    SRV_MHD_SYM(get_daemon_info, MHD_get_daemon_info),
    SRV_MHD_SYM(get_connection_info, MHD_get_connection_info),
    SRV_MHD_SYM(get_connection_values, MHD_get_connection_values),
    SRV_MHD_SYM(lookup_connection_value, MHD_lookup_connection_value),
    SRV_MHD_SYM(create_response_from_buffer, MHD_create_response_from_buffer),
    SRV_MHD_SYM(create_response_from_buffer_with_free_callback_cls,
                MHD_create_response_from_buffer_with_free_callback_cls),
    SRV_MHD_SYM(add_response_header, MHD_add_response_header),
    SRV_MHD_SYM(queue_response, MHD_queue_response),
    SRV_MHD_SYM(destroy_response, MHD_destroy_response),
#undef SRV_MHD_SYM
};

/* Fill `t` from library `soname`; the message into err on failure. */
static int srv_mhd_fill(srv_mhd_fns *t, const char *soname, char *err, size_t n)
{
    void *lib = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
    size_t i;

    if (!lib) {
        const char *why = dlerror();

        snprintf(err, n, "cannot load %s, the HTTP library of `portdash serve` "
                 "(Debian package libmicrohttpd12): %s", soname, why ? why : "?");
        return -1;
    }
    for (i = 0; i < sizeof(mhd_syms) / sizeof(mhd_syms[0]); i++) {
        void *f = dlsym(lib, mhd_syms[i].name);

        if (!f) {
            snprintf(err, n, "%s has no function %s (libmicrohttpd too old?)", soname,
                     mhd_syms[i].name);
            dlclose(lib);
            return -1;
        }
        /* POSIX: a function pointer may be stored from dlsym's void *. */
        memcpy((char *)t + mhd_syms[i].offset, &f, sizeof(f));
    }
    /* The library stays loaded for the life of the process. */
    return 0;
}

static void srv_mhd_once(void)
{
    mhd_rc = srv_mhd_fill(&mhd, SRV_MHD_SONAME, mhd_err, sizeof(mhd_err));
}

int srv_mhd_load(void)
{
    pthread_once(&mhd_once, srv_mhd_once);
    return mhd_rc < 0 ? pd_error_set(PD_ERROR, "%s", mhd_err) : 0;
}

int srv_mhd_load_from(const char *soname)
{
    srv_mhd_fns t;
    char err[512];

    if (srv_mhd_fill(&t, soname, err, sizeof(err)) < 0)
        return pd_error_set(PD_ERROR, "%s", err);
    return 0;
}

/* The table, loaded; a failure here cannot be returned to the caller. */
static const srv_mhd_fns *srv_mhd(void)
{
    pthread_once(&mhd_once, srv_mhd_once);
    if (mhd_rc < 0) {
        fprintf(stderr, "portdash: %s\n", mhd_err);
        abort();
    }
    return &mhd;
}

struct MHD_Daemon *srv_mhd_start_daemon(unsigned int flags, uint16_t port,
                                        MHD_AcceptPolicyCallback apc, void *apc_cls,
                                        MHD_AccessHandlerCallback dh, void *dh_cls, ...)
{
    const srv_mhd_fns *t = srv_mhd();
    struct MHD_Daemon *d;
    va_list ap;

    va_start(ap, dh_cls);
    d = t->start_daemon_va(flags, port, apc, apc_cls, dh, dh_cls, ap);
    va_end(ap);
    return d;
}

void srv_mhd_stop_daemon(struct MHD_Daemon *daemon)
{
    srv_mhd()->stop_daemon(daemon);
}

const union MHD_DaemonInfo *srv_mhd_get_daemon_info(struct MHD_Daemon *daemon,
                                                    enum MHD_DaemonInfoType type)
{
    return srv_mhd()->get_daemon_info(daemon, type);
}

const union MHD_ConnectionInfo *srv_mhd_get_connection_info(struct MHD_Connection *c,
                                                            enum MHD_ConnectionInfoType type)
{
    return srv_mhd()->get_connection_info(c, type);
}

int srv_mhd_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind,
                                  MHD_KeyValueIterator it, void *it_cls)
{
    return srv_mhd()->get_connection_values(c, kind, it, it_cls);
}

const char *srv_mhd_lookup_connection_value(struct MHD_Connection *c,
                                            enum MHD_ValueKind kind, const char *key)
{
    return srv_mhd()->lookup_connection_value(c, kind, key);
}

struct MHD_Response *srv_mhd_create_response_from_buffer(size_t size, void *buffer,
                                                         enum MHD_ResponseMemoryMode mode)
{
    return srv_mhd()->create_response_from_buffer(size, buffer, mode);
}

struct MHD_Response *srv_mhd_create_response_from_buffer_with_free_callback_cls(
    size_t size, void *buffer, MHD_ContentReaderFreeCallback crfc, void *crfc_cls)
{
    return srv_mhd()->create_response_from_buffer_with_free_callback_cls(size, buffer, crfc,
                                                                         crfc_cls);
}

enum MHD_Result srv_mhd_add_response_header(struct MHD_Response *r, const char *header,
                                            const char *content)
{
    return srv_mhd()->add_response_header(r, header, content);
}

enum MHD_Result srv_mhd_queue_response(struct MHD_Connection *c, unsigned int status,
                                       struct MHD_Response *r)
{
    return srv_mhd()->queue_response(c, status, r);
}

void srv_mhd_destroy_response(struct MHD_Response *r)
{
    srv_mhd()->destroy_response(r);
}
