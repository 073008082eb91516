/*
 * srv_listen.h: where the server listens and how many connections it may
 * hold: parsing of --listen, the loopback test behind the per-client
 * default, and the connection limit the process's file limit allows.
 */
#ifndef SRV_LISTEN_H
#define SRV_LISTEN_H

#include <stddef.h>
#include <sys/socket.h>

/*
 * Parse "HOST:PORT" (IPv4, "localhost" or [IPv6]) into *ss and *len.  0, or
 * PD_EINVAL with a message quoting `listen`.
 */
int srv_parse_listen(struct sockaddr_storage *ss, socklen_t *len, const char *listen);

/* 1 if the address is a loopback one (127/8, ::1). */
int srv_is_loopback(const struct sockaddr_storage *ss);

/*
 * The connection limit: `want` (0: 4096), lowered to what the process may
 * open.  Raises the soft RLIMIT_NOFILE to the hard one first, as the
 * default 1024 would be the real limit otherwise.
 */
size_t srv_connection_limit(size_t want);

#endif
