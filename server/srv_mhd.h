/*
 * srv_mhd.h: libmicrohttpd, loaded when the server first needs it.
 *
 * The program is not linked to libmicrohttpd: its dependencies (GnuTLS
 * and eight more libraries, with their constructors) cost every command
 * its start-up, a tenth of a pushed commit's `portdash ingest`, while
 * only `serve` answers HTTP.  The library is opened (dlopen) at the first
 * call of one of the functions below, under its ABI name
 * SRV_MHD_SONAME; the server files include this header in place of
 * <microhttpd.h> and call the MHD_ names as before (the macros below send
 * them here).  Types and constants are the header's, so a build against
 * another ABI fails to compile rather than misbehaving.
 */
#ifndef SRV_MHD_H
#define SRV_MHD_H

#include <stdint.h>

#include <microhttpd.h>

/* The library's soname (Debian's libmicrohttpd12, ABI 12). */
#ifndef SRV_MHD_SONAME
#define SRV_MHD_SONAME "libmicrohttpd.so.12"
#endif

/*
 * Open the library and find every function this file names, once per
 * process (later calls return the first result).  0, or PD_ERROR with a
 * message that names the library and what is missing.  srv_start calls
 * it first, so that a machine without the library gets that message
 * from `serve`; the other functions call it too and, should it fail
 * there, print the message and abort (none of them can run without the
 * library, and none is reached without a started daemon but in tests).
 */
int srv_mhd_load(void);

/* The same, from library file `soname` (tests: a missing library's
 * message); not once per process: each call loads anew. */
int srv_mhd_load_from(const char *soname);

struct MHD_Daemon *srv_mhd_start_daemon(unsigned int flags, uint16_t port,
                                        MHD_AcceptPolicyCallback apc, void *apc_cls,
                                        MHD_AccessHandlerCallback dh, void *dh_cls, ...);
void srv_mhd_stop_daemon(struct MHD_Daemon *daemon);
const union MHD_DaemonInfo *srv_mhd_get_daemon_info(struct MHD_Daemon *daemon,
                                                    enum MHD_DaemonInfoType type);
const union MHD_ConnectionInfo *srv_mhd_get_connection_info(struct MHD_Connection *c,
                                                            enum MHD_ConnectionInfoType type);
int srv_mhd_get_connection_values(struct MHD_Connection *c, enum MHD_ValueKind kind,
                                  MHD_KeyValueIterator it, void *it_cls);
const char *srv_mhd_lookup_connection_value(struct MHD_Connection *c,
                                            enum MHD_ValueKind kind, const char *key);
struct MHD_Response *srv_mhd_create_response_from_buffer(size_t size, void *buffer,
                                                         enum MHD_ResponseMemoryMode mode);
struct MHD_Response *srv_mhd_create_response_from_buffer_with_free_callback_cls(
    size_t size, void *buffer, MHD_ContentReaderFreeCallback crfc, void *crfc_cls);
enum MHD_Result srv_mhd_add_response_header(struct MHD_Response *r, const char *header,
                                            const char *content);
enum MHD_Result srv_mhd_queue_response(struct MHD_Connection *c, unsigned int status,
                                       struct MHD_Response *r);
void srv_mhd_destroy_response(struct MHD_Response *r);

#define MHD_start_daemon srv_mhd_start_daemon
#define MHD_stop_daemon srv_mhd_stop_daemon
#define MHD_get_daemon_info srv_mhd_get_daemon_info
#define MHD_get_connection_info srv_mhd_get_connection_info
#define MHD_get_connection_values srv_mhd_get_connection_values
#define MHD_lookup_connection_value srv_mhd_lookup_connection_value
#define MHD_create_response_from_buffer srv_mhd_create_response_from_buffer
#define MHD_create_response_from_buffer_with_free_callback_cls \
    srv_mhd_create_response_from_buffer_with_free_callback_cls
#define MHD_add_response_header srv_mhd_add_response_header
#define MHD_queue_response srv_mhd_queue_response
#define MHD_destroy_response srv_mhd_destroy_response

#endif
